// Every view, in light and dark with the default accent, checked by axe-core: no serious or
// critical violation (colour contrast ≥ 4.5:1 for all text included) and no landmark violation.
import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { ARBITRUM, ETHEREUM, GOOD_IMAGE, POLYGON, cleanup, makeAccount, makeSnapshot, mount, waitFor, makeConnection } from './fixtures';
import { expectNoSeriousAxeViolations } from './axe';

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&relay-protocol=irn&expiryTimestamp=1999999999';

/** A network the host page configured itself: no built-in icon, initials on a tint. */
const ANVIL = {
  caipNetworkId: 'eip155:31337',
  name: 'Anvil Local',
  namespace: 'eip155' as const,
  symbol: 'ETH',
  testnet: true,
  active: false,
  imageUrl: null,
};
const REJECTED = { code: 4001, key: 'CONNECTION_REJECTED', message: 'Connection rejected' };

/** 40 catalogue wallets without images: their initials placeholders cover every tint. */
const WALLETS = Array.from({ length: 40 }, (_, i) => ({
  id: `test-wallet-${i}`,
  name: `Test Wallet ${i}`,
  imageUrl: null,
  installed: i % 7 === 0,
}));

interface Case {
  name: string;
  snapshot: Partial<Snapshot>;
  /** Present once the view has rendered (lazily loaded views arrive after a Suspense fallback). */
  ready: string;
}

