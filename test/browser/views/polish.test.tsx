// What a visitor sees: WalletConnect's own logo, icons for the built-in networks, wallet names that
// can be read in full in All Wallets.
import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { ETHEREUM, GOOD_IMAGE, cleanup, makeAccount, makeSnapshot, mount, text, waitFor } from './fixtures';

const BUILTIN: Array<[string, string]> = [
  ['eip155:1', 'Ethereum'],
  ['eip155:10', 'OP Mainnet'],
  ['eip155:42161', 'Arbitrum One'],
  ['eip155:137', 'Polygon'],
  ['eip155:42220', 'Celo'],
  ['eip155:1313161554', 'Aurora'],
  ['eip155:56', 'BNB Smart Chain'],
  ['eip155:43114', 'Avalanche'],
  ['eip155:324', 'ZKsync Era'],
  ['eip155:100', 'Gnosis'],
  ['eip155:8453', 'Base'],
  ['eip155:250', 'Fantom'],
  ['eip155:8217', 'Kaia'],
  ['eip155:11155111', 'Sepolia'],
  ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'Solana'],
  ['solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'Solana Devnet'],
  ['solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', 'Solana Testnet'],
  ['bip122:000000000019d6689c085ae165831e93', 'Bitcoin'],
  ['bip122:000000000933ea01ad0ee984209779ba', 'Bitcoin Testnet'],
];

function network(caipNetworkId: string, name: string, over: Partial<Snapshot['networks'][number]> = {}) {
  return { ...ETHEREUM, caipNetworkId, name, active: false, ...over };
}

/** Resources the page fetched so far (images included). */
const resourceCount = () => performance.getEntriesByType('resource').length;

