// End-to-end flows against real anvil chains through the demo wallet (an EIP-6963 wallet that
// forwards to anvil), with the real element build and the real backend.
import { expect } from '@esm-bundle/chai';
import { byText, createModal, installDemoWallet, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';

const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
let wallet: any;

async function connectorRow(el: WalletModal): Promise<HTMLElement> {
  return waitFor(() => viewRoot(el)?.querySelector('[data-connector-id="dev.walletmodal.demo"]') as HTMLElement, 'Demo Wallet row');
}

async function connect(el: WalletModal) {
  await el.open();
  const connected = nextEvent(el, 'connect');
  (await connectorRow(el)).click();
  // A wallet that already granted this site its accounts answers without a prompt.
  await waitFor(() => wallet.pending().length > 0 || el.getState().status.eip155 === 'connected', 'wallet prompt or connection');
  if (wallet.pending().length > 0) wallet.approve();
  return (await connected).detail;
}

describe('end-to-end flows with the demo wallet on anvil', () => {
  before(async () => {
    localStorage.clear();
    wallet = await installDemoWallet();
  });
  afterEach(async () => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    wallet.setAutoResponse(null);
  });

  it('the demo wallet is discovered through EIP-6963 and listed right after WalletConnect on Connect', async () => {
    const el = await createModal();
    await el.open();
    const row = await connectorRow(el);
    expect(row.textContent).to.contain('Demo Wallet');
    expect(el.getState().connectors.slice(0, 2).map((c) => c.id)).to.deep.equal(['walletConnect', 'dev.walletmodal.demo']);
  });

  it('rejecting in the wallet shows "Connection rejected" with a retry', async () => {
    const el = await createModal();
    await el.open();
    (await connectorRow(el)).click();
    await waitFor(() => wallet.pending().length > 0, 'wallet prompt');
    const err = nextEvent(el, 'error');
    wallet.reject();
    expect((await err).detail.message).to.equal('Connection rejected');
    const root = viewRoot(el);
    await waitFor(() => byText(root, '*', 'Connection rejected'), 'message shown');
    const retry = await waitFor(() => byText(root, 'button', /try again/i), 'retry button');
    retry.click();
    await waitFor(() => wallet.pending().length > 0, 'asked again');
    wallet.reject();
  });

  it('connecting shows the address and the balance read from anvil, grouped by thousands (10,000.000 ETH)', async () => {
    localStorage.clear();
    const el = await createModal();
    const detail = await connect(el);
    expect(detail.address).to.equal(ACCOUNT0);
    expect(detail.caipAddress).to.equal(`eip155:31337:${ACCOUNT0}`);
    expect(detail.connectorName).to.equal('Demo Wallet');
    const env = await testEnv();
    const res = await fetch(env.chains[0].rpcUrl, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [ACCOUNT0, 'latest'] }),
    });
    const wei = BigInt((await res.json()).result);
    const whole = wei / 10n ** 18n;
    const milli = (wei % 10n ** 18n) / 10n ** 15n;
    // Floored to 3 decimals, thousands grouped en-US (spec §5): anvil's 10000 ETH shows as 10,000.000.
    const expected = `${whole.toLocaleString('en-US')}.${milli.toString().padStart(3, '0')}`;
    expect(expected).to.match(/^\d{1,3}(,\d{3})+\.\d{3}$/);
    await el.open();
    const root = viewRoot(el);
    const balance = await waitFor(() => root.querySelector('[part~="balance"]:not([aria-busy])') as HTMLElement, 'balance');
    expect(balance.textContent).to.contain(`${expected} ETH`);
    expect(root.querySelector('[part~="address"]')!.textContent).to.equal('0xf3...b92266');
    // getProvider gives the wallet's provider seen through the modal (its flags and answers kept).
    const provider = el.getProvider('eip155');
    expect(provider.isDemoWallet, 'the wallet flags are kept').to.equal(true);
    expect(await provider.request({ method: 'eth_accounts' })).to.deep.equal(await wallet.provider.request({ method: 'eth_accounts' }));
  });

  it('switching network asks the wallet, fires networkchange and shows the new network', async () => {
    const el = await createModal();
    await waitFor(() => el.getState().status.eip155 === 'connected', 'reconnected');
    wallet.setAutoResponse('approve');
    const changed = nextEvent(el, 'networkchange');
    await el.switchNetwork('eip155:31338');
    expect((await changed).detail.caipNetworkId).to.equal('eip155:31338');
    expect(await wallet.provider.request({ method: 'eth_chainId' })).to.equal('0x7a6a');
    await el.open();
    const btn = await waitFor(() => viewRoot(el).querySelector('[part~="network-button"]') as HTMLElement, 'network button');
    await waitFor(() => btn.textContent?.includes('Anvil B'), 'Anvil B shown');
    // Back to the first chain through the SwitchNetwork view.
    btn.click();
    const row = await waitFor(() => viewRoot(el).querySelector('[data-network-id="eip155:31337"]') as HTMLElement, 'network list');
    const back = nextEvent(el, 'networkchange');
    row.click();
    expect((await back).detail.caipNetworkId).to.equal('eip155:31337');
  });

  it('a reload reconnects silently from storage', async () => {
    const el = await createModal();
    const reconnected = await waitFor(() => el.getState().status.eip155 === 'connected' && el.getState(), 'reconnected');
    expect(reconnected.connection.address).to.equal(ACCOUNT0);
    expect(reconnected.open).to.equal(false);
  });

  it('with reconnect="false" a reload leaves every namespace disconnected', async () => {
    expect(localStorage.getItem('@wallet-modal/connections')).to.contain(ACCOUNT0);
    const el = await createModal({ reconnect: 'false' });
    await new Promise((r) => setTimeout(r, 300));
    expect(el.getState().status.eip155).to.equal('disconnected');
    expect(el.getState().connection).to.equal(null);
    expect(localStorage.getItem('@wallet-modal/connections'), 'stored connections dropped').to.equal(null);
  });

  it('disconnect from the Account view fires disconnect and returns to Connect', async () => {
    // The reconnect="false" run above dropped the stored connection: connect again.
    const el = await createModal();
    await connect(el);
    await el.open();
    const btn = await waitFor(() => viewRoot(el).querySelector('[part~="disconnect-button"]') as HTMLElement, 'disconnect button');
    const gone = nextEvent(el, 'disconnect');
    btn.click();
    expect((await gone).detail.connectorId).to.equal('dev.walletmodal.demo');
    await waitFor(() => el.getState().view === 'Connect', 'Connect view');
    expect(el.getState().status.eip155).to.equal('disconnected');
    expect(localStorage.getItem('@wallet-modal/connections')).to.equal('[]');
  });
});
