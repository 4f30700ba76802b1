// WalletConnect v2 end to end: the real element build (its lazily loaded WalletConnect module)
// pairs through the test backend's relay with the OFFICIAL wallet SDK, @walletconnect/sign-client,
// running in the same page as the wallet, which answers through real anvil chains.
import { expect } from '@esm-bundle/chai';
import { recoverMessageAddress, toHex } from 'viem';
import { byText, createModal, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from '../element/helpers';
import { ACCOUNT, RECIPIENT, createTestWallet, receiptOf, rpc, settledTopic, type TestWallet } from './wallet';
import { relayUrl } from './relay';

const STEP_MS = 20_000;
let wallet: TestWallet | null = null;

async function pairingUri(el: WalletModal): Promise<string> {
  return waitFor(() => el.getState().walletConnect?.uri as string | undefined, 'a pairing URI in the snapshot', STEP_MS);
}

/** Opens the modal, picks the WalletConnect row and returns the URI the element shows. */
async function startPairing(el: WalletModal): Promise<string> {
  await el.open();
  const row = await waitFor(() => viewRoot(el)?.querySelector<HTMLElement>('[data-connector-id="walletConnect"]'), 'the WalletConnect row');
  row.click();
  return pairingUri(el);
}

/** A modal connected to the test wallet over WalletConnect; returns the `connect` detail. */
async function connectWithWallet(el: WalletModal, w: TestWallet) {
  const uri = await startPairing(el);
  const connected = nextEvent(el, 'connect', STEP_MS);
  await w.pair(uri);
  return (await connected).detail;
}

describe('WalletConnect with the official wallet SDK through the local relay', function () {
  this.timeout(90_000);

  beforeEach(async () => {
    localStorage.clear();
    wallet = await createTestWallet();
  });
  afterEach(async () => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    await wallet?.close();
    wallet = null;
    localStorage.clear();
  });

  it('pairs, signs, sends a transaction, follows chainChanged and a wallet-side disconnect', async () => {
    const w = wallet!;
    const env = await testEnv();
    const el = await createModal({ 'relay-url': await relayUrl() });

    const detail = await connectWithWallet(el, w);
    expect(detail.address).to.equal(ACCOUNT);
    expect(detail.connectorId).to.equal('walletConnect');
    expect(detail.caipNetworkId).to.equal('eip155:31337');
    expect(w.proposals).to.have.length(1);
    expect(w.proposals[0].chains).to.deep.equal(['eip155:31337', 'eip155:31338']);
    expect(w.proposals[0].methods).to.include.members(['personal_sign', 'eth_sendTransaction', 'wallet_switchEthereumChain']);
    const topic = await settledTopic(w);
    expect(el.getState().status.eip155).to.equal('connected');
    expect(el.getState().walletConnect).to.equal(null);

    const provider = el.getProvider('eip155');
    expect(provider, 'getProvider(eip155)').to.not.equal(undefined);
    expect(await provider.request({ method: 'eth_accounts' })).to.deep.equal([ACCOUNT]);
    expect(await provider.request({ method: 'eth_chainId' })).to.equal('0x7a69');

    // personal_sign goes to the wallet as wc_sessionRequest; the signature recovers to the account.
    const message = `wallet-modal interop ${Date.now()}`;
    const signature = await provider.request({ method: 'personal_sign', params: [toHex(message), ACCOUNT] });
    expect(signature).to.match(/^0x[0-9a-f]{130}$/);
    expect(await recoverMessageAddress({ message, signature })).to.equal(ACCOUNT);
    expect(w.requests.map((r) => [r.method, r.chainId])).to.deep.equal([['personal_sign', 'eip155:31337']]);

    // eth_sendTransaction: the wallet sends it on anvil A; the receipt is there.
    const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: ACCOUNT, to: RECIPIENT, value: '0x1' }] });
    expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    const receipt = await receiptOf(env.chains[0].rpcUrl, hash);
    expect(receipt?.status, 'receipt status on anvil A').to.equal('0x1');
    expect(receipt.to.toLowerCase()).to.equal(RECIPIENT.toLowerCase());

    // The wallet moves to anvil B: the element follows.
    const chainChanged = new Promise((resolve) => provider.on('chainChanged', resolve));
    const networkChange = nextEvent(el, 'networkchange', STEP_MS);
    await w.emit(topic, 'eip155:31338', 'chainChanged', 31338);
    expect((await networkChange).detail.caipNetworkId).to.equal('eip155:31338');
    expect(await chainChanged).to.equal('0x7a6a');
    expect(el.getState().network.caipNetworkId).to.equal('eip155:31338');
    expect(await provider.request({ method: 'eth_chainId' })).to.equal('0x7a6a');

    // The wallet ends the session: the element is disconnected and forgets it.
    const disconnected = nextEvent(el, 'disconnect', STEP_MS);
    await w.disconnect(topic);
    expect((await disconnected).detail.connectorId).to.equal('walletConnect');
    await waitFor(() => el.getState().status.eip155 === 'disconnected', 'status disconnected');
    expect(el.getState().connection).to.equal(null);
    expect(el.getProvider('eip155')).to.equal(undefined);
    expect(localStorage.getItem('@wallet-modal/wc_client')).to.equal(null);
  });

  it('a Solana session: the Solana account connects, and a switch among the session’s Solana chains asks the wallet nothing', async () => {
    await wallet!.close();
    const SOLANA_ACCOUNT = 'FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc';
    const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
    const TESTNET = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z';
    const w = (wallet = await createTestWallet({ solanaAccount: SOLANA_ACCOUNT }));
    // Solana first: the active namespace is solana.
    const el = await createModal({ 'relay-url': await relayUrl() }, [DEVNET, TESTNET]);
    const detail = await connectWithWallet(el, w);
    expect([detail.namespace, detail.address, detail.caipNetworkId, detail.connectorId]).to.deep.equal(['solana', SOLANA_ACCOUNT, DEVNET, 'walletConnect']);
    expect(w.proposals[0]?.name, 'proposed').to.be.a('string');
    await el.switchNetwork(TESTNET);
    await waitFor(() => el.getState().connection?.caipNetworkId === TESTNET, 'on testnet');
    expect(w.requests, 'a Solana wallet has no current chain: nothing asked').to.deep.equal([]);
    expect(el.getState().status.solana).to.equal('connected');
  });

  it('disconnecting from the element sends wc_sessionDelete to the wallet', async () => {
    const w = wallet!;
    const el = await createModal({ 'relay-url': await relayUrl() });
    await connectWithWallet(el, w);
    const topic = await settledTopic(w);
    expect(localStorage.getItem('@wallet-modal/wc_client'), 'session stored').to.be.a('string');

    const disconnected = nextEvent(el, 'disconnect', STEP_MS);
    await el.disconnect();
    await disconnected;
    await waitFor(() => w.deleted.includes(topic), 'the wallet to receive wc_sessionDelete', STEP_MS);
    expect(w.client.session.getAll().map((s) => s.topic)).to.not.include(topic);
    expect(el.getState().status.eip155).to.equal('disconnected');
    expect(localStorage.getItem('@wallet-modal/wc_client')).to.equal(null);
    expect(localStorage.getItem('@wallet-modal/wc_chain'), 'the chosen chain is deleted').to.equal(null);
    // As the README says: the relay identity is kept (it authenticates this browser to the relay only).
    expect(localStorage.getItem('@wallet-modal/wc_relay_seed')).to.match(/^[0-9a-f]{64}$/);
  });

  it('switching network from the element goes to the wallet over the session', async () => {
    const w = wallet!;
    const env = await testEnv();
    const el = await createModal({ 'relay-url': await relayUrl() });
    await connectWithWallet(el, w);
    await settledTopic(w);

    const networkChange = nextEvent(el, 'networkchange', STEP_MS);
    await el.switchNetwork('eip155:31338');
    expect((await networkChange).detail.caipNetworkId).to.equal('eip155:31338');
    const switchRequest = w.requests.find((r) => r.method === 'wallet_switchEthereumChain');
    expect(switchRequest?.params).to.deep.equal([{ chainId: '0x7a6a' }]);
    await waitFor(() => el.getState().network?.caipNetworkId === 'eip155:31338', 'network B active');

    // Requests now go to the wallet on anvil B.
    const provider = el.getProvider('eip155');
    const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: ACCOUNT, to: RECIPIENT, value: '0x2' }] });
    expect(w.requests.at(-1)?.chainId).to.equal('eip155:31338');
    expect((await receiptOf(env.chains[1].rpcUrl, hash))?.status, 'receipt status on anvil B').to.equal('0x1');
    expect(await rpc(env.chains[0].rpcUrl, 'eth_getTransactionReceipt', [hash])).to.equal(null);
  });

  it('restores the session after the element is re-created, without a new proposal', async () => {
    const w = wallet!;
    const relay = await relayUrl();
    const first = await createModal({ 'relay-url': relay });
    await connectWithWallet(first, w);
    const topic = await settledTopic(w);
    first.remove();
    expect(localStorage.getItem('@wallet-modal/wc_client'), 'session kept in storage').to.be.a('string');

    // A new element (as after a reload) reconnects silently from storage.
    const reconnected = new Promise<CustomEvent>((resolve) => {
      document.addEventListener('connect', (e) => resolve(e as CustomEvent), { once: true });
    });
    const second = await createModal({ 'relay-url': relay });
    const detail = (await reconnected).detail;
    expect(detail.reconnected).to.equal(true);
    expect(detail.address).to.equal(ACCOUNT);
    expect(detail.connectorId).to.equal('walletConnect');
    expect(second.getState().status.eip155).to.equal('connected');
    expect(w.proposals).to.have.length(1);

    // The restored session really works: a request reaches the wallet on the same topic.
    const message = 'after reload';
    const signature = await second.getProvider('eip155').request({ method: 'personal_sign', params: [toHex(message), ACCOUNT] });
    expect(await recoverMessageAddress({ message, signature })).to.equal(ACCOUNT);
    expect(w.requests.at(-1)?.topic).to.equal(topic);
  });

  it("shows 'Connection rejected' when the wallet rejects, and a retry makes a new URI", async () => {
    const w = wallet!;
    w.rejectProposals = true;
    const el = await createModal({ 'relay-url': await relayUrl() });
    const uri = await startPairing(el);
    const error = nextEvent(el, 'error', STEP_MS);
    await w.pair(uri);
    expect((await error).detail.message).to.equal('Connection rejected');
    const root = viewRoot(el);
    await waitFor(() => byText(root, '[part~="error"]', 'Connection rejected'), "'Connection rejected' shown");
    expect(el.getState().status.eip155).to.not.equal('connected');

    const retry = await waitFor(() => byText(root, 'button', /try again/i), 'the retry button');
    retry.click();
    const second = await waitFor(() => {
      const u = el.getState().walletConnect?.uri as string | undefined;
      return u && u !== uri ? u : null;
    }, 'a new URI', STEP_MS);
    expect(second).to.match(/^wc:[0-9a-f]{64}@2\?/);
    // The new pairing is shown at once: QR code drawn and Copy link usable, no re-render needed.
    await waitFor(() => root.querySelector('.wm-pairing[data-state="ready"] .wm-qr[data-state="ready"] svg'), 'the new QR code', STEP_MS);
    expect(root.querySelector<HTMLButtonElement>('.wm-copy-uri')!.disabled).to.equal(false);
  });

  it('pairs again in the same page after a disconnect: the QR code and Copy link show without a reload', async () => {
    const w = wallet!;
    const el = await createModal({ 'relay-url': await relayUrl() });
    await connectWithWallet(el, w);
    await settledTopic(w);
    const disconnected = nextEvent(el, 'disconnect', STEP_MS);
    await el.disconnect();
    await disconnected;

    const uri = await startPairing(el);
    const root = viewRoot(el);
    const shown = await waitFor(
      () => root.querySelector('.wm-pairing[data-state="ready"] .wm-qr[data-state="ready"] svg[role="img"]'),
      'the QR code of the second pairing',
      STEP_MS,
    );
    expect(shown).to.not.equal(null);
    expect(root.querySelector<HTMLButtonElement>('.wm-copy-uri')!.disabled, 'Copy link enabled').to.equal(false);
    // And the second pairing really connects.
    const connected = nextEvent(el, 'connect', STEP_MS);
    await w.pair(uri);
    expect((await connected).detail.connectorId).to.equal('walletConnect');
  });
});
