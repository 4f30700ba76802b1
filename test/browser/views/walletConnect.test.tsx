import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { cleanup, makeSnapshot, makeWallets, mount, text, ident } from './fixtures';

function wc(view: 'ConnectingWalletConnect' | 'ConnectingWalletConnectBasic', over: Partial<Snapshot['allWallets']> = {}): Snapshot {
  return makeSnapshot({
    view,
    title: 'WalletConnect',
    allWallets: { items: makeWallets(6), count: 6, query: '', loading: false, hasMore: false, error: null, ...over },
  });
}

for (const view of ['ConnectingWalletConnect', 'ConnectingWalletConnectBasic'] as const) {
  describe(`views: ${view}`, function () {
    this.timeout(10000);
    afterEach(cleanup);

    it('lists the catalogue wallets; a click sends selectWallet', async () => {
      const m = mount(wc(view));
      const grid = await m.find('[part~="wallet-grid"]');
      const wallets = Array.from(grid.querySelectorAll<HTMLButtonElement>('[part~="wallet"]'));
      expect(wallets.map((w) => text(w.querySelector('.wm-wallet-name')))).to.deep.equal(makeWallets(6).map((w) => w.name));
      wallets[2].click();
      expect(m.intents).to.deep.equal([{ type: 'selectWallet', id: 'wallet-2' }]);
    });

    it('shows a short note about WalletConnect', async () => {
      const m = mount(wc(view));
      const note = await m.find('.wm-walletconnect .wm-note');
      expect(text(note)).to.contain('WalletConnect');
    });

    it('shows a catalogue error', async () => {
      const m = mount(wc(view, { items: [], error: { code: 5000, key: 'FETCH_WALLETS', message: 'Failed to fetch wallets' } }));
      const err = await m.find('[part~="error"]');
      expect(text(err)).to.equal('Failed to fetch wallets');
      expect(ident(m.$('[part~="wallet-grid"]'))).to.equal('null');
    });
  });
}
