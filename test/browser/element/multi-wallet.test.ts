// Several wallets at once (multi-wallet) through the real element build: the Demo Wallet and a
// second EIP-6963 wallet (another demo wallet instance on anvil's second dev account), connected
// side by side from Account → Wallets → Add wallet; switching, ending one, a reload; and the
// single-wallet project where a new wallet replaces the old.
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, connectDemoWallet, createModal, installDemoWallet, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { expectNoSeriousAxeViolations } from '../views/axe';
import { visitor } from './embedded-helpers';

const A = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const B = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SECOND = 'dev.walletmodal.second';
let first: any;
let second: any;

/** Opens the modal on ProfileWallets (Account → Wallets) and resolves with its root. */
async function openWallets(el: WalletModal): Promise<ShadowRoot> {
  await el.open();
  const root = viewRoot(el);
  if (el.getState().view !== 'ProfileWallets') (await waitFor(() => root.querySelector<HTMLElement>('[part~="wallets-button"]'), 'the Wallets row')).click();
  await waitFor(() => root.querySelector('[part~="profile-wallets"]'), 'ProfileWallets');
  return root;
}

const rows = (root: ShadowRoot) => [...root.querySelectorAll<HTMLElement>('[part~="profile-wallet"]')].map((r) => `${r.dataset.connectorId}:${r.dataset.state}`);

