import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { ViewIntent as Intent, ViewSnapshot as Snapshot } from '../element/ts/protocol';
import { App } from './shell/App';
import { css } from './shell/styles';
import { DynamicSheetContext, isLazySheet } from './shell/dynamic-styles';
import { setCatalogue, setNumbers } from './shell/i18n';

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
   * The views' language (a BCP 47 tag; unsupported ones fall back to their language, then English):
   * resolves once its catalogue chunk is loaded and the last snapshot is rendered in it, with the
   * language chosen and its direction (`lang` and `dir` are set on the views' root). Amounts keep
   * the spec's en-US format unless `localNumbers` (the host's `number-format="locale"`).
   */
  setLocale(tag: string | null | undefined, localNumbers?: boolean): Promise<{ lang: string; dir: 'ltr' | 'rtl' }>;
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
  let last: Snapshot | null = null;
  let asked = 0;

  return {
    render(s: Snapshot, sync = false) {
      if (!mounted) return;
      last = s;
      const tree = (
        <DynamicSheetContext value={dynamicSheet}>
          <App snapshot={s} onIntent={onIntent} />
        </DynamicSheetContext>
      );
      if (sync) flushSync(() => reactRoot.render(tree));
      else reactRoot.render(tree);
    },
    async setLocale(tag, localNumbers) {
      // English (the views' own texts) needs nothing loaded; another language, its catalogue. The
      // last language asked for wins over an earlier one whose chunk arrives later.
      const mine = ++asked;
      const english = !tag || /^en(-|$)/i.test(tag);
      const locales = english && !localNumbers ? null : await import('./shell/locales');
      const chosen = english || !locales ? { lang: 'en', dir: 'ltr' as const, catalogue: null } : await locales.loadLocale(tag);
      if (mine === asked && mounted) {
        setCatalogue(chosen.catalogue);
        // The page's own format (its full tag: `en-IN`, `de-CH`), when it opted in.
        setNumbers(localNumbers && locales && tag ? locales.numbersIn(tag) : null);
        container.lang = chosen.lang;
        container.dir = chosen.dir;
        if (last) this.render(last, true);
      }
      return { lang: chosen.lang, dir: chosen.dir };
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
