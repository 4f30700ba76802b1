// What the Bitcoin, Polkadot and Cosmos browser tests share: the account view checked by axe in
// both themes (with a screenshot each), and a reload that must reconnect the stored connection.
import { expect } from '@esm-bundle/chai';
import { createModal, nextEvent, viewRoot, waitFor, type WalletModal } from './helpers';
import { visitor } from './embedded-helpers';
import { expectNoSeriousAxeViolations } from '../views/axe';

/** The connected account view, light and dark: no serious axe violation; a screenshot of each. */
export async function accountAxeInBothThemes(el: WalletModal, label: string): Promise<void> {
  await el.open();
  const root = viewRoot(el);
  await waitFor(() => root.querySelector('[part~="balance-note"], [part~="balance"]:not([aria-busy])'), 'the account', 15_000);
  for (const theme of ['light', 'dark']) {
    el.setThemeMode(theme);
    await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), `${theme} theme`);
    expect(await expectNoSeriousAxeViolations(root, `${label} account (${theme})`)).to.be.greaterThan(0);
    await visitor({ action: 'screenshot', name: `${label.toLowerCase()}-account-${theme}` });
  }
  el.setThemeMode('light');
  await el.close();
}

/** The view showing now, light and dark: no serious axe violation; a screenshot of each. */
export async function viewAxeInBothThemes(el: WalletModal, name: string): Promise<void> {
  const root = viewRoot(el);
  for (const theme of ['light', 'dark']) {
    el.setThemeMode(theme);
    await waitFor(() => root.querySelector(`.wm-app[data-theme="${theme}"]`), `${theme} theme`);
    expect(await expectNoSeriousAxeViolations(root, `${name} (${theme})`)).to.be.greaterThan(0);
    await visitor({ action: 'screenshot', name: `${name}-${theme}` });
  }
  el.setThemeMode('light');
}

/** A new element on the page (a reload), heard reconnecting without a prompt: its connect detail. */
export async function reload(networks: unknown[]): Promise<{ el: WalletModal; detail: any }> {
  // (Heard on the document: the reconnection may be over before createModal returns.)
  const reconnected = nextEvent(document.body, 'connect', 10_000);
  const el = await createModal({}, networks);
  return { el, detail: (await reconnected).detail };
}
