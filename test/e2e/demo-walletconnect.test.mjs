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

test('a demo visitor pairs the Demo Mobile Wallet by URI, signs, sends on anvil, switches network, and the wallet disconnects', async () => {
  const dapp = await browser.newPage();
  await dapp.goto(`${base}/`, { waitUntil: 'load' });
  await dapp.waitForFunction(() => typeof document.querySelector('wallet-modal')?.getState === 'function', WAIT);
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
