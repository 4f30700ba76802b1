// Bitcoin: the Demo Bitcoin wallets (demo/wallet/families/bitcoin-wallet.js, bundled at
// /demo/wallet/dist/: one key signing with @scure/btc-signer) found by wallet-standard and by
// sats-connect, connected through <wallet-modal>; signatures checked by wallet-modal/core and by
// bip322-js in Node (the visitor's reference-verify).
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, byText, createModal, fillSendForm, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { accountAxeInBothThemes, reload, viewAxeInBothThemes } from './family-helpers';
import { visitor } from './embedded-helpers';

const MAINNET = 'bip122:000000000019d6689c085ae165831e93';
const TESTNET = 'bip122:000000000933ea01ad0ee984209779ba';
const STANDARD = 'bitcoin.demo-bitcoin';
const SATS = 'sats.demosatsprovider';

async function core(): Promise<any> {
  // @ts-ignore — the built ./core entry
  const m = await import('/dist/core.js');
  await m.init();
  return m;
}

async function networks() {
  return [MAINNET, TESTNET, ...anvilNetworks(await testEnv())];
}

/** Connects `id` from the Connect view; resolves with the connect event's detail. */
async function connect(el: WalletModal, id: string): Promise<any> {
  await el.open();
  const root = viewRoot(el);
  const row = await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${id}"]`), id);
  const connected = nextEvent(el, 'connect');
  row.click();
  return (await connected).detail;
}

