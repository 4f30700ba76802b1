// The devnet's EVM test wallet in a Playwright page, driven from the test: the wallet (EIP-6963 and
// EIP-1193, "Demo Wallet", anvil's development accounts, signing through the devnet's anvil chains)
// is installed in every document the page opens, and each request that needs the visitor's approval
// waits until the test approves or rejects it.
//
//   import { testWallet, connectInModal } from 'wallet-modal-devnet/playwright';
//   const wallet = await testWallet(page, devnet.description);
//   await page.goto(appUrl);
//   await page.click('#connect');                    // the app opens <wallet-modal>
//   await connectInModal(page);                      // the visitor picks the Demo Wallet…
//   await wallet.approve('eth_requestAccounts');     // …and approves in the wallet
//
// No dependency: `page` is any Playwright (or Puppeteer-like) page with addInitScript/evaluate.

/** The test wallet's EIP-6963 rdns: the modal's connector id for it. */
export const TEST_WALLET_ID = 'dev.walletmodal.demo';
const HOOK = '__walletModalDevnetWallet';

/**
 * Installs the devnet's EVM test wallet in `page` (before any of its scripts run).
 * description: the devnet's description (startDevnet().description, or the CLI's JSON).
 * options.chainId: the chain it starts on (default: the devnet's first); options.account: the
 * anvil account index (0–9, default 0); options.autoApprove: answer every request at once.
 */
export async function testWallet(page, description, options = {}) {
  const res = await fetch(description.wallets.evm);
  if (!res.ok) throw new Error(`wallet-modal-devnet: the test wallet's script did not load from ${description.wallets.evm} (${res.status})`);
  // The script is a plain module whose only module syntax is its last `export` line.
  const source = (await res.text()).replace(/^export \{[^}]*\};?\s*$/m, '');
  const install = {
    chains: description.evm.chains.map(({ chainId, rpcUrl, name }) => ({ chainId, rpcUrl, name })),
    chainId: options.chainId ?? description.evm.chains[0].chainId,
    accountIndex: options.account ?? 0,
    autoResponse: options.autoApprove ? 'approve' : null,
    prompt: false,
    global: HOOK,
  };
  await page.addInitScript({ content: `${source}\ninstallDemoWallet(${JSON.stringify(install)});` });

  const hook = (fn, arg) => page.evaluate(fn, { hook: HOOK, arg });

  /** Waits for the wallet's oldest request (of `method` when given) and answers it. */
  async function answer(approve, method, timeoutMs = 15_000) {
    const request = await hook(async ({ hook, arg }) => {
      const p = await window[hook].waitForPending(arg.timeoutMs);
      return { id: p.id, method: p.method, params: p.params };
    }, { timeoutMs }).catch((e) => {
      throw new Error(`wallet-modal-devnet: no request reached the test wallet within ${timeoutMs} ms${method ? ` (expected ${method})` : ''}: ${e.message}`);
    });
    if (method && request.method !== method) {
      throw new Error(`wallet-modal-devnet: the test wallet was asked ${request.method}, not ${method}`);
    }
    await hook(({ hook, arg }) => (arg.approve ? window[hook].approve(arg.id) : window[hook].reject(arg.id)), { approve, id: request.id });
    return request;
  }

  return {
    id: TEST_WALLET_ID,
    /** Approves the oldest request (waiting for one); with `method`, fails when it is another. Resolves with {method, params}. */
    approve: (method, timeoutMs) => answer(true, method, timeoutMs),
    /** Rejects the oldest request (EIP-1193 4001, "User rejected the request."), as approve(). */
    reject: (method, timeoutMs) => answer(false, method, timeoutMs),
    /** The requests waiting for an answer: [{id, method, params, summary}]. */
    pending: () => hook(({ hook }) => window[hook].pending()),
    /** The wallet switches chain itself (chainChanged), as a visitor does in their wallet. */
    switchChain: (chainId) => hook(({ hook, arg }) => window[hook].switchChain(arg), chainId),
    /** The wallet changes to anvil account `index` (accountsChanged); resolves with its address. */
    setAccount: (index) => hook(({ hook, arg }) => window[hook].setAccount(arg), index),
    /** The wallet disconnects the site (disconnect 4900, accountsChanged []). */
    disconnect: () => hook(({ hook }) => window[hook].disconnect()),
    /** Answer every request at once (true), or wait for the test again (false). */
    autoApprove: (on) => hook(({ hook, arg }) => window[hook].setAutoResponse(arg ? 'approve' : null), on),
    /** The wallet's state: {authorized, account, chainId, pending, …}. */
    state: () => hook(({ hook }) => window[hook].state()),
  };
}

/**
 * In the open modal, picks a wallet (the test wallet by default) on the Connect view. Playwright's
 * CSS locators pierce the modal's open shadow root. Waits up to `timeoutMs` for the view.
 */
export async function connectInModal(page, { walletId = TEST_WALLET_ID, timeoutMs = 20_000 } = {}) {
  const button = page.locator(`[role="dialog"][data-view="Connect"] [data-connector-id="${walletId}"]`).first();
  await button.waitFor({ state: 'visible', timeout: timeoutMs });
  await button.click();
}

/** The modal's current view (its dialog's data-view), or null when it is closed. */
export async function modalView(page) {
  const dialog = page.locator('[role="dialog"][data-view]').first();
  return (await dialog.count()) ? dialog.getAttribute('data-view') : null;
}
