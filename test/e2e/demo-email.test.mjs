// The demo's embedded wallet end to end, as visitors with two browsers: Chromium profile A logs in
// with an email (the code read from the mail sink), profile B (another browser, its own storage)
// logs in with the same email, approves the new device from the mailed link and gets the same
// address; A changes its email in two steps; an expired session says so after a reload. Real
// Chromium, the demo page, the backend's secure frame on its own origin, maildev, anvil
// (scripts/test.sh starts them and sets WM_BACKEND_URL and WM_MAIL_URL).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';

const base = process.env.WM_BACKEND_URL;
const chains = JSON.parse(process.env.WM_CHAINS ?? '[]');
async function rpc(url, method, params) {
  const body = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }).then((r) => r.json());
  if (body.error) throw new Error(body.error.message);
  return body.result;
}
const mailUrl = process.env.WM_MAIL_URL;
const WAIT = { timeout: 30_000, polling: 100 };
const ARGS = ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'];
const browsers = [];

before(() => {
  assert.ok(base && mailUrl, 'WM_BACKEND_URL / WM_MAIL_URL are not set: run this through scripts/test.sh');
});
after(async () => {
  for (const b of browsers) await b.close();
});

/** A new browser: puppeteer gives each launch its own temporary profile. */
async function newBrowser() {
  const b = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  browsers.push(b);
  return b;
}

/** Runs `src` (a function of the views' shadow root and `a`) in the page. */
const inViews = (page, src, arg) =>
  page.evaluate((s, a) => new Function('root', 'a', `return (${s})(root, a)`)(document.querySelector('wallet-modal-overlay')?.shadowRoot, a), src.toString(), arg);
const waitViews = (page, src, arg) =>
  page.waitForFunction((s, a) => new Function('root', 'a', `return (${s})(root, a)`)(document.querySelector('wallet-modal-overlay')?.shadowRoot, a), WAIT, src.toString(), arg);
const state = (page) => page.evaluate(() => document.querySelector('wallet-modal').getState());

/** The newest mail to `to` whose subject matches `re`, received after `since` (maildev lists in arrival order). */
async function mail(to, re, seen = 0) {
  for (let i = 0; i < 150; i++) {
    const list = await fetch(`${mailUrl}/api/email`).then((r) => r.json());
    const mine = list.filter((m) => m.to.some((t) => t.address.toLowerCase() === to.toLowerCase()) && re.test(m.subject));
    if (mine.length > seen) return { mail: mine[mine.length - 1], count: mine.length };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} matching ${re}`);
}
/** How many mails to `to` match `re` now. */
async function count(to, re) {
  const list = await fetch(`${mailUrl}/api/email`).then((r) => r.json());
  return list.filter((m) => m.to.some((t) => t.address.toLowerCase() === to.toLowerCase()) && re.test(m.subject)).length;
}

async function openDemo(browser) {
  const page = await browser.newPage();
  // The test's own helpers build functions from source, which the demo page's CSP forbids.
  await page.setBypassCSP(true);
  await page.goto(`${base}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof document.querySelector('wallet-modal')?.getState === 'function' && document.querySelector('wallet-modal').getState(), WAIT);
  await page.evaluate(() => document.querySelector('wallet-modal').open());
  await waitViews(page, (root) => root?.querySelector('input[name="email"]'));
  return page;
}

async function submitEmail(page, email) {
  await inViews(page, (root, e) => {
    const i = root.querySelector('input[name="email"]');
    i.value = e;
    i.form.requestSubmit();
  }, email);
}

async function enterCode(page, code) {
  await waitViews(page, (root) => root.querySelector('.wm-code-input:not([disabled])'));
  await inViews(page, (root, c) => {
    const i = root.querySelector('.wm-code-input');
    i.value = c;
    i.form.requestSubmit();
  }, code);
}

const codeOf = (m) => /(\d{6})/.exec(m.subject)[1];

/** The visitor opens the mailed device link (in `browser`) and presses "Approve this device". */
async function approveDevice(browser, mailed) {
  const link = /(http:\/\/\S+\/w\/v1\/device\/approve\?token=[A-Za-z0-9_-]+)/.exec(mailed.text)?.[1];
  assert.ok(link, `the device mail carries the approval link: ${mailed.text}`);
  const page = await browser.newPage();
  await page.goto(link, { waitUntil: 'load' });
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type="submit"]')]);
  const said = await page.evaluate(() => document.body.innerText);
  await page.close();
  return said;
}

