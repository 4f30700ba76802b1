import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { cleanup, makeSnapshot, makeWallets, mount, sleep, text, typeInto, waitFor, ident } from './fixtures';

function allWallets(over: Partial<Snapshot['allWallets']> = {}): Snapshot {
  return makeSnapshot({
    view: 'AllWallets',
    title: 'All Wallets',
    canGoBack: true,
    allWallets: { items: makeWallets(8), count: 8, query: '', loading: false, hasMore: false, error: null, ...over },
  });
}

const loadMores = (intents: { type: string }[]) => intents.filter((i) => i.type === 'loadMoreWallets').length;

describe('views: AllWallets', () => {
  afterEach(cleanup);

  it('has a search input that sends searchWallets on every change', async () => {
    const m = mount(allWallets());
    const input = await m.find<HTMLInputElement>('input[part~="search"]');
    typeInto(input, 'm');
    typeInto(input, 'me');
    typeInto(input, 'met');
    expect(m.intents).to.deep.equal([
      { type: 'searchWallets', query: 'm' },
      { type: 'searchWallets', query: 'me' },
      { type: 'searchWallets', query: 'met' },
    ]);
  });

  it('keeps what was typed while the engine query lags behind', async () => {
    const m = mount(allWallets());
    const input = await m.find<HTMLInputElement>('input[part~="search"]');
    typeInto(input, 'rain');
    m.render(allWallets({ query: '' }));
    await sleep(30);
    expect(input.value).to.equal('rain');
  });

  it('search input has an accessible name', async () => {
    const m = mount(allWallets());
    const input = await m.find<HTMLInputElement>('input[part~="search"]');
    expect(text(input.closest('label'))).to.contain('Search wallet');
  });

  it('renders the wallets in a grid, in order, each a button that sends selectWallet', async () => {
    const m = mount(allWallets());
    const grid = await m.find('[part~="wallet-grid"]');
    const wallets = Array.from(grid.querySelectorAll<HTMLButtonElement>('[part~="wallet"]'));
    expect(wallets.map((w) => text(w.querySelector('.wm-wallet-name')))).to.deep.equal(makeWallets(8).map((w) => w.name));
    expect(wallets.every((w) => w.tagName === 'BUTTON')).to.equal(true);
    wallets[3].click();
    expect(m.intents).to.deep.equal([{ type: 'selectWallet', id: 'wallet-3' }]);
  });

  it("shows 'No wallet found' when the list is empty", async () => {
    const m = mount(allWallets({ items: [], query: 'zzz' }));
    await waitFor(() => text(m.$('.wm-empty')) === 'No wallet found');
    expect(ident(m.$('[part~="wallet"]'))).to.equal('null');
  });

  it('does not show the empty state while loading; shows a spinner instead', async () => {
    const m = mount(allWallets({ items: [], loading: true }));
    await m.find('[role="status"][aria-label="Loading wallets"]');
    expect(ident(m.$('.wm-empty'))).to.equal('null');
  });

  it('shows the error message', async () => {
    const m = mount(allWallets({ items: [], error: { code: 5000, key: 'FETCH_WALLETS', message: 'Failed to fetch wallets' } }));
    const err = await m.find('[part~="error"]');
    expect(text(err)).to.equal('Failed to fetch wallets');
    expect(ident(m.$('.wm-empty'))).to.equal('null');
  });

  it('asks for the next page when the sentinel is visible and more are available', async () => {
    const m = mount(allWallets({ items: makeWallets(4), hasMore: true }));
    await m.find('[part~="wallet"]');
    await waitFor(() => loadMores(m.intents) === 1);
    await sleep(150);
    expect(loadMores(m.intents), 'only once per page').to.equal(1);
  });

  it('does not ask while loading or when there is nothing more', async () => {
    const m = mount(allWallets({ items: makeWallets(4), hasMore: true, loading: true }));
    await m.find('[part~="wallet"]');
    await sleep(200);
    expect(loadMores(m.intents)).to.equal(0);
    m.render(allWallets({ items: makeWallets(4), hasMore: false, loading: false }));
    await sleep(200);
    expect(loadMores(m.intents)).to.equal(0);
    m.render(allWallets({ items: makeWallets(4), hasMore: true, loading: false }));
    await waitFor(() => loadMores(m.intents) === 1);
  });

  it('asks again after the next page arrives', async () => {
    const m = mount(allWallets({ items: makeWallets(4), hasMore: true }));
    await waitFor(() => loadMores(m.intents) === 1);
    m.render(allWallets({ items: makeWallets(4), hasMore: true, loading: true }));
    await sleep(50);
    m.render(allWallets({ items: makeWallets(8), hasMore: true, loading: false }));
    await waitFor(() => loadMores(m.intents) === 2);
  });

  it('waits for the user to scroll to the end of a long list', async () => {
    const m = mount(allWallets({ items: makeWallets(200), hasMore: true }));
    await m.find('[part~="wallet"]');
    await sleep(250);
    expect(loadMores(m.intents), 'sentinel off-screen').to.equal(0);
    const scroller = m.$('.wm-scroll')!;
    expect(scroller.scrollHeight).to.be.greaterThan(scroller.clientHeight);
    scroller.scrollTop = scroller.scrollHeight;
    await waitFor(() => loadMores(m.intents) === 1);
  });
});
