// The embedded wallet end to end: the real build, the secure frame on the backend's second origin,
// real mail through the SMTP sink (maildev), the anvil chains. Nothing here is stubbed.
import { expect } from '@esm-bundle/chai';
import { recoverMessageAddress, recoverTypedDataAddress, getAddress } from 'viem';
import { byText, createModal, nextEvent, rpc, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { expectNoSeriousAxeViolations } from '../views/axe';

import { approveDevice, clickInFrame, codeFor, emailLogin, enterCode, framePrefix, frameText, toCodeStep, typeEmail, unique, until, visitor } from './embedded-helpers';

describe('the embedded wallet (email, frame, approvals)', function () {
  this.timeout(60_000);
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    for (const f of document.querySelectorAll('iframe')) f.remove();
  });

  it('loads neither its module nor the secure frame on open(), only once the visitor focuses the email field', async () => {
    localStorage.clear();
    const loaded = () => performance.getEntriesByType('resource').some((e) => e.name.includes('wallet_modal_embedded_bg'));
    const el = await createModal();
    await el.open();
    const root = viewRoot(el);
    const input = await waitFor(() => root.querySelector<HTMLInputElement>('input[name="email"]'), 'the email field');
    await new Promise((r) => setTimeout(r, 500));
    expect(loaded(), 'no embedded module on open()').to.equal(false);
    expect(document.querySelector('iframe[title="wallet-modal secure frame"]'), 'no frame on open()').to.equal(null);
    input.focus();
    await waitFor(() => loaded(), 'the module fetched on focus');
    await waitFor(() => document.querySelector('iframe[title="wallet-modal secure frame"]'), 'the frame loading on focus');
    await waitFor(() => el.getState().frame === 'ready', 'the frame ready', 10_000);
  });

  it('logs in with an email and the code mailed to it, through the frame on its own origin', async () => {
    localStorage.clear();
    const env = await testEnv();
    const el = await createModal();
    const address = await emailLogin(el);
    expect(address).to.equal(getAddress(address), 'a checksummed EVM address');
    expect(el.getState().connection.connectorId).to.equal('embedded');
    const frame = document.querySelector<HTMLIFrameElement>('iframe[title="wallet-modal secure frame"]')!;
    expect(new URL(frame.src).origin).to.equal(new URL(env.frameUrl).origin);
    expect(new URL(frame.src).origin).to.not.equal(location.origin, 'the frame runs on another origin');
  });

  it('shows a wrong code under the field and keeps the code step', async () => {
    localStorage.clear();
    const el = await createModal();
    await el.open();
    const email = unique();
    const sentAt = Date.now();
    await typeEmail(el, email);
    await approveDevice(email, sentAt);
    const code = await codeFor(email, sentAt);
    await enterCode(el, code === '000000' ? '111111' : '000000');
    const root = viewRoot(el);
    await waitFor(() => byText(root, '[role="alert"]', 'Invalid code'), 'Invalid code', 15_000);
    expect(root.querySelector('.wm-email-login')!.getAttribute('data-step')).to.equal('otp');
  });

  it('refuses a second email within 30 s with a counting-down message', async () => {
    localStorage.clear();
    const el = await createModal();
    const root = await toCodeStep(el);
    (await waitFor(() => byText(root, 'button', 'Resend code'), 'Resend')).click();
    const first = await waitFor(() => byText(root, '[role="alert"]', /Please try again after \d+ seconds/), 'the throttle message');
    const n = Number(/(\d+) seconds/.exec(first.textContent!)![1]);
    expect(n).to.be.within(25, 30);
    await waitFor(() => {
      const m = byText(root, '[role="alert"]', /Please try again after \d+ seconds/);
      return m && Number(/(\d+) seconds/.exec(m.textContent!)![1]) < n;
    }, 'the countdown', 3_000);
  });

  it('signs personal_sign and eth_signTypedData_v4 once the visitor approves in the frame, which shows what is signed', async () => {
    localStorage.clear();
    const el = await createModal();
    const address = await emailLogin(el);
    const provider = el.getProvider('eip155');
    const root = viewRoot(el);
    const message = 'Sign in to the test page';
    const hex = `0x${[...new TextEncoder().encode(message)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    const signing = provider.request({ method: 'personal_sign', params: [hex, address] });
    await waitFor(() => root.querySelector('.wm-approve [data-wm-frame-slot]'), 'ApproveTransaction making room for the frame');
    expect(await frameText('[data-field="message"]')).to.equal(message);
    expect(await frameText('[data-field="origin"]')).to.equal(location.origin, 'the frame names the page that asks');
    // The frame is laid over ApproveTransaction's slot on the next animation frames.
    await waitFor(() => document.querySelector<HTMLIFrameElement>('iframe[title="wallet-modal secure approval"]:not([hidden])'), 'the frame shown in the modal');
    await clickInFrame('Approve');
    const sig = (await signing) as `0x${string}`;
    expect(await recoverMessageAddress({ message, signature: sig })).to.equal(address);

    const typed = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }], Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      domain: { name: 'Ether Mail', chainId: 31337 },
      message: { contents: 'Hello, Bob!' },
    };
    const typedSigning = provider.request({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typed)] });
    const shown = await frameText('main.approval');
    expect(shown).to.contain('Hello, Bob!');
    expect(shown).to.contain('Ether Mail');
    await clickInFrame('Approve');
    const typedSig = (await typedSigning) as `0x${string}`;
    const recovered = await recoverTypedDataAddress({ ...(typed as any), signature: typedSig });
    expect(recovered).to.equal(address);
  });

  it('sends a transaction that mines on anvil once approved in the frame, and one rejected there fails with 4001', async () => {
    localStorage.clear();
    const env = await testEnv();
    const el = await createModal();
    const address = await emailLogin(el);
    await rpc(env.chains[0].rpcUrl, 'anvil_setBalance', [address, '0x56BC75E2D63100000']);
    const provider = el.getProvider('eip155');
    const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const before = BigInt(await rpc(env.chains[0].rpcUrl, 'eth_getBalance', [to, 'latest']));
    const sending = provider.request({ method: 'eth_sendTransaction', params: [{ from: address, to, value: '0xde0b6b3a7640000' }] });
    const shown = await frameText('[data-field="transaction"]');
    expect(shown).to.contain('1 ETH');
    expect(await frameText('main.approval')).to.match(/Network fee[^]*\d ETH/);
    await clickInFrame('Approve');
    const hash = (await sending) as string;
    const receipt = await until(() => rpc(env.chains[0].rpcUrl, 'eth_getTransactionReceipt', [hash]), 'the receipt');
    expect(receipt.status).to.equal('0x1');
    expect(BigInt(await rpc(env.chains[0].rpcUrl, 'eth_getBalance', [to, 'latest'])) - before).to.equal(10n ** 18n);

    const rejected = provider.request({ method: 'personal_sign', params: ['0x00', address] }).then(() => null, (e: any) => e);
    expect(await frameText('[data-field="message"]')).to.equal('0x00');
    await clickInFrame('Reject');
    const err = await rejected;
    expect(err?.code).to.equal(4001);
  });

  it('switches network through the frame: the provider then answers for the other anvil chain', async () => {
    localStorage.clear();
    const env = await testEnv();
    const el = await createModal();
    const address = await emailLogin(el);
    const [a, b] = env.chains;
    await rpc(b.rpcUrl, 'anvil_setBalance', [address, '0x1bc16d674ec80000']); // 2 ETH on chain B only
    const provider = el.getProvider('eip155');
    expect(await provider.request({ method: 'eth_chainId' })).to.equal(`0x${a.chainId.toString(16)}`);
    const changed = nextEvent(el, 'networkchange', 15_000).catch(() => null);
    await el.switchNetwork(`eip155:${b.chainId}`);
    await waitFor(() => el.getState().network?.caipNetworkId === `eip155:${b.chainId}`, 'the network switched', 15_000);
    await changed;
    expect(await provider.request({ method: 'eth_chainId' })).to.equal(`0x${b.chainId.toString(16)}`);
    expect(BigInt(await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] }))).to.equal(2n * 10n ** 18n);
  });

  it('refuses a method outside the allow-list and says Action not allowed', async () => {
    localStorage.clear();
    const el = await createModal();
    await emailLogin(el);
    const err = await el.getProvider('eip155').request({ method: 'eth_sign', params: [] }).then(() => null, (e: any) => e);
    expect(err?.code).to.equal(4200);
    expect(err?.message).to.equal('Requested RPC call is not allowed');
    await el.open();
    await waitFor(() => byText(viewRoot(el), '[part~="banner"], .wm-banner, [role="alert"]', 'Action not allowed'), 'Action not allowed');
  });

  it('answers every malformed provider request at once with a clear error (none hangs)', async () => {
    localStorage.clear();
    const el = await createModal();
    await emailLogin(el);
    const provider = el.getProvider('eip155');
    const fail = (p: Promise<unknown>) => Promise.race([p.then(() => null, (e: any) => e), new Promise((r) => setTimeout(() => r('hung'), 3_000))]);
    const long = await fail(provider.request({ method: 'm'.repeat(65), params: [] }));
    expect([long?.code, long?.message]).to.deep.equal([-32600, 'Invalid request: `method` is longer than 64 characters']);
    const none = await fail(provider.request(null));
    expect(none?.code).to.equal(-32600);
    const huge = await fail(provider.request({ method: 'personal_sign', params: ['0x' + 'ab'.repeat(200 * 1024), '0x0'] }));
    expect([huge?.code, huge?.message]).to.deep.equal([-32602, 'Invalid params: larger than 192 KiB']);
    const cyclic: any = {};
    cyclic.self = cyclic;
    expect((await fail(provider.request({ method: 'eth_call', params: [cyclic] })))?.code).to.equal(-32602);
  });

  it('ignores answers forged to a real pending request from a foreign window and from a foreign origin', async () => {
    localStorage.clear();
    const env = await testEnv();
    const el = await createModal();
    await toCodeStep(el);
    // The real frame's wallet service is slow to check the code (its request never ends), so the
    // element's CONNECT_OTP stays pending; the frame says the request's id.
    const real = `${env.frameUrl}?projectId=test-project&chainId`;
    await visitor({ action: 'frame-eval', prefix: real, script: `
      window.__heard = [];
      addEventListener('message', (e) => {
        window.__heard.push(e.data && e.data.type);
        if (e.data && e.data.type === '@w3m-app/CONNECT_OTP') window.__held = e.data.id;
      });
      const realFetch = window.fetch;
      window.fetch = (input, init) => String(input).includes('/w/v1/email/verify') ? new Promise(() => {}) : realFetch(input, init);
      return true;` });
    await enterCode(el, '123456');
    const id = await until(() => visitor({ action: 'frame-eval', prefix: real, script: 'return window.__held || null;' }) as Promise<string | null>, 'the code check held in the frame');
    const forged = JSON.stringify({ type: '@w3m-frame/CONNECT_OTP_SUCCESS', id, payload: {} });
    // A foreign window on the frame's own origin: another copy of the frame page.
    const twin = document.createElement('iframe');
    twin.hidden = true;
    // (The frame page may be framed only by the project's origins, so it names the project.)
    twin.src = `${env.frameUrl}?projectId=test-project&twin=1`;
    document.body.appendChild(twin);
    await visitor({ action: 'frame-eval', prefix: `${env.frameUrl}?projectId=test-project&twin`, script: `parent.postMessage(${forged}, '*'); return true;` });
    // A foreign origin: this page itself.
    window.postMessage(JSON.parse(forged), '*');
    await new Promise((r) => setTimeout(r, 600));
    const heard = (await visitor({ action: 'frame-eval', prefix: real, script: 'return window.__heard;' })) as string[];
    expect(el.getState().email?.step).to.equal('verifying', 'neither forged answer ended the code check');
    expect(heard).to.not.include('@w3m-app/IS_CONNECTED', 'nothing asked of the frame as if logged in');
    // The same answer from the frame itself is taken: the forged id was the real one.
    await visitor({ action: 'frame-eval', prefix: real, script: `parent.postMessage(${forged}, '*'); return true;` });
    await waitFor(() => el.getState().email?.step !== 'verifying', 'the frame\'s own answer taken');
    await until(() => visitor({ action: 'frame-eval', prefix: real, script: `return window.__heard.includes('@w3m-app/IS_CONNECTED');` }) as Promise<boolean>, 'the session asked after the real answer');
  });

  it('keeps the session across a reload and ends it with disconnect', async () => {
    localStorage.clear();
    let el = await createModal();
    const address = await emailLogin(el);
    el.remove();
    document.querySelector('iframe')?.remove();
    el = await createModal();
    const again = await nextEvent(el, 'connect', 20_000);
    expect(again.detail.address).to.equal(address);
    expect(again.detail.reconnected).to.equal(true);
    await el.disconnect();
    await waitFor(() => el.getState().connection === null, 'disconnected');
    await new Promise((r) => setTimeout(r, 300)); // the frame signs out (at most 3 s)
    el.remove();
    el = await createModal();
    const reconnect = await nextEvent(el, 'connect', 4_000).then(() => true, () => false);
    expect(reconnect, 'no session after disconnect').to.equal(false);
  });

  it('says Unable to load email login dependency when the frame cannot load', async function () {
    this.timeout(40_000);
    localStorage.clear();
    const el = await createModal({ 'frame-url': 'http://127.0.0.1:9/frame' });
    await el.open();
    await typeEmail(el, unique());
    await waitFor(() => byText(viewRoot(el), '[role="alert"]', 'Unable to load email login dependency'), 'the load failure', 25_000);
  });

  it('cannot load the frame for a project that does not allow the page’s origin, and says so', async function () {
    // The frame page may be framed only by the project's allowed origins (its CSP frame-ancestors):
    // the browser itself refuses to show it, so the frame never says READY and the load times out.
    this.timeout(40_000);
    localStorage.clear();
    const el = await createModal({ 'project-id': 'foreign-origin' });
    await el.open();
    await typeEmail(el, unique());
    await waitFor(() => byText(viewRoot(el), '[role="alert"]', 'Unable to load email login dependency'), 'the refusal', 25_000);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`EmailLogin, ApproveTransaction and UpdateEmailWallet in ${theme}: no serious axe violation`, async () => {
      localStorage.clear();
      const el = await createModal({ 'theme-mode': theme });
      const email = unique();
      const root = await toCodeStep(el, email);
      await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), theme);
      await expectNoSeriousAxeViolations(root, `EmailLogin (${theme})`);
      const connected = nextEvent(el, 'connect', 20_000);
      await enterCode(el, await codeFor(email, 0));
      const address = (await connected).detail.address as string;
      const provider = el.getProvider('eip155');
      const requests: Array<[string, unknown[]]> = [
        ['personal_sign', ['0x68656c6c6f', address]],
        ['eth_signTypedData_v4', [address, JSON.stringify({ types: { EIP712Domain: [], Mail: [] }, primaryType: 'Mail', domain: { name: 'Ether Mail' }, message: { contents: 'Hello' } })]],
        ['eth_sendTransaction', [{ from: address, to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', data: `0x095ea7b3${'70997970c51812dc3a010c7d01b50e0d17dc79c8'.padStart(64, '0')}${'f'.repeat(64)}` }]],
      ];
      const prefix = await framePrefix();
      for (const [method, params] of requests) {
        const pending = provider.request({ method, params }).catch(() => null);
        await waitFor(() => root.querySelector('.wm-approve [data-wm-frame-slot]'), `ApproveTransaction for ${method}`);
        await expectNoSeriousAxeViolations(root, `ApproveTransaction ${method} (${theme})`);
        await frameText('main.approval');
        // The frame's own document: axe runs inside it, in the theme the modal handed it.
        const frameAxe = (await visitor({ action: 'frame-axe', prefix })) as { theme: string; violations: string[] };
        expect(frameAxe.theme, 'the frame took the modal\'s theme').to.equal(theme);
        expect(frameAxe.violations, `the frame's approval for ${method} (${theme})`).to.deep.equal([]);
        await clickInFrame('Reject');
        await pending;
        await waitFor(() => !root.querySelector('.wm-approve'), 'the approval left');
      }
      await el.open();
      (await waitFor(() => root.querySelector<HTMLButtonElement>('.wm-edit-email'), 'Edit email')).click();
      await waitFor(() => root.querySelector('.wm-update-email input[name="email"]'), 'UpdateEmailWallet');
      await expectNoSeriousAxeViolations(root, `UpdateEmailWallet (${theme})`);
    });
  }
});
