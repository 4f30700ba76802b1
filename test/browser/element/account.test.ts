// The Account view's lazily loaded module (portfolio, activity, receive) through the real build,
// the demo wallet on anvil and the real backend.
import { expect } from '@esm-bundle/chai';
import jsQR from 'jsqr';
import { byText, connectDemoWallet, createModal, installDemoWallet, viewRoot, waitFor } from './helpers';
import { rasterise } from '../walletconnect/qr-raster';

const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
let wallet: any;

function accountModuleLoaded(): boolean {
  return performance.getEntriesByType('resource').some((e) => e.name.includes('wallet_modal_account_bg'));
}

/** The QR code as Chromium draws it, read back by an independent decoder. */
async function decode(svg: SVGSVGElement): Promise<string | undefined> {
  const { ctx, side } = await rasterise(svg, 6);
  return jsQR(ctx.getImageData(0, 0, side, side).data, side, side)?.data;
}

describe('the Account view’s lazily loaded module', function () {
  this.timeout(30_000);
  before(async () => {
    localStorage.clear();
    wallet = await installDemoWallet();
  });
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
  });

  it('is fetched only once the Account view shows, then draws the tabs as a keyboard tablist', async () => {
    localStorage.clear();
    const el = await createModal();
    await connectDemoWallet(el, wallet);
    expect(accountModuleLoaded(), 'not loaded while connecting').to.equal(false);
    await el.open();
    const root = viewRoot(el);
    const tabs = await waitFor(() => root.querySelectorAll<HTMLButtonElement>('[role="tab"]').length === 3 && root.querySelectorAll<HTMLButtonElement>('[role="tab"]'), 'tabs');
    expect(accountModuleLoaded()).to.equal(true);
    expect([...tabs].map((t) => t.textContent)).to.deep.equal(['Tokens', 'NFTs', 'Activity']);
    expect(tabs[0].getAttribute('aria-selected')).to.equal('true');
    expect(root.querySelector('[role="tabpanel"]')!.getAttribute('aria-labelledby')).to.equal(tabs[0].id);
    tabs[0].focus();
    tabs[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await waitFor(() => root.querySelector('[role="tab"][aria-selected="true"]')?.textContent === 'NFTs', 'NFTs selected');
    expect((root.activeElement as HTMLElement).textContent, 'focus follows the selection').to.equal('NFTs');
    root.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    await waitFor(() => root.querySelector('[role="tab"][aria-selected="true"]')?.textContent === 'Activity', 'Activity selected');
    root.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await waitFor(() => root.querySelector('[role="tab"][aria-selected="true"]')?.textContent === 'Tokens', 'ArrowRight wraps to Tokens');
    root.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    await waitFor(() => root.querySelector('[role="tab"][aria-selected="true"]')?.textContent === 'Activity', 'ArrowLeft wraps to Activity');
    root.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
    await waitFor(() => root.querySelector('[role="tab"][aria-selected="true"]')?.textContent === 'Tokens', 'Tokens selected again');
  });

  it('Receive shows the address as a QR code that decodes to it, titled Receive, and back returns to the account', async () => {
    const el = await createModal();
    await el.open();
    const root = viewRoot(el);
    const receive = await waitFor(() => root.querySelector<HTMLButtonElement>('[part~="receive-button"]'), 'Receive button');
    receive.click();
    const svg = await waitFor(() => root.querySelector<SVGSVGElement>('[part~="receive"] svg[role="img"]'), 'QR code');
    expect(svg.getAttribute('aria-label')).to.equal(`QR code of ${ACCOUNT0}`);
    expect(await decode(svg)).to.equal(ACCOUNT0);
    expect(root.querySelector('[part~="address"]')!.textContent).to.equal(ACCOUNT0);
    expect(byText(root, 'p', /Receive on Anvil A, Anvil B/), 'the networks it can receive on').to.not.equal(null);
    expect(root.querySelector('h1, h2, [part~="title"]')?.textContent).to.contain('Receive');
    (root.querySelector('[aria-label="Back"]') as HTMLButtonElement).click();
    await waitFor(() => root.querySelector('[role="tablist"]'), 'back on the account');
    expect(el.getState().view, 'the engine never left Account').to.equal('Account');
  });
});
