// The approval's document content, built with the DOM (text only through textContent: nothing a
// request carries can become markup, nor can a translation) from a Review, its own texts in the
// frame's language (i18n/i18n.ts).

import type { Review, Row } from '../review/review.ts';
import type { NetworkShown } from '../review/networks.ts';
import { t } from '../i18n/i18n.ts';

export interface Header {
  /** The embedding page's origin, as the browser reported it. */
  origin: string;
  email: string | null;
  address: string;
  network: NetworkShown;
  method: string;
  /** Requests waiting behind this one. */
  queued: number;
}

export interface ApprovalView {
  root: HTMLElement;
  heading: HTMLElement;
  approve: HTMLButtonElement;
  reject: HTMLButtonElement;
  /** Says why Approve waits, or that it is ready. */
  hint: HTMLElement;
  setQueued(n: number): void;
}

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const ISOLATE_OPEN = new Set(['\u2066', '\u2067', '\u2068']);
const ISOLATE_CLOSE = '\u2069';
const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const LETTER = /\p{L}/u;

/**
 * The direction of `text` by its first strong character outside isolates (as the Unicode bidi
 * algorithm finds a paragraph's: a translated text's values are isolated by t()), or null when it
 * has none (digits only). HTML's `dir="auto"` would look inside the isolates too.
 */
export function textDirection(text: string): 'ltr' | 'rtl' | null {
  let depth = 0;
  for (const ch of text) {
    if (ISOLATE_OPEN.has(ch)) depth++;
    else if (ch === ISOLATE_CLOSE) depth = Math.max(0, depth - 1);
    else if (depth === 0 && RTL_CHAR.test(ch)) return 'rtl';
    else if (depth === 0 && LETTER.test(ch)) return 'ltr';
  }
  return null;
}

/**
 * A value as shown in a row, in its own direction (isolated), so that an address, an amount or a
 * site's text reads as written in a right-to-left page and a translated one as its language
 * reads, the row keeping the page's direction.
 */
function value(doc: Document, text: string): HTMLElement {
  const dd = el(doc, 'dd');
  const span = el(doc, 'span', undefined, text);
  const dir = textDirection(text);
  if (dir) span.dir = dir;
  dd.append(span);
  return dd;
}

function rows(doc: Document, list: Row[], cls = 'rows'): HTMLElement {
  const dl = el(doc, 'dl', cls);
  for (const [k, v] of list) {
    const row = el(doc, 'div', 'row');
    row.append(el(doc, 'dt', undefined, k), value(doc, v));
    dl.append(row);
  }
  return dl;
}

/** The approval's title for `method`. */
function title(method: string): string {
  switch (method) {
    case 'personal_sign':
    case 'solana_signMessage':
      return t('Sign message');
    case 'eth_signTypedData_v4':
      return t('Sign typed data');
    case 'eth_sendTransaction':
    case 'solana_signAndSendTransaction':
      return t('Send transaction');
    case 'wallet_sendCalls':
      return t('Send transactions');
    case 'solana_signTransaction':
      return t('Sign transaction');
    default:
      return t('Approve');
  }
}

/** What the site asks, `{origin}` standing for the site. */
function asks(review: Review): string {
  switch (review.kind) {
    case 'message':
      return t('{origin} asks you to sign this message.');
    case 'typedData':
      return t('{origin} asks you to sign this data.');
    case 'transactions':
      return review.calls.length > 1 ? t('{origin} asks you to send {n} transactions.', { n: review.calls.length }) : t('{origin} asks you to send this transaction.');
    case 'solana':
      return t('{origin} asks you to sign this transaction.');
  }
}

