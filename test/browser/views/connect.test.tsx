import { expect } from '@esm-bundle/chai';
import { cleanup, makeSnapshot, mount, sleep, text, waitFor, ident } from './fixtures';

describe('views: Connect', function () {

  this.timeout(10000);
  afterEach(cleanup);

  it('lists the connectors in the given order with their names', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    const rows = m.$$('[part~="connector"][data-connector-id]').filter((r) => r.dataset.connectorId !== 'all-wallets');
    expect(rows.map((r) => text(r.querySelector('.wm-row-name')))).to.deep.equal(['MetaMask', 'Coinbase Wallet', 'WalletConnect']);
  });

  it('keeps the engine order when it changes', async () => {
    const s = makeSnapshot();
    const m = mount(s);
    await m.find('[part~="connector"]');
    m.render({ ...s, connectors: [...s.connectors].reverse() });
    await waitFor(() => text(m.$('[part~="connector"] .wm-row-name')) === 'WalletConnect');
  });

  it('shows Installed / Recent badges by kind and installed', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    const badge = (id: string) => text(m.$(`[data-connector-id="${id}"] .wm-badge`));
    expect(badge('io.metamask')).to.equal('Installed');
    expect(badge('com.coinbase')).to.equal('Recent');
    expect(ident(m.$('[data-connector-id="walletConnect"] .wm-badge'))).to.equal('null');
  });

  it('clicking a connector sends selectConnector with its id', async () => {
    const m = mount(makeSnapshot());
    const row = await m.find<HTMLButtonElement>('[data-connector-id="com.coinbase"]');
    expect(row.tagName).to.equal('BUTTON');
    row.click();
    expect(m.intents).to.deep.equal([{ type: 'selectConnector', id: 'com.coinbase' }]);
  });

  it('has an All Wallets row with the catalogue count that navigates to AllWallets', async () => {
    const m = mount(makeSnapshot({ allWallets: { items: [], count: 431, query: '', loading: false, hasMore: true, error: null } }));
    const row = await m.find<HTMLButtonElement>('[data-connector-id="all-wallets"]');
    expect(text(row)).to.contain('All Wallets');
    expect(text(row.querySelector('.wm-badge-count'))).to.equal('431');
    row.click();
    expect(m.intents).to.deep.equal([{ type: 'navigate', view: 'AllWallets' }]);
  });

  it('All Wallets comes after the connectors', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    const rows = m.$$('[part~="connector"]');
    expect(rows[rows.length - 1].dataset.connectorId).to.equal('all-wallets');
  });

  it('shows connector icons: loaded for a data: image, initials placeholder without one', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    const mm = await waitFor(() => m.$('[data-connector-id="io.metamask"] [data-image-state="loaded"] img'));
    expect(mm.getAttribute('src')).to.match(/^data:image\/svg\+xml/);
    const cb = m.$('[data-connector-id="com.coinbase"] [data-image-state="placeholder"]');
    expect(text(cb)).to.equal('CW');
  });

  it('renders no email/social rows unless listed', async () => {
    const m = mount(makeSnapshot({ connectMethods: ['wallet'], socials: ['google'] }));
    await m.find('[part~="connector"]');
    expect(ident(m.$('[data-method="email"]'))).to.equal('null');
    expect(ident(m.$('[data-method="social"]'))).to.equal('null');
  });

  it('renders the email field and the social buttons in method order, and sends their intents', async () => {
    const m = mount(makeSnapshot({ connectMethods: ['email', 'social', 'wallet'], socials: ['google', 'github', 'apple', 'facebook', 'x'] }));
    const email = await m.find<HTMLInputElement>('input[data-method="email"]');
    expect(email.getAttribute('aria-label')).to.equal('Email');
    await m.find('[data-method="social"]');
    const socials = m.$$<HTMLButtonElement>('[data-method="social"]');
    expect(socials.map((b) => b.getAttribute('data-social')), 'the first three, the rest behind Other').to.deep.equal(['google', 'github', 'apple']);
    const firstConnector = m.$('[part~="connector"]')!;
    expect(email.compareDocumentPosition(socials[0]) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(socials[2].compareDocumentPosition(firstConnector) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    email.value = 'a@example.com';
    email.form!.requestSubmit();
    socials[0].click();
    m.$<HTMLButtonElement>('[data-social="other"]')!.click();
    await sleep(20);
    expect(m.$$('[data-method="social"]').length).to.equal(5);
    expect(m.intents).to.deep.equal([{ type: 'emailSubmit', email: 'a@example.com' }, { type: 'socialLogin', provider: 'google' }]);
  });

  it('follows the method order the engine gives (wallet first)', async () => {
    const m = mount(makeSnapshot({ connectMethods: ['wallet', 'email'] }));
    const email = await m.find('[data-method="email"]');
    const firstConnector = m.$('[part~="connector"]')!;
    expect(firstConnector.compareDocumentPosition(email) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
  });

  it('every connector row is a keyboard-operable button', async () => {
    const m = mount(makeSnapshot());
    await m.find('[part~="connector"]');
    for (const row of m.$$('[part~="connector"]')) {
      expect(row.tagName).to.equal('BUTTON');
      expect(row.getAttribute('type')).to.equal('button');
      expect(row.tabIndex).to.equal(0);
    }
  });
});
