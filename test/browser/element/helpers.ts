/** Helpers for the element tests: the real build from /dist, the real backend and anvil chains. */
export interface TestEnv {
  backendUrl: string;
  /** The secure frame on the backend's second origin (`…/frame`), and the mail sink's base URL. */
  frameUrl: string;
  mailUrl: string;
  /** The local OpenID Connect provider standing in for the social logins. */
  oidcUrl: string;
  /** The bearer token of the backend's test hooks for this run (`--test-token`). */
  testToken: string;
  chains: Array<{ chainId: number; rpcUrl: string }>;
  /** The demo contracts deployed for this run (scripts/test.sh, demo/contracts/deploy.mjs). */
  contracts: { chains: Array<{ chainId: number; tokens: Array<{ kind: string; address: string; name: string; symbol: string; decimals: number; spam: boolean }> }> } | null;
}

/** A JSON-RPC call to an anvil chain. */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

let envPromise: Promise<TestEnv> | null = null;
export function testEnv(): Promise<TestEnv> {
  envPromise ??= fetch('/test-env.json').then((r) => r.json());
  return envPromise;
}

export async function loadElement(): Promise<void> {
  // @ts-ignore — served as is from dist/ (the real build)
  await import('/dist/wallet-modal.js');
  await customElements.whenDefined('wallet-modal');
}

export function anvilNetworks(env: TestEnv) {
  return env.chains.map((c, i) => ({
    id: c.chainId,
    caipNetworkId: `eip155:${c.chainId}`,
    name: i === 0 ? 'Anvil A' : 'Anvil B',
    chainNamespace: 'eip155',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [c.rpcUrl] } },
    testnet: true,
  }));
}

export type WalletModal = HTMLElement & {
  open(o?: { view?: string }): Promise<void>;
  close(): Promise<void>;
  disconnect(ns?: string): Promise<void>;
  switchNetwork(id: string): Promise<void>;
  getState(): any;
  getProvider(ns?: string): any;
  setThemeMode(m: string): void;
  setThemeVariables(v: Record<string, string>): void;
  networks: unknown[] | undefined;
};

/** Creates `<wallet-modal>` pointed at the local backend and waits until its engine has started. */
export async function createModal(attrs: Record<string, string | null> = {}, networks?: unknown[]): Promise<WalletModal> {
  const env = await testEnv();
  await loadElement();
  const el = document.createElement('wallet-modal') as WalletModal;
  const all: Record<string, string | null> = { 'project-id': 'test-project', 'api-url': env.backendUrl, 'analytics-url': env.backendUrl, 'frame-url': env.frameUrl || null, ...attrs };
  for (const [k, v] of Object.entries(all)) if (v !== null) el.setAttribute(k, v);
  el.networks = networks ?? anvilNetworks(env);
  document.body.appendChild(el);
  await waitFor(() => el.getState() !== null, 'engine started');
  return el;
}

export async function waitFor<T>(fn: () => T | null | undefined | false, what = 'condition', timeout = 8000): Promise<T> {
  const start = performance.now();
  for (;;) {
    let value: T | null | undefined | false;
    try {
      value = fn();
    } catch {
      value = null;
    }
    if (value) return value as T;
    if (performance.now() - start > timeout) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The shadow root the views render in: the overlay on the body, or the element itself if embedded. */
export function viewRoot(el: HTMLElement): ShadowRoot {
  const overlay = document.querySelector('wallet-modal-overlay');
  return (el.hasAttribute('embedded') ? el.shadowRoot : overlay?.shadowRoot) as ShadowRoot;
}

export function dialog(el: HTMLElement): HTMLElement | null {
  return viewRoot(el)?.querySelector('[role="dialog"]') ?? null;
}

export function byText(root: ParentNode, selector: string, text: string | RegExp): HTMLElement | null {
  return (
    ([...root.querySelectorAll(selector)] as HTMLElement[]).find((n) =>
      typeof text === 'string' ? n.textContent?.includes(text) : text.test(n.textContent ?? ''),
    ) ?? null
  );
}

/** Types the Send form's amount and receiver (as a visitor's keystrokes reach React). */
export function fillSendForm(root: ShadowRoot, amount: string, receiver: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  const [amountInput, receiverInput] = [...root.querySelectorAll<HTMLInputElement>('[part~="send"] input')];
  for (const [input, text] of [[amountInput, amount], [receiverInput, receiver]] as const) {
    setter.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/** Resolves with the next event of that name from the element. */
export function nextEvent(el: HTMLElement, name: string, timeout = 8000): Promise<CustomEvent> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${name} event`)), timeout);
    el.addEventListener(name, (e) => { clearTimeout(t); resolve(e as CustomEvent); }, { once: true });
  });
}

export function cleanup(): void {
  for (const el of document.querySelectorAll('wallet-modal')) el.remove();
  localStorage.clear();
}

/** Installs the demo wallet (an EIP-6963 wallet forwarding to the anvil chains) with its prompt. */
export async function installDemoWallet(): Promise<any> {
  const env = await testEnv();
  // @ts-ignore — served as is from demo/
  const { installDemoWallet: install } = await import('/demo/wallet/demo-wallet.js');
  const wallet = install({ chains: env.chains, prompt: true });
  await wallet.ready;
  return wallet;
}

/** Opens the modal and connects the demo wallet (approving its prompt when it asks). */
export async function connectDemoWallet(el: WalletModal, wallet: any): Promise<void> {
  await el.open();
  const connected = nextEvent(el, 'connect');
  (await waitFor(() => viewRoot(el)?.querySelector('[data-connector-id="dev.walletmodal.demo"]') as HTMLElement, 'Demo Wallet row')).click();
  await waitFor(() => wallet.pending().length > 0 || el.getState().status.eip155 === 'connected', 'wallet prompt or connection');
  if (wallet.pending().length > 0) wallet.approve();
  await connected;
}

/** Opens the modal on the Account view's own page (leaving any screen of it: Send, Swap…), waits for
 * its tokens, presses the button `part` and resolves once `screen` (a selector) shows. */
export async function openAccountScreen(el: WalletModal, button: string, screen: string): Promise<ShadowRoot> {
  await el.open();
  const root = viewRoot(el);
  const inScreen = '[part~="send"], [part~="send-preview"], [part~="receive"], [part~="swap"], [part~="buy"]';
  for (let i = 0; i < 3 && root.querySelector(inScreen); i++) {
    root.querySelector<HTMLElement>('button[aria-label="Back"]')?.click();
    await new Promise((r) => setTimeout(r, 50));
  }
  root.querySelector<HTMLElement>('[role="tab"][id$="-tokens"]')?.click();
  await waitFor(() => root.querySelector('[part~="token"]'), 'the tokens');
  (await waitFor(() => root.querySelector<HTMLButtonElement>(`[part~="${button}"]`), button)).click();
  await waitFor(() => root.querySelector(screen), screen);
  return root;
}
