/**
 * Shared helpers for the view tests: fake snapshots, a real shadow root to mount into, a poller
 * for React 19's asynchronous commits and key presses dispatched where the browser would.
 */
import type { AccountView, ViewIntent as Intent, ViewSnapshot as Snapshot } from '../../../element/ts/protocol';
import { mountViews } from '../../../react-views/index.tsx';

export type { Intent, Snapshot };

/** A 1×1 SVG that loads. */
export const GOOD_IMAGE =
  'data:image/svg+xml,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="red"/></svg>');
/** Claims to be a PNG but isn't: the image errors. */
export const BROKEN_IMAGE = 'data:image/png;base64,AAAAAAAA';
/** Connection refused on the discard port: errors (or never loads within the timeout). */
export const NEVER_IMAGE = 'http://127.0.0.1:9/never.png';

export function makeSnapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  const base: Snapshot = {
    open: true,
    embedded: false,
    loading: false,
    shake: false,
    view: 'Connect',
    title: 'Connect Wallet',
    canGoBack: false,
    canClose: true,
    themeMode: 'light',
    connectMethods: ['wallet'],
    socials: [],
    connectors: [
      { id: 'io.metamask', name: 'MetaMask', icon: GOOD_IMAGE, kind: 'injected', installed: true },
      { id: 'com.coinbase', name: 'Coinbase Wallet', icon: null, kind: 'recent', installed: false },
      { id: 'walletConnect', name: 'WalletConnect', icon: null, kind: 'walletConnect', installed: false },
    ],
    status: { eip155: 'disconnected' },
    connection: null,
    account: null,
    network: null,
    networks: [],
    connecting: null,
    switching: null,
    allWallets: { items: [], count: 0, query: '', loading: false, hasMore: false, error: null },
    configError: null,
    imagePreloadTimeoutMs: 2000,
    banner: null,
    walletRequest: null,
    walletFeatures: [],
  };
  return { ...base, ...overrides };
}

export const ETHEREUM = {
  caipNetworkId: 'eip155:1',
  name: 'Ethereum',
  namespace: 'eip155' as const,
  symbol: 'ETH',
  testnet: false,
  active: true,
  imageUrl: null,
};
export const POLYGON = { ...ETHEREUM, caipNetworkId: 'eip155:137', name: 'Polygon', symbol: 'POL', active: false };
export const ARBITRUM = { ...ETHEREUM, caipNetworkId: 'eip155:42161', name: 'Arbitrum', active: false };

export function makeAccount(overrides: Partial<AccountView> = {}): AccountView {
  return {
    namespace: 'eip155',
    address: '0x1234567890abcdef1234567890abcdef12345678',
    caipAddress: 'eip155:1:0x1234567890abcdef1234567890abcdef12345678',
    shortAddress: '0x12...345678',
    avatar: ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff'],
    balance: '1.234',
    balanceSymbol: 'ETH',
    balanceNote: null,
    canSend: true,
    connectorId: 'io.metamask',
    explorerUrl: 'https://etherscan.io/address/0x1234567890abcdef1234567890abcdef12345678',
    ...overrides,
  };
}

export function makeWallets(n: number, start = 0) {
  return Array.from({ length: n }, (_, i) => ({
    id: `wallet-${start + i}`,
    name: `Wallet ${start + i}`,
    imageUrl: null,
    installed: (start + i) % 5 === 0,
  }));
}

/**
 * Poll until `fn` returns a truthy value without throwing (React 19 commits asynchronously).
 * Rejects with the last error / a message after `timeout` ms.
 */
