import { expect } from '@esm-bundle/chai';
import { createFocusTrap, getTabbables, mountViews, type FocusTrap } from '../../../react-views/index.tsx';
import { activeDeep, cleanup, makeAccount, makeSnapshot, mount, press, settle, sleep, text, waitFor, ident } from './fixtures';

describe('views: dialog frame', function () {

  this.timeout(10000);
  afterEach(cleanup);

  it('while closed on Connect, holds the dialog rendered ahead but hidden, inert and out of the accessibility tree; open shows it', async () => {
    const m = mount(makeSnapshot({ open: false, view: 'Connect' }));
    await settle();
    await sleep(50);
    const hidden = m.$('[part~="modal"]') as HTMLElement;
    expect(hidden, 'rendered ahead').to.not.equal(null);
    expect(hidden.checkVisibility({ visibilityProperty: true }), 'not visible').to.equal(false);
    const app = hidden.closest('.wm-app') as HTMLElement;
    expect(app.inert, 'inert').to.equal(true);
    expect(app.getAttribute('aria-hidden')).to.equal('true');
    expect(m.shadow.activeElement, 'nothing focused inside').to.equal(null);
    m.render(makeSnapshot({ open: true }));
    const modal = await m.find('[part~="modal"]');
    expect(modal.getAttribute('role')).to.equal('dialog');
    await waitFor(() => modal.checkVisibility({ visibilityProperty: true }));
    expect((modal.closest('.wm-app') as HTMLElement).inert).to.equal(false);
  });

  it('while closed on any other view, renders nothing', async () => {
    const m = mount(makeSnapshot({ open: false, view: 'Account' }));
    await settle();
    await sleep(50);
    expect(ident(m.$('[part~="modal"]'))).to.equal('null');
    expect(ident(m.$('[part~="overlay"]'))).to.equal('null');
  });

  it('closing hides the dialog', async () => {
    const m = mount(makeSnapshot());
    const modal = await m.find('[part~="modal"]');
    m.render(makeSnapshot({ open: false }));
    await waitFor(() => {
      const now = m.$('[part~="modal"]') as HTMLElement | null;
      return now === null || !now.checkVisibility({ visibilityProperty: true });
    });
    expect(modal).to.not.equal(undefined);
  });

  it('has role=dialog, aria-modal and aria-labelledby pointing at the title', async () => {
    const m = mount(makeSnapshot({ title: 'Connect Wallet' }));
    const modal = await m.find('[part~="modal"]');
    expect(modal.getAttribute('role')).to.equal('dialog');
    expect(modal.getAttribute('aria-modal')).to.equal('true');
    const id = modal.getAttribute('aria-labelledby');
    expect(id).to.be.a('string').and.not.equal('');
    const label = m.shadow.getElementById(id!);
    expect(label, 'labelled-by target exists').to.not.equal(null);
    expect(text(label)).to.equal('Connect Wallet');
    expect(text(m.$('[part~="header"]'))).to.equal('Connect Wallet');
    expect(label!.getAttribute('part')).to.contain('title');
  });

  it('updates the header title with the snapshot', async () => {
    const m = mount(makeSnapshot({ title: 'Connect Wallet' }));
    await m.find('[part~="title"]');
    m.render(makeSnapshot({ title: 'All Wallets', view: 'AllWallets', canGoBack: true }));
    await waitFor(() => text(m.$('[part~="title"]')) === 'All Wallets');
  });

  it('embedded: rendered inline without overlay and without aria-modal, even when not open', async () => {
    const m = mount(makeSnapshot({ open: false, embedded: true }));
    const modal = await m.find('[part~="modal"]');
    expect(ident(m.$('[part~="overlay"]'))).to.equal('null');
    expect(modal.hasAttribute('aria-modal')).to.equal(false);
    expect(modal.classList.contains('wm-embedded')).to.equal(true);
  });

  it('shows the back button only when canGoBack and sends back', async () => {
    const m = mount(makeSnapshot({ canGoBack: false }));
    await m.find('[part~="modal"]');
    expect(ident(m.$('button[aria-label="Back"]'))).to.equal('null');
    m.render(makeSnapshot({ canGoBack: true }));
    const back = await m.find<HTMLButtonElement>('button[aria-label="Back"]');
    expect(back.getAttribute('part')).to.contain('back-button');
    back.click();
    expect(m.intents).to.deep.equal([{ type: 'back' }]);
  });

  it('the close button sends the visitor\'s dismiss; it is gone when canClose is false', async () => {
    const m = mount(makeSnapshot({ canClose: true }));
    const close = await m.find<HTMLButtonElement>('button[aria-label="Close"]');
    expect(close.getAttribute('part')).to.contain('close-button');
    close.click();
    expect(m.intents).to.deep.equal([{ type: 'dismiss' }]);
    m.render(makeSnapshot({ canClose: false }));
    await waitFor(() => m.$('button[aria-label="Close"]') === null);
  });

  it('clicking the backdrop dismisses; clicking inside the card does not', async () => {
    const m = mount(makeSnapshot());
    const overlay = await m.find('[part~="overlay"]');
    (m.$('[part~="body"]') as HTMLElement).click();
    (m.$('[part~="header"]') as HTMLElement).click();
    expect(m.intents).to.deep.equal([]);
    overlay.click();
    expect(m.intents).to.deep.equal([{ type: 'dismiss' }]);
  });

  it('a press that starts in the card and ends on the backdrop does not dismiss', async () => {
    const m = mount(makeSnapshot());
    const overlay = await m.find('[part~="overlay"]');
    const body = m.$('[part~="body"]')!;
    body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true }));
    overlay.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, detail: 1 }));
    expect(m.intents).to.deep.equal([]);
    overlay.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true }));
    overlay.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, detail: 1 }));
    expect(m.intents).to.deep.equal([{ type: 'dismiss' }]);
  });

  it('sets data-theme from themeMode', async () => {
    const m = mount(makeSnapshot({ themeMode: 'dark' }));
    await m.find('[data-theme="dark"]');
    m.render(makeSnapshot({ themeMode: 'light' }));
    await m.find('[data-theme="light"]');
    expect(ident(m.$('[data-theme="dark"]'))).to.equal('null');
  });

  it('theme palettes differ between light and dark', async () => {
    const m = mount(makeSnapshot({ themeMode: 'light' }));
    const modal = await m.find('[part~="modal"]');
    const light = getComputedStyle(modal).backgroundColor;
    m.render(makeSnapshot({ themeMode: 'dark' }));
    await m.find('[data-theme="dark"]');
    expect(getComputedStyle(modal).backgroundColor).to.not.equal(light);
  });

  it('adds the shake class while snapshot.shake', async () => {
    const m = mount(makeSnapshot({ shake: false }));
    const modal = await m.find('[part~="modal"]');
    expect(modal.classList.contains('wm-shake')).to.equal(false);
    m.render(makeSnapshot({ shake: true }));
    await waitFor(() => modal.classList.contains('wm-shake'));
    expect(getComputedStyle(modal).animationName).to.equal('wm-shake');
    expect(getComputedStyle(modal).animationDuration).to.equal('0.5s');
    m.render(makeSnapshot({ shake: false }));
    await waitFor(() => !modal.classList.contains('wm-shake'));
  });

  it('adopts a constructable stylesheet: no <style> elements, no style attributes', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    expect(m.shadow.adoptedStyleSheets.length).to.be.greaterThan(0);
    const cssText = m.shadow.adoptedStyleSheets
      .flatMap((s) => Array.from(s.cssRules))
      .map((r) => r.cssText)
      .join('\n');
    expect(cssText).to.contain('--wm-accent');
    expect(m.shadow.querySelectorAll('style').length).to.equal(0);
    expect(m.shadow.querySelectorAll('[style]').length).to.equal(0);
    expect(document.head.querySelectorAll('style').length).to.equal(0);
  });

  it('unmount removes the container and the adopted stylesheet', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="modal"]');
    expect(m.shadow.adoptedStyleSheets.length).to.be.greaterThan(0);
    m.unmount();
    expect(m.shadow.adoptedStyleSheets.length).to.equal(0);
    expect(m.shadow.childElementCount).to.equal(0);
  });

  it('a lazily loaded view adopts its own sheets after the initial one; unmount removes them too, and a new mount in the same root adopts them again after its own', async () => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const snapshot = makeSnapshot({ view: 'Account', account: makeAccount(), banner: { variant: 'success', message: 'Copied' } });
    try {
      for (let round = 0; round < 2; round++) {
        const views = mountViews(shadow, { onIntent() {} });
        views.render(snapshot);
        const close = await waitFor(() => shadow.querySelector<HTMLElement>('.wm-banner-close'));
        const icon = await waitFor(() => shadow.querySelector<HTMLElement>('.wm-disconnect .wm-image'));
        // The lazy rules win over the initial sheet's at equal specificity: the banner's close button
        // (not .wm-icon-button's 36 px), the small image's radius (not .wm-image's 12 px).
        expect(getComputedStyle(close).width, `round ${round}`).to.equal('28px');
        expect(getComputedStyle(icon).borderTopLeftRadius, `round ${round}`).to.equal('8px');
        expect(shadow.adoptedStyleSheets.length).to.be.greaterThan(2);
        views.unmount();
        expect(shadow.adoptedStyleSheets.length).to.equal(0);
      }
    } finally {
      host.remove();
    }
  });

  it('exposes its parts to the host page through ::part()', async () => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(
      ['overlay', 'modal', 'header', 'title', 'close-button', 'body', 'connector']
        .map((p) => `.test-host::part(${p}) { outline: 3px solid rgb(1, 2, 3); }`)
        .join('\n'),
    );
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    try {
      const m = mount(makeSnapshot());
      await m.find('[part~="connector"]');
      for (const p of ['overlay', 'modal', 'header', 'title', 'close-button', 'body', 'connector']) {
        expect(getComputedStyle(m.$(`[part~="${p}"]`)!).outlineColor, p).to.equal('rgb(1, 2, 3)');
      }
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  });

  it('reads theme variables from the host page with defaults', async () => {
    const m = mount(makeSnapshot());
    const overlay = await m.find('[part~="overlay"]');
    expect(getComputedStyle(overlay).zIndex).to.equal('999');
    m.host.style.setProperty('--wm-z-index', '4242');
    expect(getComputedStyle(overlay).zIndex).to.equal('4242');

    const close = m.$('button[aria-label="Close"]')!;
    const defaultSize = parseFloat(getComputedStyle(close).width);
    m.host.style.setProperty('--wm-font-size-master', '20px');
    expect(parseFloat(getComputedStyle(close).width)).to.be.closeTo(defaultSize * 2, 0.5);

    const modal = m.$('[part~="modal"]')!;
    expect(getComputedStyle(modal).borderTopLeftRadius).to.equal('36px');
    m.host.style.setProperty('--wm-border-radius-master', '2px');
    expect(getComputedStyle(modal).borderTopLeftRadius).to.equal('18px');

    m.host.style.setProperty('--wm-font-family', 'monospace');
    expect(getComputedStyle(modal).fontFamily).to.equal('monospace');

    const plain = getComputedStyle(modal).backgroundColor;
    m.host.style.setProperty('--wm-color-mix', 'rgb(255, 0, 0)');
    m.host.style.setProperty('--wm-color-mix-strength', '50');
    const mixed = getComputedStyle(modal).backgroundColor;
    expect(mixed).to.not.equal(plain);
  });

  it('--wm-accent colours the primary button', async () => {
    const m = mount(
      makeSnapshot({
        view: 'ConnectingExternal',
        connecting: {
          connectorId: 'x',
          name: 'MetaMask',
          icon: null,
          state: 'error',
          error: { code: 4001, key: 'CONNECTION_REJECTED', message: 'Connection rejected' },
        },
      }),
    );
    const retry = await m.find('.wm-retry');
    // The default accent #3396ff darkened to #2671bf: white text on it reads at 5:1 (3:1 on #3396ff).
    expect(getComputedStyle(retry).backgroundColor).to.equal('rgb(38, 113, 191)');
    m.host.style.setProperty('--wm-accent', 'rgb(1, 2, 3)');
    expect(getComputedStyle(retry).backgroundColor).to.equal('rgb(1, 2, 3)');
  });

  it('the stylesheet disables animations under prefers-reduced-motion and has a bottom-sheet layout', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="modal"]');
    const rules = m.shadow.adoptedStyleSheets.flatMap((s) => Array.from(s.cssRules));
    const media = rules.filter((r): r is CSSMediaRule => r instanceof CSSMediaRule);
    const reduced = media.find((r) => r.conditionText.includes('prefers-reduced-motion: reduce'));
    expect(reduced, 'reduced-motion rule').to.not.equal(undefined);
    const reducedText = Array.from(reduced!.cssRules).map((r) => r.cssText).join('\n');
    for (const cls of ['.wm-shake', '.wm-title-text', '.wm-view-transition', '.wm-body-animated']) {
      expect(reducedText).to.contain(cls);
    }
    const sheet = media.find((r) => r.conditionText.includes('max-width: 430px'));
    expect(sheet, 'mobile rule').to.not.equal(undefined);
    expect(Array.from(sheet!.cssRules).map((r) => r.cssText).join('\n')).to.contain('flex-end');
  });

  it('animation durations: title 120 ms, view change 150 ms, body height 150 ms', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    expect(getComputedStyle(m.$('.wm-title-text')!).animationDuration).to.equal('0.12s');
    expect(getComputedStyle(m.$('.wm-view-transition')!).animationDuration).to.equal('0.15s');
    const body = m.$('[part~="body"]')!;
    await waitFor(() => body.classList.contains('wm-body-animated'));
    expect(getComputedStyle(body).transitionDuration).to.equal('0.15s');
    expect(getComputedStyle(body).transitionProperty).to.equal('height');
  });

  it('shows the configuration error instead of the view', async () => {
    const m = mount(
      makeSnapshot({
        view: 'Connect',
        title: 'Configuration error',
        configError: { code: 5000, key: 'PROJECT_ID_NOT_CONFIGURED', message: 'Project Id Not Configured' },
      }),
    );
    const err = await m.find('.wm-config-error');
    expect(text(err)).to.contain('Project Id Not Configured');
    expect(text(err)).to.contain('Add a project-id attribute to <wallet-modal>');
    expect(ident(m.$('[part~="connector"]'))).to.equal('null');
  });

  it('a lazy view shows after Suspense resolves', async () => {
    const m = mount(makeSnapshot({ view: 'Account', title: 'Account', account: makeAccount(), network: null }));
    const account = await m.find('[part~="account"]');
    expect(text(account)).to.contain('0x12...345678');
  });

  it('switching views replaces the body content', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    m.render(makeSnapshot({ view: 'AllWallets', title: 'All Wallets', canGoBack: true }));
    await m.find('[part~="search"]');
    expect(ident(m.$('[part~="connector"]'))).to.equal('null');
    expect(m.$('[part~="modal"]')!.getAttribute('data-view')).to.equal('AllWallets');
  });

  it('shows a loading indicator while snapshot.loading', async () => {
    const m = mount(makeSnapshot({ loading: true }));
    await m.find('[role="progressbar"]');
    m.render(makeSnapshot({ loading: false }));
    await waitFor(() => m.$('[role="progressbar"]') === null);
  });
});

