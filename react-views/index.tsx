import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { ViewIntent as Intent, ViewSnapshot as Snapshot } from '../element/ts/protocol';
import { App } from './shell/App';
import { css } from './shell/styles';
import { DynamicSheetContext, isLazySheet } from './shell/dynamic-styles';

export type { Intent, Snapshot };
export { createFocusTrap, getTabbables, deepActiveElement } from './shell/focus-trap';
export type { FocusTrap, FocusTrapOptions } from './shell/focus-trap';

export interface MountedViews {
  /**
   * Render a snapshot. React 19 commits asynchronously (the DOM updates shortly after), except
   * with `sync`, used when the modal opens: then the DOM is updated before this returns, so the
   * modal shows in the frame of the `open()` call.
   */
  render(s: Snapshot, sync?: boolean): void;
  /**
   * Unmount React, remove the container and the adopted stylesheets, the lazily adopted ones too: a
   * later mount in the same root (an embedded element moved in the page) adopts them again after
   * its own sheet, in the order they cascade in.
   */
  unmount(): void;
}

let sharedSheet: CSSStyleSheet | null = null;

/** One constructable stylesheet shared by every mount (adopting the same sheet twice is cheap). */
function stylesheet(): CSSStyleSheet {
  if (!sharedSheet) {
    sharedSheet = new CSSStyleSheet();
    sharedSheet.replaceSync(css);
  }
  return sharedSheet;
}

/**
 * Mount the views inside `root`. Styles are adopted through `root.adoptedStyleSheets` (no
 * `<style>` element, no style attributes), so this works under a strict CSP.
 */
export function mountViews(root: ShadowRoot, opts: { onIntent(intent: Intent): void }): MountedViews {
  const sheet = stylesheet();
  if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
  // Per-mount sheet for values computed at runtime (avatar colours, body height).
  const dynamicSheet = new CSSStyleSheet();
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, dynamicSheet];
  const container = document.createElement('div');
  container.className = 'wm-root';
  root.appendChild(container);
  const reactRoot: Root = createRoot(container);
  const onIntent = (intent: Intent) => opts.onIntent(intent);
  let mounted = true;

  return {
    render(s: Snapshot, sync = false) {
      if (!mounted) return;
      const tree = (
        <DynamicSheetContext value={dynamicSheet}>
          <App snapshot={s} onIntent={onIntent} />
        </DynamicSheetContext>
      );
      if (sync) flushSync(() => reactRoot.render(tree));
      else reactRoot.render(tree);
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      reactRoot.unmount();
      container.remove();
      root.adoptedStyleSheets = root.adoptedStyleSheets.filter((x) => x !== sheet && x !== dynamicSheet && !isLazySheet(x));
    },
  };
}
