// Swapping from the Account view through the demo wallet, against real anvil chains with a Uniswap V2
// market deployed (demo/contracts/uniswap.mjs) and the backend's convert API quoting from its pools.
import { expect } from '@esm-bundle/chai';
import { encodeFunctionData, parseAbi } from 'viem';
import { expectNoSeriousAxeViolations } from '../views/axe';
import { viewAxeInBothThemes } from './family-helpers';
import { byText, connectDemoWallet, createModal, installDemoWallet, openAccountScreen, rpc, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';

const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
let wallet: any;

async function token(symbol: string) {
  const env = await testEnv();
  return env.contracts!.chains.find((c) => c.chainId === 31337)!.tokens.find((t) => t.symbol === symbol)!;
}

async function balanceOf(address: string): Promise<bigint> {
  const env = await testEnv();
  return BigInt(await rpc(env.chains[0].rpcUrl, 'eth_call', [{ to: address, data: encodeFunctionData({ abi: ERC20, functionName: 'balanceOf', args: [ACCOUNT0] }) }, 'latest']));
}

/** "1,494.01" with `decimals` → base units. */
function units(shown: string, decimals: number): bigint {
  const [int, frac = ''] = shown.replace(/,/g, '').split('.');
  return BigInt(int) * 10n ** BigInt(decimals) + BigInt((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

function type(input: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function swapChunkLoaded(): boolean {
  return performance.getEntriesByType('resource').some((e) => /\/Swap-[A-Z0-9]+\.js$/.test(e.name));
}

const openSwap = (el: WalletModal) => openAccountScreen(el, 'swap-button', '[part~="swap"]');

/** Chooses a token on one side through its searchable picker. */
async function pick(root: ShadowRoot, side: 0 | 1, symbol: string) {
  root.querySelectorAll<HTMLButtonElement>('[part~="swap-token"]')[side].click();
  const list = await waitFor(() => root.querySelector('[part~="swap-token-list"]'), 'the token list');
  type(list.querySelector<HTMLInputElement>('input[type="search"]')!, symbol.toLowerCase());
  const option = await waitFor(() => [...list.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.querySelector('.wm-token-name')?.textContent === symbol), symbol);
  option.click();
  await waitFor(() => root.querySelectorAll('[part~="swap-token"]')[side].textContent?.includes(symbol), `${symbol} chosen`);
}

async function quoted(root: ShadowRoot): Promise<string> {
  return (await waitFor(() => {
    const text = root.querySelector('[part~="swap-receive"]')?.textContent ?? '';
    return /\d/.test(text) && text !== '0' && root.querySelector('[part~="swap-details"]') ? text : null;
  }, 'a quote', 10_000)) as string;
}

describe('swapping on the demo chains’ Uniswap V2 market', function () {
  this.timeout(90_000);
  let el: WalletModal;
  before(async () => {
    localStorage.clear();
    wallet = await installDemoWallet();
    el = await createModal();
    await connectDemoWallet(el, wallet);
  });
  after(() => el.remove());

  it('loads the Swap screen only when Swap is pressed, and swaps ether for USDC as quoted within the slippage', async () => {
    await el.open();
    const account = viewRoot(el);
    await waitFor(() => account.querySelector('[part~="token"]'), 'the tokens');
    const buttons = [...account.querySelectorAll('.wm-account-buttons button')].map((b) => b.textContent);
    expect(buttons, 'walletFeaturesOrder').to.deep.equal(['Buy', 'Swap', 'Receive', 'Send']);
    expect(swapChunkLoaded(), 'nothing of Swap before the button').to.equal(false);
    const root = await openSwap(el);
    expect(swapChunkLoaded()).to.equal(true);
    const pay = root.querySelector<HTMLInputElement>('[part~="swap"] input')!;
    // The defaults follow what the account holds (the account module's list may arrive just after).
    await waitFor(() => root.querySelectorAll('[part~="swap-token"]')[0]?.textContent?.includes('ETH'), 'ETH to pay by default');
    expect(root.querySelectorAll('[part~="swap-token"]')[0].textContent).to.contain('ETH');
    expect(root.querySelectorAll('[part~="swap-token"]')[1].textContent).to.contain('USDC');
    await viewAxeInBothThemes(el, 'swap-token-logos');
    const usdc = await token('USDC');
    const before = await balanceOf(usdc.address);
    type(pay, '0.5');
    const receive = await quoted(root);
    const quote = units(receive, 6);
    // The backend's quote is the router's getAmountsOut: ~0.5 × 3,000 less the pool fee and impact.
    expect(Number(quote) / 1e6).to.be.within(1400, 1500);
    expect(byText(root, '[part~="swap-details"] dt', 'Slippage')!.nextElementSibling!.textContent).to.equal('1%');
    expect(byText(root, '[part~="swap-details"] dt', 'Network fee')!.nextElementSibling!.textContent).to.match(/ETH$/);
    expect(byText(root, '[part~="swap-details"] dt', 'Rate')!.nextElementSibling!.textContent).to.match(/^1 ETH = [\d,.]+ USDC$/);
    for (const theme of ['dark', 'light'] as const) {
      el.setThemeMode(theme);
      await new Promise((r) => requestAnimationFrame(r));
      expect(await expectNoSeriousAxeViolations(root, `Swap with a quote (${theme})`)).to.be.greaterThan(0);
    }
    const submit = root.querySelector<HTMLButtonElement>('[part~="swap-submit"]')!;
    expect(submit.textContent).to.equal('Swap');
    submit.click();
    expect((await wallet.waitForPending()).method).to.equal('eth_sendTransaction');
    expect(root.querySelector('[part~="swap-submit"]')!.textContent).to.equal('Approve in your wallet');
    wallet.approve();
    await waitFor(() => root.querySelector('[part~="swap-done"]'), 'the swap mined', 20_000);
    const got = (await balanceOf(usdc.address)) - before;
    expect(got >= (quote * 99n) / 100n && got <= quote, `received ${got}, quoted ${quote}`).to.equal(true);
    expect(got, 'nothing else traded on this chain meanwhile: exactly the quote').to.equal(quote);
  });

  it('swaps USDC for WMT: Approve USDC first, then Swap; Activity shows the swap with both tokens', async () => {
    const root = await openSwap(el);
    await pick(root, 0, 'USDC');
    await pick(root, 1, 'WMT');
    const wmt = await token('WMT');
    const before = await balanceOf(wmt.address);
    type(root.querySelector<HTMLInputElement>('[part~="swap"] input')!, '25');
    const quote = units(await quoted(root), 18);
    const submit = () => root.querySelector<HTMLButtonElement>('[part~="swap-submit"]')!;
    await waitFor(() => submit().textContent === 'Approve USDC', 'the approval step');
    submit().click();
    expect((await wallet.waitForPending()).method).to.equal('eth_sendTransaction');
    wallet.approve();
    await waitFor(() => submit().textContent === 'Swap' && !submit().disabled, 'approved: Swap', 20_000);
    submit().click();
    await wallet.waitForPending();
    wallet.approve();
    await waitFor(() => root.querySelector('[part~="swap-done"]'), 'the swap mined', 20_000);
    const got = (await balanceOf(wmt.address)) - before;
    // The display rounds the quote to 6 decimals: within the slippage of it.
    expect(got >= (quote * 99n) / 100n && got <= quote + 10n ** 12n, `received ${got}, quoted ${quote}`).to.equal(true);
    root.querySelector<HTMLElement>('button[aria-label="Back"]')!.click();
    await waitFor(() => root.querySelector('[part~="account"] [role="tablist"]'), 'back on Account');
    byText(root, '[role="tab"]', 'Activity')!.click();
    const row = await waitFor(() => [...root.querySelectorAll('[part~="activity-row"]')].find((r) => r.textContent?.includes('25.000 USDC →')), 'the swap in Activity', 15_000);
    expect(row.textContent).to.contain('Swapped').and.contain('WMT');
    byText(root, '[role="tab"]', 'Tokens')!.click();
  });

  it('says the amount is more than the balance, and keeps the form when the wallet rejects', async () => {
    const root = await openSwap(el);
    const pay = root.querySelector<HTMLInputElement>('[part~="swap"] input')!;
    type(pay, '100000000');
    expect((await waitFor(() => root.querySelector('[part~="swap-error"]'), 'the balance error')).textContent).to.equal('Insufficient ETH balance');
    type(pay, '0.01');
    await quoted(root);
    root.querySelector<HTMLButtonElement>('[part~="swap-submit"]')!.click();
    await wallet.waitForPending();
    wallet.reject();
    expect((await waitFor(() => root.querySelector('[part~="swap-error"]'), 'the rejection')).textContent).to.match(/rejected/i);
    expect(root.querySelector<HTMLInputElement>('[part~="swap"] input')!.value).to.equal('0.01');
    expect(root.querySelector<HTMLButtonElement>('[part~="swap-submit"]')!.textContent).to.equal('Swap');
  });
});

describe('swapping outside the swap networks', function () {
  this.timeout(60_000);
  it('says Network not supported for Swaps and asks the convert API nothing', async () => {
    localStorage.clear();
    const wallet2 = await installDemoWallet();
    const el = await createModal({ 'project-id': 'swaps-spec-networks' });
    try {
      await connectDemoWallet(el, wallet2);
      const before = performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/convert/')).length;
      const root = await openSwap(el);
      expect((await waitFor(() => root.querySelector('[part~="swap"] [role="alert"]'), 'the message')).textContent).to.equal('Network not supported for Swaps');
      expect(performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/convert/')).length).to.equal(before);
    } finally {
      el.remove();
    }
  });
});
