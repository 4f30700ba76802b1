// The demo, end to end over WalletConnect: the demo page's <wallet-modal> pairs with the Demo Mobile
// Wallet page (the official sign-client) in a second tab through the backend's relay; the visitor
// signs, sends a transaction on anvil, switches network, and the wallet disconnects. Real Chromium,
// real backend and relay, real anvil chains (scripts/test.sh starts them and sets WM_BACKEND_URL).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';

const base = process.env.WM_BACKEND_URL;
const chains = JSON.parse(process.env.WM_CHAINS ?? '[]');
// Poll by interval: the tab in the background gets no animation frames (puppeteer's default).
const WAIT = { timeout: 30_000, polling: 100 };
let browser;

before(async () => {
  assert.ok(base, 'WM_BACKEND_URL is not set: run this through scripts/test.sh');
  browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
});
after(() => browser?.close());

/** Runs `fn` on the page's <wallet-modal>. */
const onModal = (page, fn, arg) => page.evaluate((src, a) => new Function('el', 'a', `return (${src})(el, a)`)(document.querySelector('wallet-modal'), a), fn.toString(), arg);
const state = (page) => onModal(page, (el) => el.getState());

/** Clicks the enabled button of the wallet page whose text is `label`, once there is one. */
async function press(page, label) {
  await page.waitForFunction((l) => [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === l && !b.disabled), WAIT, label);
  await page.evaluate((l) => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === l && !b.disabled).click(), label);
}

/** Waits for a line in the wallet page's log. */
const logged = (page, text) => page.waitForFunction((t) => document.body.innerText.includes(t), WAIT, text);

async function rpc(url, method, params) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()).result;
}

/** The dapp page (on `network`, when given): the visitor clicks the WalletConnect row; the Demo
 * Mobile Wallet opens the URI's deep link in a second tab and approves. Resolves with both pages. */
async function pairDemoWallet(network, query = '') {
  const dapp = await browser.newPage();
  await dapp.goto(`${base}/${query}`, { waitUntil: 'load' });
  await dapp.waitForFunction(() => typeof document.querySelector('wallet-modal')?.getState === 'function', WAIT);
  if (network) {
    // What the page had, when the network never shows: its networks, the demo's config and banner.
    const seen = () => dapp.evaluate(async () => ({
      networks: document.querySelector('wallet-modal').getState()?.networks?.map((n) => n.caipNetworkId) ?? null,
      pageNetworks: window.demoPage?.networks?.map((n) => n.caipNetworkId) ?? null,
      banner: document.body.innerText.split('\n').filter((l) => /could not|not available|error/i.test(l)).slice(0, 5),
      config: await fetch('/demo-config.json', { cache: 'no-store' }).then((r) => r.text()).catch((e) => String(e)),
    }));
    await dapp
      .waitForFunction((id) => document.querySelector('wallet-modal').getState()?.networks?.some((n) => n.caipNetworkId === id), WAIT, network)
      .catch(async (e) => assert.fail(`${network} never became one of the page's networks (${e.message}): ${JSON.stringify(await seen())}`));
    await onModal(dapp, (el, id) => el.switchNetwork(id), network);
  }
  await onModal(dapp, (el) => el.open());
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().connectors[0]?.id === 'walletConnect', WAIT);
  // The visitor clicks the WalletConnect row (rendered inside the shadow roots).
  await dapp.evaluate(() => {
    const find = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.tagName === 'BUTTON' && el.textContent.includes('WalletConnect')) return el;
        const inner = el.shadowRoot && find(el.shadowRoot);
        if (inner) return inner;
      }
      return null;
    };
    find(document)?.click();
  });
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().walletConnect?.uri, WAIT);
  const { walletConnect, view } = await state(dapp);
  assert.equal(view, 'ConnectingWalletConnect');
  assert.match(walletConnect.uri, /^wc:[0-9a-f]{64}@2\?/);

  // The wallet tab opens the deep link form of the URI and approves.
  const wallet = await browser.newPage();
  await wallet.goto(`${base}/wallet-mobile/?uri=${encodeURIComponent(walletConnect.uri)}`, { waitUntil: 'load' });
  await logged(wallet, 'proposal from');
  await press(wallet, 'Approve');
  await logged(wallet, 'settled');
  return { dapp, wallet };
}

