// A Safe app (spec §6): the page runs in an iframe of a Safe (here the test page, on localhost: an
// allowed ancestor) that speaks the Safe Apps postMessage protocol (demo/wallet/safe-host.js,
// backed by anvil). The Safe is the first connector, connects without a prompt of the modal's own,
// and sends through the Safe; outside an iframe, or under a parent that is no Safe, there is none.
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, cleanup, createModal, nextEvent, rpc, testEnv, viewRoot, waitFor, type TestEnv, type WalletModal } from './helpers';
import { visitor } from './embedded-helpers';

const SAFE = '0x5afe00000000000000000000000000000000beef';
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECEIVER = '0x000000000000000000000000000000000000dEaD';

/** A Safe app in an iframe filling the page: the element inside it, started. */
async function safeApp(env: TestEnv): Promise<{ frame: HTMLIFrameElement; el: WalletModal }> {
  const frame = document.createElement('iframe');
  frame.title = 'Safe app';
  frame.style.cssText = 'position:fixed;inset:0;width:100vw;height:100vh;border:0;z-index:1';
  // srcdoc: the app's document resolves /dist/ against this page (same origin, parent = this page).
  frame.srcdoc = '<!doctype html><html lang="en"><head><title>Safe app</title></head><body><script type="module">import "/dist/wallet-modal.js";</script></body></html>';
  const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow as Window & typeof globalThis;
  await waitFor(() => win.customElements.get('wallet-modal'), 'the element defined in the Safe app', 15_000);
  const el = win.document.createElement('wallet-modal') as WalletModal;
  for (const [k, v] of Object.entries({ 'project-id': 'test-project', 'api-url': env.backendUrl, 'analytics-url': env.backendUrl })) el.setAttribute(k, v);
  el.networks = anvilNetworks(env);
  win.document.body.append(el);
  await waitFor(() => el.getState() !== null, 'engine started');
  return { frame, el };
}

/** The Connect view's wallet rows in the Safe app, in order. */
function rowIds(el: WalletModal): string[] {
  const root = el.ownerDocument.querySelector('wallet-modal-overlay')?.shadowRoot;
  return [...(root?.querySelectorAll<HTMLElement>('[data-connector-id]') ?? [])].map((b) => b.dataset.connectorId ?? '');
}

