// The WalletConnect views inside the real element build: the QR code of the URI the lazily loaded
// WalletConnect module made, the copy link, a catalogue wallet's deep link, and cancelling on close.
import { expect } from '@esm-bundle/chai';
import { byText, createModal, nextEvent, viewRoot, waitFor, type WalletModal } from '../element/helpers';
import { relayUrl } from './relay';

const STEP_MS = 15_000;

async function uriOf(el: WalletModal, not?: string): Promise<string> {
  return waitFor(() => {
    const uri = el.getState().walletConnect?.uri as string | undefined;
    return uri && uri !== not ? uri : null;
  }, 'a pairing URI', STEP_MS);
}

async function pickWalletConnect(el: WalletModal): Promise<string> {
  await el.open();
  const row = await waitFor(() => viewRoot(el)?.querySelector<HTMLElement>('[data-connector-id="walletConnect"]'), 'the WalletConnect row');
  row.click();
  return uriOf(el);
}

describe('WalletConnect views in the element', function () {
  this.timeout(60_000);
  let restoreClipboard: (() => void) | null = null;

  beforeEach(() => localStorage.clear());
  afterEach(() => {
    restoreClipboard?.();
    restoreClipboard = null;
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    localStorage.clear();
  });

  it('shows the QR code of the pairing URI, labelled, and Copy link puts the URI on the clipboard', async () => {
    const copied: string[] = [];
    const clipboard = navigator.clipboard;
    const original = clipboard.writeText;
    Object.defineProperty(clipboard, 'writeText', { configurable: true, value: async (t: string) => void copied.push(t) });
    restoreClipboard = () => Object.defineProperty(clipboard, 'writeText', { configurable: true, value: original });

    const el = await createModal({ 'relay-url': await relayUrl() });
    const uri = await pickWalletConnect(el);
    expect(uri).to.match(/^wc:[0-9a-f]{64}@2\?/);
    expect(uri).to.contain('relay-protocol=irn');
    expect(el.getState().view).to.equal('ConnectingWalletConnect');
    const expiresAt = el.getState().walletConnect.expiresAtMs;
    expect(expiresAt - Date.now()).to.be.within(200_000, 241_000);

    const root = viewRoot(el);
    const qr = await waitFor(() => root.querySelector('.wm-qr svg[role="img"]'), 'the QR code', STEP_MS);
    expect(qr.getAttribute('aria-label')).to.match(/scan it with your wallet/);
    const copy = byText(root, 'button', 'Copy link') as HTMLButtonElement;
    expect(copy.disabled).to.equal(false);
    copy.click();
    await waitFor(() => copied.length > 0, 'clipboard write');
    expect(copied).to.deep.equal([uri]);
  });

  it('a catalogue wallet that is not installed pairs over WalletConnect, with its deep link', async () => {
    const el = await createModal({ 'relay-url': await relayUrl() });
    await el.open({ view: 'AllWallets' });
    const wallet = await waitFor(() => viewRoot(el)?.querySelector<HTMLElement>('[data-wallet-id="comet-keys"]'), 'Comet Keys in the catalogue', STEP_MS);
    wallet.click();
    const uri = await uriOf(el);
    expect(el.getState().walletConnect.wallet.name).to.equal('Comet Keys');
    const link = await waitFor(() => viewRoot(el).querySelector<HTMLAnchorElement>('a.wm-deep-link[data-link="webapp"]'), 'the web app link');
    expect(link.getAttribute('href')).to.equal(`https://comet-keys.example/wc?uri=${encodeURIComponent(uri)}`);
  });

  it('ConnectingWalletConnectBasic pairs at once and shows the QR code with the wallet list', async () => {
    const el = await createModal({ 'relay-url': await relayUrl() });
    await el.open({ view: 'ConnectingWalletConnectBasic' });
    const uri = await uriOf(el);
    expect(uri).to.match(/^wc:/);
    const root = viewRoot(el);
    await waitFor(() => root.querySelector('.wm-walletconnect-basic .wm-qr svg[role="img"]'), 'the QR code', STEP_MS);
    const names = await waitFor(() => {
      const n = [...root.querySelectorAll('.wm-walletconnect-basic [part~="wallet"] .wm-wallet-name')].map((x) => x.textContent);
      return n.length ? n : null;
    }, 'the wallet list', STEP_MS);
    expect(names).to.include('Comet Keys');
  });

  it("closing the modal while pairing cancels it ('Modal closed'); opening again pairs anew", async () => {
    const el = await createModal({ 'relay-url': await relayUrl() });
    const first = await pickWalletConnect(el);
    const error = nextEvent(el, 'error');
    await el.close();
    expect((await error).detail.message).to.equal('Modal closed');
    expect(el.getState().walletConnect).to.equal(null);
    expect(el.getState().status.eip155).to.equal('disconnected');

    const second = await pickWalletConnect(el);
    expect(second).to.not.equal(first);
  });
});
