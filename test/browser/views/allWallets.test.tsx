import { executeServerCommand } from '@web/test-runner-commands';
import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { cleanup, ident, makeSnapshot, makeWallets, mount, settle, sleep, text, typeInto, waitFor } from './fixtures';

function allWallets(over: Partial<Snapshot['allWallets']> = {}): Snapshot {
  return makeSnapshot({
    view: 'AllWallets',
    title: 'All Wallets',
    canGoBack: true,
    allWallets: { items: makeWallets(8), count: 8, query: '', loading: false, hasMore: false, error: null, ...over },
  });
}

/** Stand-in for IntersectionObserver: the test decides when the sentinel is visible. */
class FakeIO {
  static instances: FakeIO[] = [];
  /** The one observer still connected (the view keeps at most one). */
  static live(): FakeIO | undefined {
    return FakeIO.instances.filter((i) => !i.disconnected && i.targets.length > 0).pop();
  }
  static fireAll(isIntersecting: boolean) {
    FakeIO.instances.filter((i) => !i.disconnected).forEach((i) => i.fire(isIntersecting));
  }
  targets: Element[] = [];
  disconnected = false;
  root: Element | Document | null;
  constructor(
    private readonly cb: IntersectionObserverCallback,
    opts: IntersectionObserverInit = {},
  ) {
    this.root = opts.root ?? null;
    FakeIO.instances.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  unobserve(el: Element) {
    this.targets = this.targets.filter((t) => t !== el);
  }
  disconnect() {
    this.disconnected = true;
    this.targets = [];
  }
  takeRecords() {
    return [];
  }
  fire(isIntersecting: boolean) {
    if (this.disconnected) return;
    const entries = this.targets.map((target) => ({ target, isIntersecting, intersectionRatio: isIntersecting ? 1 : 0 }));
    this.cb(entries as unknown as IntersectionObserverEntry[], this as unknown as IntersectionObserver);
  }
}

const loadMores = (intents: { type: string }[]) => intents.filter((i) => i.type === 'loadMoreWallets').length;

describe('views: AllWallets', function () {

  this.timeout(10000);
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

  describe('infinite scroll (IntersectionObserver stand-in: deterministic, works in background tabs)', function () {

    this.timeout(10000);
    const RealIO = window.IntersectionObserver;
    beforeEach(() => {
      FakeIO.instances = [];
      window.IntersectionObserver = FakeIO as unknown as typeof IntersectionObserver;
    });
    afterEach(() => {
      window.IntersectionObserver = RealIO;
    });

    it('observes the sentinel inside the scroll container and asks for the next page when it shows', async () => {
      const m = mount(allWallets({ items: makeWallets(4), hasMore: true }));
      await m.find('[part~="wallet"]');
      const io = await waitFor(() => FakeIO.live());
      expect(ident(io.targets[0])).to.equal(ident(m.$('.wm-sentinel')));
      expect(ident(io.root)).to.equal(ident(m.$('.wm-scroll')));
      io.fire(false);
      expect(loadMores(m.intents), 'not while hidden').to.equal(0);
      io.fire(true);
      expect(loadMores(m.intents)).to.equal(1);
      io.fire(true);
      expect(loadMores(m.intents), 'only once per page').to.equal(1);
    });

    it('does not ask while loading or when there is nothing more', async () => {
      const m = mount(allWallets({ items: makeWallets(4), hasMore: true, loading: true }));
      await m.find('[part~="wallet"]');
      await settle();
      FakeIO.fireAll(true);
      expect(loadMores(m.intents)).to.equal(0);
      m.render(allWallets({ items: makeWallets(4), hasMore: false, loading: false }));
      await settle();
      FakeIO.fireAll(true);
      expect(loadMores(m.intents)).to.equal(0);
      m.render(allWallets({ items: makeWallets(4), hasMore: true, loading: false }));
      (await waitFor(() => FakeIO.live())).fire(true);
      expect(loadMores(m.intents)).to.equal(1);
    });

    it('asks again after the next page arrives', async () => {
      const m = mount(allWallets({ items: makeWallets(4), hasMore: true }));
      (await waitFor(() => FakeIO.live())).fire(true);
      expect(loadMores(m.intents)).to.equal(1);
      m.render(allWallets({ items: makeWallets(4), hasMore: true, loading: true }));
      await waitFor(() => !FakeIO.live());
      m.render(allWallets({ items: makeWallets(8), hasMore: true, loading: false }));
      await waitFor(() => m.$$('[part~="wallet"]').length === 8);
      (await waitFor(() => FakeIO.live())).fire(true);
      expect(loadMores(m.intents)).to.equal(2);
    });

    it('does not ask again for the same page when a request ends without new items (no loop)', async () => {
      const m = mount(allWallets({ items: makeWallets(4), hasMore: true }));
      (await waitFor(() => FakeIO.live())).fire(true);
      expect(loadMores(m.intents)).to.equal(1);
      m.render(allWallets({ items: makeWallets(4), hasMore: true, loading: true }));
      await waitFor(() => !FakeIO.live());
      const error = { code: 5000, key: 'FETCH_WALLETS', message: 'Failed to fetch wallets' };
      m.render(allWallets({ items: makeWallets(4), hasMore: true, loading: false, error }));
      await m.find('[part~="error"]');
      (await waitFor(() => FakeIO.live())).fire(true);
      expect(loadMores(m.intents)).to.equal(1);
      // The user can ask again explicitly.
      const retry = m.$<HTMLButtonElement>('.wm-retry')!;
      expect(text(retry)).to.equal('Try again');
      retry.click();
      expect(loadMores(m.intents)).to.equal(2);
    });

    it('a new search starts a new list', async () => {
      const m = mount(allWallets({ items: makeWallets(4), hasMore: true, query: '' }));
      (await waitFor(() => FakeIO.live())).fire(true);
      m.render(allWallets({ items: makeWallets(4), hasMore: true, query: 'w', loading: false }));
      await settle();
      (await waitFor(() => FakeIO.live())).fire(true);
      expect(loadMores(m.intents)).to.equal(2);
    });
  });

  describe('infinite scroll (real IntersectionObserver; needs a rendered, visible page)', function () {

    this.timeout(10000);
    it('asks when the sentinel is visible, and only after scrolling for a long list', async function () {
      // IntersectionObserver only delivers entries while the page renders: the test's page is
      // brought to the front first (and must then be visible).
      await executeServerCommand('visitor', { action: 'bring-to-front' });
      await waitFor(() => document.visibilityState === 'visible');
      const short = mount(allWallets({ items: makeWallets(4), hasMore: true }));
      await waitFor(() => loadMores(short.intents) === 1);
      short.unmount();

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
});
