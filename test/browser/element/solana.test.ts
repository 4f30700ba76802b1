// Solana end to end: the Demo Wallet's wallet-standard side (demo/wallet/solana-wallet.js, signing
// with WebCrypto ed25519) connected through <wallet-modal>, against the real Solana VM
// (demo/solana/rpc.mjs: litesvm behind the standard JSON-RPC) seeded by scripts/test.sh, and the
// real backend's blockchain API reading that chain.
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, byText, createModal, fillSendForm, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { clickInFrame, emailLogin, framePrefix, frameText, visitor } from './embedded-helpers';
import { expectNoSeriousAxeViolations } from '../views/axe';

const LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
// Receivers with no account on the chain yet: the ed25519 keys of 32 bytes of 7 and of 9.
const SOL_RECEIVER = 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB';
const TOKEN_RECEIVER = 'J2xccRtuG43drESLYznHhLhQkLTdfepcKYbiQ9BsJVaf';

interface SolanaEnv {
  rpcUrl: string;
  owner: string;
  tokens: Record<'usdc' | 'second', { mint: string; symbol: string; decimals: number; program: string }>;
}

async function solanaEnv(): Promise<SolanaEnv> {
  const env = (await testEnv()) as any;
  if (!env.solana) throw new Error('no local Solana chain in this run (WM_SOLANA): scripts/test.sh starts it');
  return env.solana;
}