describe('a Safe app (Safe-app detection, §6)', () => {
  let stops: (() => void)[] = [];
  afterEach(() => {
    stops.forEach((s) => s());
    stops = [];
    for (const f of document.querySelectorAll('iframe[title="Safe app"]')) f.remove();
    cleanup();
  });

  it('inside a Safe the Safe is the first connector, connects to the Safe’s address and sends through the Safe', async () => {
    const env = await testEnv();
    const chain = env.chains[0];
    // @ts-ignore — served as is from demo/
    const { serveSafe } = await import('/demo/wallet/safe-host.js');
    // The Safe answers from the moment the app loads (as Safe{Wallet} does).
    const pending = safeApp(env);
    const frame = await waitFor(() => document.querySelector<HTMLIFrameElement>('iframe[title="Safe app"]'), 'the iframe');
    const safe = serveSafe(frame, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, safeAddress: SAFE, owner: OWNER });
    stops.push(safe.stop);
    const { el } = await pending;
    await safe.ready;

    await el.open();
    await waitFor(() => rowIds(el).includes('global.safe'), 'the Safe row', 10_000);
    const ids = rowIds(el);
    expect(ids[0]).to.equal('global.safe');
    expect(ids.indexOf('walletConnect')).to.be.greaterThan(0);
    expect(safe.log[0].method).to.equal('getSafeInfo');
    expect(safe.log[0].env.sdkVersion).to.match(/^\d+\.\d+\.\d+$/);
    for (const theme of ['light', 'dark']) {
      el.setThemeMode(theme);
      await waitFor(() => el.ownerDocument.querySelector('wallet-modal-overlay')?.shadowRoot?.querySelector(`.wm-app[data-theme="${theme}"]`), `${theme} theme`);
      await visitor({ action: 'screenshot', name: `safe-app-connect-${theme}` });
    }
    el.setThemeMode('light');

    const connected = nextEvent(el, 'connect', 10_000);
    const root = el.ownerDocument.querySelector('wallet-modal-overlay')!.shadowRoot!;
    root.querySelector<HTMLElement>('[data-connector-id="global.safe"]')!.click();
    const detail = (await connected).detail;
    expect(detail.address.toLowerCase()).to.equal(SAFE);
    expect(detail.caipNetworkId).to.equal(`eip155:${chain.chainId}`);
    expect(el.getState().status.eip155).to.equal('connected');

    // A transaction the app sends goes to the Safe (sendTransactions) and the hash it answers is the
    // one mined on the chain, sent from the Safe.
    const before = BigInt(await rpc(chain.rpcUrl, 'eth_getBalance', [RECEIVER, 'latest']));
    const provider = el.getProvider('eip155');
    const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: detail.address, to: RECEIVER, value: '0x2386f26fc10000' }] });
    const proposal = safe.log.find((m: any) => m.method === 'sendTransactions');
    expect(proposal.params.txs).to.deep.equal([{ to: RECEIVER, value: '10000000000000000', data: '0x' }]);
    expect(hash).to.equal(safe.executed[0].txHash);
    const receipt = await rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.from.toLowerCase()).to.equal(SAFE);
    expect(receipt.status).to.equal('0x1');
    expect(BigInt(await rpc(chain.rpcUrl, 'eth_getBalance', [RECEIVER, 'latest'])) - before).to.equal(10n ** 16n);
    // Reads go through the Safe's rpcCall; a method the Safe has no part in is refused with 4200.
    expect(await provider.request({ method: 'eth_blockNumber' })).to.match(/^0x[0-9a-f]+$/);
    expect(safe.log.some((m: any) => m.method === 'rpcCall' && m.params.call === 'eth_blockNumber')).to.equal(true);
    const refused = await provider.request({ method: 'eth_sign', params: [detail.address, '0x00'] }).catch((e: any) => e);
    expect(refused.code).to.equal(4200);
    // Calldata under `input` is proposed as the Safe's `data`; a value that is no hex string is
    // refused before the Safe hears anything (never proposed as another transaction).
    await provider.request({ method: 'eth_sendTransaction', params: [{ from: detail.address, to: RECEIVER, input: '0xabcd' }] });
    expect(safe.log.filter((m: any) => m.method === 'sendTransactions').map((m: any) => m.params.txs[0].data)).to.deep.equal(['0x', '0xabcd']);
    const bad = await provider.request({ method: 'eth_sendTransaction', params: [{ from: detail.address, to: RECEIVER, value: 5 }] }).catch((e: any) => e);
    expect(bad.code).to.equal(-32602);
    expect(safe.log.filter((m: any) => m.method === 'sendTransactions')).to.have.length(2);
  });

  it('a Safe that refuses the transaction makes the request fail with the Safe’s reason, and nothing is sent', async () => {
    const env = await testEnv();
    const chain = env.chains[0];
    // @ts-ignore — served as is from demo/
    const { serveSafe } = await import('/demo/wallet/safe-host.js');
    const pending = safeApp(env);
    const frame = await waitFor(() => document.querySelector<HTMLIFrameElement>('iframe[title="Safe app"]'), 'the iframe');
    const safe = serveSafe(frame, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, safeAddress: SAFE, owner: OWNER, approve: false });
    stops.push(safe.stop);
    const { el } = await pending;
    await el.open();
    const connected = nextEvent(el, 'connect', 10_000);
    (await waitFor(() => el.ownerDocument.querySelector('wallet-modal-overlay')?.shadowRoot?.querySelector<HTMLElement>('[data-connector-id="global.safe"]'), 'the Safe row', 10_000)).click();
    const { address } = (await connected).detail;
    const err = await el.getProvider('eip155').request({ method: 'eth_sendTransaction', params: [{ from: address, to: RECEIVER, value: '0x1' }] }).catch((e: any) => e);
    expect(err.code).to.equal(4001);
    expect(err.message).to.contain('Transaction was rejected');
    expect(safe.executed).to.have.length(0);
  });

  it('under a parent that is no Safe (no answer to getSafeInfo) there is no Safe connector', async () => {
    const env = await testEnv();
    const { el } = await safeApp(env);
    await el.open();
    await waitFor(() => rowIds(el).includes('walletConnect'), 'the Connect rows');
    // The app asked (its Safe chunk loaded) and gave up after its 3 s.
    await new Promise((r) => setTimeout(r, 3500));
    const win = el.ownerDocument.defaultView!;
    expect(win.performance.getEntriesByType('resource').some((r) => /eip155\.safe-/.test(r.name))).to.equal(true);
    expect(rowIds(el)).to.not.include('global.safe');
  });

  it('a page that is not in an iframe loads no Safe code and lists no Safe', async () => {
    const el = await createModal();
    await el.open();
    await waitFor(() => viewRoot(el)?.querySelector('[data-connector-id="walletConnect"]'), 'the Connect rows');
    await new Promise((r) => setTimeout(r, 300));
    expect(performance.getEntriesByType('resource').some((r) => /eip155\.safe-/.test(r.name))).to.equal(false);
    expect(viewRoot(el).querySelector('[data-connector-id="global.safe"]')).to.equal(null);
  });
});
