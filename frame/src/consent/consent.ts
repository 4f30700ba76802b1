// The approval in the frame's own document: the only place where the visitor approves a signature.
// It shows what is signed, tells the modal to show the frame (`@w3m-frame/APPROVAL_VIEW`, with the
// height it needs), and resolves true only for a real click (or key press) on Approve inside this
// document — `isTrusted`, with user activation — once the visibility gate is open. Nothing the
// embedding page posts can approve: no message does.

import { FRAME_PREFIX } from '../messages.ts';
import { hasVisibilityTracking, visibilityGate, type Gate, type GateEnv } from './gate.ts';
import { language, t } from '../i18n/i18n.ts';
import { applyTheme, type ThemePayload } from './theme.ts';
import { approvalView, type ApprovalView, type Header } from './view.ts';
import type { Review } from '../review/review.ts';

export const APPROVAL_VIEW = `${FRAME_PREFIX}APPROVAL_VIEW`;
export const FOCUS_OUT = `${FRAME_PREFIX}FOCUS_OUT`;

export interface Consent {
  /** Shows `review`; true once the visitor approved it here, false when rejected or `signal` aborts. */
  ask(review: Review, header: Header, signal: AbortSignal): Promise<boolean>;
  /** After approval: the buttons off, `text` on Approve ('Sending…'). */
  busy(text: string): void;
  /** The approval is over: the content goes, and the modal hears it. */
  close(): void;
  setQueued(n: number): void;
  theme(t: ThemePayload): void;
}

/** Why Approve waits, or that it is ready (in the frame's language, read when shown). */
const WAITING_HINT = () => t('Approve becomes available once this window has been fully visible for a moment.');
const READY_HINT = () => t('Check the details above before you approve.');
const HIDDEN_HINT = () => t('Approve is off while this window is covered or not fully visible.');