test('a demo visitor pairs the Demo Mobile Wallet by URI, signs, sends on anvil, switches network, and the wallet disconnects', async () => {
  const { dapp, wallet } = await pairDemoWallet(null);
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().status.eip155 === 'connected', WAIT);
  const { connection: account } = await state(dapp);
  assert.equal(account.connectorName, 'WalletConnect');
  assert.equal(account.address.toLowerCase(), '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');

  // personal_sign through getProvider('eip155'), approved in the wallet, recovers to the account.
  const signing = onModal(dapp, (el, a) => el.getProvider('eip155').request({ method: 'personal_sign', params: ['0x68656c6c6f', a] }), account.address);
  await press(wallet, 'Approve');
  const signature = await signing;
  const { recoverMessageAddress } = await import('viem');
  assert.equal((await recoverMessageAddress({ message: 'hello', signature })).toLowerCase(), account.address.toLowerCase());

  // eth_sendTransaction lands on anvil A.
  const sending = onModal(dapp, (el, a) => el.getProvider('eip155').request({ method: 'eth_sendTransaction', params: [{ from: a, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x1' }] }), account.address);
  await press(wallet, 'Approve');
  const hash = await sending;
  const receipt = await rpc(chains.find((c) => c.chainId === 31337).rpcUrl, 'eth_getTransactionReceipt', [hash]);
  assert.equal(receipt?.status, '0x1');

  // The dapp switches to anvil B over the session.
  const switching = onModal(dapp, (el) => el.switchNetwork('eip155:31338'));
  await press(wallet, 'Approve');
  await switching;
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().connection?.caipNetworkId === 'eip155:31338', WAIT);

  // The wallet ends the session: the dapp is disconnected.
  await press(wallet, 'Disconnect');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().status.eip155 === 'disconnected', WAIT);
});

test('on Solana: the Demo Mobile Wallet connects its Solana account over WalletConnect, signs a message and sends SOL on the local chain', async () => {
  const solana = JSON.parse(process.env.WM_SOLANA ?? 'null');
  assert.ok(solana, 'WM_SOLANA is not set: scripts/test.sh starts the local Solana chain');
  const LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
  const WALLET_ACCOUNT = 'oapfTk8FG2np1vSoGANkbijWiQApHZMFAytSdCoass9'; // the ed25519 key of 32 bytes of 0x0e
  const RECEIVER = 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB';
  const { dapp, wallet } = await pairDemoWallet(LOCAL);
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().status.solana === 'connected', WAIT);
  const { connection } = await state(dapp);
  assert.deepEqual([connection.namespace, connection.address, connection.caipNetworkId, connection.connectorName], ['solana', WALLET_ACCOUNT, LOCAL, 'WalletConnect']);

  // solana_signMessage through getProvider('solana'), approved in the wallet: wallet-modal/core verifies it.
  const message = 'Sign in to the demo';
  const signing = onModal(dapp, (el, a) => {
    const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let n = 0n;
    for (const b of new TextEncoder().encode(a.message)) n = n * 256n + BigInt(b);
    let s = '';
    for (; n > 0n; n /= 58n) s = B58[Number(n % 58n)] + s;
    return el.getProvider('solana').request({ method: 'solana_signMessage', params: { message: s, pubkey: a.address } });
  }, { message, address: WALLET_ACCOUNT });
  await press(wallet, 'Approve');
  const { signature } = await signing;
  const core = await import('../../dist/core.js');
  await core.init();
  const { getBase58Encoder } = await import('@solana/kit');
  assert.equal(core.verifySolanaMessage(WALLET_ACCOUNT, new TextEncoder().encode(message), new Uint8Array(getBase58Encoder().encode(signature))), true);

  // Send 0.25 SOL from the modal's Send view: the wallet signs and sends it; it lands on the chain.
  await rpc(solana.rpcUrl, 'requestAirdrop', [WALLET_ACCOUNT, 1_000_000_000]);
  const before = (await rpc(solana.rpcUrl, 'getBalance', [RECEIVER])).value;
  await onModal(dapp, async (el, receiver) => {
    const root = () => document.querySelector('wallet-modal-overlay').shadowRoot;
    const until = async (fn) => {
      for (let i = 0; i < 400; i++) {
        const v = fn();
        if (v) return v;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`timed out: ${fn}`);
    };
    await el.open();
    (await until(() => [...root().querySelectorAll('[role="tab"]')].find((t) => t.textContent.includes('Tokens')))).click();
    await until(() => [...root().querySelectorAll('[part~="token"]')].some((t) => t.textContent.includes('SOL')));
    (await until(() => root().querySelector('[part~="send-button"]'))).click();
    await until(() => root().querySelector('[part~="send"] select'));
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const [amount, to] = root().querySelectorAll('[part~="send"] input');
    for (const [input, text] of [[amount, '0.25'], [to, receiver]]) {
      setter.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    [...root().querySelectorAll('button')].find((b) => b.textContent.includes('Preview send')).click();
    await until(() => [...root().querySelectorAll('[part~="send-preview"] dd')].some((d) => d.textContent === '0.000005 SOL'));
    [...root().querySelectorAll('[part~="send-preview"] button')].find((b) => b.textContent.trim() === 'Send').click();
  }, RECEIVER);
  await press(wallet, 'Approve');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal-overlay').shadowRoot.querySelector('[part~="sent"]'), WAIT);
  for (let i = 0; i < 100 && (await rpc(solana.rpcUrl, 'getBalance', [RECEIVER])).value === before; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal((await rpc(solana.rpcUrl, 'getBalance', [RECEIVER])).value - before, 250_000_000);

  // The wallet ends the session: the dapp's Solana connection ends.
  await press(wallet, 'Disconnect');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().status.solana === 'disconnected', WAIT);
});

test('with sign-in, the WalletConnect wallet signs in (approved in the Demo Mobile Wallet); the Demo Wallet connects beside it from Wallets, already signed in as the same account; Use switches back', async () => {
  const { dapp, wallet } = await pairDemoWallet('eip155:31337', '?siwx=default&autoApprove=1');
  const inModal = (fn, arg) => dapp.evaluate((src, a) => new Function('root', 'a', `return (${src})(root, a)`)(document.querySelector('wallet-modal-overlay').shadowRoot, a), fn.toString(), arg);
  const click = async (selector) => {
    await dapp.waitForFunction((s) => document.querySelector('wallet-modal-overlay')?.shadowRoot?.querySelector(s), WAIT, selector);
    await inModal((root, s) => root.querySelector(s).click(), selector);
  };
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().view === 'SIWXSignMessage', WAIT);
  await click('[part~="siwx-sign"]');
  await press(wallet, 'Approve');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().siwx?.session != null, WAIT);
  const { siwx, connection } = await state(dapp);
  assert.deepEqual([connection.connectorName, connection.namespace], ['WalletConnect', 'eip155']);
  const core = await import('../../dist/core.js');
  await core.init();
  assert.equal(core.verifySiwxSession({ domain: new URL(base).host, ...siwx.session }).valid, true, 'the mobile wallet signed the modal\'s EIP-4361 message');

  // Account → Wallets → Add wallet → the Demo Wallet (it approves at once): two connections, each signed in.
  await onModal(dapp, (el) => el.open());
  await click('[part~="wallets-button"]');
  await click('[part~="add-wallet"]');
  await click('[data-connector-id="dev.walletmodal.demo"]');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().connection?.connectorId === 'dev.walletmodal.demo', WAIT);
  // The same account on the same chain (anvil's first key in both wallets): already signed in.
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().siwx?.session?.caipAddress === 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', WAIT);
  assert.notEqual((await state(dapp)).view, 'SIWXSignMessage', 'a session is per account, not per wallet');
  await onModal(dapp, (el) => el.open());
  await click('[part~="wallets-button"]');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().profileWallets?.wallets.length === 2, WAIT);
  assert.deepEqual((await state(dapp)).profileWallets.wallets.map((w) => w.connectorId).sort(), ['dev.walletmodal.demo', 'walletConnect']);
  // Back to the WalletConnect wallet from ProfileWallets.
  await click('[data-connector-id="walletConnect"] [part~="switch-wallet"]');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().connection?.connectorId === 'walletConnect', WAIT);
  await onModal(dapp, (el) => el.disconnect());
});

