// The modal's languages in the real element build: the `locale` attribute (else the browser's
// language) picks a catalogue, loaded as a chunk of its own; the views' texts, labels and the core's
// texts (view titles, error messages) show in it; Arabic lays the modal out right to left (checked by
// the positions of the header's buttons, axe, and screenshots of Connect, Account and Send).
import { expect } from '@esm-bundle/chai';
import es from '../../../react-views/i18n/es';
import ar from '../../../react-views/i18n/ar';
import pt from '../../../react-views/i18n/pt';
import { anvilNetworks, cleanup, connectDemoWallet, createModal, installDemoWallet, openAccountScreen, testEnv, viewRoot, waitFor } from './helpers';
import { viewAxeInBothThemes } from './family-helpers';

const title = (root: ShadowRoot) => root.querySelector('.wm-title-text')?.textContent;
const chunks = () => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop() ?? '');

describe('<wallet-modal> languages (locale)', function () {
  this.timeout(60_000);
  afterEach(cleanup);

  it('locale="es": the Connect view, its labels and the core\'s title are Spanish, from the Spanish chunk', async () => {
    const el = await createModal({ locale: 'es' });
    await el.open();
    const root = viewRoot(el);
    await waitFor(() => title(root) === es['Connect Wallet'], 'the Spanish title');
    expect(es['Connect Wallet']).to.not.equal('Connect Wallet');
    expect(root.querySelector('.wm-close')?.getAttribute('aria-label')).to.equal(es.Close);
    expect(root.querySelector('.wm-all-wallets .wm-row-name')?.textContent).to.equal(es['All Wallets']);
    expect(root.querySelector('.wm-root')?.getAttribute('lang')).to.equal('es');
    expect(root.querySelector('.wm-root')?.getAttribute('dir')).to.equal('ltr');
    expect(chunks().some((f) => /^es-[A-Z0-9]+\.js$/.test(f)), 'the Spanish catalogue loaded as its own chunk').to.equal(true);
    expect(chunks().some((f) => /^(ar|fr|de|ja)-[A-Z0-9]+\.js$/.test(f)), 'no other language loaded').to.equal(false);
  });

  it('a locale changed while the modal shows re-renders it in the new language; an unknown one falls back to English, a regional one to its language', async () => {
    const el = await createModal({ locale: 'es' });
    await el.open();
    const root = viewRoot(el);
    await waitFor(() => title(root) === es['Connect Wallet'], 'Spanish');
    el.setAttribute('locale', 'pt-BR');
    await waitFor(() => title(root) === pt['Connect Wallet'], 'pt-BR shown in Portuguese');
    expect(root.querySelector('.wm-root')?.getAttribute('lang')).to.equal('pt');
    el.setAttribute('locale', 'xx-YY');
    await waitFor(() => title(root) === 'Connect Wallet', 'an unknown language shown in English');
    expect(root.querySelector('.wm-root')?.getAttribute('lang')).to.equal('en');
    el.removeAttribute('locale');
    await waitFor(() => root.querySelector('.wm-root')?.getAttribute('lang') === (navigator.language.toLowerCase().startsWith('en') ? 'en' : root.querySelector('.wm-root')?.getAttribute('lang')), "the browser's language");
  });

  it('locale="ar": right to left — the close button on the left, Back on the right, the texts Arabic; Connect, Account and Send pass axe and are screenshotted in both themes', async () => {
    const env = await testEnv();
    const wallet = await installDemoWallet();
    const el = await createModal({ locale: 'ar' }, anvilNetworks(env));
    await el.open();
    const root = viewRoot(el);
    await waitFor(() => title(root) === ar['Connect Wallet'], 'the Arabic title');
    expect(root.querySelector('.wm-root')?.getAttribute('dir')).to.equal('rtl');
    const box = (sel: string) => root.querySelector(sel)!.getBoundingClientRect();
    expect(box('.wm-close').right, 'the close button is on the left').to.be.lessThan(box('.wm-title').left + 1);
    expect(root.querySelector('.wm-connector .wm-image, .wm-connector svg')!.getBoundingClientRect().left, "a wallet's icon is on the right of its row").to.be.greaterThan(
      root.querySelector('.wm-connector .wm-row-name')!.getBoundingClientRect().left,
    );
    await viewAxeInBothThemes(el, 'rtl-connect');

    await el.close();
    await connectDemoWallet(el, wallet);
    await el.open();
    await waitFor(() => root.querySelector('[part~="token"]'), 'the tokens', 15_000);
    expect(title(root)).to.equal(ar.Account);
    expect(root.querySelector('[part~="disconnect-button"] .wm-row-name')?.textContent).to.equal(ar.Disconnect);
    await viewAxeInBothThemes(el, 'rtl-account');

    await openAccountScreen(el, 'send-button', '[part~="send"]');
    expect(title(root)).to.equal(ar.Send);
    expect(root.querySelector('[part~="send"] button[type="submit"]')?.textContent).to.equal(ar['Preview send']);
    expect(box('.wm-back').left, 'Back is on the right').to.be.greaterThan(box('.wm-title').right - 1);
    await viewAxeInBothThemes(el, 'rtl-send');
  });

  it('number-format="locale": amounts take the language\'s separators (German 10.000,000 ETH); without it they keep the spec\'s en-US format', async () => {
    const env = await testEnv();
    const wallet = await installDemoWallet();
    const el = await createModal({ locale: 'de' }, anvilNetworks(env));
    await connectDemoWallet(el, wallet);
    await el.open();
    const root = viewRoot(el);
    const balance = () => root.querySelector('[part~="balance"]:not([aria-busy])')?.textContent ?? '';
    const en = await waitFor(() => /\d ETH$/.test(balance()) && balance(), 'the balance', 15_000);
    expect(en, 'en-US by default, in German too').to.match(/^\d{1,3}(,\d{3})*\.\d{3} ETH$/);
    el.setAttribute('number-format', 'locale');
    const de = await waitFor(() => balance() !== en && balance(), 'the balance in the German format');
    expect(de).to.equal(en.replace(/[,.]/g, (c) => (c === ',' ? '.' : ',')), 'only the separators change');
    const quantity = root.querySelector('[part~="token"] .wm-token-quantity')?.textContent ?? '';
    expect(quantity, 'token quantities too').to.not.match(/\d,\d{3}\./);
  });

  it('locale="ar": Swap, Buy and the network list are Arabic and right to left; a text the core composed with a value is translated by its template', async () => {
    const env = await testEnv();
    const wallet = await installDemoWallet();
    const el = await createModal({ locale: 'ar' }, anvilNetworks(env));
    await connectDemoWallet(el, wallet);
    await el.open();
    const root = viewRoot(el);
    await waitFor(() => root.querySelector('[part~="token"]'), 'the tokens', 15_000);

    (await waitFor(() => root.querySelector<HTMLButtonElement>('[part~="swap-button"]'), 'Swap')).click();
    await waitFor(() => root.querySelector('[part~="swap"]'), 'the Swap screen');
    expect(title(root)).to.equal(ar.Swap);
    expect(root.querySelector('.wm-swap-label')?.textContent?.trim()).to.equal(ar['You pay']);
    const amount = root.querySelector<HTMLInputElement>('.wm-swap-amount')!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(amount, '1000000');
    amount.dispatchEvent(new Event('input', { bubbles: true }));
    // The core's "Insufficient ETH balance", found by its template, the symbol kept.
    const insufficient = ar['Insufficient {symbol} balance'].replace('{symbol}', 'ETH');
    expect(insufficient).to.not.contain('Insufficient');
    await waitFor(() => root.querySelector('[part~="swap-error"]')?.textContent?.trim() === insufficient, 'the composed error in Arabic', 10_000);
    await viewAxeInBothThemes(el, 'rtl-swap');

    await el.close();
    await el.open();
    (await waitFor(() => root.querySelector<HTMLButtonElement>('[part~="buy-button"]'), 'Buy')).click();
    await waitFor(() => root.querySelector('[part~="buy"] select'), 'the Buy screen', 10_000);
    expect(title(root)).to.equal(ar.Buy);
    expect([...root.querySelectorAll('[part~="buy"] .wm-field > span')].map((s) => s.textContent)).to.include(ar['Pay in']);
    await viewAxeInBothThemes(el, 'rtl-buy');

    await el.close();
    await el.open({ view: 'SwitchNetwork' });
    await waitFor(() => root.querySelector('.wm-network-list'), 'the networks');
    expect(root.querySelector('.wm-network-list')?.getAttribute('aria-label')).to.equal(ar.Networks);
    expect(root.querySelector('.wm-network.wm-active .wm-visually-hidden')?.textContent).to.equal(ar.Active);
    await viewAxeInBothThemes(el, 'rtl-networks');
  });
});