describe('views: focus trap in the dialog', function () {

  this.timeout(10000);
  afterEach(cleanup);

  function opener(): HTMLButtonElement {
    const b = document.createElement('button');
    b.textContent = 'Open';
    b.className = 'test-outside';
    document.body.appendChild(b);
    b.focus();
    return b;
  }

  it('moves focus into the dialog when it opens', async () => {
    const b = opener();
    expect(ident(document.activeElement)).to.equal(ident(b));
    const m = mount(makeSnapshot({ canGoBack: true }));
    await m.find('[part~="modal"]');
    await waitFor(() => activeDeep() === m.$('button[aria-label="Back"]'));
  });

  it('Tab from the last element wraps to the first; Shift+Tab from the first wraps to the last', async () => {
    opener();
    const m = mount(makeSnapshot({ canGoBack: true }));
    const back = await m.find<HTMLButtonElement>('button[aria-label="Back"]');
    await waitFor(() => activeDeep() === back);
    const allWallets = m.$<HTMLButtonElement>('.wm-all-wallets')!;

    const ev = press('Tab', { shiftKey: true });
    expect(ev.defaultPrevented).to.equal(true);
    expect(ident(activeDeep())).to.equal(ident(allWallets));

    press('Tab');
    expect(ident(activeDeep())).to.equal(ident(back));
  });

  it('Tab walks the dialog in order', async () => {
    opener();
    const m = mount(makeSnapshot({ canGoBack: true }));
    const back = await m.find<HTMLButtonElement>('button[aria-label="Back"]');
    await waitFor(() => activeDeep() === back);
    const expected = [
      m.$('button[aria-label="Close"]'),
      ...m.$$('[part~="connector"]'),
      back,
    ];
    expect(expected.length).to.equal(6);
    for (const el of expected) {
      press('Tab');
      expect(ident(activeDeep())).to.equal(ident(el));
    }
  });

  it('pulls focus back when something outside gets focus', async () => {
    opener();
    const outside = document.createElement('input');
    outside.className = 'test-outside';
    document.body.appendChild(outside);
    const m = mount(makeSnapshot());
    const close = await m.find<HTMLButtonElement>('button[aria-label="Close"]');
    await waitFor(() => activeDeep() === close);
    const connector = m.$<HTMLButtonElement>('[part~="connector"]')!;
    connector.focus();
    outside.focus();
    expect(ident(activeDeep())).to.equal(ident(connector));
  });

  it('Escape sends the visitor\'s dismiss', async () => {
    opener();
    const m = mount(makeSnapshot());
    const close = await m.find('button[aria-label="Close"]');
    await waitFor(() => activeDeep() === close);
    const ev = press('Escape');
    expect(ev.defaultPrevented).to.equal(true);
    expect(m.intents).to.deep.equal([{ type: 'dismiss' }]);
  });

  it('Escape still sends dismiss when closing is blocked (the engine refuses it and shakes the modal)', async () => {
    opener();
    const m = mount(makeSnapshot({ canClose: false, canGoBack: true }));
    const back = await m.find('button[aria-label="Back"]');
    await waitFor(() => activeDeep() === back);
    press('Escape');
    expect(m.intents).to.deep.equal([{ type: 'dismiss' }]);
  });

  it('restores focus to the opener when the dialog closes', async () => {
    const b = opener();
    const m = mount(makeSnapshot());
    const close = await m.find('button[aria-label="Close"]');
    await waitFor(() => activeDeep() === close);
    m.render(makeSnapshot({ open: false }));
    await waitFor(() => document.activeElement === b);
  });

  it('restores focus to an opener inside another shadow root', async () => {
    const outerHost = document.createElement('div');
    outerHost.className = 'test-outside';
    document.body.appendChild(outerHost);
    const inner = outerHost.attachShadow({ mode: 'open' });
    const b = document.createElement('button');
    b.textContent = 'deep opener';
    inner.appendChild(b);
    b.focus();
    expect(ident(activeDeep())).to.equal(ident(b));
    const m = mount(makeSnapshot());
    const close = await m.find('button[aria-label="Close"]');
    await waitFor(() => activeDeep() === close);
    m.render(makeSnapshot({ open: false }));
    await waitFor(() => activeDeep() === b);
  });

  it('keeps focus inside when the focused element disappears with a view change', async () => {
    opener();
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    const connector = m.$<HTMLButtonElement>('[part~="connector"]')!;
    connector.focus();
    m.render(makeSnapshot({ view: 'AllWallets', title: 'All Wallets', canGoBack: true }));
    await m.find('[part~="search"]');
    const modal = m.$('[part~="modal"]')!;
    await waitFor(() => {
      const a = activeDeep();
      return a !== null && (a === modal || modal.contains(a));
    });
    // And Tab still cycles inside.
    press('Tab');
    expect(modal.contains(activeDeep())).to.equal(true);
  });

  it('embedded mode has no trap: focus stays put and Escape does nothing', async () => {
    const b = opener();
    const m = mount(makeSnapshot({ embedded: true, open: false }));
    await m.find('[part~="connector"]');
    await settle();
    expect(ident(document.activeElement)).to.equal(ident(b));
    press('Escape', { target: m.$('[part~="connector"]')! });
    expect(m.intents).to.deep.equal([]);
  });
});

