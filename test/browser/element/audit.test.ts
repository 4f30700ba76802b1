// What a user-like audit found, each checked in the real element build in Chromium: hostile
// wallets (EIP-6963 announcements and EIP-1193 answers nobody here wrote), bad stored values, the
// host API's edges, and the host's own requests through getProvider() on real anvil chains.
import { expect } from '@esm-bundle/chai';
import { byText, createModal, dialog, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';

const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

type Handler = (method: string, params: unknown) => unknown;

let announced = 0;
/** Announces an EIP-6963 wallet whose answers the test writes; returns its rdns. */
function announceWallet(name: string, handle: Handler, extra: Record<string, unknown> = {}): string {
  const n = ++announced;
  const rdns = `test.audit.wallet${n}`;
  const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  const provider = {
    ...extra,
    request: ({ method, params }: { method: string; params?: unknown }) => Promise.resolve().then(() => handle(method, params)),
    on: (e: string, fn: (...a: unknown[]) => void) => void (listeners.get(e) ?? listeners.set(e, new Set()).get(e)!).add(fn),
    removeListener: (e: string, fn: (...a: unknown[]) => void) => void listeners.get(e)?.delete(fn),
  };
  const info = { uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, name, icon: 'data:image/svg+xml;base64,PHN2Zy8+', rdns };
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  return rdns;
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json();
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
}

/** A wallet on anvil A answering like a real one, except where `override` says otherwise. */
async function anvilWallet(name: string, override: Partial<Record<string, Handler>> = {}, extra: Record<string, unknown> = {}) {
  const env = await testEnv();
  let chain = env.chains[0];
  return announceWallet(
    name,
    (method, params) => {
      const own = override[method];
      if (own) return own(method, params);
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [ACCOUNT0];
      if (method === 'eth_chainId') return `0x${chain.chainId.toString(16)}`;
      if (method === 'wallet_switchEthereumChain') {
        chain = env.chains.find((c) => `0x${c.chainId.toString(16)}` === (params as any)[0].chainId) ?? chain;
        return null;
      }
      return rpc(chain.rpcUrl, method, params as unknown[]);
    },
    extra,
  );
}

async function row(el: WalletModal, rdns: string): Promise<HTMLElement> {
  return waitFor(() => viewRoot(el)?.querySelector(`[data-connector-id="${rdns}"]`) as HTMLElement, `the ${rdns} row`);
}

async function connectTo(el: WalletModal, rdns: string) {
  await el.open();
  const connected = nextEvent(el, 'connect');
  (await row(el, rdns)).click();
  return (await connected).detail;
}

function collectErrors() {
  const seen: string[] = [];
  const onError = (e: ErrorEvent) => seen.push(`error: ${e.message}`);
  const onRejection = (e: PromiseRejectionEvent) => seen.push(`unhandled rejection: ${String(e.reason?.message ?? e.reason)}`);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return { seen, stop: () => (window.removeEventListener('error', onError), window.removeEventListener('unhandledrejection', onRejection)) };
}

describe('audit: hostile wallets, storage, host API edges and the host provider', function () {
  this.timeout(30_000);

  beforeEach(() => localStorage.clear());
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    localStorage.clear();
  });

  it('a wallet rejecting with an object whose getters throw ends the connection attempt with "Failed to connect"', async () => {
    const errors = collectErrors();
    const hostile = {};
    for (const k of ['code', 'message', 'data', 'stack', 'toString']) Object.defineProperty(hostile, k, { get() { throw new Error(`getter ${k}`); } });
    const rdns = announceWallet('Throwing Wallet', () => Promise.reject(hostile));
    const el = await createModal();
    await el.open();
    const failed = nextEvent(el, 'error');
    (await row(el, rdns)).click();
    expect((await failed).detail.message).to.equal('Failed to connect');
    await waitFor(() => byText(viewRoot(el), '[part~="error"]', 'Failed to connect'), 'the message shown');
    expect(el.getState().connecting.state).to.equal('error');
    await new Promise((r) => setTimeout(r, 50));
    errors.stop();
    expect(errors.seen, 'nothing reaches the host page').to.deep.equal([]);
  });

  it('a wallet answering with a lone UTF-16 surrogate gets an answer too', async () => {
    const rdns = announceWallet('Surrogate Wallet', (m) => (m === 'eth_requestAccounts' ? [`0x${'a'.repeat(39)}\ud800`] : '0x7a69'));
    const el = await createModal();
    await el.open();
    const failed = nextEvent(el, 'error');
    (await row(el, rdns)).click();
    expect((await failed).detail.message).to.equal('Failed to connect');
    expect(el.getState().view).to.equal('ConnectingExternal');
    expect(el.getState().title).to.equal('Connection failed');
  });

  it('a rejected connection is headed "Connection rejected", not "Connecting"', async () => {
    const rdns = announceWallet('Refusing Wallet', () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })));
    const el = await createModal();
    await el.open();
    (await row(el, rdns)).click();
    const title = () => dialog(el)?.querySelector('[part~="title"]')?.textContent;
    await waitFor(() => title() === 'Connection rejected', 'the heading of the rejected view');
    expect(byText(viewRoot(el), 'button', /try again/i), 'retry offered').to.not.equal(null);
  });

  it('the Connect view rendered ahead of open() requests nothing from a service, even with a recent catalogue wallet', async () => {
    const env = await testEnv();
    localStorage.setItem('@wallet-modal/recent_wallets', JSON.stringify(['c57ca95b47569778a828d19178114f4db188b89b29cc8a0e9b4f1de1d2e5e9a9']));
    const since = performance.now();
    const el = await createModal();
    // Wait until the views are mounted and the hidden Connect view is in the overlay.
    await waitFor(() => viewRoot(el)?.querySelector('[data-connector-id]'), 'the Connect view rendered ahead');
    await new Promise((r) => setTimeout(r, 300));
    const toServices = performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime >= since && e.name.startsWith(env.backendUrl))
      .map((e) => e.name);
    expect(toServices.join(' '), 'no request to the backend before open()').to.equal('');
    expect(el.getState().open).to.equal(false);
    await el.open();
    await waitFor(() => performance.getEntriesByType('resource').some((e) => e.name.startsWith(`${env.backendUrl}/getWallets`)), 'the catalogue asked for after open()');
  });

  it('embedded in the page, the modal offers no Close button', async () => {
    const el = await createModal({ embedded: '' });
    await waitFor(() => dialog(el)?.querySelector('[data-connector-id]'), 'the embedded Connect view');
    expect(dialog(el)!.querySelector('[part~="close-button"]')).to.equal(null);
    expect(el.getState().canClose).to.equal(false);
  });

  it('one unreadable stored value does not stop the stored connection from reconnecting', async () => {
    const first = await createModal();
    const rdns = await anvilWallet('Stored Wallet');
    await connectTo(first, rdns);
    first.remove();
    localStorage.setItem('@wallet-modal/x', 'a\ud800');
    const alerts: string[] = [];
    const info = console.info;
    console.info = (...a: unknown[]) => alerts.push(a.join(' '));
    try {
      const el = await createModal({ debug: '' });
      await waitFor(() => el.getState().status.eip155 === 'connected', 'reconnected from storage');
      expect(el.getState().connection.address).to.equal(ACCOUNT0);
      await waitFor(() => alerts.some((a) => a.includes('@wallet-modal/x')), 'a debug alert naming the bad key');
    } finally {
      console.info = info;
    }
  });

  it('enable-network-switch="false": a wallet on a network the page does not configure keeps the Account view; by default UnsupportedChain shows', async () => {
    for (const [attrs, expected] of [[{}, 'UnsupportedChain'], [{ 'enable-network-switch': 'false' }, 'Account']] as const) {
      const rdns = await anvilWallet(`Mainnet Wallet ${expected}`, { eth_chainId: () => '0x1' });
      const el = await createModal(attrs);
      await connectTo(el, rdns);
      await el.close();
      await el.open();
      await waitFor(() => el.getState().view === expected, `${expected} (${JSON.stringify(attrs)})`);
      el.remove();
      localStorage.clear();
    }
  });

  it('enable-eip6963="false": announced wallets are not listed; by default they are', async () => {
    const rdns = announceWallet('Announced Wallet', () => null);
    const off = await createModal({ 'enable-eip6963': 'false' });
    await off.open();
    await waitFor(() => viewRoot(off).querySelector('[data-connector-id="walletConnect"]'), 'the Connect view');
    expect(viewRoot(off).querySelector(`[data-connector-id="${rdns}"]`), 'not listed').to.equal(null);
    off.remove();
    const on = await createModal();
    await on.open();
    await row(on, rdns);
  });

  it('debug is on unless set to false (spec §1): alerts without the attribute, none with debug="false"', async () => {
    const alerts: string[] = [];
    const info = console.info;
    console.info = (...a: unknown[]) => alerts.push(a.join(' '));
    try {
      localStorage.setItem('@wallet-modal/x', 'a\ud800');
      const quiet = await createModal({ debug: 'false' });
      await waitFor(() => quiet.getState().status.eip155 !== undefined, 'the engine started');
      await new Promise((r) => setTimeout(r, 100));
      expect(alerts.filter((a) => a.includes('@wallet-modal/x')), 'no alert with debug="false"').to.deep.equal([]);
      quiet.remove();
      localStorage.setItem('@wallet-modal/x', 'a\ud800');
      await createModal();
      await waitFor(() => alerts.some((a) => a.includes('@wallet-modal/x')), 'an alert without the attribute');
    } finally {
      console.info = info;
      localStorage.removeItem('@wallet-modal/x');
    }
  });

  it('an announcement whose info getters throw is ignored without an uncaught error, and bidi controls leave wallet names', async () => {
    const errors = collectErrors();
    const info = {};
    for (const k of ['uuid', 'name', 'icon', 'rdns']) Object.defineProperty(info, k, { get() { throw new Error(`info.${k}`); } });
    const el = await createModal();
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info, provider: { request: async () => null } } }));
    const rdns = announceWallet('Safe\u202Etellaw\u202C Wallet', () => null);
    await el.open();
    const r = await row(el, rdns);
    expect(r.textContent).to.contain('Safetellaw Wallet');
    expect(r.textContent).to.not.match(/[\u202A-\u202E\u2066-\u2069]/);
    await new Promise((r) => setTimeout(r, 50));
    errors.stop();
    expect(errors.seen).to.deep.equal([]);
  });

  it('open() with an unknown view fires an error and opens the view the router chooses; open(null) is open()', async () => {
    const el = await createModal();
    const err = nextEvent(el, 'error');
    await el.open({ view: 'Nope' } as any);
    expect((await err).detail.message).to.equal('Unknown view: Nope');
    expect(el.getState().open).to.equal(true);
    expect(el.getState().view).to.equal('Connect');
    await waitFor(() => dialog(el)?.querySelector('[data-connector-id]'), 'Connect rows shown');
    await el.close();
    await (el.open as (o: unknown) => Promise<void>)(null);
    expect(el.getState().open).to.equal(true);
    expect(el.getState().view).to.equal('Connect');
  });

  it('open() on a view about the account while disconnected opens Connect; views not built yet are never shown empty', async () => {
    const el = await createModal();
    for (const view of ['Account', 'Swap', 'WalletSend', 'OnRampProviders']) {
      await el.open({ view });
      expect(el.getState().view, view).to.equal('Connect');
      await el.close();
    }
    for (const view of ['RegisterAccountName']) {
      const err = nextEvent(el, 'error');
      await el.open({ view });
      expect((await err).detail.message, view).to.equal(`The ${view} view is not available yet`);
      expect(el.getState().view, view).to.equal('Connect');
      const body = await waitFor(() => dialog(el)?.querySelector('[part~="body"]'), 'the body');
      await waitFor(() => body.querySelector('[data-connector-id]'), `${view}: a body with content`);
      await el.close();
    }
  });

  it('a network switch rejected in the wallet shows an error banner and keeps the error event', async () => {
    const rdns = await anvilWallet('Stubborn Wallet', {
      wallet_switchEthereumChain: () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })),
    });
    const el = await createModal();
    await connectTo(el, rdns);
    await el.open();
    const err = nextEvent(el, 'error');
    await el.switchNetwork('eip155:31338');
    expect((await err).detail.code).to.equal(4001);
    const banner = await waitFor(() => viewRoot(el).querySelector('[part~="banner"]') as HTMLElement, 'the banner');
    expect(banner.getAttribute('data-variant')).to.equal('error');
    expect(banner.getAttribute('role')).to.equal('alert');
    expect(banner.textContent).to.contain('Switching to Anvil B was rejected in the wallet');
    expect(el.getState().view).to.equal('Account');
    (banner.querySelector('button[aria-label="Dismiss"]') as HTMLElement).click();
    await waitFor(() => !viewRoot(el).querySelector('[part~="banner"]'), 'the banner dismissed');
  });

  it('getProvider() forwards to the wallet with its flags, says "Approve in your wallet" while it waits, and with pending-transactions the balance follows a mined transaction', async () => {
    let release: (() => void) | null = null;
    const rdns = await anvilWallet(
      'Host Wallet',
      {
        eth_sendTransaction: async (_m, params) => {
          await new Promise<void>((r) => (release = r));
          const env = await testEnv();
          return rpc(env.chains[0].rpcUrl, 'eth_sendTransaction', params as unknown[]);
        },
      },
      { isHostWallet: true },
    );
    const el = await createModal({ 'pending-transactions': '', 'pending-transactions-interval': '1000' });
    await connectTo(el, rdns);
    await el.open();
    const root = viewRoot(el);
    const balance = () => root.querySelector('[part~="balance"]:not([aria-busy])')?.textContent ?? '';
    const before = await waitFor(() => balance() || null, 'the balance');

    const provider = el.getProvider('eip155');
    expect(provider.isHostWallet, 'the wallet flags are kept').to.equal(true);
    expect(el.getProvider('eip155') === provider, 'the same provider every time').to.equal(true);
    expect(await provider.request({ method: 'eth_chainId' })).to.equal('0x7a69');
    const bad = await provider.request({ method: 'eth_nope' }).catch((e: { code: number }) => e);
    expect(bad.code, 'errors come back as the wallet gave them').to.equal(-32601);

    // 1,000 ETH: the balance shown must drop by at least that once the transaction is mined.
    const sent = provider.request({ method: 'eth_sendTransaction', params: [{ from: ACCOUNT0, to: RECIPIENT, value: '0x3635c9adc5dea00000' }] });
    await waitFor(() => byText(root, '[part~="wallet-request"]', 'Approve in your wallet'), '"Approve in your wallet"');
    await waitFor(() => release, 'the wallet holding the request');
    release!();
    const hash = await sent;
    expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    await waitFor(() => !root.querySelector('[part~="wallet-request"]'), 'the notice gone');
    const number = (s: string) => Number(s.replace(/[^0-9.]/g, ''));
    await waitFor(() => number(balance()) <= number(before) - 1000, 'the balance after mining (no 30 s wait)', 8000);
    // Closed and reopened at once, the new balance stays.
    await el.close();
    await el.open();
    expect(number(await waitFor(() => balance() || null, 'balance on reopen'))).to.be.at.most(number(before) - 1000);
  });
});
