// Sign-in with the wallet (SIWX) through the real element build: the Demo Wallet (EIP-6963, signing
// with anvil's first key) and the Demo Wallet's wallet-standard side on the local Solana chain.
// Signatures are checked again here with the `./core` entry, the module a dapp backend uses.
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, byText, connectDemoWallet, createModal, installDemoWallet, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { expectNoSeriousAxeViolations } from '../views/axe';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CAIP = `eip155:31337:${ADDRESS}`;
let wallet: any;
let core: any;

/** The sign-in view's root once it shows the account to sign in. */
async function signInView(el: WalletModal): Promise<ShadowRoot> {
  const root = viewRoot(el);
  await waitFor(() => root.querySelector('[part~="siwx"][data-state]'), 'SIWXSignMessage');
  return root;
}

/** Presses Sign, approves the wallet's personal_sign, and resolves with the `signin` event. */
async function signIn(el: WalletModal): Promise<any> {
  const root = await signInView(el);
  const signed = nextEvent(el, 'signin');
  (root.querySelector('[part~="siwx-sign"]') as HTMLButtonElement).click();
  const p = await wallet.waitForPending();
  expect(p.method).to.equal('personal_sign');
  wallet.approve();
  return (await signed).detail;
}

describe('<wallet-modal> sign-in (SIWX)', function () {
  this.timeout(60_000);

  before(async () => {
    // @ts-ignore — the ./core entry of the build
    core = await import('/dist/core.js');
    await core.init?.();
    wallet = await installDemoWallet();
  });
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    wallet.setAutoResponse(null);
  });
  after(() => localStorage.clear());

  it('once connected, SIWXSignMessage asks to sign an EIP-4361 message of this page; signing emits signin, keeps the session and closes', async () => {
    const el = await createModal({ siwx: '' });
    wallet.setAutoResponse('approve');
    await connectDemoWallet(el, wallet);
    wallet.setAutoResponse(null);
    const root = await signInView(el);
    expect(root.textContent).to.contain('0xf39F').and.contain('Anvil A');
    const detail = await signIn(el);
    expect(detail.caipAddress).to.equal(CAIP);
    const fields = core.parseSiwxMessage(detail.message);
    expect([fields.domain, fields.accountAddress, fields.chainId, fields.uri]).to.deep.equal([location.host, ADDRESS, 31337, location.origin]);
    expect(core.verifyMessage(ADDRESS, detail.message, detail.signature), 'the account signed it').to.equal(true);
    const check = core.verifySiwxSession({ domain: location.host, ...detail });
    expect(check.valid, 'a backend with wallet-modal/core accepts it').to.equal(true);
    await waitFor(() => !el.getState().open, 'the modal closes');
    expect(el.getState().siwx.session.caipAddress).to.equal(CAIP);
    expect(localStorage.getItem('@wallet-modal/siwx_sessions')).to.contain(detail.signature);
  });

  it('a reload keeps the session: the wallet reconnects and nothing is asked', async () => {
    let el = await createModal({ siwx: '' });
    wallet.setAutoResponse('approve');
    await connectDemoWallet(el, wallet);
    await signInView(el);
    wallet.setAutoResponse(null);
    await signIn(el);
    el.remove();
    wallet.setAutoResponse('approve');
    el = await createModal({ siwx: '' });
    await waitFor(() => el.getState()?.siwx?.session?.caipAddress === CAIP, 'the stored session');
    await waitFor(() => el.getState().status.eip155 === 'connected', 'reconnected');
    await new Promise((r) => setTimeout(r, 300));
    expect(el.getState().open, 'nothing asked').to.equal(false);
  });

  it('a wallet rejection says Error signing message and keeps the view; signing again works', async () => {
    const el = await createModal({ siwx: '' });
    wallet.setAutoResponse('approve');
    await connectDemoWallet(el, wallet);
    wallet.setAutoResponse(null);
    const root = await signInView(el);
    (root.querySelector('[part~="siwx-sign"]') as HTMLButtonElement).click();
    await wallet.waitForPending();
    wallet.reject();
    await waitFor(() => byText(root, '[part~="error"]', 'Error signing message'), 'the error');
    expect(el.getState().view).to.equal('SIWXSignMessage');
    const detail = await signIn(el);
    expect(detail.caipAddress).to.equal(CAIP);
  });

  it('required: Escape, the backdrop and back do nothing and there is no close button; cancelling disconnects', async () => {
    const el = await createModal({ siwx: 'required' });
    wallet.setAutoResponse('approve');
    await connectDemoWallet(el, wallet);
    wallet.setAutoResponse(null);
    const root = await signInView(el);
    await waitFor(() => el.getState().canClose === false, 'closing blocked');
    expect(root.querySelector('[part~="close-button"], button[aria-label="Close"]'), 'no close button').to.equal(null);
    root.querySelector('[role="dialog"]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(el.getState().open && el.getState().view === 'SIWXSignMessage', 'still asking').to.equal(true);
    const gone = nextEvent(el, 'disconnect');
    byText(root, '[part~="siwx-cancel"]', 'Disconnect')!.click();
    await gone;
    await waitFor(() => el.getState().status.eip155 === 'disconnected', 'disconnected');
    expect(el.getState().view).to.equal('Connect');
  });

  it('a host verifier decides: its nonce goes in the message, its verify sees the signature, and a no disconnects', async () => {
    for (const answer of [true, false]) {
      localStorage.clear();
      const seen: any[] = [];
      const el = await createModal({});
      el.siwx = {
        getNonce: async () => 'hostNonce12345',
        verify: async (args: any) => (seen.push(args), answer),
        getSession: async () => null,
      };
      wallet.setAutoResponse('approve');
      await connectDemoWallet(el, wallet);
      wallet.setAutoResponse(null);
      await signInView(el);
      const root = viewRoot(el);
      (root.querySelector('[part~="siwx-sign"]') as HTMLButtonElement).click();
      await wallet.waitForPending();
      const failed = answer ? null : nextEvent(el, 'error');
      wallet.approve();
      await waitFor(() => seen.length === 1, 'verify called');
      expect(core.parseSiwxMessage(seen[0].message).nonce).to.equal('hostNonce12345');
      expect(seen[0].caipAddress).to.equal(CAIP);
      if (answer) {
        await waitFor(() => el.getState().siwx.session, 'signed in');
      } else {
        expect((await failed!).detail.message).to.equal('A problem occurred while trying initialize authentication');
        await waitFor(() => el.getState().status.eip155 === 'disconnected', 'disconnected');
      }
      el.remove();
    }
  });

  it('setting both siweConfig and siwx is refused with a clear error', async () => {
    const el = (await createModal({})) as any;
    el.siweConfig = { getNonce: async () => 'abcdefgh1', verifyMessage: async () => true };
    const error = nextEvent(el, 'error');
    el.siwx = 'default';
    expect((await error).detail.message).to.equal('Cannot set both siweConfig and siwx options');
  });

  for (const theme of ['light', 'dark']) {
    it(`SIWXSignMessage in ${theme}: no serious axe violation`, async () => {
      const el = await createModal({ siwx: '', 'theme-mode': theme });
      wallet.setAutoResponse('approve');
      await connectDemoWallet(el, wallet);
      wallet.setAutoResponse(null);
      const root = await signInView(el);
      await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), theme);
      expect(await expectNoSeriousAxeViolations(root, `SIWXSignMessage (${theme})`)).to.be.greaterThan(0);
    });
  }
});