describe('Bitcoin: a wallet-standard wallet and a sats-connect provider', function () {
  this.timeout(60_000);
  let el: WalletModal;
  let wallet: any;
  let sats: any;

  before(async () => {
    localStorage.clear();
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installBitcoinWallet } = await import('/demo/wallet/dist/bitcoin-wallet.js');
    wallet = installBitcoinWallet({ kind: 'standard', autoResponse: 'approve' });
    sats = installBitcoinWallet({ kind: 'sats', network: 'testnet', autoResponse: 'approve' });
    el = await createModal({}, await networks());
  });
  after(() => el.remove());

  it('lists both wallets by their names and icons', async () => {
    await el.open();
    const root = viewRoot(el);
    for (const [id, name] of [[STANDARD, 'Demo Bitcoin'], [SATS, 'Demo Sats']]) {
      const row = await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${id}"]`), name);
      expect(row.textContent).to.contain(name);
      expect(await waitFor(() => row.querySelector('img')?.getAttribute('src'), 'its icon')).to.match(/^data:image\/svg\+xml/);
    }
    await el.close();
  });

  it('connects the wallet-standard wallet: its payment address (not the ordinals one) on Bitcoin, in CAIP-10; no token list (the blockchain API has none for Bitcoin), said plainly', async () => {
    const detail = await connect(el, STANDARD);
    const { payment } = wallet.addresses('mainnet');
    expect([detail.namespace, detail.address, detail.caipNetworkId, detail.caipAddress]).to.deep.equal(['bip122', payment.address, MAINNET, `${MAINNET}:${payment.address}`]);
    expect(wallet.calls).to.include('bitcoin:connect');
    await el.open();
    const root = viewRoot(el);
    const address = await waitFor(() => root.querySelector('[part~="address"]')?.textContent, 'the address');
    expect(address).to.equal(`${payment.address.slice(0, 4)}...${payment.address.slice(-6)}`);
    expect((await waitFor(() => byText(root, '.wm-note', /Tokens are not available/), 'the note')).textContent).to.equal('Tokens are not available for accounts on Bitcoin');
  });

  it('signs a message through getProvider("bip122"): BIP-322 that wallet-modal/core and bip322-js both verify', async () => {
    const provider = el.getProvider('bip122' as any) as any;
    expect(provider, 'the wallet-standard wallet itself').to.equal(wallet.wallet);
    const account = provider.accounts.find((a: any) => a.address === el.getState()!.connection!.address);
    const message = 'Sign in to example.com ✓';
    const [{ signature }] = await provider.features['bitcoin:signMessage'].signMessage({ account, message: new TextEncoder().encode(message) });
    const base64 = new TextDecoder().decode(signature);
    const { verifyBitcoinMessage } = await core();
    expect(verifyBitcoinMessage(account.address, message, base64)).to.equal(true);
    expect(await visitor({ action: 'reference-verify', family: 'bip122', address: account.address, message, signature: base64 })).to.equal(true);
    let why = '';
    expect(verifyBitcoinMessage(account.address, message + '!', base64, (w: string) => (why = w))).to.equal(false);
    expect(why).to.equal('The signature is not this address\'s over this message');
  });

  it('switches to Bitcoin Testnet: the account is the wallet\'s testnet address', async () => {
    const changed = nextEvent(el, 'accountschange');
    await el.switchNetwork(TESTNET);
    const { detail } = await changed;
    expect(detail.address).to.equal(wallet.addresses('testnet').payment.address);
    await waitFor(() => el.getState()!.connection?.caipNetworkId === TESTNET, 'on testnet');
    expect(el.getState()!.connection!.address).to.match(/^tb1q/);
  });

  it('disconnects, and after a reload the stored connection reconnects without a prompt', async () => {
    await el.switchNetwork(MAINNET);
    await waitFor(() => el.getState()!.connection?.address.startsWith('bc1q'), 'back on mainnet');
    el.remove();
    wallet.calls.length = 0;
    let detail;
    ({ el, detail } = await reload(await networks()));
    expect([detail.namespace, detail.reconnected, detail.connectorId]).to.deep.equal(['bip122', true, STANDARD]);
    expect(wallet.calls, 'no bitcoin:connect prompt').to.not.include('bitcoin:connect');
    const gone = nextEvent(el, 'disconnect');
    await el.disconnect('bip122' as any);
    expect((await gone).detail.namespace).to.equal('bip122');
    expect(wallet.calls).to.include('standard:disconnect');
  });

  it('connects the sats-connect provider on the network it is on (testnet), with its payment address', async () => {
    const detail = await connect(el, SATS);
    expect([detail.address, detail.caipNetworkId]).to.deep.equal([sats.addresses('testnet').payment.address, TESTNET]);
    expect(sats.calls.slice(0, 2)).to.deep.equal(['wallet_connect', 'wallet_getNetwork']);
  });

  it('a network switch asks the sats-connect wallet to change network, and a signature there verifies', async () => {
    const changed = nextEvent(el, 'accountschange');
    await el.switchNetwork(MAINNET);
    expect((await changed).detail.address).to.equal(sats.addresses('mainnet').payment.address);
    expect(sats.calls).to.include('wallet_changeNetwork');
    expect(sats.network).to.equal('mainnet');
    const provider = el.getProvider('bip122' as any) as any;
    expect(provider).to.equal(sats.provider);
    const address = el.getState()!.connection!.address;
    const { result } = await provider.request('signMessage', { address, message: 'hello', protocol: 'ECDSA' });
    const { verifyBitcoinMessage } = await core();
    expect(verifyBitcoinMessage(address, 'hello', result.signature), 'the legacy form').to.equal(true);
    expect(await visitor({ action: 'reference-verify', family: 'bip122', address, message: 'hello', signature: result.signature })).to.equal(true);
  });

  it('the Bitcoin account view, light and dark: no serious axe violation', async () => {
    await accountAxeInBothThemes(el, 'Bitcoin');
  });
});

