// The embedded wallet's other logins end to end: Farcaster (Sign In With Farcaster through the
// backend's relay stand-in, approved in the demo Farcaster client page in another window of the same
// browser) and social login (the local OpenID Connect provider in the popup). Real frame origin,
// real backend, nothing stubbed.
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import { byText, createModal, nextEvent, testEnv, viewRoot, waitFor } from './helpers';
import { expectNoSeriousAxeViolations } from '../views/axe';

/** Acts as the visitor in another window of this browser (web-test-runner.config.mjs, 'wallet-modal-visitor'). */
const visitor = (payload: object) => executeServerCommand('visitor', payload);

describe('the embedded wallet: Farcaster', function () {
  this.timeout(60_000);
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    for (const f of document.querySelectorAll('iframe')) f.remove();
  });

  it('shows the sign-in link as a QR code and a link, and connects once the Farcaster client approves', async () => {
    localStorage.clear();
    const el = await createModal();
    await el.open();
    const root = viewRoot(el);
    (await waitFor(() => root.querySelector<HTMLButtonElement>('[data-social="farcaster"]') ?? (root.querySelector<HTMLButtonElement>('[data-social="other"]')?.click(), null), 'the Farcaster button')).click();
    await waitFor(() => el.getState().view === 'ConnectingFarcaster', 'ConnectingFarcaster');
    const link = await waitFor(() => root.querySelector<HTMLAnchorElement>('[data-field="farcaster-link"]'), 'the sign-in link', 15_000);
    expect(root.querySelector('.wm-farcaster svg[role="img"]'), 'the QR code').to.not.equal(null);
    expect(new URL(link.href).pathname).to.equal('/demo/farcaster/');
    for (const theme of ['light', 'dark']) {
      el.setThemeMode(theme);
      await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), theme);
      await expectNoSeriousAxeViolations(root, `ConnectingFarcaster (${theme})`);
    }
    const connected = nextEvent(el, 'connect', 30_000);
    await visitor({ action: 'farcaster-approve', url: link.href });
    const e = await connected;
    expect(e.detail.connectorId).to.equal('embedded');
    await el.open();
    await waitFor(() => byText(viewRoot(el), '[part~="embedded-user"]', 'alice'), 'the Farcaster user name on Account', 15_000);
  });
});

describe('the embedded wallet: social login', function () {
  this.timeout(60_000);
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    for (const f of document.querySelectorAll('iframe')) f.remove();
  });

  it('logs in with Google at the local OpenID Connect provider in the popup, the same login again being the same wallet', async () => {
    const env = await testEnv();
    let address = '';
    for (const round of [1, 2]) {
      localStorage.clear();
      const el = await createModal();
      await el.open();
      const root = viewRoot(el);
      const google = await waitFor(() => root.querySelector<HTMLButtonElement>('[data-social="google"]'), 'the Google button');
      const connected = nextEvent(el, 'connect', 30_000);
      google.click();
      await visitor({ action: 'oidc-login', prefix: env.oidcUrl, login: 'carol' });
      const e = await connected;
      expect(e.detail.connectorId).to.equal('embedded');
      if (round === 1) address = e.detail.address;
      else expect(e.detail.address, 'the same account at the same provider').to.equal(address);
      await el.open();
      await waitFor(() => byText(viewRoot(el), '[part~="embedded-user"]', 'carol@example.com'), 'the account email on Account', 15_000);
      await el.disconnect();
      el.remove();
    }
  });

  it('says Popup closed when the visitor closes the login window', async () => {
    localStorage.clear();
    const env = await testEnv();
    const el = await createModal();
    await el.open();
    const root = viewRoot(el);
    (await waitFor(() => root.querySelector<HTMLButtonElement>('[data-social="github"]') ?? (root.querySelector<HTMLButtonElement>('[data-social="other"]')?.click(), null), 'the GitHub button')).click();
    await visitor({ action: 'close-window', prefix: env.oidcUrl });
    await waitFor(() => byText(root, '[role="alert"]', 'Popup closed'), 'Popup closed', 5_000);
    expect(el.getState().connection).to.equal(null);
  });
});

describe('the embedded wallet: a Telegram mini-app return', function () {
  this.timeout(30_000);
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    for (const f of document.querySelectorAll('iframe')) f.remove();
  });

  it('drops a result_uri this tab did not ask for (a login CSRF link): removed from the address, never handed on', async () => {
    localStorage.clear();
    sessionStorage.removeItem('wm-social-started');
    const env = await testEnv();
    const url = new URL(location.href);
    url.searchParams.set('result_uri', `${new URL(env.frameUrl).origin}/w/v1/social/result?token=${'0'.repeat(64)}`);
    history.replaceState(history.state, '', url.toString());
    const el = await createModal();
    await waitFor(() => !new URL(location.href).searchParams.has('result_uri'), 'result_uri removed from the address');
    await el.open();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(byText(viewRoot(el), '[role="alert"]', 'Failed to initiate social connection'), 'nothing was tried with it').to.equal(null);
    expect(el.getState().social ?? null, 'no social login under way').to.equal(null);
    expect(el.getState().connection).to.equal(null);
  });

  it('takes result_uri from the address of a tab that started a social login, removes it at once and hands it to the frame', async () => {
    localStorage.clear();
    // What the element marks when this tab starts a social login (element/ts/social-mark.ts).
    sessionStorage.setItem('wm-social-started', String(Date.now()));
    const env = await testEnv();
    const frameOrigin = new URL(env.frameUrl).origin;
    const url = new URL(location.href);
    // A result the wallet service never issued: it reaches the service, which refuses it.
    url.searchParams.set('result_uri', `${frameOrigin}/w/v1/social/result?token=${'0'.repeat(64)}`);
    history.replaceState(history.state, '', url.toString());
    const el = await createModal();
    await waitFor(() => !new URL(location.href).searchParams.has('result_uri'), 'result_uri removed from the address');
    expect(new URL(location.href).searchParams.has('wtr-session-id'), 'the rest of the address is kept').to.equal(true);
    await el.open();
    await waitFor(() => byText(viewRoot(el), '[role="alert"]', 'Failed to initiate social connection'), 'the refused result', 15_000);
    expect(el.getState().connection).to.equal(null);
  });
});
