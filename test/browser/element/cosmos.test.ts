// Cosmos: the Demo Keplr wallet (demo/wallet/families/keplr-wallet.js, bundled at
// /demo/wallet/dist/: `window.keplr` with Keplr's API on @cosmjs/amino's Secp256k1Wallet) connected
// through <wallet-modal>; ADR-036 signatures checked by wallet-modal/core and by
// @keplr-wallet/cosmos's verifyADR36Amino in Node.
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, createModal, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { accountAxeInBothThemes, reload } from './family-helpers';
import { visitor } from './embedded-helpers';

const HUB = 'cosmos:cosmoshub-4';
const OSMOSIS = 'cosmos:osmosis-1';
const ID = 'keplr.keplr';

const net = (caipNetworkId: string, name: string, symbol: string) => ({
  id: caipNetworkId.split(':')[1],
  caipNetworkId,
  name,
  chainNamespace: 'cosmos',
  nativeCurrency: { name, symbol, decimals: 6 },
  rpcUrls: { default: { http: ['https://rpc.example.invalid'] } },
});

async function networks() {
  return [net(HUB, 'Cosmos Hub', 'ATOM'), net(OSMOSIS, 'Osmosis', 'OSMO'), ...anvilNetworks(await testEnv())];
}

describe('Cosmos: a Keplr wallet', function () {
  this.timeout(60_000);
  let el: WalletModal;
  let keplr: any;

  before(async () => {
    localStorage.clear();
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installKeplrWallet } = await import('/demo/wallet/dist/keplr-wallet.js');
    keplr = installKeplrWallet({ autoResponse: 'approve' });
    el = await createModal({}, await networks());
  });
  after(() => el.remove());

  it('connects Keplr: enable, getKey, the Hub\'s bech32 address, no balance said plainly', async () => {
    await el.open();
    const root = viewRoot(el);
    const row = await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${ID}"]`), 'Keplr');
    expect(row.textContent).to.contain('Keplr');
    const connected = nextEvent(el, 'connect');
    row.click();
    const { detail } = await connected;
    expect([detail.namespace, detail.address, detail.caipNetworkId]).to.deep.equal(['cosmos', await keplr.address('cosmoshub-4'), HUB]);
    expect(keplr.calls.map((c: any) => c[0]).slice(0, 2)).to.deep.equal(['enable', 'getKey']);
    await el.open();
    await waitFor(() => root.querySelector('[part~="balance-note"]'), 'the account');
    expect(root.querySelector('[part~="balance-note"]')?.textContent).to.equal('Balance is not available for accounts on Cosmos Hub');
    expect(root.querySelector('[part~="receive-button"]'), 'Receive is offered').to.not.equal(null);
    expect(root.querySelector('[part~="send-button"]'), 'no Send: nothing to send through').to.equal(null);
  });

  it('signs with signArbitrary (ADR-036) through getProvider("cosmos"): wallet-modal/core and verifyADR36Amino both accept it', async () => {
    const provider = el.getProvider('cosmos' as any) as any;
    expect(provider).to.equal(keplr.keplr);
    const signer = el.getState()!.connection!.address;
    const message = 'Sign in to example.com ✓';
    const signature = await provider.signArbitrary('cosmoshub-4', signer, message);
    // @ts-ignore — the built ./core entry
    const core = await import('/dist/core.js');
    await core.init();
    expect(core.verifyCosmosMessage(signer, message, signature)).to.equal(true);
    expect(core.verifyCosmosMessage(signer, 'another', signature)).to.equal(false);
    expect(await visitor({ action: 'reference-verify', family: 'cosmos', address: signer, message, signature: signature.signature, publicKey: signature.pub_key.value })).to.equal(true);
  });

  it('switches to Osmosis: the wallet enables it and the account is its osmo address', async () => {
    const changed = nextEvent(el, 'accountschange');
    await el.switchNetwork(OSMOSIS);
    const { detail } = await changed;
    expect(detail.address).to.equal(await keplr.address('osmosis-1'));
    expect(detail.address).to.match(/^osmo1/);
    expect(keplr.calls.some((c: any) => c[0] === 'enable' && c[1][0] === 'osmosis-1')).to.equal(true);
  });

  it('another key chosen in Keplr (keplr_keystorechange) becomes the account', async () => {
    const changed = nextEvent(el, 'accountschange');
    keplr.switchKey('3a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819');
    const { detail } = await changed;
    expect(detail.address).to.equal(await keplr.address('osmosis-1'));
  });

  it('the Cosmos account view, light and dark: no serious axe violation', async () => {
    await accountAxeInBothThemes(el, 'Cosmos');
  });

  it('a reload reconnects, then disconnect ends it', async () => {
    el.remove();
    let detail;
    ({ el, detail } = await reload(await networks()));
    expect([detail.namespace, detail.reconnected]).to.deep.equal(['cosmos', true]);
    const gone = nextEvent(el, 'disconnect');
    await el.disconnect('cosmos' as any);
    expect((await gone).detail.namespace).to.equal('cosmos');
    expect(keplr.calls.some((c: any) => c[0] === 'disable')).to.equal(true);
  });
});

describe('Cosmos: a wallet answering another chain\'s address', function () {
  this.timeout(30_000);
  it('does not connect (an osmo address on the Hub)', async () => {
    localStorage.clear();
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installKeplrWallet } = await import('/demo/wallet/dist/keplr-wallet.js');
    installKeplrWallet({ autoResponse: 'approve', wrongPrefix: true, global: null });
    const el = await createModal({}, await networks());
    try {
      await el.open();
      const root = viewRoot(el);
      (await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${ID}"]`), 'Keplr')).click();
      await waitFor(() => el.getState()!.connecting?.state === 'error', 'the connection failed');
      expect(el.getState()!.connection).to.equal(null);
    } finally {
      el.remove();
    }
  });
});

describe('Cosmos: a hostile Keplr', function () {
  this.timeout(30_000);

  it('a key whose address has a broken checksum fails to connect (nothing connected)', async () => {
    localStorage.clear();
    const w = window as any;
    w.keplr = { enable: async () => {}, getKey: async () => ({ bech32Address: 'cosmos16uhkg9shajn0g2lvcjy923uryqgru8wpltl6em' }) };
    const el = await createModal({}, await networks());
    try {
      await el.open();
      const root = viewRoot(el);
      (await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${ID}"]`), 'Keplr')).click();
      await waitFor(() => el.getState()!.connecting?.state === 'error', 'the connection failed');
      expect(el.getState()!.connection).to.equal(null);
    } finally {
      el.remove();
      delete w.keplr;
    }
  });
});