describe('<wallet-modal> sign-in with Solana (SIWS)', function () {
  this.timeout(60_000);
  let solana: any;

  before(async () => {
    localStorage.clear();
    // @ts-ignore — the ./core entry of the build
    core ??= await import('/dist/core.js');
    await core.init?.();
    const env = (await testEnv()) as any;
    if (!env.solana) throw new Error('no local Solana chain in this run (WM_SOLANA): scripts/test.sh starts it');
    // @ts-ignore — served as is from demo/
    const { installSolanaWallet } = await import('/demo/wallet/solana-wallet.js');
    solana = installSolanaWallet({ rpcUrl: env.solana.rpcUrl, autoResponse: 'approve', hookOnly: true, chains: ['solana:localnet'] });
  });
  after(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    localStorage.clear();
  });

  it('the wallet-standard wallet signs a SIWS message with solana:signMessage and ed25519 checks it', async () => {
    const env = (await testEnv()) as any;
    const LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
    const network = { id: LOCAL.split(':')[1], caipNetworkId: LOCAL, name: 'Solana Local', chainNamespace: 'solana', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [env.solana.rpcUrl] } }, testnet: true };
    const el = await createModal({ siwx: '' }, [network, ...anvilNetworks(env)]);
    await el.open();
    const root = viewRoot(el);
    (await waitFor(() => root.querySelector<HTMLElement>('[data-connector-id="standard.demo-wallet"], [data-connector-id="dev.walletmodal.demo"]'), 'the Demo Wallet (its Solana side)')).click();
    await signInView(el);
    expect(root.textContent).to.contain('Solana Local');
    const signed = nextEvent(el, 'signin');
    (root.querySelector('[part~="siwx-sign"]') as HTMLButtonElement).click();
    const { detail } = await signed;
    expect(detail.caipAddress).to.equal(`${LOCAL}:${env.solana.owner}`);
    expect(detail.message.split('\n')[0]).to.equal(`${location.host} wants you to sign in with your Solana account:`);
    expect(detail.message).to.contain(`Chain ID: ${LOCAL.split(':')[1]}`);
    expect(solana.log.map((l: any) => l.method)).to.include('signMessage');
    const check = core.verifySiwxSession({ domain: location.host, ...detail });
    expect(check, 'ed25519 over the text').to.deep.include({ valid: true });
  });
});
