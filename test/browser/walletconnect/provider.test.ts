// The WalletConnect module's pieces on their own, against the real relay of the test backend:
// the socket's back-off and reconnect, hostile stored state, and the provider's answers without a
// session.
import { expect } from '@esm-bundle/chai';
import { waitFor } from '../element/helpers';
import { BACKOFF_MAX_MS, RelaySocket, backoffMs } from '../../../element/ts/wc-transport';
import { createWalletConnectProvider, type WalletConnectProvider } from '../../../element/ts/walletconnect';
import { loadWcWasm } from '../../../element/ts/wc-wasm';
import { relayUrl } from './relay';

const UNREACHABLE = 'ws://127.0.0.1:9/relay';

async function authUrl(): Promise<string> {
  const { relayAuthUrl } = await loadWcWasm();
  const seed = '11'.repeat(32);
  const out = JSON.parse(relayAuthUrl(JSON.stringify({ seed, sub: 'abcd', relayUrl: await relayUrl(), projectId: 'test-project', nowMs: Date.now() })));
  expect(out.error, 'relayAuthUrl').to.equal(undefined);
  return out.url;
}

async function provider(): Promise<WalletConnectProvider> {
  return createWalletConnectProvider({
    relayUrl: await relayUrl(),
    projectId: 'test-project',
    storagePrefix: '@wallet-modal/wc_',
    chains: () => ['eip155:31337', 'eip155:31338'],
    activeChain: () => 'eip155:31337',
    onUri: () => {},
  });
}

describe('WalletConnect module', function () {
  this.timeout(30_000);
  const open: Array<{ close(): void }> = [];
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    while (open.length) open.pop()!.close();
    localStorage.clear();
  });

  it('back-off doubles from 500 ms, is capped at 30 s and jitters within ±20 %', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0.5))).to.deep.equal([500, 1000, 2000, 4000]);
    expect(backoffMs(20, () => 0.5)).to.equal(BACKOFF_MAX_MS);
    expect(backoffMs(1000, () => 0.999)).to.be.at.most(BACKOFF_MAX_MS * 1.2);
    expect(backoffMs(0, () => 0)).to.equal(400);
  });

  it('the relay socket retries an unreachable relay with back-off, then connects and resets', async () => {
    const good = await authUrl();
    const attempts: number[] = [];
    const frames: string[] = [];
    let opened = 0;
    const start = performance.now();
    const socket = new RelaySocket({
      url: () => {
        attempts.push(performance.now() - start);
        return attempts.length <= 2 ? UNREACHABLE : good;
      },
      onOpen: () => opened++,
      onFrame: (f) => frames.push(f),
      onClose: () => {},
    });
    open.push({ close: () => socket.stop() });
    socket.start();
    await waitFor(() => opened === 1, 'the socket to open on the third attempt', 10_000);
    expect(attempts).to.have.length(3);
    // Second attempt after ~500 ms, third ~1000 ms later (±20 %).
    expect(attempts[1] - attempts[0]).to.be.within(350, 1500);
    expect(attempts[2] - attempts[1]).to.be.within(750, 2500);

    // The relay answers on the authenticated socket.
    expect(socket.send(JSON.stringify({ id: '1n', jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: 'ab'.repeat(32) } }))).to.equal(true);
    const answer = await waitFor(() => frames.find((f) => f.includes('"1n"')), 'the subscribe answer');
    expect(JSON.parse(answer).result).to.match(/^[0-9a-f]{64}$/);

    socket.stop();
    expect(socket.isOpen).to.equal(false);
    expect(socket.send('{}')).to.equal(false);
    const count = attempts.length;
    await new Promise((r) => setTimeout(r, 800));
    expect(attempts.length, 'no reconnect after stop').to.equal(count);
  });

  it('a corrupt stored session is dropped, not thrown', async () => {
    localStorage.setItem('@wallet-modal/wc_client', '{"config": {"metadata": 42}, "garbage": [');
    localStorage.setItem('@wallet-modal/wc_chain', 'eip155:31337');
    const p = await provider();
    open.push(p);
    expect(await p.request({ method: 'eth_accounts' })).to.deep.equal([]);
    expect(localStorage.getItem('@wallet-modal/wc_client')).to.equal(null);

    localStorage.setItem('@wallet-modal/wc_client', JSON.stringify({ relay: null, session: { topic: 'x'.repeat(64) } }));
    const q = await provider();
    open.push(q);
    expect(await q.request({ method: 'eth_accounts' })).to.deep.equal([]);
  });

  it('without a session: eth_chainId and wallet requests fail with 4900, bad params with -32602', async () => {
    const p = await provider();
    open.push(p);
    const error = (promise: Promise<unknown>) => promise.then(() => null, (e: { code: number; message: string }) => e);
    expect((await error(p.request({ method: 'eth_chainId' })))?.code).to.equal(4900);
    const sign = await error(p.request({ method: 'personal_sign', params: ['0x00', '0x0000000000000000000000000000000000000000'] }));
    expect(sign?.code).to.equal(4900);
    expect(sign?.message).to.contain('WalletConnect');
    expect((await error(p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: 'nope' }] })))?.code).to.equal(-32602);
    expect((await error(p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })))?.code).to.equal(4900);
    expect((await error(p.request({} as { method: string })))?.code).to.equal(-32602);
  });

  it('eth_requestAccounts pairs: the URI carries a 4-minute expiry; release cancels with 4001', async () => {
    const uris: Array<[string | null, number | null]> = [];
    const p = await createWalletConnectProvider({
      relayUrl: await relayUrl(),
      projectId: 'test-project',
      storagePrefix: '@wallet-modal/wc_',
      metadata: { name: 'provider test', description: '', url: location.origin, icons: [] },
      chains: () => ['eip155:31337'],
      activeChain: () => null,
      onUri: (uri, expiresAtMs) => uris.push([uri, expiresAtMs]),
    });
    open.push(p);
    const accounts = p.request({ method: 'eth_requestAccounts' });
    const again = p.request({ method: 'eth_requestAccounts' });
    await waitFor(() => uris.length > 0, 'a URI');
    expect(uris).to.have.length(1);
    const [uri, expiresAt] = uris[0];
    expect(uri).to.match(/^wc:[0-9a-f]{64}@2\?.*symKey=[0-9a-f]{64}/);
    expect(expiresAt! - Date.now()).to.be.within(235_000, 241_000);
    p.release();
    const errors = await Promise.all([accounts, again].map((x) => x.then(() => null, (e: { code: number }) => e.code)));
    expect(errors).to.deep.equal([4001, 4001]);
    expect(uris.at(-1)).to.deep.equal([null, null]);
  });
});