describe('Bitcoin: the balance on the local regtest chain (litecoind behind the backend\'s Esplora API)', function () {
  this.timeout(60_000);
  const LOCAL = 'bip122:530827f38f93b43ed12af0b3ad25a288';

  it('connected on the regtest chain, the account shows the BTC the node holds for the payment address', async () => {
    const env = (await testEnv()) as any;
    if (!env.bitcoin) throw new Error('no local Bitcoin chain in this run (WM_BITCOIN): scripts/test.sh starts it');
    localStorage.clear();
    const esplora = `${env.backendUrl}/bitcoin/api`;
    const regtest = { id: LOCAL.split(':')[1], caipNetworkId: LOCAL, name: 'Bitcoin Regtest', chainNamespace: 'bip122', nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }, rpcUrls: { default: { http: [esplora] } }, testnet: true };
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installBitcoinWallet } = await import('/demo/wallet/dist/bitcoin-wallet.js');
    const w = installBitcoinWallet({ kind: 'standard', name: 'Regtest Wallet', global: null });
    const el = await createModal({}, [regtest, MAINNET, ...anvilNetworks(await testEnv())]);
    try {
      const detail = await connect(el, 'bitcoin.regtest-wallet');
      const payment = w.addresses('regtest').payment.address;
      expect([detail.address, detail.caipNetworkId]).to.deep.equal([payment, LOCAL]);
      expect(payment).to.equal(env.bitcoin.funded, 'the address the chain was mined to');
      const stats = await (await fetch(`${esplora}/address/${payment}`)).json();
      const sats = BigInt(stats.chain_stats.funded_txo_sum) - BigInt(stats.chain_stats.spent_txo_sum);
      expect(sats > 0n, 'the node holds coins for it').to.equal(true);
      await el.open();
      const root = viewRoot(el);
      const balance = await waitFor(() => root.querySelector('[part~="balance"]:not([aria-busy])')?.textContent, 'the balance', 15_000);
      const whole = sats / 100_000_000n;
      const milli = (sats % 100_000_000n) / 100_000n;
      expect(balance).to.equal(`${whole.toLocaleString('en-US')}.${milli.toString().padStart(3, '0')} BTC`);
      expect(root.querySelector('[part~="balance-note"]'), 'no note: the balance is read').to.equal(null);
    } finally {
      el.remove();
    }
  });
});

/** The local regtest chain as a network, its Esplora API at the backend. */
async function regtestNetwork(): Promise<{ network: any; esplora: string; env: any }> {
  const env = (await testEnv()) as any;
  if (!env.bitcoin) throw new Error('no local Bitcoin chain in this run (WM_BITCOIN): scripts/test.sh starts it');
  const esplora = `${env.backendUrl}/bitcoin/api`;
  const LOCAL = 'bip122:530827f38f93b43ed12af0b3ad25a288';
  const network = {
    id: LOCAL.split(':')[1], caipNetworkId: LOCAL, name: 'Bitcoin Regtest', chainNamespace: 'bip122', nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
    rpcUrls: { default: { http: [esplora] } }, blockExplorers: { default: { name: 'Esplora', url: `${env.backendUrl}/bitcoin` } }, testnet: true,
  };
  return { network, esplora, env };
}

/** Satoshis an address holds, as the Esplora API says. */
async function satsOf(esplora: string, address: string): Promise<bigint> {
  const s = await (await fetch(`${esplora}/address/${address}`)).json();
  return BigInt(s.chain_stats.funded_txo_sum) - BigInt(s.chain_stats.spent_txo_sum) + BigInt(s.mempool_stats.funded_txo_sum) - BigInt(s.mempool_stats.spent_txo_sum);
}

/** From the Account view: the Send form, BTC, `amount` to `receiver` (then `onForm`), then the preview. */
async function previewBitcoinSend(root: ShadowRoot, amount: string, receiver: string, onForm?: () => Promise<void>): Promise<void> {
  (await waitFor(() => root.querySelector<HTMLButtonElement>('[part~="send-button"]'), 'Send')).click();
  const select = await waitFor(() => root.querySelector<HTMLSelectElement>('[part~="send"] select'), 'token picker');
  await waitFor(() => [...select.options].some((o) => o.textContent?.startsWith('BTC')), 'BTC offered, with the balance the API reads');
  fillSendForm(root, amount, receiver);
  await onForm?.();
  byText(root, 'button', 'Preview send')!.click();
}

