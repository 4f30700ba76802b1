// The WalletConnect views on their own: snapshots in, DOM and intents out (the QR encoder is the
// real WalletConnect wasm module, loaded lazily by the QR component).
import { expect } from '@esm-bundle/chai';
import type { Snapshot } from '../views/fixtures';
import { cleanup, makeSnapshot, makeWallets, mount, text, waitFor } from '../views/fixtures';
import { parseQrSvg } from '../../../react-views/walletconnect/QrCode';

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&relay-protocol=irn&expiryTimestamp=1999999999';
const ENCODED = encodeURIComponent(URI);
/** As the engine sends it on desktop: deep links built with the URI, no mobile app link. */
const COMET = {
  id: 'comet-keys',
  name: 'Comet Keys',
  imageUrl: null,
  mobileLink: null,
  desktopLink: `comet-desktop://wc?uri=${ENCODED}`,
  webappLink: `https://comet-keys.example/wc?uri=${ENCODED}`,
};

type Pairing = NonNullable<Snapshot['walletConnect']>;

function wc(view: 'ConnectingWalletConnect' | 'ConnectingWalletConnectBasic', pairing: Partial<Pairing> | null, over: Partial<Snapshot> = {}): Snapshot {
  return makeSnapshot({
    view,
    title: 'WalletConnect',
    walletConnect: pairing ? { uri: null, expiresAtMs: null, wallet: null, ...pairing } : null,
    connecting: { connectorId: 'walletConnect', name: 'WalletConnect', icon: null, state: 'pending', error: null },
    allWallets: { items: makeWallets(3), count: 3, query: '', loading: false, hasMore: false, error: null },
    ...over,
  } as Partial<Snapshot>);
}

describe('WalletConnect views', function () {
  this.timeout(15_000);
  afterEach(cleanup);

  it('draws the pairing URI as an SVG QR code named for assistive technology, in --wm-qr-color', async () => {
    const m = mount(wc('ConnectingWalletConnect', { uri: URI }));
    m.host.style.setProperty('--wm-qr-color', 'rgb(1, 2, 3)');
    const img = await m.find('.wm-qr svg[role="img"]', 8000);
    expect(img.getAttribute('aria-label')).to.match(/WalletConnect QR code/);
    expect(img.getAttribute('style')).to.equal(null);
    const viewBox = img.getAttribute('viewBox')!.split(' ').map(Number);
    // A 4-module quiet zone on each side of a version ≥ 5 symbol (the URI is ~190 bytes).
    expect(viewBox[2]).to.be.greaterThan(37 + 8);
    expect(img.querySelector('path')!.getAttribute('d')).to.match(/^M\d+ \d+h\d+v1H\d+z/);
    expect(getComputedStyle(m.$('.wm-qr')!).color).to.equal('rgb(1, 2, 3)');
    expect(m.$$('[style]').length, 'no style attributes').to.equal(0);
  });

  it('shows a spinner and a disabled copy button until there is a URI', async () => {
    const m = mount(wc('ConnectingWalletConnect', { uri: null }));
    const spinner = await m.find('.wm-qr [role="status"]');
    expect(spinner.getAttribute('aria-label')).to.equal('Preparing the WalletConnect link');
    const copy = m.$<HTMLButtonElement>('.wm-copy-uri')!;
    expect(copy.disabled).to.equal(true);
    expect(m.$('.wm-qr svg[role="img"]')).to.equal(null);
  });

  it('the copy-link button sends copyUri and says the link was copied', async () => {
    const m = mount(wc('ConnectingWalletConnect', { uri: URI }));
    const copy = await m.find<HTMLButtonElement>('.wm-copy-uri');
    expect(copy.disabled).to.equal(false);
    expect(copy.tabIndex).to.equal(0);
    expect(text(copy)).to.equal('Copy link');
    copy.click();
    expect(m.intents).to.deep.equal([{ type: 'copyUri' }]);
    await waitFor(() => text(m.$('.wm-copy-uri')) === 'Link copied', { message: 'copied feedback' });
    expect(text(m.$('[role="status"][aria-live="polite"]'))).to.equal('Link copied');
  });

  it("offers the chosen wallet's desktop and web app deep links carrying the URI", async () => {
    const m = mount(wc('ConnectingWalletConnect', { uri: URI, wallet: COMET }));
    const links = await waitFor(() => {
      const l = m.$$<HTMLAnchorElement>('a.wm-deep-link');
      return l.length ? l : null;
    });
    expect(links.map((a) => [a.dataset.link, a.getAttribute('href'), text(a)])).to.deep.equal([
      ['desktop', `comet-desktop://wc?uri=${ENCODED}`, 'Open Comet Keys desktop app'],
      ['webapp', `https://comet-keys.example/wc?uri=${ENCODED}`, 'Open Comet Keys web app'],
    ]);
    expect(links[1].rel).to.equal('noopener noreferrer');
    expect(m.$('.wm-note')!.textContent).to.contain('Comet Keys');
  });

  it('no deep links when the engine offers none (unsafe or missing catalogue links)', async () => {
    const m = mount(wc('ConnectingWalletConnect', { uri: URI, wallet: { ...COMET, desktopLink: null, webappLink: null } }));
    await m.find('.wm-copy-uri');
    expect(m.$$('a.wm-deep-link').length).to.equal(0);
  });

  it("shows 'Connection rejected' with a retry that sends the retry intent", async () => {
    const error = { code: 4001, key: 'CONNECTION_REJECTED', message: 'Connection rejected' };
    const m = mount(
      wc('ConnectingWalletConnect', { uri: URI }, { connecting: { connectorId: 'walletConnect', name: 'WalletConnect', icon: null, state: 'error', error } }),
    );
    const err = await m.find('.wm-pairing [part~="error"]');
    expect(text(err)).to.equal('Connection rejected');
    expect(m.$('.wm-qr')).to.equal(null);
    const retry = m.$<HTMLButtonElement>('.wm-pairing .wm-retry')!;
    expect(text(retry)).to.equal('Try again');
    retry.click();
    expect(m.intents).to.deep.equal([{ type: 'retry' }]);
  });

  it('Basic shows the QR code together with the wallet list', async () => {
    const m = mount(wc('ConnectingWalletConnectBasic', { uri: URI }));
    await m.find('.wm-walletconnect-basic .wm-qr svg[role="img"]', 8000);
    const wallets = m.$$<HTMLButtonElement>('[part~="wallet-grid"] [part~="wallet"]');
    expect(wallets.map((w) => text(w.querySelector('.wm-wallet-name')))).to.deep.equal(['Wallet 0', 'Wallet 1', 'Wallet 2']);
    wallets[1].click();
    expect(m.intents).to.deep.equal([{ type: 'selectWallet', id: 'wallet-1' }]);
  });

  it('reads only the viewBox and path of the encoder output', () => {
    expect(parseQrSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29" aria-hidden="true"><path fill="currentColor" d="M4 4h7v1H4z"/></svg>')).to.deep.equal({
      viewBox: '0 0 29 29',
      d: 'M4 4h7v1H4z',
    });
    expect(parseQrSvg('<svg viewBox="0 0 29 29"><path d="M4 4h7&quot;/><script>x</script>"/></svg>')).to.equal(null);
    expect(parseQrSvg('<div>nope</div>')).to.equal(null);
  });
});