function details(doc: Document, review: Review): HTMLElement {
  const section = el(doc, 'section', 'details');
  section.setAttribute('aria-label', t('What you sign'));
  switch (review.kind) {
    case 'message': {
      section.append(el(doc, 'h2', undefined, review.text !== null ? t('Message') : t('Message (not text: its bytes in hex)')));
      const pre = el(doc, 'pre', 'block', review.text ?? review.hex ?? '');
      pre.dataset.field = 'message';
      pre.dir = review.text !== null ? 'auto' : 'ltr';
      pre.tabIndex = 0;
      section.append(pre);
      break;
    }
    case 'typedData': {
      section.append(el(doc, 'h2', undefined, t('Domain')), rows(doc, review.domain));
      const primary = el(doc, 'h2', undefined, review.primaryType);
      primary.dir = 'auto';
      section.append(primary, rows(doc, review.fields));
      if (review.more > 0) section.append(el(doc, 'p', 'note', t('and {n} more fields', { n: review.more })));
      break;
    }
    case 'transactions':
      review.calls.forEach((c, i) => {
        const box = el(doc, 'div', 'tx');
        box.dataset.field = 'transaction';
        if (review.calls.length > 1) box.append(el(doc, 'h2', undefined, t('Transaction {i} of {n}', { i: i + 1, n: review.calls.length })));
        const list: Row[] = [
          [t('To'), c.to ?? t('New contract')],
          [t('Value'), c.value],
        ];
        if (c.call) list.push([t('Function'), c.call.name], ...c.call.rows);
        else if (c.data) list.push([t('Data'), t('{bytes} bytes: {preview}', { bytes: c.data.bytes, preview: c.data.preview })]);
        box.append(rows(doc, list), rows(doc, c.fee, 'rows fee'));
        section.append(box);
      });
      section.append(rows(doc, [[t('Total'), review.total]], 'rows total'));
      break;
    case 'solana':
      review.instructions.forEach((ix) => {
        const box = el(doc, 'div', 'tx');
        box.dataset.field = 'instruction';
        box.append(el(doc, 'h2', undefined, ix.name), rows(doc, ix.rows));
        section.append(box);
      });
      section.append(rows(doc, review.fee, 'rows fee'), rows(doc, [[t('Total'), review.total]], 'rows total'));
      break;
  }
  return section;
}

/** The approval for `review` under `header`, ready to be attached. */
export function approvalView(doc: Document, review: Review, header: Header): ApprovalView {
  const root = el(doc, 'main', 'approval');
  root.dataset.kind = review.kind;
  root.setAttribute('aria-labelledby', 'wm-approval-title');
  const heading = el(doc, 'h1', 'title', title(header.method));
  heading.id = 'wm-approval-title';
  heading.tabIndex = -1;
  const who = el(doc, 'p', 'who');
  const site = el(doc, 'strong', 'origin', header.origin);
  site.dataset.field = 'origin';
  site.dir = 'ltr';
  // The sentence in the language's word order, the site where its `{origin}` is.
  const [before, ...after] = asks(review).split('{origin}');
  if (before) who.append(doc.createTextNode(before));
  who.append(site);
  if (after.length > 0) who.append(doc.createTextNode(after.join('')));
  const net = header.network;
  const params = { network: net.name, chainId: net.chainId };
  const meta = rows(doc, [
    [t('Account'), header.email ? `${header.email}\n${header.address}` : header.address],
    [t('Network'), net.namedBySite ? t('{network} (named by the site) · chain {chainId}', params) : t('{network} · chain {chainId}', params)],
  ], 'rows meta');
  // What is asked comes first (warnings, then what is signed), who and where after it: in a small
  // frame the visitor sees what matters without scrolling.
  root.append(heading, who);
  if (review.warnings.length > 0) {
    const ul = el(doc, 'ul', 'warnings');
    for (const w of review.warnings) {
      const li = el(doc, 'li', 'warning', w);
      ul.append(li);
    }
    ul.dataset.field = 'warnings';
    root.append(ul);
  }
  root.append(details(doc, review), meta);
  const queued = el(doc, 'p', 'note queued');
  const actions = el(doc, 'div', 'actions');
  const reject = el(doc, 'button', 'button secondary', t('Reject'));
  reject.type = 'button';
  const approve = el(doc, 'button', 'button primary', t('Approve'));
  approve.type = 'button';
  approve.disabled = true;
  const hint = el(doc, 'p', 'hint');
  hint.id = 'wm-approval-hint';
  hint.setAttribute('aria-live', 'polite');
  approve.setAttribute('aria-describedby', hint.id);
  actions.append(reject, approve);
  // The decision stays in view at the bottom of the frame while the details scroll above it.
  const footer = el(doc, 'div', 'footer');
  footer.append(queued, actions, hint);
  root.append(footer);
  const setQueued = (n: number) => {
    queued.textContent = n > 0 ? t('{n} more waiting', { n }) : '';
    queued.hidden = n === 0;
  };
  setQueued(header.queued);
  return { root, heading, approve, reject, hint, setQueued };
}