/** The visitor clicks Approve in the secure frame's own document, with the mouse, once it works. */
async function approveInFrame(page) {
  await page.bringToFront();
  for (let i = 0; i < 150; i++) {
    const frame = page.frames().find((f) => f !== page.mainFrame() && /\/frame\?projectId=/.test(f.url()));
    const button = frame && (await frame.$('main.approval button.primary').catch(() => null));
    if (button && (await button.evaluate((b) => !b.disabled).catch(() => false))) return button.click();
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Approve never worked in the frame');
}

test('the same email in a second browser approves the device from the mailed link and gets the same address', async () => {
  const email = `e2e-${Date.now().toString(36)}@example.com`;

  const browserA = await newBrowser();
  const a = await openDemo(browserA);
  await submitEmail(a, email);
  // Even a first sign-in is confirmed from the mailbox before any code is sent.
  await waitViews(a, (root) => root.querySelector('.wm-email-login[data-step="device"]'));
  assert.equal(await count(email, /Your login code is \d{6}/), 0, 'no code before the sign-in is confirmed');
  assert.match(await approveDevice(browserA, (await mail(email, /Confirm it's you signing in/)).mail), /approved/i);
  const first = await mail(email, /Your login code is \d{6}/);
  await enterCode(a, codeOf(first.mail));
  await a.waitForFunction(() => document.querySelector('wallet-modal').getState().connection?.connectorId === 'embedded', WAIT);
  const address = (await state(a)).connection.address;
  assert.match(address, /^0x[0-9a-fA-F]{40}$/);

  // The demo page's faucet funds the new wallet; the visitor sends 0.01 ETH through ApproveTransaction.
  await a.click('#faucet');
  await a.waitForFunction(() => document.querySelector('#result').textContent.startsWith('faucet:'), WAIT);
  const chainId = Number((await state(a)).network.caipNetworkId.split(':')[1]);
  const chain = chains.find((c) => c.chainId === chainId);
  assert.equal(BigInt(await rpc(chain.rpcUrl, 'eth_getBalance', [address, 'latest'])), 10n ** 18n);
  await a.click('#send');
  // The approval is the secure frame's, shown in the modal; the visitor approves inside it.
  await waitViews(a, (root) => root.querySelector('.wm-approve [data-wm-frame-slot]'));
  await approveInFrame(a);
  await a.waitForFunction(() => /hash: 0x[0-9a-f]{64}/.test(document.querySelector('#result').textContent), WAIT);
  const hash = /hash: (0x[0-9a-f]{64})/.exec(await a.evaluate(() => document.querySelector('#result').textContent))[1];
  let receipt = null;
  for (let i = 0; i < 50 && !receipt; i++) {
    receipt = await rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [hash]);
    if (!receipt) await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(receipt?.status, '0x1', 'the send mined');

  const b = await openDemo(await newBrowser());
  await submitEmail(b, email);
  // The wallet service mails one address at most every 30 s: the visitor waits as told, then again.
  const told = await waitViews(b, (root) => root.querySelector('.wm-email-login[data-step="device"]') ? 'device' : /Please try again after (\d+) seconds/.exec(root.querySelector('[role="alert"]')?.textContent ?? '')?.[1]);
  const wait = await told.jsonValue();
  if (wait !== 'device') {
    await new Promise((r) => setTimeout(r, (Number(wait) + 1) * 1000));
    await inViews(b, (root) => root.querySelector('button[aria-label="Back"]').click());
    await waitViews(b, (root) => root.querySelector('input[name="email"]'));
    await submitEmail(b, email);
    await waitViews(b, (root) => root.querySelector('.wm-email-login[data-step="device"]'));
  }
  assert.equal(await count(email, /Your login code is \d{6}/), first.count, 'no code before the device is approved');
  const device = await mail(email, /Approve your new device/);
  assert.match(await approveDevice(browsers[1], device.mail), /approved/i);

  const second = await mail(email, /Your login code is \d{6}/, first.count);
  await enterCode(b, codeOf(second.mail));
  await b.waitForFunction(() => document.querySelector('wallet-modal').getState().connection?.connectorId === 'embedded', WAIT);
  assert.equal((await state(b)).connection.address, address, 'the same key in the other browser');

  // Profile A changes its email: a code to the current address, then one to the new one.
  const newEmail = `e2e-new-${Date.now().toString(36)}@example.com`;
  await a.evaluate(() => document.querySelector('wallet-modal').open());
  await waitViews(a, (root) => root.querySelector('.wm-edit-email'));
  await inViews(a, (root) => root.querySelector('.wm-edit-email').click());
  await waitViews(a, (root) => root.querySelector('.wm-update-email input[name="email"]'));
  await inViews(a, (root, e) => {
    const i = root.querySelector('.wm-update-email input[name="email"]');
    i.value = e;
    i.form.requestSubmit();
  }, newEmail);
  const toOld = await mail(email, /Confirm your email change: \d{6}/);
  await enterCode(a, codeOf(toOld.mail));
  await waitViews(a, (root) => root.querySelector('.wm-update-email[data-step="secondaryOtp"]'));
  const toNew = await mail(newEmail, /Confirm your email change: \d{6}/);
  await enterCode(a, codeOf(toNew.mail));
  await waitViews(a, (root, e) => root.querySelector('.wm-update-email[data-step="done"]')?.textContent.includes(e), newEmail);
});

test('an expired session says Session Expired after a reload and does not reconnect', async () => {
  const email = `e2e-exp-${Date.now().toString(36)}@example.com`;
  const browser = await newBrowser();
  const page = await openDemo(browser);
  await submitEmail(page, email);
  await approveDevice(browser, (await mail(email, /Confirm it's you signing in/)).mail);
  const m = await mail(email, /Your login code is \d{6}/);
  await enterCode(page, codeOf(m.mail));
  await page.waitForFunction(() => document.querySelector('wallet-modal').getState().connection?.connectorId === 'embedded', WAIT);
  // The wallet service ends the session (its test switch), called from inside the frame's origin.
  const frame = page.frames().find((f) => f.url().includes('/frame?'));
  assert.ok(frame, 'the secure frame is loaded');
  const status = await frame.evaluate(async () => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('wm-frame/session/'));
    const res = await fetch('/w/v1/test/expire-session', { method: 'POST', headers: { authorization: `Bearer ${localStorage.getItem(key)}`, 'content-type': 'application/json' }, body: '{}' });
    return res.status;
  });
  assert.equal(status, 200);
  // The element's `error` events do not bubble: a capturing listener on window hears them from the start.
  await page.evaluateOnNewDocument(() => {
    window.__errors = [];
    addEventListener('error', (e) => e instanceof CustomEvent && window.__errors.push(e.detail?.message), true);
  });
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => window.__errors.includes('Session Expired'), WAIT);
  const s = await state(page);
  assert.equal(s.connection, null, 'not reconnected');
});