/** The preview's network fee once planned, or why there is none. */
const feeText = (root: ShadowRoot) => {
  const dd = byText(root, '[part~="send-preview"] dt', /fee/i)?.nextElementSibling;
  return dd && !dd.querySelector('.wm-skeleton') ? dd.textContent : null;
};

describe('Bitcoin: sending on the local regtest chain (a PSBT the wallet signs, broadcast through the Esplora API)', function () {
  this.timeout(90_000);

  it('sends 0.01 BTC: the fee planned at the API\'s rate, the wallet signs, the node has it, a block confirms it and the receiver\'s output appears', async () => {
    const { network, esplora } = await regtestNetwork();
    localStorage.clear();
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installBitcoinWallet, bitcoinAddresses } = await import('/demo/wallet/dist/bitcoin-wallet.js');
    const w = installBitcoinWallet({ kind: 'standard', name: 'Sending Wallet', global: null, autoResponse: 'approve' });
    const receiver = bitcoinAddresses('11'.repeat(32), 'regtest').payment.address;
    const el = await createModal({}, [network, MAINNET, ...anvilNetworks(await testEnv())]);
    try {
      await connect(el, 'bitcoin.sending-wallet');
      const payer = w.addresses('regtest').payment.address;
      const [payerBefore, receiverBefore] = [await satsOf(esplora, payer), await satsOf(esplora, receiver)];
      await el.open();
      const root = viewRoot(el);
      await previewBitcoinSend(root, '0.01', receiver, async () => {
        expect(root.querySelectorAll('[part~="send"] input')[1]?.getAttribute('placeholder'), 'the address form of Bitcoin').to.equal('Bitcoin address');
        await viewAxeInBothThemes(el, 'bitcoin-send-form');
      });
      const rates = await (await fetch(`${esplora}/fee-estimates`)).json();
      // One P2WPKH input, the payment and the change (141 vB) at the two-block target's rate.
      const fee = BigInt(Math.ceil(141 * Math.max(1, rates['2'])));
      const shown = (Number(fee) / 1e8).toFixed(8).replace(/0+$/, '');
      expect(await waitFor(() => feeText(root), 'the fee', 15_000)).to.equal(`${shown} BTC`);
      await viewAxeInBothThemes(el, 'bitcoin-send-preview');
      byText(root, '[part~="send-preview"] button', 'Send')!.click();
      const link = await waitFor(() => root.querySelector<HTMLAnchorElement>('[part~="sent"] a'), 'Transaction sent', 15_000);
      const txid = link.href.split('/tx/')[1];
      expect(txid).to.match(/^[0-9a-f]{64}$/);
      expect(w.calls).to.include('bitcoin:signTransaction');
      expect(await (await fetch(`${esplora}/tx/${txid}/status`)).json(), 'in the mempool').to.deep.include({ confirmed: false });
      await visitor({ action: 'bitcoin-mine', blocks: 1 });
      await waitFor(() => !root.querySelector('[part~="sent"]'), 'confirmed: the notice goes', 20_000);
      expect(await (await fetch(`${esplora}/tx/${txid}/status`)).json()).to.deep.include({ confirmed: true });
      const outputs = await (await fetch(`${esplora}/address/${receiver}/utxo`)).json();
      expect(outputs.filter((o: any) => o.txid === txid).map((o: any) => o.value), 'the receiver\'s new output').to.deep.equal([1_000_000]);
      expect(await satsOf(esplora, receiver)).to.equal(receiverBefore + 1_000_000n);
      expect(await satsOf(esplora, payer), 'the payer paid the amount and the fee shown, the change came back').to.equal(payerBefore - 1_000_000n - fee);
    } finally {
      el.remove();
    }
  });

  it('a sats-connect wallet that signs another transaction than the one approved: nothing is broadcast, the form says why', async () => {
    const { network, esplora } = await regtestNetwork();
    localStorage.clear();
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installBitcoinWallet, bitcoinAddresses } = await import('/demo/wallet/dist/bitcoin-wallet.js');
    const w = installBitcoinWallet({ kind: 'sats', providerId: 'TamperingProvider', name: 'Tampering Sats', network: 'regtest', global: null, autoResponse: 'approve' });
    w.setTamper(true);
    const receiver = bitcoinAddresses('22'.repeat(32), 'regtest').payment.address;
    const el = await createModal({}, [network, MAINNET, ...anvilNetworks(await testEnv())]);
    try {
      await connect(el, 'sats.tamperingprovider');
      const payer = w.addresses('regtest').payment.address;
      const before = await satsOf(esplora, payer);
      await el.open();
      const root = viewRoot(el);
      await previewBitcoinSend(root, '0.02', receiver);
      await waitFor(() => feeText(root)?.endsWith(' BTC'), 'the fee', 15_000);
      byText(root, '[part~="send-preview"] button', 'Send')!.click();
      const error = await waitFor(() => root.querySelector('[part~="send"] [role="alert"]')?.textContent, 'the form says why', 15_000);
      expect(error).to.equal('The wallet signed another transaction than the one you approved');
      expect(w.calls).to.include('signPsbt');
      expect(await satsOf(esplora, receiver), 'nothing reached the receiver').to.equal(0n);
      expect(await satsOf(esplora, payer), 'nothing left the payer').to.equal(before);
    } finally {
      el.remove();
    }
  });
});

