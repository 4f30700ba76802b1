/** The devnet's description (the CLI's JSON; `startDevnet().description`). */
export interface DevnetDescription {
  page: string;
  apiUrl: string;
  relayUrl: string;
  frameUrl: string | null;
  projectId: string;
  evm: {
    chains: { chainId: number; caipNetworkId: string; rpcUrl: string; name: string }[];
    mnemonic: string;
    accounts: { address: `0x${string}`; privateKey: `0x${string}` }[];
    contracts: unknown[];
  };
  solana: { caipNetworkId: string; rpcUrl: string; owner: string; tokens: unknown } | null;
  bitcoin: { esploraUrl: string; node: string } | null;
  mail: { web: string; smtp: string };
  oidc: { issuer: string };
  wallets: Record<'evm' | 'solana' | 'bitcoin' | 'polkadot' | 'cosmos' | 'mobile', string>;
}

/** What the helpers need of a Playwright page. */
export interface PageLike {
  addInitScript(script: { content: string }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  locator(selector: string): any;
}

export interface WalletRequest {
  method: string;
  params: unknown;
}

export interface TestWallet {
  id: string;
  approve(method?: string, timeoutMs?: number): Promise<WalletRequest>;
  reject(method?: string, timeoutMs?: number): Promise<WalletRequest>;
  pending(): Promise<(WalletRequest & { id: number; summary: string })[]>;
  switchChain(chainId: number): Promise<void>;
  setAccount(index: number): Promise<string>;
  disconnect(): Promise<void>;
  autoApprove(on: boolean): Promise<void>;
  state(): Promise<{ authorized: boolean; account: string; chainId: number; pending: number }>;
}

export const TEST_WALLET_ID: string;
export function testWallet(page: PageLike, description: DevnetDescription, options?: { chainId?: number; account?: number; autoApprove?: boolean }): Promise<TestWallet>;
export function connectInModal(page: PageLike, options?: { walletId?: string; timeoutMs?: number }): Promise<void>;
export function modalView(page: PageLike): Promise<string | null>;
