// The real element build's main views, in light and dark, checked by axe-core on a page with its own
// banner and main landmarks: no serious or critical violation (all text at least 4.5:1) and no
// landmark violation. Connect, All Wallets (the real catalogue from the backend), the WalletConnect
// pairing (the backend's relay), then Account and Switch Network with the demo wallet on anvil.
import { expect } from '@esm-bundle/chai';
import { byText, createModal, installDemoWallet, nextEvent, viewRoot, waitFor, type WalletModal } from './helpers';
import { expectNoSeriousAxeViolations } from '../views/axe';
import { relayUrl } from '../walletconnect/relay';

const THEMES = ['light', 'dark'] as const;
let wallet: any;

async function themed(el: WalletModal, theme: string) {
  await waitFor(() => viewRoot(el)?.querySelector(`.wm-app[data-theme="${theme}"]`), `${theme} theme`);
}

describe('<wallet-modal> accessibility (axe-core, light and dark)', function () {
  this.timeout(60_000);

  before(async () => {
    localStorage.clear();
    wallet = await installDemoWallet();
  });
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    wallet.setAutoResponse(null);
  });
  after(() => localStorage.clear());

  for (const theme of THEMES) {
    it(`Connect in ${theme}: no serious axe violation`, async () => {
      const el = await createModal({ 'theme-mode': theme });
      await el.open();
      const root = viewRoot(el);
      await waitFor(() => root.querySelector('[data-connector-id="walletConnect"]'), 'connectors');
      await waitFor(() => root.querySelector('[data-connector-id="dev.walletmodal.demo"]'), 'the demo wallet row');
      await themed(el, theme);
      expect(await expectNoSeriousAxeViolations(root, `Connect (${theme})`)).to.be.greaterThan(0);
    });

    it(`All Wallets in ${theme}: no serious axe violation`, async () => {
      const el = await createModal({ 'theme-mode': theme });
      await el.open({ view: 'AllWallets' });
      const root = viewRoot(el);
      await waitFor(() => root.querySelectorAll('[part~="wallet"]').length >= 8, 'catalogue wallets');
      await waitFor(() => !root.querySelector('.wm-scroll[aria-busy="true"]'), 'page loaded');
      await themed(el, theme);
      expect(await expectNoSeriousAxeViolations(root, `All Wallets (${theme})`)).to.be.greaterThan(0);
    });

    it(`WalletConnect pairing in ${theme}: no serious axe violation`, async () => {
      const el = await createModal({ 'theme-mode': theme, 'relay-url': await relayUrl() });
      await el.open();
      const root = viewRoot(el);
      (await waitFor(() => root.querySelector<HTMLElement>('[data-connector-id="walletConnect"]'), 'WalletConnect row')).click();
      await waitFor(() => root.querySelector('.wm-qr[data-state="ready"] svg'), 'the QR code', 15_000);
      await themed(el, theme);
      expect(await expectNoSeriousAxeViolations(root, `WalletConnect (${theme})`)).to.be.greaterThan(0);
    });
  }

  it('Account and Switch Network, light and dark: no serious axe violation', async () => {
    const el = await createModal({ 'theme-mode': 'light' });
    await el.open();
    const connected = nextEvent(el, 'connect');
    (await waitFor(() => viewRoot(el)?.querySelector<HTMLElement>('[data-connector-id="dev.walletmodal.demo"]'), 'demo wallet row')).click();
    await waitFor(() => wallet.pending().length > 0 || el.getState().status.eip155 === 'connected', 'prompt or connection');
    if (wallet.pending().length > 0) wallet.approve();
    await connected;
    await el.open();
    for (const theme of THEMES) {
      el.setThemeMode(theme);
      await themed(el, theme);
      const root = viewRoot(el);
      await waitFor(() => root.querySelector('[part~="balance"]:not([aria-busy])'), 'balance');
      expect(await expectNoSeriousAxeViolations(root, `Account (${theme})`)).to.be.greaterThan(0);
      root.querySelector<HTMLElement>('[part~="network-button"]')!.click();
      await waitFor(() => root.querySelector('[part~="network"]'), 'network list');
      expect(await expectNoSeriousAxeViolations(root, `Switch Network (${theme})`)).to.be.greaterThan(0);
      root.querySelector<HTMLElement>('button[aria-label="Back"]')!.click();
      await waitFor(() => root.querySelector('[part~="account"]'), 'back on Account');
      // The account module's tabs and screens (tokens from the backend's blockchain API).
      await waitFor(() => root.querySelector('[part~="token"]'), 'token rows');
      expect(await expectNoSeriousAxeViolations(root, `Account with its tokens (${theme})`)).to.be.greaterThan(0);
      byText(root, '[role="tab"]', 'NFTs')!.click();
      await waitFor(() => root.querySelector('[part~="nft"] img'), 'NFT tiles');
      expect(await expectNoSeriousAxeViolations(root, `Account's NFTs (${theme})`)).to.be.greaterThan(0);
      byText(root, '[role="tab"]', 'Activity')!.click();
      await waitFor(() => root.querySelector('[part~="activity-row"]'), 'activity rows');
      expect(await expectNoSeriousAxeViolations(root, `Activity (${theme})`)).to.be.greaterThan(0);
      root.querySelector<HTMLElement>('[part~="send-button"]')!.click();
      await waitFor(() => root.querySelector('[part~="send"]'), 'Send');
      expect(await expectNoSeriousAxeViolations(root, `Send (${theme})`)).to.be.greaterThan(0);
      root.querySelector<HTMLElement>('button[aria-label="Back"]')!.click();
      (await waitFor(() => root.querySelector<HTMLElement>('[part~="receive-button"]'), 'Receive button')).click();
      await waitFor(() => root.querySelector('[part~="receive"] svg'), 'Receive');
      expect(await expectNoSeriousAxeViolations(root, `Receive (${theme})`)).to.be.greaterThan(0);
      root.querySelector<HTMLElement>('button[aria-label="Back"]')!.click();
      await waitFor(() => root.querySelector('[role="tablist"]'), 'back on Account');
      root.querySelector<HTMLElement>('[role="tab"]')!.click();
    }
  });
});