describe('Bitcoin: bad wallets', function () {
  this.timeout(30_000);

  it('a wallet answering another network\'s addresses (testnet ones on mainnet) does not connect, and says so', async () => {
    localStorage.clear();
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installBitcoinWallet } = await import('/demo/wallet/dist/bitcoin-wallet.js');
    const bad = installBitcoinWallet({ kind: 'sats', providerId: 'WrongNetProvider', name: 'Wrong Net', network: 'mainnet', wrongNetwork: true, global: null });
    const el = await createModal({}, await networks());
    try {
      await el.open();
      const root = viewRoot(el);
      (await waitFor(() => root.querySelector<HTMLElement>('[data-connector-id="sats.wrongnetprovider"]'), 'the wallet')).click();
      await waitFor(() => el.getState()!.connecting?.state === 'error', 'the connection failed');
      expect(el.getState()!.connecting!.error!.message).to.equal('Failed to connect');
      expect(el.getState()!.connection, 'nothing connected').to.equal(null);
      expect(bad.calls).to.include('wallet_connect');
    } finally {
      el.remove();
    }
  });
});

describe('Bitcoin: a hostile sats-connect provider', function () {
  this.timeout(30_000);

  it('an answer of 10 MB, and addresses that are not Bitcoin addresses, fail to connect with an error (no hang, nothing connected)', async () => {
    localStorage.clear();
    const w = window as any;
    const huge = 'x'.repeat(10 * 1024 * 1024);
    w.HugeProvider = { request: async () => ({ result: { addresses: [{ address: huge, purpose: 'payment' }] } }) };
    w.JunkProvider = { request: async () => ({ result: { addresses: [{ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', purpose: 'payment' }] } }) };
    w.btc_providers = [{ id: 'HugeProvider', name: 'Huge' }, { id: 'JunkProvider', name: 'Junk' }, { id: 'Missing.Provider', name: 'Missing' }];
    const el = await createModal({}, await networks());
    try {
      await el.open();
      const root = viewRoot(el);
      for (const id of ['sats.hugeprovider', 'sats.junkprovider']) {
        (await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${id}"]`), id)).click();
        await waitFor(() => el.getState()!.connecting?.state === 'error', `${id} failed`);
        expect(el.getState()!.connection, id).to.equal(null);
        await el.close();
        await el.open();
      }
    } finally {
      el.remove();
      delete w.btc_providers;
    }
  });
});
