// Sign-in with the wallet (SIWX) through the real element build: the Demo Wallet (EIP-6963, signing
// with anvil's first key) and the Demo Wallet's wallet-standard side on the local Solana chain.
// Signatures are checked again here with the `./core` entry, the module a dapp backend uses.
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, byText, connectDemoWallet, createModal, installDemoWallet, nextEvent, rpc, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { encodeDeployData } from 'viem';
import { expectNoSeriousAxeViolations } from '../views/axe';
import { clickInFrame, emailLogin, frameText, visitor } from './embedded-helpers';

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

  it('required: Escape and the backdrop shake the modal instead of closing it, there is neither a close nor a back button; cancelling disconnects', async () => {
    const el = await createModal({ siwx: 'required' });
    wallet.setAutoResponse('approve');
    await connectDemoWallet(el, wallet);
    wallet.setAutoResponse(null);
    const root = await signInView(el);
    await waitFor(() => el.getState().siwx?.locked === true, 'closing blocked');
    expect(root.querySelector('[part~="close-button"], button[aria-label="Close"]'), 'no close button').to.equal(null);
    expect(root.querySelector('[part~="back-button"], button[aria-label="Back"]'), 'no back button').to.equal(null);
    root.querySelector('[role="dialog"]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    // The engine refuses the visitor's close and shakes the modal for 500 ms (spec §4).
    await waitFor(() => root.querySelector('.wm-card.wm-shake'), 'the modal shakes');
    expect(el.getState().shake).to.equal(true);
    await waitFor(() => !root.querySelector('.wm-shake') && el.getState().shake === false, 'the shake ends', 2000);
    (root.querySelector('[part~="overlay"]') as HTMLElement).click();
    await waitFor(() => el.getState().shake === true, 'the backdrop shakes it too');
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

  it('a contract account (DemoSmartAccount on anvil, ERC-1271) signs in through its owner key: the chain says the signature is its own', async () => {
    const env = await testEnv();
    const url = env.chains[0].rpcUrl;
    const { contracts } = await (await fetch('/.test-build/contracts.json')).json();
    const data = encodeDeployData({ abi: contracts.DemoSmartAccount.abi, bytecode: contracts.DemoSmartAccount.bytecode, args: [ADDRESS] });
    const hash = await rpc(url, 'eth_sendTransaction', [{ from: ADDRESS, data }]);
    let receipt = null;
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
      if (!receipt) await new Promise((r) => setTimeout(r, 50));
    }
    const account = core.checksumAddress(receipt.contractAddress);
    wallet.useSmartAccount(account);
    try {
      const el = await createModal({ siwx: '' });
      wallet.setAutoResponse('approve');
      await connectDemoWallet(el, wallet);
      wallet.setAutoResponse(null);
      expect(el.getState().connection.address).to.equal(account);
      const detail = await signIn(el);
      expect(detail.caipAddress).to.equal(`eip155:31337:${account}`);
      expect(core.verifyMessage(account, detail.message, detail.signature), 'no key of the account signed it').to.equal(false);
      const check = core.verifySiwxSession({ domain: location.host, ...detail });
      expect(check.valid, 'a backend asks the chain').to.equal(null);
      const said = await rpc(url, check.chainCall.method, check.chainCall.params);
      expect(core.sessionChainSaysValid(detail.caipAddress, said)).to.equal(true);
    } finally {
      wallet.useSmartAccount(null);
    }
  });

  it('after an email login, signing in waits for the visitor in the secure frame: nothing is signed before, and Reject there says Error signing message', async () => {
    const el = await createModal({ siwx: '' });
    await emailLogin(el);
    const root = await signInView(el);
    let signedIn = false;
    el.addEventListener('signin', () => (signedIn = true));
    (root.querySelector('[part~="siwx-sign"]') as HTMLButtonElement).click();
    expect(await frameText('main.approval h1'), 'the frame asks').to.match(/sign/i);
    await new Promise((r) => setTimeout(r, 800)); // Reject and Approve open after 500 ms of being visible
    expect(signedIn, 'nothing signed before the visitor\'s click in the frame').to.equal(false);
    await clickInFrame('Reject');
    await waitFor(() => byText(root, '[part~="error"]', 'Error signing message'), 'the refusal', 15_000);
    expect(signedIn).to.equal(false);
    await el.disconnect();
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
      await visitor({ action: 'screenshot', name: `siwx-${theme}` });
    });
  }
});

describe('<wallet-modal> sign-in with Solana (SIWS)', function () {
  this.timeout(60_000);
  let solana: any;
  let plain: any;

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
    // Another wallet, without solana:signIn (its own key: 32 bytes of 0x0e).
    plain = installSolanaWallet({ rpcUrl: env.solana.rpcUrl, autoResponse: 'approve', hookOnly: true, chains: ['solana:localnet'], name: 'Plain Solana Wallet', global: null, signIn: false, seed: '0e'.repeat(32) });
  });
  after(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    localStorage.clear();
  });

  for (const signIn of [true, false]) {
    it(signIn
      ? 'a wallet with solana:signIn writes the SIWS message from the fields itself; the modal checks its text and the ed25519 signature'
      : 'a wallet without solana:signIn signs the modal\'s SIWS message with solana:signMessage', async () => {
      const env = (await testEnv()) as any;
      const LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
      localStorage.clear();
      const network = { id: LOCAL.split(':')[1], caipNetworkId: LOCAL, name: 'Solana Local', chainNamespace: 'solana', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [env.solana.rpcUrl] } }, testnet: true };
      const el = await createModal({ siwx: '' }, [network, ...anvilNetworks(env)]);
      await el.open();
      const root = viewRoot(el);
      const id = signIn ? 'standard.demo-wallet' : 'standard.plain-solana-wallet';
      const row = await waitFor(() => [...root.querySelectorAll<HTMLElement>('[data-connector-id]')].find((r) => r.dataset.connectorId === id || (signIn && r.dataset.connectorId === 'dev.walletmodal.demo')), id);
      row.click();
      await signInView(el);
      expect(root.textContent).to.contain('Solana Local');
      const signed = nextEvent(el, 'signin');
      const wallet = signIn ? solana : plain;
      const before = wallet.log.length;
      (root.querySelector('[part~="siwx-sign"]') as HTMLButtonElement).click();
      const { detail } = await signed;
      expect(detail.caipAddress).to.equal(`${LOCAL}:${signIn ? env.solana.owner : 'oapfTk8FG2np1vSoGANkbijWiQApHZMFAytSdCoass9'}`);
      expect(detail.message.split('\n')[0]).to.equal(`${location.host} wants you to sign in with your Solana account:`);
      expect(detail.message).to.contain(`Chain ID: ${LOCAL.split(':')[1]}`);
      expect(wallet.log.slice(before).map((l: any) => l.method)).to.include(signIn ? 'signIn' : 'signMessage');
      const check = core.verifySiwxSession({ domain: location.host, ...detail });
      expect(check, 'ed25519 over the text').to.deep.include({ valid: true });
      el.remove();
    });
  }
});
