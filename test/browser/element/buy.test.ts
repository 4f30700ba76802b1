// Buying crypto with fiat from the Account view through the demo backend's two local on-ramp
// providers, which pay out on the real anvil chains (server/src/onramp/).
import { expect } from '@esm-bundle/chai';
import { encodeFunctionData, parseAbi } from 'viem';
import { expectNoSeriousAxeViolations } from '../views/axe';
import { viewAxeInBothThemes } from './family-helpers';
import { byText, connectDemoWallet, createModal, installDemoWallet, openAccountScreen, rpc, testEnv, waitFor, type WalletModal } from './helpers';

const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
let wallet: any;

async function usdcBalance(): Promise<bigint> {
  const env = await testEnv();
  const usdc = env.contracts!.chains.find((c) => c.chainId === 31337)!.tokens.find((t) => t.symbol === 'USDC')!;
  return BigInt(await rpc(env.chains[0].rpcUrl, 'eth_call', [{ to: usdc.address, data: encodeFunctionData({ abi: ERC20, functionName: 'balanceOf', args: [ACCOUNT0] }) }, 'latest']));
}

function type(input: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function choose(select: HTMLSelectElement, value: string) {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

/** The test switch of the demo backend: its on-ramp options / quote answer 500 while on. */
async function failOnramp(options: boolean, quote: boolean) {
  const env = await testEnv();
  const r = await fetch(`${env.backendUrl}/onramp/fail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ options, quote }) });
  expect(r.status).to.equal(200);
}

/** What the visitor does in the provider's checkout window: pays with the test card (the page's own request). */
async function payAtCheckout(url: string) {
  const page = await fetch(url);
  expect(page.status).to.equal(200);
  expect(await page.text()).to.contain('4242');
  const r = await fetch(`${url}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }) });
  expect(r.status, await r.clone().text()).to.be.within(200, 299);
}

const openBuy = (el: WalletModal) => openAccountScreen(el, 'buy-button', '[part~="buy"] input');

function quotes(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('[part~="buy-quote"]')].map((q) => q.textContent ?? '');
}