export async function waitFor<T>(
  fn: () => T | null | undefined | false,
  opts: { timeout?: number; message?: string } = {},
): Promise<T> {
  const timeout = opts.timeout ?? 2000;
  const start = performance.now();
  let lastError: unknown = null;
  for (;;) {
    try {
      const v = fn();
      if (v) return v;
      lastError = null;
    } catch (e) {
      lastError = e;
    }
    if (performance.now() - start > timeout) {
      if (lastError) throw lastError;
      throw new Error(`waitFor timed out${opts.message ? `: ${opts.message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Resolve after `ms` (used to prove something did NOT happen). */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Give React time to commit and run effects. Timers only (no requestAnimationFrame): a background
 * tab, when test files run in parallel, never renders frames.
 */
export async function settle(): Promise<void> {
  await sleep(0);
  await sleep(20);
}

export interface Mounted {
  host: HTMLElement;
  shadow: ShadowRoot;
  intents: Intent[];
  render(s: Snapshot): void;
  $<E extends Element = HTMLElement>(selector: string): E | null;
  $$<E extends Element = HTMLElement>(selector: string): E[];
  /** Wait for an element to appear in the shadow root. */
  find<E extends Element = HTMLElement>(selector: string, timeout?: number): Promise<E>;
  unmount(): void;
}

const mounted: Mounted[] = [];

/** Mount the views into a fresh open shadow root attached to a div in the document body. */
export function mount(snapshot?: Snapshot): Mounted {
  const host = document.createElement('div');
  host.className = 'test-host';
  document.body.appendChild(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const intents: Intent[] = [];
  const views = mountViews(shadow, { onIntent: (i) => intents.push(i) });
  const m: Mounted = {
    host,
    shadow,
    intents,
    render: (s) => views.render(s),
    $: (sel) => shadow.querySelector(sel),
    $$: (sel) => Array.from(shadow.querySelectorAll(sel)),
    find: (sel, timeout) => waitFor(() => shadow.querySelector(sel) as never, { timeout, message: `no ${sel}` }),
    unmount: () => {
      views.unmount();
      host.remove();
    },
  };
  mounted.push(m);
  if (snapshot) m.render(snapshot);
  return m;
}

/** Unmount everything mounted by `mount()` (call from afterEach). */
export function cleanup(): void {
  while (mounted.length) {
    const m = mounted.pop()!;
    if (m.host.isConnected) m.unmount();
  }
  document.body.querySelectorAll('.test-outside').forEach((el) => el.remove());
}

/** The focused element, following open shadow roots. */
export function activeDeep(): Element | null {
  let el: Element | null = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** Dispatch a keydown where a real key press would go: on the deep focused element. */
export function press(key: string, opts: { shiftKey?: boolean; target?: Element } = {}): KeyboardEvent {
  const target = opts.target ?? activeDeep() ?? document.body;
  const ev = new KeyboardEvent('keydown', {
    key,
    code: key,
    shiftKey: !!opts.shiftKey,
    bubbles: true,
    composed: true,
    cancelable: true,
  });
  target.dispatchEvent(ev);
  return ev;
}

/** Set an input's value the way a user would, so React's onChange fires. */
export function typeInto(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

export function text(el: Element | null | undefined): string {
  return (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * A short description of a node, unique per node (a serial number), for assertions. Never hand DOM nodes to chai:
 * when such an assertion fails, serialising the node for the report hangs the test runner.
 */
const serials = new WeakMap<Node, number>();
let nextSerial = 1;
export function ident(node: Node | null | undefined): string {
  if (node === null) return 'null';
  if (node === undefined) return 'undefined';
  if (!serials.has(node)) serials.set(node, nextSerial++);
  const serial = `#${serials.get(node)}`;
  if (!(node instanceof Element)) return `${node.nodeName}${serial}`;
  const attrs = ['data-id', 'data-connector-id', 'data-network-id', 'data-wallet-id', 'aria-label', 'part', 'class', 'type']
    .map((a) => (node.hasAttribute(a) ? `${a}="${node.getAttribute(a)}"` : ''))
    .filter(Boolean)
    .join(' ');
  const label = (node.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
  return `<${node.localName}${serial}${attrs ? ' ' + attrs : ''}>${label}`;
}

/** The engine's connection part for an account (what the Banner names the wallet by). */
export function makeConnection(account: AccountView = makeAccount()): NonNullable<Snapshot['connection']> {
  return { namespace: account.namespace, address: account.address, caipNetworkId: account.caipAddress.split(':').slice(0, 2).join(':'), connectorId: account.connectorId, connectorName: 'MetaMask' };
}
