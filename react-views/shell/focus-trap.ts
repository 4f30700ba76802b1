/**
 * A focus trap that works across shadow DOM boundaries.
 *
 * - `activate()` remembers the deep active element (following `shadowRoot.activeElement` chains)
 *   and moves focus to the first tabbable element inside the container (or the container itself).
 * - Tab / Shift+Tab are fully managed: the next/previous tabbable is computed by walking the
 *   composed tree (nested open shadow roots and slotted content), so the order is the same whether
 *   the key press is real or synthetic, and it wraps at both ends.
 * - A `focusin` anywhere outside the container (seen on the document through `composedPath()`)
 *   pulls focus back to the last element focused inside, except on a satellite
 *   (`[data-wm-trap-satellite]`: the secure frame laid over the container from the body).
 * - Escape (keydown on the container) calls `onEscape` — the caller sends an intent, it doesn't decide.
 * - `deactivate()` restores focus to the remembered element when it is still connected.
 *
 * Only the most recently activated trap reacts, so nested traps behave.
 */

export interface FocusTrapOptions {
  /** Called on Escape pressed inside the container (or while focus was lost to the body). */
  onEscape?: () => void;
}

export interface FocusTrap {
  activate(): void;
  deactivate(): void;
  /** If focus is no longer inside the container (e.g. the focused node was removed), move it back in. */
  ensureFocus(): void;
  readonly active: boolean;
}

const stack: FocusTrapImpl[] = [];

/** The focused element, following open shadow roots down to the innermost one. */
export function deepActiveElement(doc: Document = document): Element | null {
  let el: Element | null = doc.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** Composed-tree parent: assigned slot first, then the parent node, then the shadow host. */
function composedParent(node: Node): Node | null {
  const slot = (node as Element | Text).assignedSlot;
  if (slot) return slot;
  if (node.parentNode) return node.parentNode;
  if (node instanceof ShadowRoot) return node.host;
  return null;
}

/** True when `node` is `container` or a descendant of it in the composed (flattened) tree. */
export function composedContains(container: Node, node: Node | null): boolean {
  for (let n: Node | null = node; n; n = composedParent(n)) {
    if (n === container) return true;
  }
  return false;
}

function isHiddenSubtree(el: Element): boolean {
  if ((el as HTMLElement).inert) return true;
  if (el instanceof HTMLElement && el.hidden) return true;
  return false;
}

function isVisible(el: Element): boolean {
  const anyEl = el as Element & { checkVisibility?: (o?: object) => boolean };
  if (typeof anyEl.checkVisibility === 'function') {
    return anyEl.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true });
  }
  if (el.getClientRects().length === 0) return false;
  return getComputedStyle(el).visibility !== 'hidden';
}

function isDisabled(el: Element): boolean {
  if ('disabled' in el && (el as HTMLButtonElement).disabled) return true;
  try {
    return el.matches(':disabled');
  } catch {
    return false;
  }
}

function isTabbable(el: Element): boolean {
  if (!(el instanceof HTMLElement || el instanceof SVGElement)) return false;
  const tabIndex = (el as HTMLElement).tabIndex;
  if (typeof tabIndex !== 'number' || tabIndex < 0) return false;
  // A shadow host that delegates focus is not itself a stop; its contents are walked instead.
  if (el.shadowRoot && el.shadowRoot.delegatesFocus) return false;
  // Elements that are focusable only because of their defaults but have no behaviour.
  if (el instanceof HTMLAnchorElement && !el.hasAttribute('href') && !el.hasAttribute('tabindex')) return false;
  if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
  if (isDisabled(el)) return false;
  return isVisible(el);
}

/**
 * Tabbable elements under `root`, in sequential focus order: positive tabindex first (ascending,
 * stable), then tabindex=0 in composed-tree order. Walks open shadow roots and slotted content,
 * skipping `hidden` / `inert` subtrees.
 */
export function getTabbables(root: Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  const visit = (el: Element, includeSelf: boolean) => {
    if (isHiddenSubtree(el)) return;
    if (includeSelf && isTabbable(el)) found.push(el as HTMLElement);
    let children: Element[];
    if (el.shadowRoot) {
      children = Array.from(el.shadowRoot.children);
    } else if (el instanceof HTMLSlotElement) {
      const assigned = el.assignedElements({ flatten: true });
      children = assigned.length > 0 ? assigned : Array.from(el.children);
    } else {
      children = Array.from(el.children);
    }
    for (const child of children) visit(child, true);
  };
  visit(root, false);
  const positive = found
    .map((el, i) => ({ el, i }))
    .filter(({ el }) => el.tabIndex > 0)
    .sort((a, b) => a.el.tabIndex - b.el.tabIndex || a.i - b.i)
    .map(({ el }) => el);
  return [...positive, ...found.filter((el) => el.tabIndex === 0)];
}

class FocusTrapImpl implements FocusTrap {
  active = false;
  #restoreTo: Element | null = null;
  #lastInside: HTMLElement | null = null;
  #addedTabIndex = false;