test('on the Cosmos Hub: the Demo Mobile Wallet connects its Cosmos account over WalletConnect, and an ADR-036 document it signs (cosmos_signAmino) verifies', async () => {
  const HUB = 'cosmos:cosmoshub-4';
  const { dapp, wallet } = await pairDemoWallet(HUB);
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().status.cosmos === 'connected', WAIT);
  const { connection } = await state(dapp);
  const { Secp256k1Wallet } = await import('@cosmjs/amino');
  const [own] = await (await Secp256k1Wallet.fromKey(new Uint8Array(32).fill(0x0c), 'cosmos')).getAccounts();
  assert.deepEqual([connection.namespace, connection.address, connection.caipNetworkId, connection.connectorName], ['cosmos', own.address, HUB, 'WalletConnect']);

  // cosmos_signAmino of Keplr's ADR-036 document through getProvider('cosmos'), approved in the wallet.
  const message = 'Sign in to the demo';
  const { makeADR36AminoSignDoc } = await import('@keplr-wallet/cosmos');
  const signDoc = makeADR36AminoSignDoc(own.address, message);
  const signing = onModal(dapp, (el, a) => el.getProvider('cosmos').request({ method: 'cosmos_signAmino', params: { signerAddress: a.address, signDoc: a.signDoc } }), { address: own.address, signDoc });
  await press(wallet, 'Approve');
  const { signature } = await signing;
  const core = await import('../../dist/core.js');
  await core.init();
  assert.equal(core.verifyCosmosMessage(own.address, message, signature), true);
  assert.equal(core.verifyCosmosMessage(own.address, 'another', signature), false);

  // The wallet ends the session: the dapp's Cosmos connection ends.
  await press(wallet, 'Disconnect');
  await dapp.waitForFunction(() => document.querySelector('wallet-modal').getState().status.cosmos === 'disconnected', WAIT);
});