/** The consent of the frame's document `doc` in window `win`; `post` reaches the embedding page. */
export function createConsent(doc: Document, win: Window, post: (message: unknown) => void, gateEnv?: Partial<GateEnv>): Consent {
  let current: { view: ApprovalView; gate: Gate; resize: ResizeObserver | null; height: number; decide: (v: boolean) => void; decided: boolean } | null = null;
  let theme: ThemePayload = { themeMode: null, themeVariables: {} };
  let wasOpen = false;

  const env: GateEnv = {
    IntersectionObserver: (win as unknown as typeof globalThis).IntersectionObserver,
    tracksVisibility: hasVisibilityTracking(),
    now: () => performance.now(),
    setTimeout: (fn, ms) => win.setTimeout(fn, ms),
    clearTimeout: (timer) => win.clearTimeout(timer as number),
    pageVisible: () => doc.visibilityState === 'visible',
    sizeAsAsked: () => current !== null && win.innerWidth >= 240 && win.innerHeight >= Math.min(current.height, 240),
    ...gateEnv,
  };

  const announce = (open: boolean, height = 0, method: string | null = null) =>
    post({ type: APPROVAL_VIEW, payload: open ? { open: true, height, method } : { open: false } });

  const measure = (v: ApprovalView) => Math.ceil(v.root.getBoundingClientRect().height);

  const onVisibility = () => current?.gate.recheck();
  /** The modal sized the frame: an approval not yet seen starts at its top. */
  const onResize = () => {
    if (current && !current.gate.open) win.scrollTo(0, 0);
    current?.gate.recheck();
  };

  /** Focus came into the frame from the modal: start at the title (screen readers read it). */
  const onFocus = () => {
    if (current && (doc.activeElement === null || doc.activeElement === doc.body)) current.view.heading.focus({ preventScroll: true });
  };

  const tabbables = (v: ApprovalView): HTMLElement[] =>
    Array.from(v.root.querySelectorAll<HTMLElement>('button, [tabindex="0"]')).filter((e) => !(e as HTMLButtonElement).disabled && !e.closest('[hidden]'));

  const onKey = (e: KeyboardEvent) => {
    if (!current) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      if (!current.decided) current.decide(false);
      return;
    }
    if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
    const list = tabbables(current.view);
    const at = list.indexOf(doc.activeElement as HTMLElement);
    // Past either end, focus goes back to the modal around the frame.
    if ((!e.shiftKey && at === list.length - 1) || (e.shiftKey && at <= 0)) {
      e.preventDefault();
      // Focus coming back later starts at the title again, not on the control it left from.
      (doc.activeElement as HTMLElement | null)?.blur?.();
      post({ type: FOCUS_OUT, payload: { backwards: e.shiftKey } });
    }
  };

  win.addEventListener('focus', onFocus);
  doc.addEventListener('keydown', onKey);
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('resize', onResize);

  function close(): void {
    if (!current) return;
    const c = current;
    current = null;
    c.gate.stop();
    c.resize?.disconnect();
    if (!c.decided) c.decide(false);
    c.view.root.remove();
    if (wasOpen) announce(false);
    wasOpen = false;
  }

  return {
    ask(review, header, signal) {
      close();
      return new Promise<boolean>((resolve) => {
        if (signal.aborted) return resolve(false);
        // The document in the frame's language (set before anything is drawn): `lang`, and `dir`
        // for a right-to-left one.
        const { lang, dir } = language();
        doc.documentElement.lang = lang;
        doc.documentElement.dir = dir;
        const view = approvalView(doc, review, header);
        applyTheme(doc.documentElement, theme);
        doc.body.append(view.root);
        const state = {
          view,
          gate: null as unknown as Gate,
          resize: null as ResizeObserver | null,
          height: 0,
          decided: false,
          decide: (v: boolean) => {
            if (state.decided) return;
            state.decided = true;
            signal.removeEventListener('abort', onAbort);
            view.approve.disabled = true;
            resolve(v);
          },
        };
        const onAbort = () => state.decide(false);
        signal.addEventListener('abort', onAbort);
        view.hint.textContent = WAITING_HINT();
        let openedOnce = false;
        // With occlusion tracking, the whole approval must be unobscured; without it, only what can be
        // checked: the decision (kept in view at the frame's bottom) wholly on screen.
        state.gate = visibilityGate(env.tracksVisibility ? [view.root, view.approve] : [view.approve], env, (open) => {
          if (state.decided) return;
          view.approve.disabled = !open;
          view.hint.textContent = open ? READY_HINT() : openedOnce ? HIDDEN_HINT() : WAITING_HINT();
          if (open) openedOnce = true;
        });
        view.approve.addEventListener('click', (e) => {
          // Only the visitor: a real click or key press in this document, while the gate is open.
          if (!e.isTrusted) return;
          const activation = (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation;
          if (activation && !activation.isActive) return;
          if (!state.gate.open) return;
          state.decide(true);
        });
        view.reject.addEventListener('click', () => state.decide(false));
        current = state;
        state.height = measure(view);
        wasOpen = true;
        announce(true, state.height, header.method);
        if (typeof ResizeObserver !== 'undefined') {
          state.resize = new ResizeObserver(() => {
            if (current !== state) return;
            const h = measure(view);
            if (h !== state.height) {
              state.height = h;
              announce(true, h, header.method);
            }
          });
          state.resize.observe(view.root);
        }
        win.scrollTo(0, 0);
        if (doc.hasFocus()) view.heading.focus({ preventScroll: true });
      });
    },
    busy(text) {
      if (!current) return;
      current.view.approve.disabled = true;
      current.view.reject.disabled = true;
      current.view.approve.textContent = text;
      current.view.hint.textContent = '';
    },
    close,
    setQueued(n) {
      current?.view.setQueued(n);
    },
    theme(next) {
      theme = next;
      applyTheme(doc.documentElement, next);
    },
  };
}
