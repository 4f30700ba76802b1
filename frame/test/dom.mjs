// A document just big enough for the frame's approval (frame/src/consent/) in Node, for
// test/node/frame-i18n.test.mjs: elements, text nodes, attributes, `textContent` (text only: this
// document parses no markup at all), listeners, and the few window members consent.ts reads. The
// approval in a real browser is tested in Chromium (test/browser/element/consent.test.ts).

class Node {
  constructor(doc) {
    this.ownerDocument = doc;
    this.parentNode = null;
    this.childNodes = [];
  }
  append(...nodes) {
    for (const n of nodes) {
      const node = typeof n === 'string' ? new Text(this.ownerDocument, n) : n;
      node.remove();
      node.parentNode = this;
      this.childNodes.push(node);
    }
  }
  remove() {
    if (!this.parentNode) return;
    const list = this.parentNode.childNodes;
    list.splice(list.indexOf(this), 1);
    this.parentNode = null;
  }
  get textContent() {
    return this.childNodes.map((c) => c.textContent).join('');
  }
  set textContent(v) {
    for (const c of [...this.childNodes]) c.remove();
    if (v !== '' && v !== null && v !== undefined) this.append(new Text(this.ownerDocument, String(v)));
  }
}

class Text extends Node {
  constructor(doc, data) {
    super(doc);
    this.data = data;
    this.nodeType = 3;
  }
  get textContent() {
    return this.data;
  }
  set textContent(v) {
    this.data = String(v);
  }
}

class Style {
  #props = new Map();
  setProperty(k, v) {
    this.#props.set(k, v);
  }
  removeProperty(k) {
    this.#props.delete(k);
  }
  getPropertyValue(k) {
    return this.#props.get(k) ?? '';
  }
}

/** `tag`, `.class`, `[name]` and `[name="value"]` (data-* read from `dataset`), joined; `a, b` for either. */
function matches(el, selector) {
  return selector.split(',').some((one) => {
    const s = one.trim();
    const tag = /^[a-z][a-z0-9]*/i.exec(s)?.[0];
    if (tag && el.tagName !== tag.toUpperCase()) return false;
    for (const [, cls] of s.matchAll(/\.([\w-]+)/g)) if (!el.className.split(/\s+/).includes(cls)) return false;
    for (const [, name, , value] of s.matchAll(/\[([\w-]+)(=(?:"([^"]*)"))?\]/g)) {
      const v = el.getAttribute(name);
      if (v === null || (value !== undefined && v !== value)) return false;
    }
    return true;
  });
}

class Element extends Node {
  constructor(doc, tag) {
    super(doc);
    this.tagName = tag.toUpperCase();
    this.nodeType = 1;
    this.attributes = new Map();
    this.dataset = {};
    this.style = new Style();
    this.listeners = new Map();
    this.hidden = false;
    this.disabled = false;
    this.tabIndex = -1;
    this.type = '';
  }
  setAttribute(k, v) {
    this.attributes.set(k, String(v));
  }
  getAttribute(k) {
    if (k.startsWith('data-')) {
      const key = k.slice(5).replace(/-(\w)/g, (_, c) => c.toUpperCase());
      return Object.hasOwn(this.dataset, key) ? String(this.dataset[key]) : null;
    }
    if (k === 'hidden') return this.hidden ? '' : null;
    if (k === 'tabindex') return String(this.tabIndex);
    return this.attributes.has(k) ? this.attributes.get(k) : null;
  }
  removeAttribute(k) {
    this.attributes.delete(k);
  }
  get className() {
    return this.attributes.get('class') ?? '';
  }
  set className(v) {
    this.setAttribute('class', v);
  }
  get id() {
    return this.attributes.get('id') ?? '';
  }
  set id(v) {
    this.setAttribute('id', v);
  }
  get dir() {
    return this.attributes.get('dir') ?? '';
  }
  set dir(v) {
    this.setAttribute('dir', v);
  }
  get lang() {
    return this.attributes.get('lang') ?? '';
  }
  set lang(v) {
    this.setAttribute('lang', v);
  }
  get children() {
    return this.childNodes.filter((c) => c instanceof Element);
  }
  /** Every element below this one, in document order. */
  *descendants() {
    for (const c of this.children) {
      yield c;
      yield* c.descendants();
    }
  }
  querySelectorAll(selector) {
    return [...this.descendants()].filter((e) => matches(e, selector));
  }
  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }
  closest(selector) {
    for (let e = this; e instanceof Element; e = e.parentNode) if (matches(e, selector)) return e;
    return null;
  }
  addEventListener(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(fn);
  }
  removeEventListener(type, fn) {
    const list = this.listeners.get(type) ?? [];
    if (list.includes(fn)) list.splice(list.indexOf(fn), 1);
  }
  dispatchEvent(event) {
    for (const fn of [...(this.listeners.get(event.type) ?? [])]) fn(event);
    return true;
  }
  /** A click as a script makes it (`isTrusted` false). */
  click() {
    if (!this.disabled) this.dispatchEvent({ type: 'click', isTrusted: false, target: this });
  }
  focus() {
    this.ownerDocument.activeElement = this;
  }
  blur() {
    if (this.ownerDocument.activeElement === this) this.ownerDocument.activeElement = this.ownerDocument.body;
  }
  getBoundingClientRect() {
    return { top: 0, left: 0, right: 360, bottom: 480, width: 360, height: 480 };
  }
}

/** A document and its window, for createConsent(doc, win, post, gateEnv). */
export function fakeDocument() {
  const doc = {
    visibilityState: 'visible',
    listeners: new Map(),
    createElement: (tag) => new Element(doc, tag),
    createTextNode: (data) => new Text(doc, data),
    hasFocus: () => false,
    addEventListener() {},
    removeEventListener() {},
  };
  doc.documentElement = new Element(doc, 'html');
  doc.documentElement.lang = 'en';
  const head = new Element(doc, 'head');
  doc.body = new Element(doc, 'body');
  doc.documentElement.append(head, doc.body);
  doc.activeElement = doc.body;
  const win = {
    innerWidth: 360,
    innerHeight: 600,
    addEventListener() {},
    removeEventListener() {},
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (t) => clearTimeout(t),
    scrollTo() {},
  };
  return { doc, win };
}

/** An IntersectionObserver that never reports: the visibility gate stays closed (Approve disabled). */
export class SilentIntersectionObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
