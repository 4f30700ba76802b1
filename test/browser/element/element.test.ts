import { expect } from '@esm-bundle/chai';
import { byText, cleanup, createModal, dialog, nextEvent, testEnv, viewRoot, waitFor } from './helpers';

describe('<wallet-modal> element', () => {
  afterEach(cleanup);

  it('registers the custom element with its public methods', async () => {
    const el = await createModal();
    expect(customElements.get('wallet-modal')).to.equal(el.constructor);
    for (const m of ['open', 'close', 'disconnect', 'switchNetwork', 'getState', 'getProvider', 'setThemeMode', 'setThemeVariables']) {
      expect(typeof (el as any)[m], m).to.equal('function');
    }
    expect(el.shadowRoot !== null, 'open shadow root').to.equal(true);
  });

  it('without project-id fires error "Project Id Not Configured", throws nothing and shows the configuration message', async () => {
    const errors: any[] = [];
    // `error` does not bubble; a capturing listener on the document still sees it.
    const listener = (e: Event) => errors.push((e as CustomEvent).detail);
    document.addEventListener('error', listener, { capture: true });
    const el = await createModal({ 'project-id': null });
    await waitFor(() => errors.some((d) => d?.message === 'Project Id Not Configured'), 'error event');
    document.removeEventListener('error', listener, { capture: true });
    await el.open();
    const alert = await waitFor(() => viewRoot(el)?.querySelector('[role="alert"]'), 'config message');
    expect(alert.textContent).to.contain('Project Id Not Configured');
    expect(el.getState().configError.key).to.equal('PROJECT_ID_NOT_CONFIGURED');
  });

  it('open() shows the Connect view in a labelled modal dialog appended to the body, and fires open', async () => {
    const el = await createModal();
    const opened = nextEvent(el, 'open');
    await el.open();
    expect((await opened).detail.view).to.equal('Connect');
    const d = await waitFor(() => dialog(el), 'dialog');
    expect(d.getAttribute('aria-modal')).to.equal('true');
    const title = viewRoot(el).getElementById(d.getAttribute('aria-labelledby')!);
    expect(title?.textContent).to.equal('Connect Wallet');
    expect(document.querySelector('wallet-modal-overlay')?.parentElement === document.body, 'overlay on the body').to.equal(true);
    expect(el.getState().open).to.equal(true);
  });

  it('close() closes and fires close with the connected flag', async () => {
    const el = await createModal();
    await el.open();
    await waitFor(() => dialog(el));
    const closed = nextEvent(el, 'close');
    await el.close();
    expect((await closed).detail).to.deep.equal({ connected: false });
    await waitFor(() => !dialog(el) || dialog(el)!.closest('[data-open="false"]') || dialog(el)!.hidden, 'dialog hidden');
    expect(el.getState().open).to.equal(false);
  });

  it('Escape closes the modal and focus returns to the button that opened it', async () => {
    const el = await createModal();
    const opener = document.createElement('button');
    opener.textContent = 'Connect';
    document.body.appendChild(opener);
    opener.focus();
    await el.open();
    const d = await waitFor(() => dialog(el));
    await waitFor(() => d.contains(viewRoot(el).activeElement), 'focus moved into the dialog');
    (viewRoot(el).activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await waitFor(() => el.getState().open === false, 'closed by Escape');
    await waitFor(() => document.activeElement === opener, 'focus restored');
    opener.remove();
  });

  it('Tab and Shift+Tab stay inside the dialog (focus trap across the shadow DOM)', async () => {
    const el = await createModal();
    const outside = document.createElement('button');
    document.body.appendChild(outside);
    await el.open();
    const d = await waitFor(() => dialog(el));
    const root = viewRoot(el);
    await waitFor(() => d.querySelectorAll('button').length >= 2, 'buttons rendered');
    const buttons = [...d.querySelectorAll('button:not([disabled])')] as HTMLElement[];
    const last = buttons[buttons.length - 1];
    last.focus();
    last.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, composed: true, cancelable: true }));
    await waitFor(() => d.contains(root.activeElement) && root.activeElement !== last, 'wrapped forward');
    const first = root.activeElement as HTMLElement;
    first.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true, composed: true, cancelable: true }));
    await waitFor(() => root.activeElement === last, 'wrapped backward');
    outside.focus();
    await waitFor(() => d.contains(root.activeElement), 'focus pulled back into the dialog');
    outside.remove();
  });

  it('theme variables set on the host page reach the shadow DOM', async () => {
    const el = await createModal();
    el.style.setProperty('--wm-accent', 'rgb(255, 0, 0)');
    el.setThemeVariables({ '--wm-border-radius-master': '9px', '--wm-z-index': '4242' });
    await el.open();
    const d = await waitFor(() => dialog(el));
    expect(getComputedStyle(d).getPropertyValue('--wm-accent').trim()).to.equal('rgb(255, 0, 0)');
    expect(getComputedStyle(d).getPropertyValue('--wm-border-radius-master').trim()).to.equal('9px');
    const overlay = viewRoot(el).querySelector('[part~="overlay"]') as HTMLElement;
    expect(getComputedStyle(overlay).zIndex).to.equal('4242');
  });

  it('theme-mode dark and setThemeMode switch the rendered theme', async () => {
    const el = await createModal({ 'theme-mode': 'dark' });
    await el.open();
    await waitFor(() => viewRoot(el)?.querySelector('[data-theme="dark"]'), 'dark theme');
    el.setThemeMode('light');
    await waitFor(() => viewRoot(el).querySelector('[data-theme="light"]'), 'light theme');
    expect(el.getState().themeMode).to.equal('light');
  });

  it('exposes ::part() names on the main parts', async () => {
    const el = await createModal();
    await el.open();
    const root = viewRoot(el);
    await waitFor(() => root.querySelector('[part~="connector"]'), 'connector rows');
    for (const p of ['overlay', 'modal', 'header', 'title', 'close-button', 'body', 'connector']) {
      expect(root.querySelector(`[part~="${p}"]`) !== null, p).to.equal(true);
    }
  });

  it('embedded mode renders inline in the element, without an overlay on the body', async () => {
    const el = await createModal({ embedded: '' });
    await waitFor(() => el.shadowRoot!.querySelector('[part~="modal"]'), 'inline view');
    expect(document.querySelector('wallet-modal-overlay') === null, 'no overlay').to.equal(true);
  });

  it('append-to-body="false": the modal dialog opens inside the element (no overlay on the body), focus trapped in it, Escape closes it', async () => {
    const el = await createModal({ 'append-to-body': 'false' });
    await el.open();
    const d = await waitFor(() => el.shadowRoot!.querySelector<HTMLElement>('[role="dialog"]'), 'the dialog in the element');
    expect(d.getAttribute('aria-modal')).to.equal('true');
    expect(document.querySelector('wallet-modal-overlay'), 'no overlay on the body').to.equal(null);
    await waitFor(() => d.contains(el.shadowRoot!.activeElement), 'focus inside the dialog');
    d.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await waitFor(() => el.getState().open === false, 'closed by Escape');
  });

  it('AllWallets lists the catalogue, pages by scrolling and searches after the debounce', async () => {
    const el = await createModal();
    await el.open({ view: 'AllWallets' });
    const root = viewRoot(el);
    await waitFor(() => root.querySelectorAll('[part~="wallet"]').length === 40, 'first page of 40');
    // 60 wallets in the catalogue, 58 of them on the configured (EVM) chains.
    expect(el.getState().allWallets.count).to.equal(58);
    // Infinite scroll: bring the sentinel after the last wallet into view.
    await waitFor(() => {
      root.querySelector('.wm-sentinel')?.scrollIntoView();
      return root.querySelectorAll('[part~="wallet"]').length === 58;
    }, 'second page');
    const search = root.querySelector('input[part~="search"]') as HTMLInputElement;
    // React tracks the input's value: set it through the native setter so the input event counts.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(search, 'demo');
    search.dispatchEvent(new Event('input', { bubbles: true }));
    await waitFor(() => root.querySelectorAll('[part~="wallet"]').length === 1, 'search result');
    expect(byText(root, '[part~="wallet"]', 'Demo Wallet') !== null, 'Demo Wallet found').to.equal(true);
  });

  it('a remote config with a foreign allowed origin raises Invalid App Configuration (error event)', async () => {
    const el = await createModal({ 'project-id': 'foreign-origin', debug: '' });
    const err = nextEvent(el, 'error');
    await el.open();
    expect((await err).detail.message).to.equal('Invalid App Configuration');
  });

  it('analytics: opening sends MODAL_OPEN to the analytics sink', async () => {
    const env = await testEnv();
    // The backend's recorded analytics answer only this run's test token (scripts/test.sh).
    const auth = { authorization: `Bearer ${env.testToken}` };
    expect((await fetch(`${env.backendUrl}/e/recorded`)).status, 'no token: no test hook').to.equal(404);
    await fetch(`${env.backendUrl}/e/recorded`, { method: 'DELETE', headers: auth });
    const el = await createModal();
    await el.open();
    let recorded = '';
    for (let i = 0; i < 100 && !recorded.includes('MODAL_OPEN'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      recorded = await (await fetch(`${env.backendUrl}/e/recorded`, { headers: auth })).text();
    }
    expect(recorded).to.contain('MODAL_OPEN');
    expect(recorded).to.contain('"connected":false');
  });
});
