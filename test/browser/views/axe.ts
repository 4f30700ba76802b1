/**
 * axe-core in the browser tests: every view the tests reach is checked, in light and dark, for
 * accessibility violations. axe walks open shadow roots, so running it on the document reaches the
 * views inside the element's (or the test host's) shadow root.
 */
import axe from 'axe-core';
import { expect } from '@esm-bundle/chai';

/** Rules enforced whatever their impact: the dialog must not add landmarks to the host page. */
const ALWAYS_ENFORCED = /^landmark-/;

/**
 * A host page the way a real site looks (language, title, its own banner and main landmarks), so
 * that page-level rules judge the component and not the bare test page. Idempotent.
 */
export function dressTestPage(): void {
  document.documentElement.lang ||= 'en';
  if (!document.title) document.title = 'wallet-modal test page';
  if (!document.querySelector('body > header.test-page-banner')) {
    const header = document.createElement('header');
    header.className = 'test-page-banner';
    header.textContent = 'Host site';
    const main = document.createElement('main');
    main.className = 'test-page-main';
    main.textContent = 'Host page content';
    document.body.prepend(header, main);
  }
}

/**
 * Waits until no finite animation or transition under `root` has run for a while (the views fade
 * and slide in, and the body's height follows its content: colours read mid-animation are blended
 * with the background, and a body caught mid-resize scrolls). Infinite ones (spinners) run on.
 */
export async function animationsDone(root: Document | ShadowRoot): Promise<void> {
  const running = () =>
    root.getAnimations().filter((a) => {
      const end = a.effect?.getComputedTiming().endTime;
      return typeof end === 'number' && Number.isFinite(end) && a.playState !== 'finished';
    });
  for (let quiet = 0, round = 0; quiet < 2 && round < 50; round++) {
    const now = running();
    quiet = now.length === 0 ? quiet + 1 : 0;
    await Promise.all(now.map((a) => a.finished.catch(() => undefined)));
    await new Promise((r) => setTimeout(r, 60));
  }
}

function describeViolation(v: axe.Result): string {
  const nodes = v.nodes.slice(0, 6).map((n) => {
    const data = n.any.find((c) => c.id === 'color-contrast')?.data as
      | { contrastRatio?: number; fgColor?: string; bgColor?: string; fontSize?: string; expectedContrastRatio?: string }
      | undefined;
    const contrast = data?.contrastRatio
      ? ` [${data.contrastRatio}:1, needs ${data.expectedContrastRatio}; ${data.fgColor} on ${data.bgColor}, ${data.fontSize}]`
      : '';
    const target = n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' , ');
    return `    ${target}${contrast}`;
  });
  return `${v.id} (${v.impact}): ${v.help}\n${nodes.join('\n')}`;
}

/**
 * Runs axe on the whole document (so the host page's landmarks count, and the views in shadow roots
 * are reached) and fails on any serious or critical violation, and on any landmark violation.
 * Returns the number of elements axe checked for colour contrast, so a caller can tell the check
 * saw something.
 */
export async function expectNoSeriousAxeViolations(root: ShadowRoot | Document, what: string): Promise<number> {
  dressTestPage();
  await animationsDone(root);
  const results = await axe.run(document, { resultTypes: ['violations', 'passes'] });
  const enforced = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || ALWAYS_ENFORCED.test(v.id));
  expect(enforced.map(describeViolation), `axe violations in ${what}`).to.deep.equal([]);
  const contrastChecked = results.passes.find((p) => p.id === 'color-contrast')?.nodes.length ?? 0;
  return contrastChecked;
}