  readonly #container: HTMLElement;
  readonly #opts: FocusTrapOptions;

  constructor(container: HTMLElement, opts: FocusTrapOptions) {
    this.#container = container;
    this.#opts = opts;
  }

  activate(): void {
    if (this.active) return;
    this.active = true;
    const previous = deepActiveElement(this.#container.ownerDocument);
    this.#restoreTo = previous && !composedContains(this.#container, previous) ? previous : null;
    stack.push(this);
    this.#container.addEventListener('keydown', this.#onContainerKeydown);
    this.#container.ownerDocument.addEventListener('keydown', this.#onDocumentKeydown);
    this.#container.ownerDocument.addEventListener('focusin', this.#onFocusIn, true);
    this.#container.addEventListener('focusin', this.#onInsideFocusIn);
    if (!composedContains(this.#container, deepActiveElement(this.#container.ownerDocument))) {
      this.#focusFirst();
    }
  }

  deactivate(): void {
    if (!this.active) return;
    this.active = false;
    const i = stack.indexOf(this);
    if (i >= 0) stack.splice(i, 1);
    this.#container.removeEventListener('keydown', this.#onContainerKeydown);
    this.#container.ownerDocument.removeEventListener('keydown', this.#onDocumentKeydown);
    this.#container.ownerDocument.removeEventListener('focusin', this.#onFocusIn, true);
    this.#container.removeEventListener('focusin', this.#onInsideFocusIn);
    if (this.#addedTabIndex) {
      this.#container.removeAttribute('tabindex');
      this.#addedTabIndex = false;
    }
    const target = this.#restoreTo;
    this.#restoreTo = null;
    this.#lastInside = null;
    if (target && target.isConnected && typeof (target as HTMLElement).focus === 'function') {
      (target as HTMLElement).focus({ preventScroll: true });
    }
  }

  ensureFocus(): void {
    if (!this.active) return;
    if (!composedContains(this.#container, deepActiveElement(this.#container.ownerDocument))) {
      this.#focusContainer();
    }
  }

  get #isTop(): boolean {
    return stack[stack.length - 1] === this;
  }

  #focusContainer(): void {
    if (!this.#container.hasAttribute('tabindex')) {
      this.#container.setAttribute('tabindex', '-1');
      this.#addedTabIndex = true;
    }
    this.#container.focus({ preventScroll: true });
  }

  #focusFirst(): void {
    const [first] = getTabbables(this.#container);
    if (first) first.focus({ preventScroll: true });
    else this.#focusContainer();
  }

  #move(backwards: boolean): void {
    const tabbables = getTabbables(this.#container);
    if (tabbables.length === 0) {
      this.#focusContainer();
      return;
    }
    const current = deepActiveElement(this.#container.ownerDocument);
    const index = current ? tabbables.indexOf(current as HTMLElement) : -1;
    let next: HTMLElement;
    if (index === -1) {
      next = backwards ? tabbables[tabbables.length - 1] : tabbables[0];
    } else if (backwards) {
      next = tabbables[(index - 1 + tabbables.length) % tabbables.length];
    } else {
      next = tabbables[(index + 1) % tabbables.length];
    }
    next.focus({ preventScroll: true });
  }

  #handleKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.isComposing) return;
    if (e.key === 'Tab' && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      this.#move(e.shiftKey);
    } else if (e.key === 'Escape' || e.key === 'Esc') {
      e.preventDefault();
      this.#opts.onEscape?.();
    }
  }

  #onContainerKeydown = (e: KeyboardEvent) => {
    if (!this.#isTop) return;
    this.#handleKey(e);
  };

  /** Keys pressed while focus was lost to the body (the focused node was removed). */
  #onDocumentKeydown = (e: KeyboardEvent) => {
    if (!this.#isTop) return;
    if (e.composedPath().includes(this.#container)) return; // handled by the container listener
    const doc = this.#container.ownerDocument;
    const active = deepActiveElement(doc);
    if (active === null || active === doc.body || active === doc.documentElement) this.#handleKey(e);
  };

  #onInsideFocusIn = (e: FocusEvent) => {
    const target = e.composedPath()[0];
    if (target instanceof HTMLElement && target !== this.#container) this.#lastInside = target;
  };

  #onFocusIn = (e: FocusEvent) => {
    if (!this.#isTop) return;
    if (e.composedPath().includes(this.#container)) return;
    // A satellite of the container laid over it from outside (the secure frame's approval) is inside.
    const target = e.composedPath()[0];
    if (target instanceof Element && target.hasAttribute('data-wm-trap-satellite')) return;
    // Focus went outside: pull it back.
    const back = this.#lastInside;
    if (back && back.isConnected && composedContains(this.#container, back) && isTabbable(back)) {
      back.focus({ preventScroll: true });
    } else {
      this.#focusFirst();
    }
  };
}

export function createFocusTrap(container: HTMLElement, opts: FocusTrapOptions = {}): FocusTrap {
  return new FocusTrapImpl(container, opts);
}