/** Account → Wallets → Add wallet → the second wallet, approved in it. */
async function addSecond(el: WalletModal): Promise<void> {
  const root = await openWallets(el);
  root.querySelector<HTMLElement>('[part~="add-wallet"]')!.click();
  (await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${SECOND}"]`), 'the second wallet on Connect')).click();
  await waitFor(() => second.pending().length > 0 || el.getState().connection?.address === B, 'its prompt');
  if (second.pending().length > 0) second.approve();
  await waitFor(() => el.getState().connection?.address === B, 'the second wallet connected');
}

describe('<wallet-modal> several wallets at once', function () {
  this.timeout(60_000);

  before(async () => {
    localStorage.clear();
    sessionStorage.clear();
    first = await installDemoWallet();
    // @ts-ignore — served as is from demo/
    const { installDemoWallet: install } = await import('/demo/wallet/demo-wallet.js');
    const env = await testEnv();
    second = install({ chains: env.chains, prompt: true, name: 'Second Wallet', rdns: SECOND, uuid: '6f1f3c52-2c6e-4a5e-9b7b-8f6d2f0e9a11', global: 'secondWallet', accountIndex: 1 });
    await second.ready;
  });
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    first.setAutoResponse(null);
    second.setAutoResponse(null);
  });
  after(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('Add wallet connects a second wallet beside the first; ProfileWallets lists both with their balances; choosing one makes it current for getProvider', async () => {
    localStorage.clear();
    const el = await createModal({});
    await connectDemoWallet(el, first);
    await addSecond(el);
    const root = await openWallets(el);
    await waitFor(() => rows(root).length === 2, 'two wallets');
    expect(rows(root)).to.deep.equal([`${SECOND}:active`, 'dev.walletmodal.demo:connected']);
    // Their balances from the chain: anvil's dev accounts hold thousands of ETH.
    await waitFor(() => [...root.querySelectorAll('[part~="profile-wallet"]')].every((r) => /\d,\d{3}\.\d{3} ETH/.test(r.textContent ?? '')), 'their balances');
    const changed = nextEvent(el, 'accountschange');
    root.querySelector<HTMLElement>('[data-connector-id="dev.walletmodal.demo"] [part~="switch-wallet"]')!.click();
    expect((await changed).detail.address).to.equal(A);
    expect((await el.getProvider('eip155').request({ method: 'eth_accounts' })).map((a: string) => a.toLowerCase())).to.deep.equal([A.toLowerCase()]);
    await waitFor(() => rows(root)[0] === 'dev.walletmodal.demo:active', 'the demo wallet active');
  });

  it('a reload reconnects both wallets and the current one stays current', async () => {
    const el = await createModal({});
    await waitFor(() => el.getState().connection?.address === A, 'the demo wallet current again');
    const root = await openWallets(el);
    await waitFor(() => rows(root).length === 2, 'both back');
    expect(rows(root)[0]).to.equal('dev.walletmodal.demo:active');
  });

  it('ending one connection leaves the other; ending the last disconnects', async () => {
    const el = await createModal({});
    await waitFor(() => el.getState().connection?.address === A, 'reconnected');
    const root = await openWallets(el);
    await waitFor(() => rows(root).length === 2, 'both');
    root.querySelector<HTMLElement>(`[data-connector-id="${SECOND}"] [part~="disconnect-wallet"]`)!.click();
    await waitFor(() => rows(root).length === 1, 'one left');
    expect(el.getState().status.eip155).to.equal('connected');
    const gone = nextEvent(el, 'disconnect');
    root.querySelector<HTMLElement>('[part~="disconnect-wallet"]')!.click();
    await gone;
    await waitFor(() => el.getState().status.eip155 === 'disconnected', 'disconnected');
  });

  for (const theme of ['light', 'dark']) {
    it(`ProfileWallets in ${theme}: no serious axe violation`, async () => {
      localStorage.clear();
      const el = await createModal({ 'theme-mode': theme });
      first.setAutoResponse('approve');
      second.setAutoResponse('approve');
      await connectDemoWallet(el, first);
      await addSecond(el);
      const root = await openWallets(el);
      await waitFor(() => rows(root).length === 2, 'two wallets');
      await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), theme);
      expect(await expectNoSeriousAxeViolations(root, `ProfileWallets (${theme})`)).to.be.greaterThan(0);
      await visitor({ action: 'screenshot', name: `profile-wallets-${theme}` });
      await el.open({ view: 'Account' });
      await waitFor(() => root.querySelector('[part~="wallets-button"]'), 'the Wallets row');
      await visitor({ action: 'screenshot', name: `account-wallets-${theme}` });
      (root.querySelector('[part~="network-button"]') as HTMLElement).click();
      await waitFor(() => root.querySelector('[part~="network-list"], [role="listbox"], .wm-network'), 'SwitchNetwork');
      await visitor({ action: 'screenshot', name: `switch-network-${theme}` });
      await el.disconnect();
    });
  }

  it('an EVM wallet and a Solana wallet at once: picking a Solana network offers to connect a Solana wallet (SwitchActiveChain); Use goes back to EVM', async () => {
    localStorage.clear();
    const env = (await testEnv()) as any;
    if (!env.solana) throw new Error('no local Solana chain in this run (WM_SOLANA)');
    // @ts-ignore — served as is from demo/
    const { installSolanaWallet } = await import('/demo/wallet/solana-wallet.js');
    installSolanaWallet({ rpcUrl: env.solana.rpcUrl, autoResponse: 'approve', hookOnly: true, chains: ['solana:localnet'] });
    const LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
    const solanaLocal = { id: LOCAL.split(':')[1], caipNetworkId: LOCAL, name: 'Solana Local', chainNamespace: 'solana', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [env.solana.rpcUrl] } }, testnet: true };
    const el = await createModal({}, [...anvilNetworks(env), solanaLocal]);
    first.setAutoResponse('approve');
    await connectDemoWallet(el, first);
    await el.open();
    const root = viewRoot(el);
    (await waitFor(() => root.querySelector<HTMLElement>('[part~="network-button"]'), 'the network row')).click();
    (await waitFor(() => [...root.querySelectorAll<HTMLElement>('button')].find((b) => b.textContent?.includes('Solana Local')), 'Solana Local')).click();
    const offer = await waitFor(() => root.querySelector<HTMLElement>('[part~="switch-active-chain"]'), 'SwitchActiveChain');
    expect(offer.textContent).to.contain('Connect a Solana wallet');
    for (const theme of ['light', 'dark']) {
      el.setThemeMode(theme);
      await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), `${theme} theme`);
      await expectNoSeriousAxeViolations(root, `SwitchActiveChain (${theme})`);
      await visitor({ action: 'screenshot', name: `switch-active-chain-${theme}` });
    }
    el.setThemeMode('light');
    offer.querySelector<HTMLElement>('[part~="connect-family"]')!.click();
    (await waitFor(() => root.querySelector<HTMLElement>('[data-connector-id="dev.walletmodal.demo"]'), 'Connect')).click();
    await waitFor(() => el.getState().status.solana === 'connected', 'the Solana side connected');
    expect(el.getState().status.eip155, 'the EVM wallet stays').to.equal('connected');
    expect(el.getState().connection.namespace).to.equal('solana');
    const wallets = await openWallets(el);
    await waitFor(() => rows(wallets).length === 2, 'two families');
    expect([...wallets.querySelectorAll('[part~="profile-wallet"]')].map((r) => r.textContent?.includes('Solana') ? 'solana' : 'evm').sort()).to.deep.equal(['evm', 'solana']);
    const changed = nextEvent(el, 'accountschange');
    wallets.querySelector<HTMLElement>('[part~="profile-wallet"]:not([data-state="active"]) [part~="switch-wallet"]')!.click();
    expect((await changed).detail.address).to.equal(A);
    expect(el.getState().connection.namespace, 'back to EVM').to.equal('eip155');
    await el.disconnect();
  });

  it('without the multiWallet feature there is no Wallets row', async () => {
    localStorage.clear();
    const el = await createModal({ 'project-id': 'single-wallet' });
    first.setAutoResponse('approve');
    await connectDemoWallet(el, first);
    await el.open();
    const root = viewRoot(el);
    await waitFor(() => root.querySelector('[part~="disconnect-button"]'), 'Account');
    await waitFor(() => el.getState().profileWallets, 'the account module');
    expect(root.querySelector('[part~="wallets-button"]')).to.equal(null);
    expect(el.getState().profileWallets.enabled).to.equal(false);
    await el.disconnect();
  });
});