describe('views: visual polish', function () {
  this.timeout(10000);
  afterEach(cleanup);

  it('the footer shows "UX by wallet-modal" with the project\'s branding, and nothing without it', async () => {
    const m = mount(makeSnapshot({ branding: true }));
    const footer = await m.find('[part~="footer"]');
    expect(text(footer)).to.equal('UX by wallet-modal');
    m.render(makeSnapshot({ branding: false }));
    await waitFor(() => m.$('[part~="footer"]') === null, { message: 'no footer' });
  });

  it("the WalletConnect row shows WalletConnect's logo as inline SVG, not 'WA' initials", async () => {
    const m = mount(makeSnapshot());
    const row = await m.find('[data-connector-id="walletConnect"]');
    const logo = row.querySelector('[data-image-state="logo"]');
    expect(logo !== null, 'a logo tile').to.equal(true);
    expect(logo!.querySelector('svg path') !== null, 'drawn inline').to.equal(true);
    expect(row.querySelector('img, image') === null, 'nothing to fetch').to.equal(true);
    expect(row.querySelector('[data-image-state="placeholder"]') === null, 'no initials placeholder').to.equal(true);
    expect(text(row)).to.equal('WalletConnect');
    expect(getComputedStyle(logo!).backgroundColor).to.equal('rgb(51, 150, 255)');
    // Other connectors without an icon keep their initials.
    expect(text(m.$('[data-connector-id="com.coinbase"] [data-image-state="placeholder"]'))).to.equal('CW');
  });

  it('every built-in network has an inline icon with no request; custom networks keep their image or initials', async () => {
    const before = resourceCount();
    const networks = [
      ...BUILTIN.map(([id, name], i) => network(id, name, { active: i === 0 })),
      network('eip155:31337', 'Anvil Local'),
      network('eip155:777', 'Host Chain', { imageUrl: GOOD_IMAGE }),
    ];
    const m = mount(makeSnapshot({ view: 'SwitchNetwork', title: 'Choose Network', canGoBack: true, account: makeAccount(), network: networks[0], networks }));
    await m.find('[part~="network"]');
    for (const [id, name] of BUILTIN) {
      const row = m.$(`[part~="network"][data-network-id="${id}"]`)!;
      const icon = row.querySelector('[data-image-state="icon"]');
      expect(icon !== null, `${name} has an icon`).to.equal(true);
      expect(icon!.getAttribute('data-network-icon')).to.equal(id);
      expect(icon!.querySelectorAll('svg circle, svg path').length, `${name} icon drawn`).to.be.greaterThan(1);
      expect(icon!.getAttribute('aria-hidden')).to.equal('true');
      expect(text(row)).to.contain(name);
    }
    const anvil = m.$('[data-network-id="eip155:31337"]')!;
    expect(text(anvil.querySelector('[data-image-state="placeholder"]'))).to.equal('AL');
    const host = m.$('[data-network-id="eip155:777"]')!;
    await waitFor(() => host.querySelector('[data-image-state="loaded"] img'), { message: 'custom network image' });
    // The icons are drawn, not fetched: only the custom network's data: image was loaded.
    const fetched = performance
      .getEntriesByType('resource')
      .slice(before)
      .map((e) => e.name)
      .filter((n) => !n.startsWith('data:'));
    expect(fetched).to.deep.equal([]);
  });

  it("a built-in network given the host's own image keeps that image", async () => {
    const base = network('eip155:8453', 'Base', { imageUrl: GOOD_IMAGE, active: true });
    const m = mount(makeSnapshot({ view: 'SwitchNetwork', title: 'Choose Network', canGoBack: true, account: makeAccount(), network: base, networks: [base] }));
    const row = await m.find('[data-network-id="eip155:8453"]');
    await waitFor(() => row.querySelector('[data-image-state="loaded"] img'), { message: 'host image' });
    expect(row.querySelector('[data-image-state="icon"]') === null).to.equal(true);
  });

  it("the Account view's network button shows the built-in network's icon", async () => {
    const m = mount(
      makeSnapshot({ view: 'Account', title: 'Account', status: { eip155: 'connected' }, account: makeAccount(), network: ETHEREUM, networks: [ETHEREUM] }),
    );
    const btn = await m.find('[part~="network-button"]');
    const icon = btn.querySelector('[data-image-state="icon"]');
    expect(icon !== null, 'icon').to.equal(true);
    expect(icon!.getAttribute('data-network-icon')).to.equal('eip155:1');
    expect(text(btn)).to.equal('Ethereum');
  });

  it('All Wallets wraps names over two lines instead of cutting them, with the full name as accessible name and title', async () => {
    const long = 'Extraordinarily Long Wallet Name For Testing Purposes';
    const items = [
      ...Array.from({ length: 39 }, (_, i) => ({ id: `w${i}`, name: `Test Wallet ${i}`, imageUrl: null, installed: i === 3 })),
      { id: 'long', name: long, imageUrl: null, installed: false },
    ];
    const m = mount(
      makeSnapshot({ view: 'AllWallets', title: 'All Wallets', canGoBack: true, allWallets: { items, count: 40, query: '', loading: false, hasMore: false, error: null } }),
    );
    await m.find('[data-wallet-id="long"]');
    const tiles = m.$$<HTMLButtonElement>('[part~="wallet"]');
    expect(tiles.length).to.equal(40);
    let cut = 0;
    for (const tile of tiles) {
      const name = items.find((w) => w.id === tile.dataset.walletId)!.name;
      expect(tile.title).to.equal(name);
      // The accessible name comes from the content: the whole name (the initials are aria-hidden).
      expect(tile.hasAttribute('aria-label'), 'no label overriding the content').to.equal(false);
      expect(text(tile.querySelector('.wm-wallet-name'))).to.equal(name);
      const label = tile.querySelector<HTMLElement>('.wm-wallet-name')!;
      // "Test Wallet 12" fits on two lines: nothing is cut (no hidden overflow either way).
      if (name !== long && (label.scrollHeight > label.clientHeight + 1 || label.scrollWidth > label.clientWidth + 1)) cut++;
    }
    expect(cut, 'names cut').to.equal(0);
    const sample = m.$('[data-wallet-id="w12"] .wm-wallet-name')!;
    const lineHeight = parseFloat(getComputedStyle(sample).lineHeight);
    expect(sample.getBoundingClientRect().height).to.be.at.least(lineHeight * 2 - 1);
    expect(sample.getBoundingClientRect().height).to.be.below(lineHeight * 3 - 1);
    // A name longer than two lines is clamped with an ellipsis; the title still has all of it.
    const longLabel = m.$('[data-wallet-id="long"] .wm-wallet-name')!;
    const cs = getComputedStyle(longLabel);
    expect(cs.webkitLineClamp).to.equal('2');
    expect(longLabel.getBoundingClientRect().height).to.be.below(lineHeight * 3 - 1);
    const installed = m.$<HTMLButtonElement>('[data-wallet-id="w3"]')!;
    const visibleText = Array.from(installed.querySelectorAll('span:not([aria-hidden="true"])'))
      .filter((s) => !s.closest('[aria-hidden="true"]'))
      .map((s) => s.textContent)
      .join('');
    expect(visibleText).to.equal('Test Wallet 3 (installed)');
  });
});
