// When the Approve button may work: only after the approval has been on screen, unobscured, for a
// minimum time (like browsers' own permission prompts), and only while it still is. Where the
// browser tracks visibility (IntersectionObserver v2: Chromium), "unobscured" is the browser's
// word: no other content drawn over the frame, no opacity, filter or odd transform on it or any
// ancestor, in any document. Elsewhere the targets must be wholly inside the viewport and the
// page visible, and the frame's own size must be the one it asked the modal for.

/** The approval must have been visible this long before Approve works. */
export const MIN_VISIBLE_MS = 500;
/** IntersectionObserver v2's delay between visibility computations (its minimum is 100). */
const TRACK_DELAY_MS = 100;

export interface GateEnv {
  IntersectionObserver: typeof IntersectionObserver;
  /** Whether this browser computes `isVisible` (occlusion tracking). */
  tracksVisibility: boolean;
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (t: unknown) => void;
  /** Whether the page is shown (document.visibilityState === 'visible'). */
  pageVisible: () => boolean;
  /** Without occlusion tracking: whether the frame's viewport has the size the modal gave it. */
  sizeAsAsked: () => boolean;
}

export interface Gate {
  /** Whether Approve may work now. */
  readonly open: boolean;
  /** The page's visibility changed (visibilitychange), or the frame was resized. */
  recheck(): void;
  stop(): void;
}

/** Whether this browser has IntersectionObserver v2's `isVisible`. */
export function hasVisibilityTracking(): boolean {
  return typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype;
}

/** Watches `targets`; `onChange(open)` whenever the gate opens or closes. */
export function visibilityGate(targets: Element[], env: GateEnv, onChange: (open: boolean) => void, minVisibleMs = MIN_VISIBLE_MS): Gate {
  const seen = new Map<Element, boolean>(targets.map((t) => [t, false]));
  let visibleSince: number | null = null;
  let timer: unknown = null;
  let open = false;
  let stopped = false;

  const set = (next: boolean) => {
    if (next === open) return;
    open = next;
    onChange(open);
  };

  const evaluate = () => {
    if (stopped) return;
    const all = [...seen.values()].every(Boolean) && env.pageVisible() && (env.tracksVisibility || env.sizeAsAsked());
    if (!all) {
      visibleSince = null;
      if (timer !== null) env.clearTimeout(timer);
      timer = null;
      set(false);
      return;
    }
    if (visibleSince === null) visibleSince = env.now();
    const left = visibleSince + minVisibleMs - env.now();
    if (left <= 0) {
      set(true);
    } else if (timer === null) {
      timer = env.setTimeout(() => {
        timer = null;
        evaluate();
      }, left);
    }
  };

  const options: IntersectionObserverInit & { trackVisibility?: boolean; delay?: number } = env.tracksVisibility
    ? { threshold: [0, 1], trackVisibility: true, delay: TRACK_DELAY_MS }
    : { threshold: [0, 1] };
  const observer = new env.IntersectionObserver((entries) => {
    for (const e of entries) {
      const v2 = e as IntersectionObserverEntry & { isVisible?: boolean };
      const visible = env.tracksVisibility ? e.isIntersecting && v2.isVisible === true : e.isIntersecting && e.intersectionRatio >= 0.999;
      seen.set(e.target, visible);
    }
    evaluate();
  }, options);
  for (const t of targets) observer.observe(t);

  return {
    get open() {
      return open;
    },
    recheck: evaluate,
    stop() {
      stopped = true;
      observer.disconnect();
      if (timer !== null) env.clearTimeout(timer);
      timer = null;
      open = false;
    },
  };
}