describe('buying crypto with fiat through the two local on-ramp providers', function () {
  this.timeout(90_000);
  let el: WalletModal;
  before(async () => {
    localStorage.clear();
    wallet = await installDemoWallet();
    el = await createModal();
    await connectDemoWallet(el, wallet);
  });
  after(async () => {
    await failOnramp(false, false);
    el.remove();
  });

  it('quotes each provider for USDC, refuses amounts outside the card limits, and pays out on anvil through Meld', async () => {
    const lazy = () => performance.getEntriesByType('resource').some((e) => /\/Buy-[A-Z0-9]+\.js$/.test(e.name));
    expect(lazy(), 'nothing of Buy before the button').to.equal(false);
    const root = await openBuy(el);
    expect(lazy()).to.equal(true);
    const [token, currency, method] = [...root.querySelectorAll<HTMLSelectElement>('[part~="buy"] select')];
    expect(token.value, 'USDC by default').to.equal('USDC');
    expect(currency.value).to.equal('USD');
    expect(method.value).to.equal('card');
    // The payment currency's image from /public/getCurrencyImage/{id} (spec §7), loaded in time.
    const flag = await waitFor(() => root.querySelector<HTMLImageElement>('.wm-buy-currency img'), 'the currency image');
    expect(flag.src).to.match(/\/public\/getCurrencyImage\/USD\?projectId=/);
    await viewAxeInBothThemes(el, 'buy-currency-image');
    const amount = root.querySelector<HTMLInputElement>('[part~="buy"] input')!;
    type(amount, '5');
    expect((await waitFor(() => root.querySelector('[part~="buy-error"]'), 'the minimum')).textContent).to.equal('The minimum by card is 10.00 USD');
    type(amount, '8000');
    expect((await waitFor(() => root.querySelector('[part~="buy-error"]')?.textContent?.includes('maximum') && root.querySelector('[part~="buy-error"]'), 'the maximum')).textContent).to.equal('The maximum by card is 7,500.00 USD');
    choose(method, 'bank_account');
    await waitFor(() => !root.querySelector('[part~="buy-error"]'), 'a bank account takes 8,000');
    choose(method, 'card');
    type(amount, '100');
    await waitFor(() => quotes(root).length === 2, 'a quote from each provider');
    const [meld, coinbase] = quotes(root);
    expect(meld).to.contain('Meld (local)').and.contain('99 USDC').and.contain('Fee 1.00 USD (1.00%)');
    expect(coinbase).to.contain('Coinbase (local)').and.contain('98 USDC').and.contain('Fee 2.00 USD (2.00%)');
    expect(meld).to.not.contain('Estimate');
    for (const theme of ['dark', 'light'] as const) {
      el.setThemeMode(theme);
      await new Promise((r) => requestAnimationFrame(r));
      expect(await expectNoSeriousAxeViolations(root, `Buy with quotes (${theme})`)).to.be.greaterThan(0);
    }
    const before = await usdcBalance();
    root.querySelector<HTMLButtonElement>('[part~="buy-quote"]')!.click();
    const link = await waitFor(() => root.querySelector<HTMLAnchorElement>('[part~="buy-checkout"]'), 'the checkout link');
    expect(link.target).to.equal('_blank');
    expect(link.rel).to.contain('noopener');
    expect(link.textContent).to.equal('Continue to Meld (local)');
    expect(root.querySelector('[part~="buy-status"]')!.textContent).to.equal('Waiting for your payment…');
    expect(await expectNoSeriousAxeViolations(root, 'Buy waiting for the payment')).to.be.greaterThan(0);
    await payAtCheckout(link.href);
    const done = await waitFor(() => root.querySelector('[part~="buy-done"]'), 'the payout', 20_000);
    expect(done.textContent).to.equal('Bought 99 USDC through Meld (local).');
    expect((await usdcBalance()) - before, 'paid out on anvil').to.equal(99_000_000n);
  });

  it('buys ether in EUR through Coinbase, which pays out on anvil too', async () => {
    const env = await testEnv();
    const root = await openBuy(el);
    const [token, currency] = [...root.querySelectorAll<HTMLSelectElement>('[part~="buy"] select')];
    choose(token, 'ETH');
    choose(currency, 'EUR');
    type(root.querySelector<HTMLInputElement>('[part~="buy"] input')!, '50');
    await waitFor(() => quotes(root).length === 2 && quotes(root)[1].includes('Fee 1.00 EUR'), 'quotes in EUR');
    const receive = quotes(root)[1].match(/([\d.]+) ETH/)![1];
    const before = BigInt(await rpc(env.chains[0].rpcUrl, 'eth_getBalance', [ACCOUNT0, 'latest']));
    root.querySelectorAll<HTMLButtonElement>('[part~="buy-quote"]')[1].click();
    const link = await waitFor(() => root.querySelector<HTMLAnchorElement>('[part~="buy-checkout"]'), 'the checkout link');
    expect(link.textContent).to.equal('Continue to Coinbase (local)');
    await payAtCheckout(link.href);
    const done = await waitFor(() => root.querySelector('[part~="buy-done"]'), 'the payout', 20_000);
    expect(done.textContent).to.equal(`Bought ${receive} ETH through Coinbase (local).`);
    const after = BigInt(await rpc(env.chains[0].rpcUrl, 'eth_getBalance', [ACCOUNT0, 'latest']));
    const [int, frac = ''] = receive.split('.');
    expect(after - before).to.equal(BigInt(int) * 10n ** 18n + BigInt((frac + '0'.repeat(18)).slice(0, 18)));
    byText(root, 'button', 'Buy more')!.click();
    await waitFor(() => root.querySelector('[part~="buy"] input'), 'the form again');
    // Your purchases (the history call's `onramp`, per provider, read from the chain by the
    // backend's indexer): this one first, the Meld one of the test before below it.
    const rows = () => [...root.querySelectorAll<HTMLElement>('[part~="buy-purchase"]')].map((r) => r.textContent ?? '');
    await waitFor(() => rows().some((r) => r.includes('Coinbase (local)')) && rows().some((r) => r.includes('99.000 USDC')), 'both purchases listed', 15_000);
    expect(rows()[0]).to.match(/^\d+\.\d{3} ETHCoinbase \(local\) · .+Completed$/);
    expect(rows().find((r) => r.includes('99.000 USDC'))).to.contain('Meld (local)');
    root.querySelector('[part~="buy-purchases"]')!.scrollIntoView();
    await viewAxeInBothThemes(el, 'buy-purchases');
  });

  it('falls back to the built-in currencies and to marked estimates when the service fails', async () => {
    await failOnramp(true, true);
    try {
      const root = await openBuy(el);
      expect((await waitFor(() => root.querySelector('[part~="buy-fallback"]'), 'the fallback notice')).textContent).to.contain('built-in');
      const [token, currency] = [...root.querySelectorAll<HTMLSelectElement>('[part~="buy"] select')];
      expect(token.value).to.equal('USDC');
      expect([...currency.options].map((o) => o.value)).to.deep.equal(['USD', 'EUR']);
      type(root.querySelector<HTMLInputElement>('[part~="buy"] input')!, '100');
      await waitFor(() => quotes(root).length === 2, 'estimates');
      for (const q of quotes(root)) expect(q).to.contain('≈ 98 USDC').and.contain('Estimate');
    } finally {
      await failOnramp(false, false);
    }
  });
});