async function node(method: string, params: unknown[]): Promise<any> {
  const { rpcUrl } = await solanaEnv();
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const lamportsOf = async (address: string): Promise<bigint> => BigInt((await node('getBalance', [address, { commitment: 'confirmed' }])).value);

/** The amount of `mint` `owner` holds (base units), 0 without a token account. */
async function tokenBalance(owner: string, mint: string): Promise<bigint> {
  const { value } = await node('getTokenAccountsByOwner', [owner, { mint }, { encoding: 'jsonParsed', commitment: 'confirmed' }]);
  return value.reduce((sum: bigint, a: any) => sum + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n);
}

/** `raw` base units floored to 3 decimals and grouped en-US, as the modal shows balances. */
function shown(raw: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const milli = (raw % unit) / 10n ** BigInt(decimals - 3);
  return `${(raw / unit).toLocaleString('en-US')}.${milli.toString().padStart(3, '0')}`;
}

function solanaNetwork(rpcUrl: string) {
  return {
    id: LOCAL.split(':')[1],
    caipNetworkId: LOCAL,
    name: 'Solana Local',
    chainNamespace: 'solana',
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  };
}

const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
const TESTNET = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z';

/** The local Solana chain first (the active namespace is solana), the built-in devnet and testnet, the anvil chains. */
function networks(all: any) {
  return [solanaNetwork(all.solana.rpcUrl), DEVNET, TESTNET, ...anvilNetworks(all)];
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The preview's network fee, once estimated. */
function feeOf(root: ShadowRoot): string | null {
  const dt = byText(root, '[part~="send-preview"] dt', /fee/i);
  const text = dt?.nextElementSibling?.firstChild?.textContent ?? '';
  return / SOL$/.test(text) ? text : null;
}

/** What the preview says the fee includes beside the network's own, if anything. */
const feeDetailOf = (root: ShadowRoot) => root.querySelector('[part~="send-preview"] .wm-send-fee-detail')?.textContent ?? null;

/** Fills the Send form (token by symbol, amount, receiver) and opens the preview. */
async function previewSend(root: ShadowRoot, symbol: string, amount: string, receiver: string): Promise<void> {
  for (let i = 0; i < 3 && root.querySelector('[part~="send"], [part~="send-preview"], [part~="receive"]'); i++) {
    root.querySelector<HTMLElement>('button[aria-label="Back"]')?.click();
    await new Promise((r) => setTimeout(r, 50));
  }
  byText(root, '[role="tab"]', 'Tokens')?.click();
  await waitFor(() => root.querySelector('[part~="token"]'), 'token rows');
  (await waitFor(() => root.querySelector<HTMLButtonElement>('[part~="send-button"]'), 'Send')).click();
  const select = await waitFor(() => root.querySelector<HTMLSelectElement>('[part~="send"] select'), 'token picker');
  const index = [...select.options].findIndex((o) => o.textContent?.startsWith(symbol));
  expect(index, `${symbol} is offered`).to.be.greaterThan(-1);
  select.value = String(index);
  select.dispatchEvent(new Event('change', { bubbles: true }));
  fillSendForm(root, amount, receiver);
  byText(root, 'button', 'Preview send')!.click();
}

describe('Solana: a wallet-standard wallet on the local SVM', function () {
  this.timeout(90_000);
  let el: WalletModal;
  let wallet: any;
  let env: SolanaEnv;

  before(async () => {
    localStorage.clear();
    sessionStorage.clear();
    env = await solanaEnv();
    // @ts-ignore — served as is from demo/
    const { installSolanaWallet } = await import('/demo/wallet/solana-wallet.js');
    wallet = installSolanaWallet({ rpcUrl: env.rpcUrl, autoResponse: 'approve', hookOnly: true, chains: ['solana:localnet', 'solana:devnet'] });
    const all = await testEnv();
    // Solana first: the active namespace is solana.
    el = await createModal({}, networks(all));
  });
  after(() => el.remove());

  it('lists the wallet by its registered name and icon, connects it, and shows its address and the SOL balance the node reports', async () => {
    await el.open();
    const root = viewRoot(el);
    const row = await waitFor(() => root.querySelector<HTMLElement>('[data-connector-id="standard.demo-wallet"]'), 'the wallet-standard wallet');
    expect(row.textContent).to.contain('Demo Wallet');
    const icon = await waitFor(() => row.querySelector('img')?.getAttribute('src'), 'its icon');
    expect(icon).to.match(/^data:image\/svg\+xml/);
    const connected = nextEvent(el, 'connect');
    row.click();
    const { detail } = await connected;
    expect([detail.namespace, detail.address, detail.caipNetworkId, detail.connectorId]).to.deep.equal(['solana', env.owner, LOCAL, 'standard.demo-wallet']);
    expect(wallet.log.map((l: any) => l.method)).to.include('connect');
    await el.open();
    const lamports = await lamportsOf(env.owner);
    const balance = await waitFor(() => root.querySelector('[part~="balance"]:not([aria-busy])')?.textContent, 'the balance');
    expect(balance).to.equal(`${shown(lamports, 9)} SOL`);
    expect(root.querySelector('[part~="address"]')?.textContent, 'spec: 4 characters, then 6').to.equal(`${env.owner.slice(0, 4)}...${env.owner.slice(-6)}`);
  });

  it('Tokens lists SOL and both SPL tokens (Token and Token-2022) with the balances the node reports, USDC by its value first', async () => {
    await el.open();
    const root = viewRoot(el);
    byText(root, '[role="tab"]', 'Tokens')?.click();
    await waitFor(() => root.querySelectorAll('[part~="token"]').length >= 3, 'three token rows');
    const rows = [...root.querySelectorAll('[part~="token"]')].map((r) => r.textContent ?? '');
    const usdc = await tokenBalance(env.owner, env.tokens.usdc.mint);
    const wmt = await tokenBalance(env.owner, env.tokens.second.mint);
    expect(rows.find((r) => r.includes('USDC')), 'USDC').to.contain(shown(usdc, 6));
    expect(rows.find((r) => r.includes('WMT')), 'WMT (Token-2022)').to.contain(shown(wmt, 9));
    expect(rows.findIndex((r) => r.includes('USDC'))).to.be.lessThan(rows.findIndex((r) => r.includes('WMT')), 'sorted by value');
  });

  it('sends 0.5 SOL: the preview shows the fee, the wallet signs and sends it, and the receiver has it on chain', async () => {
    await el.open();
    const root = viewRoot(el);
    const before = await lamportsOf(SOL_RECEIVER);
    await previewSend(root, 'SOL', '0.5', SOL_RECEIVER);
    const fee = await waitFor(() => feeOf(root), 'the fee');
    expect(fee).to.equal('0.000005 SOL');
    expect(feeDetailOf(root), 'nothing beside the signature').to.equal(null);
    byText(root, '[part~="send-preview"] button', 'Send')!.click();
    await waitFor(() => root.querySelector('[part~="sent"]'), 'sent notice');
    const after = await until(() => lamportsOf(SOL_RECEIVER), (v) => v !== before, 'the receiver’s SOL');
    expect(after - before).to.equal(500_000_000n);
    expect(wallet.log.at(-1).method).to.equal('signAndSendTransaction');
    // Confirmed (getSignatureStatuses): the balances are read again.
    const lamports = await lamportsOf(env.owner);
    await waitFor(() => root.querySelector('[part~="balance"]')?.textContent === `${shown(lamports, 9)} SOL`, 'the balance read again', 15_000);
  });

  it('sends 12.5 USDC to an address without a token account: it is created, its rent is in the fee, the receiver holds 12.5 on chain', async () => {
    await el.open();
    const root = viewRoot(el);
    expect(await tokenBalance(TOKEN_RECEIVER, env.tokens.usdc.mint)).to.equal(0n);
    const rent = BigInt(await node('getMinimumBalanceForRentExemption', [165]));
    await previewSend(root, 'USDC', '12.5', TOKEN_RECEIVER);
    const fee = await waitFor(() => feeOf(root), 'the fee');
    const expected = Number(5000n + rent) / 1e9;
    expect(fee).to.equal(`${expected} SOL`);
    expect(feeDetailOf(root)).to.equal(`includes ${Number(rent) / 1e9} SOL for the receiver's new token account`);
    byText(root, '[part~="send-preview"] button', 'Send')!.click();
    await waitFor(() => root.querySelector('[part~="sent"]'), 'sent notice');
    expect(await until(() => tokenBalance(TOKEN_RECEIVER, env.tokens.usdc.mint), (v) => v > 0n, 'the receiver’s USDC')).to.equal(12_500_000n);
  });

  it('refuses a receiver that is not a 32-byte base58 key, with why', async () => {
    await el.open();
    const root = viewRoot(el);
    await previewSend(root, 'SOL', '0.1', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    const error = await waitFor(() => root.querySelector('[part~="send"] [role="alert"]'), 'the error');
    expect(error.textContent).to.contain('not a Solana address');
  });

  it('Activity says it is not available on a Solana network (spec: activity is EVM only) and asks the API nothing', async () => {
    await el.open();
    const root = viewRoot(el);
    for (let i = 0; i < 3 && root.querySelector('[part~="send"], [part~="send-preview"], [part~="receive"]'); i++) {
      root.querySelector<HTMLElement>('button[aria-label="Back"]')?.click();
      await new Promise((r) => setTimeout(r, 50));
    }
    const asked: string[] = [];
    const observer = new PerformanceObserver((list) => asked.push(...list.getEntries().map((e) => e.name).filter((n) => n.includes('/history'))));
    observer.observe({ type: 'resource' });
    (await waitFor(() => byText(root, '[role="tab"]', 'Activity'), 'the Activity tab')).click();
    const note = await waitFor(() => byText(root, '.wm-note', /not available/), 'the note');
    expect(note.textContent).to.equal('Activity is not available for accounts on Solana Local');
    await new Promise((r) => setTimeout(r, 300));
    observer.disconnect();
    expect(asked, 'no history request').to.deep.equal([]);
    expect(root.querySelector('[role="alert"]'), 'no error').to.equal(null);
    byText(root, '[role="tab"]', 'Tokens')!.click();
  });

  it('Receive shows the address and its QR code', async () => {
    await el.open();
    const root = viewRoot(el);
    (await waitFor(() => root.querySelector<HTMLButtonElement>('[part~="receive-button"]'), 'Receive')).click();
    const qr = await waitFor(() => root.querySelector('[part~="qr-code"] svg'), 'the QR code');
    expect(qr.getAttribute('aria-label')).to.equal(`QR code of ${env.owner}`);
    expect(root.querySelector('[part~="receive"] [part~="address"]')?.textContent).to.contain(env.owner);
    root.querySelector<HTMLElement>('button[aria-label="Back"]')?.click();
  });

  it('the Solana account, its tokens, its Activity note and a send preview, light and dark: no serious axe violation', async () => {
    await el.open();
    const root = viewRoot(el);
    for (const theme of ['light', 'dark']) {
      el.setThemeMode(theme);
      await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), `${theme} theme`);
      for (let i = 0; i < 3 && root.querySelector('[part~="send"], [part~="send-preview"], [part~="receive"]'); i++) {
        root.querySelector<HTMLElement>('button[aria-label="Back"]')?.click();
        await new Promise((r) => setTimeout(r, 50));
      }
      byText(root, '[role="tab"]', 'Tokens')!.click();
      await waitFor(() => root.querySelectorAll('[part~="token"]').length >= 3, 'token rows');
      expect(await expectNoSeriousAxeViolations(root, `Solana account (${theme})`)).to.be.greaterThan(0);
      await visitor({ action: 'screenshot', name: `solana-account-${theme}` });
      byText(root, '[role="tab"]', 'Activity')!.click();
      await waitFor(() => byText(root, '.wm-note', /not available/), 'the note');
      expect(await expectNoSeriousAxeViolations(root, `Solana Activity (${theme})`)).to.be.greaterThan(0);
      await visitor({ action: 'screenshot', name: `solana-activity-${theme}` });
      byText(root, '[role="tab"]', 'Tokens')!.click();
      await previewSend(root, 'USDC', '1', TOKEN_RECEIVER);
      await waitFor(() => feeOf(root), 'the fee');
      expect(await expectNoSeriousAxeViolations(root, `Solana send preview (${theme})`)).to.be.greaterThan(0);
      await visitor({ action: 'screenshot', name: `solana-send-preview-${theme}` });
      root.querySelector<HTMLElement>('button[aria-label="Back"]')?.click();
    }
    el.setThemeMode('light');
  });

  it('getProvider("solana") is the wallet-standard wallet: a message it signs verifies with wallet-modal/core', async () => {
    const provider = el.getProvider('solana');
    expect(provider.name).to.equal('Demo Wallet');
    const [account] = provider.accounts;
    expect(account.address).to.equal(env.owner);
    const message = new TextEncoder().encode('Sign in to wallet-modal');
    const [out] = await provider.features['solana:signMessage'].signMessage({ account, message });
    // @ts-ignore — the real build
    const core = await import('/dist/core.js');
    await core.init();
    expect(core.verifySolanaMessage(env.owner, message, out.signature)).to.equal(true);
    expect(core.verifySolanaMessage(env.owner, new TextEncoder().encode('Sign in to wallet-modaL'), out.signature)).to.equal(false);
    expect(el.getProvider('eip155'), 'nothing connected on EVM').to.equal(undefined);
  });

  it('follows the wallet’s change event: another account is the connected one (accountschange)', async () => {
    const changed = nextEvent(el, 'accountschange');
    const address = await wallet.changeAccount('07'.repeat(32));
    expect((await changed).detail.address).to.equal(address);
    expect(el.getState().connection.address).to.equal(address);
    await wallet.changeAccount('0b121920272e353c434a51585f666d747b828990979ea5acb3bac1c8cfd6dde4');
    await waitFor(() => el.getState().connection.address === env.owner, 'back to the first account');
  });

  it('switches between the Solana networks its wallet has, and says so when it has not the one asked for', async () => {
    await el.switchNetwork(DEVNET);
    await waitFor(() => el.getState().connection?.caipNetworkId === DEVNET, 'on devnet');
    const failed = nextEvent(el, 'error');
    await el.switchNetwork(TESTNET);
    expect((await failed).detail.code).to.equal(4902);
    expect(el.getState().connection.caipNetworkId, 'still on devnet').to.equal(DEVNET);
    await el.switchNetwork(LOCAL);
    await waitFor(() => el.getState().connection?.caipNetworkId === LOCAL, 'back on the local chain');
  });

  it('switching to an EVM network with nothing connected there makes it active and keeps the Solana connection', async () => {
    await el.switchNetwork('eip155:31337');
    await waitFor(() => el.getState().activeNetwork === 'eip155:31337' || el.getState().network?.caipNetworkId === 'eip155:31337', 'Anvil A active');
    expect(el.getProvider('eip155'), 'nothing connected on EVM').to.equal(undefined);
    expect(el.getState().status.solana).to.equal('connected');
    await el.switchNetwork(LOCAL);
    await waitFor(() => el.getState().connection?.namespace === 'solana', 'Solana active again');
    expect(el.getProvider('solana').name).to.equal('Demo Wallet');
  });

  it('reconnects after a reload without asking, and disconnects', async () => {
    const asked = wallet.log.filter((l: any) => l.method === 'connect').length;
    el.remove();
    const all = await testEnv();
    const reconnected = new Promise<CustomEvent>((resolve, reject) => {
      setTimeout(() => reject(new Error('no connect event after the reload')), 8000);
      document.addEventListener('connect', (e) => resolve(e as CustomEvent), { once: true });
    });
    el = await createModal({}, networks(all));
    const { detail } = await reconnected;
    expect([detail.address, detail.reconnected]).to.deep.equal([env.owner, true]);
    expect(wallet.log.filter((l: any) => l.method === 'connect').length, 'no prompt').to.equal(asked);
    const gone = nextEvent(el, 'disconnect');
    await el.disconnect();
    expect((await gone).detail.namespace).to.equal('solana');
    expect(el.getProvider('solana')).to.equal(undefined);
    expect(wallet.wallet.accounts.length, 'the wallet was told (standard:disconnect)').to.equal(0);
  });
});

describe('Solana: what a page registers as a wallet is hostile', function () {
  this.timeout(30_000);
  let el: WalletModal;
  const ICON = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';
  /** As a wallet registers (the protocol of @wallet-standard/wallet's registerWallet): now, for an
   * app already listening, and on the app's `app-ready` (this one is created after). */
  const register = (wallet: unknown) => {
    const callback = (api: { register(w: unknown): unknown }) => api.register(wallet);
    window.addEventListener('wallet-standard:app-ready', (e) => callback((e as CustomEvent).detail));
    window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
  };
  /** A wallet-standard wallet whose connect answers `addresses` as its accounts. */
  const hostile = (name: string, addresses: string[], extra: Record<string, unknown> = {}) => {
    let accounts: unknown[] = [];
    return {
      version: '1.0.0',
      name,
      icon: ICON,
      chains: ['solana:localnet'],
      get accounts() {
        return accounts;
      },
      features: {
        'standard:connect': {
          version: '1.0.0',
          connect: async () => {
            accounts = addresses.map((address) => ({ address, publicKey: new Uint8Array(32), chains: ['solana:localnet'], features: [] }));
            return { accounts };
          },
        },
      },
      ...extra,
    };
  };
  const rowOf = (id: string) => viewRoot(el).querySelector<HTMLElement>(`[data-connector-id="${id}"]`);

  before(async () => {
    localStorage.clear();
    sessionStorage.clear();
    const env = await solanaEnv();
    const all = await testEnv();
    register(hostile('Twice Wallet', []));
    register(hostile('Twice Wallet', []));
    register(hostile('X'.repeat(1_000_000), []));
    register(hostile('Script Icon', [], { icon: 'javascript:alert(1)' }));
    register(hostile('No Connect', [], { features: {} }));
    register(hostile('Empty Wallet', []));
    register(hostile('Short Key Wallet', ['44aLB2AXRPXCkyeVpyU8kHr4p56Vhwfy8cdz1unGjHR'])); // 31 bytes of 200
    register(hostile('Hex Wallet', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266']));
    el = await createModal({}, [solanaNetwork(env.rpcUrl), ...anvilNetworks(all)]);
    await el.open();
    await waitFor(() => rowOf('standard.empty-wallet'), 'the registered wallets');
  });
  after(() => el.remove());

  it('lists a wallet registered twice once, cuts a 1 MB name, drops a javascript: icon, and leaves out one that cannot connect', async () => {
    const rows = [...viewRoot(el).querySelectorAll<HTMLElement>('[data-connector-id^="standard."]')];
    expect(rows.filter((r) => r.textContent?.includes('Twice Wallet')).length).to.equal(1);
    const long = rows.find((r) => r.textContent?.includes('XXXX'));
    expect(long, 'the long name is listed').to.not.equal(undefined);
    expect((long!.textContent ?? '').length).to.be.lessThan(100);
    const script = rowOf('standard.script-icon')!;
    expect(script, 'listed').to.not.equal(null);
    await new Promise((r) => setTimeout(r, 200));
    expect([...script.querySelectorAll('img')].map((i) => i.getAttribute('src')).filter((s) => s?.startsWith('javascript:'))).to.deep.equal([]);
    expect(rowOf('standard.no-connect'), 'no standard:connect').to.equal(null);
  });

  for (const [name, id, why] of [
    ['Empty Wallet', 'standard.empty-wallet', 'zero accounts'],
    ['Short Key Wallet', 'standard.short-key-wallet', 'a 31-byte key'],
    ['Hex Wallet', 'standard.hex-wallet', 'an address that is not base58'],
  ]) {
    it(`a wallet answering connect with ${why} fails with "Failed to connect" and the modal stays usable (${name})`, async () => {
      await el.open();
      const failed = nextEvent(el, 'error');
      (await waitFor(() => rowOf(id), name)).click();
      expect((await failed).detail.message).to.equal('Failed to connect');
      await waitFor(() => byText(viewRoot(el), '[part~="error"]', 'Failed to connect'), 'the message shown');
      expect(el.getState().status.solana).to.equal('disconnected');
      viewRoot(el).querySelector<HTMLElement>('button[aria-label="Back"]')?.click();
      await waitFor(() => el.getState().view === 'Connect', 'back on Connect');
    });
  }
});

describe('Solana: the embedded wallet (email login, the secure frame signs)', function () {
  this.timeout(90_000);
  // The ed25519 key of 32 bytes of 11: a receiver.
  const RECEIVER = '7v54NWdBtkjuAFJrLGsS2SXnuk8nKam81mZJeeYxVFi9';

  it('an email login gives the visitor a Solana account; a send shows the transfer decoded in the frame’s approval and goes once approved there', async () => {
    localStorage.clear();
    sessionStorage.clear();
    const all = await testEnv();
    const el = await createModal({}, networks(all));
    try {
      const address = await emailLogin(el);
      expect(el.getState().connection.namespace, 'connected on Solana (its network is active)').to.equal('solana');
      expect(address).to.match(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      // Funds for it, by a real airdrop on the local chain.
      await node('requestAirdrop', [address, 2_000_000_000]);
      await el.open();
      const root = viewRoot(el);
      await waitFor(() => root.querySelector('[part~="balance"]')?.textContent === '2.000 SOL', 'the airdropped balance', 15_000);
      const before = await lamportsOf(RECEIVER);
      await previewSend(root, 'SOL', '0.5', RECEIVER);
      expect(await waitFor(() => feeOf(root), 'the fee')).to.equal('0.000005 SOL');
      byText(root, '[part~="send-preview"] button', 'Send')!.click();
      // The secure frame shows what is signed, read from the transaction's own bytes.
      const approval = await frameText('main.approval');
      expect(approval).to.contain('Send transaction');
      expect(approval).to.contain('Send SOL');
      expect(approval).to.contain(RECEIVER);
      expect(approval).to.contain(address);
      expect(approval).to.contain('0.5 SOL');
      expect(approval).to.contain('Network fee0.000005 SOL');
      await visitor({ action: 'screenshot', name: 'solana-embedded-approval' });
      const prefix = await framePrefix();
      const light = (await visitor({ action: 'frame-axe', prefix })) as { theme: string; violations: string[] };
      expect([light.theme, light.violations], 'the frame’s Solana approval (light)').to.deep.equal(['light', []]);
      await clickInFrame('Approve');
      expect(await until(() => lamportsOf(RECEIVER), (v) => v !== before, 'the receiver’s SOL') - before).to.equal(500_000_000n);
      // The approval left, the account shows again and says it was sent (never an empty preview).
      await waitFor(() => el.getState().view === 'Account' && root.querySelector('[part~="sent"], [part~="balance"]'), 'back on the account', 15_000);
      // In dark, once more: axe in the frame, then the visitor rejects there and nothing is sent.
      el.setThemeMode('dark');
      await el.open();
      await previewSend(root, 'SOL', '0.1', RECEIVER);
      await waitFor(() => feeOf(root), 'the fee');
      byText(root, '[part~="send-preview"] button', 'Send')!.click();
      await frameText('main.approval');
      const dark = (await visitor({ action: 'frame-axe', prefix })) as { theme: string; violations: string[] };
      expect([dark.theme, dark.violations], 'the frame’s Solana approval (dark)').to.deep.equal(['dark', []]);
      await visitor({ action: 'screenshot', name: 'solana-embedded-approval-dark' });
      await clickInFrame('Reject');
      const rejected = await waitFor(() => root.querySelector('[part~="send"] [role="alert"]')?.textContent, 'the rejection', 15_000);
      expect(rejected).to.match(/reject/i);
      expect(await lamportsOf(RECEIVER), 'nothing more sent').to.equal(before + 500_000_000n);
      el.setThemeMode('light');
    } finally {
      el.remove();
    }
  });
});

describe('Solana: what the host page posts to the secure frame', function () {
  this.timeout(90_000);

  it('a page script posting Solana signing requests to the frame itself gets no signature: the frame asks the visitor, and closing rejects them', async () => {
    localStorage.clear();
    sessionStorage.clear();
    const all = await testEnv();
    const env = await solanaEnv();
    const el = await createModal({}, networks(all));
    try {
      const address = await emailLogin(el);
      await el.close();
      const frame = await waitFor(() => [...document.querySelectorAll('iframe')].find((f) => f.src.startsWith(all.frameUrl)), 'the secure frame');
      const origin = new URL(frame.src).origin;
      const heard: Array<{ type: string; payload: any }> = [];
      addEventListener('message', (e) => {
        if (e.source === frame.contentWindow && typeof e.data?.id === 'string' && e.data.id.startsWith('evil-solana-')) heard.push({ type: String(e.data.type), payload: e.data.payload });
      });
      const post = (id: string, method: string, params: unknown[]) =>
        frame.contentWindow!.postMessage({ type: '@w3m-app/RPC_REQUEST', id, payload: { method, params, chainId: LOCAL.split(':')[1], chainNamespace: 'solana', rpcUrl: env.rpcUrl } }, origin);
      // 'hello' in base58; ids as long as the element's, so nothing but consent stops these.
      post('evil-solana-000001', 'solana_signMessage', [{ message: 'Cn8eVZg', pubkey: address }]);
      // And messages that say "approve".
      for (const m of ['approve', { type: '@w3m-app/APPROVE' }, { type: '@w3m-frame/APPROVE', id: 'evil-solana-000001' }]) frame.contentWindow!.postMessage(m, origin);
      await waitFor(() => el.getState().open === true && el.getState().view === 'ApproveTransaction', 'the modal open on ApproveTransaction', 10_000);
      expect(await frameText('[data-field="message"]')).to.equal('hello');
      await new Promise((r) => setTimeout(r, 2_000));
      expect(heard.filter((h) => h.type.endsWith('_SUCCESS')), 'no signature').to.deep.equal([]);
      await el.close();
      await waitFor(() => heard.some((h) => h.type === '@w3m-frame/RPC_REQUEST_ERROR' && h.payload?.code === 4001), 'rejected with 4001', 10_000);
      expect(heard.filter((h) => h.type.endsWith('_SUCCESS')), 'still no signature').to.deep.equal([]);
    } finally {
      el.remove();
    }
  });
});

describe('Solana: a wallet that signs but does not send', function () {
  this.timeout(60_000);

  it('signs with solana:signTransaction and the modal sends the signed transaction through the node', async () => {
    localStorage.clear();
    sessionStorage.clear();
    const env = await solanaEnv();
    const all = await testEnv();
    // @ts-ignore — served as is from demo/
    const { installSolanaWallet } = await import('/demo/wallet/solana-wallet.js');
    const signer = installSolanaWallet({ rpcUrl: env.rpcUrl, autoResponse: 'approve', hookOnly: true, global: null, name: 'Sign Only Wallet', seed: '0d'.repeat(32), signAndSend: false });
    const { address } = await signer.keys();
    expect(Object.keys(signer.wallet.features)).to.not.include('solana:signAndSendTransaction');
    await node('requestAirdrop', [address, 1_000_000_000]);
    const el = await createModal({}, networks(all));
    try {
      await el.open();
      const root = viewRoot(el);
      const connected = nextEvent(el, 'connect');
      (await waitFor(() => root.querySelector<HTMLElement>('[data-connector-id="standard.sign-only-wallet"]'), 'the wallet')).click();
      expect((await connected).detail.address).to.equal(address);
      await el.open();
      const before = await lamportsOf(SOL_RECEIVER);
      await previewSend(root, 'SOL', '0.1', SOL_RECEIVER);
      await waitFor(() => feeOf(root), 'the fee');
      byText(root, '[part~="send-preview"] button', 'Send')!.click();
      await waitFor(() => root.querySelector('[part~="sent"]'), 'sent notice');
      expect(signer.log.at(-1).method).to.equal('signTransaction');
      expect(await until(() => lamportsOf(SOL_RECEIVER), (v) => v !== before, 'the receiver’s SOL') - before).to.equal(100_000_000n);
    } finally {
      el.remove();
    }
  });
});

describe('Solana: a network whose node fails', function () {
  this.timeout(60_000);

  it('shows the balance it could not read as 0, says the fee could not be estimated, and refuses to send with why — nothing hangs', async () => {
    localStorage.clear();
    sessionStorage.clear();
    const all = await testEnv();
    // The local chain's id, but a node URL that answers 404 (the backend has no such route).
    const broken = { ...solanaNetwork(`${all.backendUrl}/no-such-solana-node`), name: 'Solana Broken' };
    const el = await createModal({}, [broken, ...anvilNetworks(all)]);
    try {
      await el.open();
      const root = viewRoot(el);
      const connected = nextEvent(el, 'connect');
      (await waitFor(() => root.querySelector<HTMLElement>('[data-connector-id="dev.walletmodal.demo"], [data-connector-id="standard.demo-wallet"]'), 'the wallet')).click();
      expect((await connected).detail.namespace).to.equal('solana');
      await el.open();
      expect(await waitFor(() => root.querySelector('[part~="balance"]:not([aria-busy])')?.textContent, 'the balance')).to.equal('0.00 SOL', 'spec §8: a balance that cannot be read');
      await previewSend(root, 'SOL', '0.1', SOL_RECEIVER);
      const feeError = await waitFor(() => root.querySelector('[part~="send-preview"] .wm-error')?.textContent, 'the fee error');
      expect(feeError, "in Solana's words, not the EVM's gas").to.equal('Could not estimate the network fee: try again');
      byText(root, '[part~="send-preview"] button', 'Send')!.click();
      const error = await waitFor(() => root.querySelector('[part~="send"] [role="alert"]')?.textContent, 'why it cannot send');
      expect(error).to.contain('did not give a recent block');
      expect(root.querySelector<HTMLInputElement>('[part~="send"] input')!.value, 'the form is kept').to.equal('0.1');
    } finally {
      el.remove();
    }
  });
});
