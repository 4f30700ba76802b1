// The demo with sign-in checked by its backend (`?siwx=server`): the visitor connects the Demo
// Wallet, signs in from SIWXSignMessage, the backend keeps the session (/v1/sessions), a reload
// finds it there and asks nothing, and disconnecting revokes it. Real Chromium, real backend,
// real anvil (scripts/test.sh starts them and sets WM_BACKEND_URL).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';

const base = process.env.WM_BACKEND_URL;
const WAIT = { timeout: 30_000, polling: 100 };
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
let browser;

before(async () => {
  assert.ok(base, 'WM_BACKEND_URL is not set: run this through scripts/test.sh');
  browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
});
after(() => browser?.close());

const state = (page) => page.evaluate(() => document.querySelector('wallet-modal').getState());
/** Clicks the first element matching `selector` inside the modal's shadow root. */
const click = (page, selector) =>
  page.waitForFunction((s) => {
    const el = document.querySelector('wallet-modal-overlay')?.shadowRoot?.querySelector(s);
    if (el && !el.disabled) el.click();
    return !!el && !el.disabled;
  }, WAIT, selector);

test('with sign-in checked by the backend, the visitor signs in, a reload keeps the session, and disconnecting revokes it', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/?siwx=server&autoApprove=1`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('wallet-modal')?.getState?.() != null, WAIT);
  await page.evaluate(() => document.querySelector('wallet-modal').open());
  await click(page, '[data-connector-id="dev.walletmodal.demo"]');
  await page.waitForFunction(() => document.querySelector('wallet-modal').getState().view === 'SIWXSignMessage', WAIT);
  await click(page, '[part~="siwx-sign"]');
  await page.waitForFunction(() => document.querySelector('wallet-modal').getState().siwx?.session != null, WAIT);
  const sessions = async () => (await (await fetch(`${base}/v1/sessions/${ADDRESS}?projectId=demo-project`)).json()).sessions;
  const kept = await sessions();
  assert.equal(kept.length, 1, 'the backend keeps one session');
  assert.equal(kept[0].caipAddress, `eip155:31337:${ADDRESS}`);
  assert.match(kept[0].message, new RegExp(`^${new URL(base).host.replace(/\./g, '\\.')} wants you to sign in`));

  await page.reload({ waitUntil: 'load' });
  await page
    .waitForFunction(() => document.querySelector('wallet-modal')?.getState?.()?.siwx?.session != null, WAIT)
    .catch(async (e) => {
      const s = await state(page);
      const log = await page.evaluate(() => document.getElementById('log')?.innerText.slice(0, 2000));
      assert.fail(`no session after the reload (${e.message}): ${JSON.stringify({ status: s.status, view: s.view, siwx: s.siwx })}\n${log}`);
    });
  assert.equal((await state(page)).open, false, 'signed in on the backend: nothing asked');

  await page.evaluate(() => document.querySelector('wallet-modal').disconnect());
  await page.waitForFunction(() => document.querySelector('wallet-modal').getState().status.eip155 === 'disconnected', WAIT);
  for (let i = 0; i < 50 && (await sessions()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(await sessions(), [], 'disconnecting revoked it');
});
