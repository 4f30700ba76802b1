// The approval's document content, built with the DOM (text only through textContent: nothing a
// request carries can become markup) from a Review.

import type { Review, Row } from '../review/review.ts';
import type { NetworkShown } from '../review/networks.ts';

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

function rows(doc: Document, list: Row[], cls = 'rows'): HTMLElement {
  const dl = el(doc, 'dl', cls);
  for (const [k, v] of list) {
    const row = el(doc, 'div', 'row');
    row.append(el(doc, 'dt', undefined, k), el(doc, 'dd', undefined, v));
    dl.append(row);
  }
  return dl;
}

const TITLES: Record<string, string> = {
  personal_sign: 'Sign message',
  eth_signTypedData_v4: 'Sign typed data',
  eth_sendTransaction: 'Send transaction',
  wallet_sendCalls: 'Send transactions',
  solana_signMessage: 'Sign message',
  solana_signTransaction: 'Sign transaction',
  solana_signAndSendTransaction: 'Send transaction',
};

function asks(review: Review): string {
  switch (review.kind) {
    case 'message':
      return 'asks you to sign this message';
    case 'typedData':
      return 'asks you to sign this data';
    case 'transactions':
      return review.calls.length > 1 ? `asks you to send ${review.calls.length} transactions` : 'asks you to send this transaction';
    case 'solana':
      return 'asks you to sign this transaction';
  }
}

function details(doc: Document, review: Review): HTMLElement {
  const section = el(doc, 'section', 'details');
  section.setAttribute('aria-label', 'What you sign');
  switch (review.kind) {
    case 'message': {
      section.append(el(doc, 'h2', undefined, review.text !== null ? 'Message' : 'Message (not text: its bytes in hex)'));
      const pre = el(doc, 'pre', 'block', review.text ?? review.hex ?? '');
      pre.dataset.field = 'message';
      pre.tabIndex = 0;
      section.append(pre);
      break;
    }
    case 'typedData':
      section.append(el(doc, 'h2', undefined, 'Domain'), rows(doc, review.domain));
      section.append(el(doc, 'h2', undefined, review.primaryType), rows(doc, review.fields));
      if (review.more > 0) section.append(el(doc, 'p', 'note', `and ${review.more} more fields`));
      break;
    case 'transactions':
      review.calls.forEach((c, i) => {
        const box = el(doc, 'div', 'tx');
        box.dataset.field = 'transaction';
        if (review.calls.length > 1) box.append(el(doc, 'h2', undefined, `Transaction ${i + 1} of ${review.calls.length}`));
        const list: Row[] = [
          ['To', c.to ?? 'New contract'],
          ['Value', c.value],
        ];
        if (c.call) list.push(['Function', c.call.name], ...c.call.rows);
        else if (c.data) list.push(['Data', `${c.data.bytes} bytes: ${c.data.preview}`]);
        box.append(rows(doc, list), rows(doc, c.fee, 'rows fee'));
        section.append(box);
      });
      section.append(rows(doc, [['Total', review.total]], 'rows total'));
      break;
    case 'solana':
      review.instructions.forEach((ix) => {
        const box = el(doc, 'div', 'tx');
        box.dataset.field = 'instruction';
        box.append(el(doc, 'h2', undefined, ix.name), rows(doc, ix.rows));
        section.append(box);
      });
      section.append(rows(doc, review.fee, 'rows fee'), rows(doc, [['Total', review.total]], 'rows total'));
      break;
  }
  return section;
}

/** The approval for `review` under `header`, ready to be attached. */
export function approvalView(doc: Document, review: Review, header: Header): ApprovalView {
  const root = el(doc, 'main', 'approval');
  root.dataset.kind = review.kind;
  root.setAttribute('aria-labelledby', 'wm-approval-title');
  const heading = el(doc, 'h1', 'title', TITLES[header.method] ?? 'Approve');
  heading.id = 'wm-approval-title';
  heading.tabIndex = -1;
  const who = el(doc, 'p', 'who');
  const site = el(doc, 'strong', 'origin', header.origin);
  site.dataset.field = 'origin';
  who.append(site, doc.createTextNode(` ${asks(review)}.`));
  const net = header.network;
  const meta = rows(doc, [
    ['Account', header.email ? `${header.email}\n${header.address}` : header.address],
    ['Network', `${net.name}${net.namedBySite ? ' (named by the site)' : ''} · chain ${net.chainId}`],
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
  const reject = el(doc, 'button', 'button secondary', 'Reject');
  reject.type = 'button';
  const approve = el(doc, 'button', 'button primary', 'Approve');
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
    queued.textContent = n > 0 ? `${n} more waiting` : '';
    queued.hidden = n === 0;
  };
  setQueued(header.queued);
  return { root, heading, approve, reject, hint, setQueued };
}