const CASES: Case[] = [
  {
    name: 'Connect (Installed, Recent and WalletConnect rows, All Wallets count)',
    snapshot: {
      connectMethods: ['email', 'social', 'wallet'],
      socials: ['google', 'github'],
      allWallets: { items: [], count: 431, query: '', loading: false, hasMore: true, error: null },
    },
    ready: '[data-connector-id="all-wallets"] .wm-badge-count',
  },
  {
    name: 'All Wallets (40 placeholder tiles, installed dots, search)',
    snapshot: {
      view: 'AllWallets',
      title: 'All Wallets',
      canGoBack: true,
      allWallets: { items: WALLETS, count: 40, query: '', loading: false, hasMore: false, error: null },
    },
    ready: '[data-wallet-id="test-wallet-39"]',
  },
  {
    name: 'All Wallets with no match',
    snapshot: {
      view: 'AllWallets',
      title: 'All Wallets',
      canGoBack: true,
      allWallets: { items: [], count: 0, query: 'zzz', loading: false, hasMore: false, error: null },
    },
    ready: '.wm-empty',
  },
  {
    name: 'All Wallets after a failed page (error and retry)',
    snapshot: {
      view: 'AllWallets',
      title: 'All Wallets',
      canGoBack: true,
      allWallets: {
        items: WALLETS.slice(0, 8),
        count: 40,
        query: '',
        loading: false,
        hasMore: true,
        error: { code: 0, key: 'FETCH_WALLETS_FAILED', message: 'Failed to fetch wallets' },
      },
    },
    ready: '.wm-retry',
  },
  {
    name: 'Account on a built-in network',
    snapshot: {
      view: 'Account',
      title: 'Account',
      status: { eip155: 'connected' },
      account: makeAccount({ balance: '10,000.000' }),
      network: ETHEREUM,
      networks: [ETHEREUM, POLYGON],
    },
    ready: '[part~="balance"]',
  },
  {
    name: 'Account with the error banner and "Approve in your wallet"',
    snapshot: {
      view: 'Account',
      title: 'Account',
      status: { eip155: 'connected' },
      account: makeAccount({ balance: '10,000.000' }),
      network: ETHEREUM,
      networks: [ETHEREUM, POLYGON],
      banner: { variant: 'error', message: 'Switching to Polygon was rejected in the wallet' },
      connection: makeConnection(),
      walletRequest: 'personal_sign',
    },
    ready: '[part~="banner"]',
  },
  {
    name: 'Account with a success banner',
    snapshot: {
      view: 'Account',
      title: 'Account',
      status: { eip155: 'connected' },
      account: makeAccount({ balance: '10,000.000' }),
      network: ETHEREUM,
      networks: [ETHEREUM, POLYGON],
      banner: { variant: 'success', message: 'Transaction sent' },
    },
    ready: '[part~="banner"][data-variant="success"]',
  },
  {
    name: 'Account on a custom network (initials), balance loading',
    snapshot: {
      view: 'Account',
      title: 'Account',
      status: { eip155: 'connected' },
      account: makeAccount({ balance: null }),
      network: { ...ANVIL, active: true },
      networks: [{ ...ANVIL, active: true }],
    },
    ready: '[part~="network-button"]',
  },
  {
    name: 'Switch Network (active, pending with "Approve in wallet", custom network initials)',
    snapshot: {
      view: 'SwitchNetwork',
      title: 'Choose Network',
      canGoBack: true,
      account: makeAccount(),
      network: ETHEREUM,
      networks: [ETHEREUM, POLYGON, ARBITRUM, ANVIL],
      switching: { target: POLYGON, state: 'pending', error: null },
    },
    ready: '.wm-approve',
  },
  {
    name: 'Switch Network after a rejected switch',
    snapshot: {
      view: 'SwitchNetwork',
      title: 'Choose Network',
      canGoBack: true,
      account: makeAccount(),
      network: ETHEREUM,
      networks: [ETHEREUM, POLYGON, ANVIL],
      switching: { target: POLYGON, state: 'error', error: REJECTED },
    },
    ready: '[part~="error"]',
  },
  {
    name: 'Unsupported network',
    snapshot: {
      view: 'UnsupportedChain',
      title: 'Switch Network',
      account: makeAccount(),
      network: null,
      networks: [
        { ...ETHEREUM, active: false },
        { ...POLYGON, active: false },
        ANVIL,
      ],
    },
    ready: '[part~="network"]',
  },
  {
    name: 'Connecting to an injected wallet',
    snapshot: {
      view: 'ConnectingExternal',
      title: 'MetaMask',
      canGoBack: true,
      connecting: { connectorId: 'io.metamask', name: 'MetaMask', icon: GOOD_IMAGE, state: 'pending', error: null },
    },
    ready: '.wm-connecting-sub',
  },
  {
    name: 'Connecting to an injected wallet, rejected (primary retry button)',
    snapshot: {
      view: 'ConnectingExternal',
      title: 'Coinbase Wallet',
      canGoBack: true,
      connecting: { connectorId: 'com.coinbase', name: 'Coinbase Wallet', icon: null, state: 'error', error: REJECTED },
    },
    ready: '.wm-retry',
  },
  {
    name: 'WalletConnect (QR code with its logo, copy link, wallets)',
    snapshot: {
      view: 'ConnectingWalletConnect',
      title: 'WalletConnect',
      canGoBack: true,
      walletConnect: { uri: URI, expiresAtMs: null, wallet: null },
      connecting: { connectorId: 'walletConnect', name: 'WalletConnect', icon: null, state: 'pending', error: null },
      allWallets: { items: WALLETS.slice(0, 8), count: 40, query: '', loading: false, hasMore: false, error: null },
    },
    ready: '.wm-qr[data-state="ready"]',
  },
  {
    name: 'WalletConnect, rejected',
    snapshot: {
      view: 'ConnectingWalletConnect',
      title: 'WalletConnect',
      canGoBack: true,
      walletConnect: { uri: URI, expiresAtMs: null, wallet: null },
      connecting: { connectorId: 'walletConnect', name: 'WalletConnect', icon: null, state: 'error', error: REJECTED },
    },
    ready: '.wm-pairing .wm-retry',
  },
  {
    name: 'WalletConnect basic (QR code and wallets)',
    snapshot: {
      view: 'ConnectingWalletConnectBasic',
      title: 'WalletConnect',
      canGoBack: true,
      walletConnect: { uri: URI, expiresAtMs: null, wallet: null },
      connecting: { connectorId: 'walletConnect', name: 'WalletConnect', icon: null, state: 'pending', error: null },
      allWallets: { items: WALLETS.slice(0, 4), count: 4, query: '', loading: false, hasMore: false, error: null },
    },
    ready: '.wm-qr[data-state="ready"]',
  },
  {
    name: 'configuration error',
    snapshot: { configError: { code: 0, key: 'PROJECT_ID_NOT_CONFIGURED', message: 'Project Id Not Configured' } },
    ready: '.wm-config-error-title',
  },
  {
    name: 'Connect while loading (loading bar)',
    snapshot: { loading: true },
    ready: '.wm-loading-bar',
  },
];

describe('views: accessibility (axe-core, light and dark)', function () {
  this.timeout(20_000);
  afterEach(cleanup);

  for (const theme of ['light', 'dark'] as const) {
    for (const c of CASES) {
      it(`${c.name} in ${theme}: no serious axe violation, all text at least 4.5:1`, async () => {
        const m = mount(makeSnapshot({ ...c.snapshot, themeMode: theme }));
        await m.find(c.ready, 8000);
        await waitFor(() => m.$(`.wm-app[data-theme="${theme}"]`));
        const checked = await expectNoSeriousAxeViolations(m.shadow, `${c.name} (${theme})`);
        expect(checked, 'elements checked for contrast').to.be.greaterThan(0);
      });
    }
  }

  it('the dialog header is no banner landmark (a host page keeps a single banner)', async () => {
    const m = mount(makeSnapshot());
    const header = await m.find('[part~="header"]');
    expect(header.localName).to.not.equal('header');
    expect(header.closest('header') === null, 'no <header> around it').to.equal(true);
    expect(m.$$('header, [role="banner"]').length).to.equal(0);
    await expectNoSeriousAxeViolations(m.shadow, 'Connect with a host page banner');
  });
});