describe('createFocusTrap across shadow DOM', function () {

  this.timeout(10000);
  let root: HTMLElement;
  let trap: FocusTrap | null = null;

  afterEach(() => {
    trap?.deactivate();
    trap = null;
    root?.remove();
    cleanup();
  });

  /**
   * <div container>
   *   <button a>  <button disabled>  <button hidden>  <button tabindex=-1>  <div inert><button/></div>
   *   <x-host> #shadow( <button s1> <slot/> <button s2> )  + light child <button slotted>
   *   <x-host2> #shadow( <x-inner> #shadow( <input deep> ) )
   *   <span tabindex=0 z>  <div style display:none><button/></div>  <a no href>  <a href last>
   * </div>
   */
  function build(): { container: HTMLElement; ids: Record<string, HTMLElement> } {
    root = document.createElement('div');
    root.className = 'test-outside';
    document.body.appendChild(root);
    const container = document.createElement('div');
    root.appendChild(container);
    const ids: Record<string, HTMLElement> = {};
    const btn = (id: string, parent: Node, setup?: (b: HTMLButtonElement) => void) => {
      const b = document.createElement('button');
      b.textContent = id;
      b.dataset.id = id;
      setup?.(b);
      parent.appendChild(b);
      ids[id] = b;
      return b;
    };
    btn('a', container);
    btn('disabled', container, (b) => (b.disabled = true));
    btn('hidden', container, (b) => (b.hidden = true));
    btn('minus', container, (b) => (b.tabIndex = -1));
    const inertBox = document.createElement('div');
    inertBox.inert = true;
    container.appendChild(inertBox);
    btn('inert', inertBox);

    const host = document.createElement('div');
    container.appendChild(host);
    const sr = host.attachShadow({ mode: 'open' });
    btn('s1', sr);
    sr.appendChild(document.createElement('slot'));
    btn('s2', sr);
    btn('slotted', host);

    const host2 = document.createElement('div');
    container.appendChild(host2);
    const sr2 = host2.attachShadow({ mode: 'open' });
    const innerHost = document.createElement('div');
    sr2.appendChild(innerHost);
    const sr3 = innerHost.attachShadow({ mode: 'open' });
    const deep = document.createElement('input');
    deep.dataset.id = 'deep';
    sr3.appendChild(deep);
    ids.deep = deep;

    const z = document.createElement('span');
    z.tabIndex = 0;
    z.textContent = 'z';
    container.appendChild(z);
    ids.z = z;

    const invisible = document.createElement('div');
    invisible.style.setProperty('display', 'none');
    container.appendChild(invisible);
    btn('displaynone', invisible);

    const noHref = document.createElement('a');
    noHref.textContent = 'no href';
    container.appendChild(noHref);
    const last = document.createElement('a');
    last.href = '#last';
    last.textContent = 'last';
    container.appendChild(last);
    ids.last = last;
    return { container, ids };
  }

  it('collects tabbables in composed order, skipping disabled, hidden, tabindex=-1, inert, display:none', () => {
    const { container, ids } = build();
    const list = getTabbables(container);
    expect(list.map((el) => el.dataset.id ?? el.textContent)).to.deep.equal([
      'a',
      's1',
      'slotted',
      's2',
      'deep',
      'z',
      'last',
    ]);
    expect(ident(list[list.length - 1])).to.equal(ident(ids.last));
  });

  it('positive tabindex comes first', () => {
    const { container, ids } = build();
    ids.z.tabIndex = 2;
    ids.s2.tabIndex = 1;
    const list = getTabbables(container);
    expect(list.slice(0, 2).map(ident)).to.deep.equal([ids.s2, ids.z].map(ident));
  });

  it('activate focuses the first tabbable; Tab cycles through nested shadow roots and wraps', () => {
    const { container, ids } = build();
    trap = createFocusTrap(container);
    trap.activate();
    expect(ident(activeDeep())).to.equal(ident(ids.a));
    const order = [ids.s1, ids.slotted, ids.s2, ids.deep, ids.z, ids.last, ids.a];
    for (const el of order) {
      press('Tab');
      expect(ident(activeDeep())).to.equal(ident(el));
    }
    press('Tab', { shiftKey: true });
    expect(ident(activeDeep())).to.equal(ident(ids.last));
    press('Tab', { shiftKey: true });
    expect(ident(activeDeep())).to.equal(ident(ids.z));
  });

  it('Shift+Tab from deep inside a nested shadow root goes to the previous element', () => {
    const { container, ids } = build();
    trap = createFocusTrap(container);
    trap.activate();
    ids.deep.focus();
    expect(ident(activeDeep())).to.equal(ident(ids.deep));
    press('Tab', { shiftKey: true });
    expect(ident(activeDeep())).to.equal(ident(ids.s2));
  });

  it('pulls focus back from outside and restores the opener on deactivate', () => {
    const opener = document.createElement('button');
    opener.className = 'test-outside';
    document.body.appendChild(opener);
    opener.focus();
    const { container, ids } = build();
    trap = createFocusTrap(container);
    trap.activate();
    ids.s1.focus();
    opener.focus();
    expect(ident(activeDeep())).to.equal(ident(ids.s1));
    trap.deactivate();
    trap = null;
    expect(ident(document.activeElement)).to.equal(ident(opener));
    // No longer trapped.
    ids.a.focus();
    opener.focus();
    expect(ident(document.activeElement)).to.equal(ident(opener));
  });

  it('does not restore focus to an opener that was removed', () => {
    const opener = document.createElement('button');
    document.body.appendChild(opener);
    opener.focus();
    const { container, ids } = build();
    trap = createFocusTrap(container);
    trap.activate();
    expect(ident(activeDeep())).to.equal(ident(ids.a));
    opener.remove();
    trap.deactivate();
    trap = null;
    expect(ident(document.activeElement)).to.not.equal(ident(opener));
  });

  it('focuses the container itself when nothing inside is tabbable', () => {
    root = document.createElement('div');
    document.body.appendChild(root);
    const container = document.createElement('div');
    container.innerHTML = '<p>text only</p><button disabled>x</button>';
    root.appendChild(container);
    trap = createFocusTrap(container);
    trap.activate();
    expect(ident(document.activeElement)).to.equal(ident(container));
    expect(container.getAttribute('tabindex')).to.equal('-1');
    const ev = press('Tab');
    expect(ev.defaultPrevented).to.equal(true);
    expect(ident(document.activeElement)).to.equal(ident(container));
    trap.deactivate();
    trap = null;
    expect(container.hasAttribute('tabindex')).to.equal(false);
  });

  it('calls onEscape on Escape inside, not after deactivate', () => {
    const { container, ids } = build();
    let escapes = 0;
    trap = createFocusTrap(container, { onEscape: () => escapes++ });
    trap.activate();
    ids.deep.focus();
    press('Escape');
    expect(escapes).to.equal(1);
    trap.deactivate();
    trap = null;
    press('Escape', { target: ids.a });
    expect(escapes).to.equal(1);
  });

  it('Tab while focus was lost to the body comes back into the trap', () => {
    const { container, ids } = build();
    trap = createFocusTrap(container);
    trap.activate();
    (document.activeElement as HTMLElement).blur();
    expect(ident(document.activeElement)).to.equal(ident(document.body));
    press('Tab', { target: document.body });
    expect(ident(activeDeep())).to.equal(ident(ids.a));
  });

  it('the most recent trap wins; the earlier one resumes after it is released', () => {
    const first = build();
    const outerTrap = createFocusTrap(first.container);
    outerTrap.activate();
    const second = document.createElement('div');
    second.innerHTML = '<button data-id="x1">x1</button><button data-id="x2">x2</button>';
    document.body.appendChild(second);
    const innerTrap = createFocusTrap(second);
    innerTrap.activate();
    const [x1, x2] = Array.from(second.querySelectorAll('button'));
    expect(ident(document.activeElement)).to.equal(ident(x1));
    press('Tab');
    expect(ident(document.activeElement)).to.equal(ident(x2));
    press('Tab');
    expect(ident(document.activeElement)).to.equal(ident(x1));
    innerTrap.deactivate();
    second.remove();
    expect(ident(activeDeep())).to.equal(ident(first.ids.a));
    trap = outerTrap;
  });
});
