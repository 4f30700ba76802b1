/**
 * The wallet side of the WalletConnect browser tests: the OFFICIAL `@walletconnect/sign-client`
 * (2.25.0) in the test page, connected to the local relay of the test backend. It approves
 * proposals with anvil's first dev account on the anvil chains (or rejects them), and answers
 * requests by forwarding them to that chain's anvil, where the account is unlocked.
 */
import { SignClient } from '@walletconnect/sign-client';
import { testEnv, waitFor } from '../element/helpers';
import { relayUrl } from './relay';

export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** In-memory storage for the SDK, so that every test wallet starts empty. */
class MemoryStorage {
  #m = new Map<string, unknown>();
  async getKeys() {
    return [...this.#m.keys()];
  }
  async getEntries() {
    return [...this.#m.entries()];
  }
  async getItem(k: string) {
    return this.#m.get(k);
  }
  async setItem(k: string, v: unknown) {
    this.#m.set(k, v);
  }
  async removeItem(k: string) {
    this.#m.delete(k);
  }
}

export async function rpc(url: string, method: string, params: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
}

/** The receipt of `hash` on the chain at `url`, polled until mined (null if it never is). */
export async function receiptOf(url: string, hash: string, timeoutMs = 5_000): Promise<any> {
  const start = performance.now();
  for (;;) {
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt || performance.now() - start > timeoutMs) return receipt;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface WalletRequest {
  topic: string;
  method: string;
  chainId: string;
  params: unknown;
}

export interface TestWallet {
  client: InstanceType<typeof SignClient>;
  /** Proposals seen: the chains and methods offered, and the dapp's name. */
  proposals: Array<{ chains: string[]; methods: string[]; name: string }>;
  /** Session topics approved. */
  sessions: string[];
  requests: WalletRequest[];
  /** Topics deleted by the dapp. */
  deleted: string[];
  /** Reject the next proposals instead of approving them. */
  rejectProposals: boolean;
  /** Pairs with a URI shown by the element. */
  pair(uri: string): Promise<void>;
  emit(topic: string, chainId: string, name: string, data: unknown): Promise<void>;
  disconnect(topic: string): Promise<void>;
  close(): Promise<void>;
}

/** `solanaAccount`: also approve the Solana chains a proposal offers, with this (base58) address. */
export async function createTestWallet(options: { solanaAccount?: string } = {}): Promise<TestWallet> {
  const env = await testEnv();
  const rpcByChain = Object.fromEntries(env.chains.map((c) => [`eip155:${c.chainId}`, c.rpcUrl]));
  const client = await SignClient.init({
    projectId: 'test-project',
    relayUrl: await relayUrl(),
    logger: 'silent',
    telemetryEnabled: false,
    storage: new MemoryStorage() as any,
    customStoragePrefix: `wallet-${Math.random().toString(16).slice(2)}`,
    metadata: { name: 'Test Wallet', description: 'official sign-client', url: location.origin, icons: [] },
  });
  const wallet: TestWallet = {
    client,
    proposals: [],
    sessions: [],
    requests: [],
    deleted: [],
    rejectProposals: false,
    pair: async (uri) => {
      await client.core.pairing.pair({ uri });
    },
    emit: (topic, chainId, name, data) => client.emit({ topic, chainId, event: { name, data } }),
    disconnect: (topic) => client.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } }),
    close: async () => {
      for (const s of client.session.getAll()) await client.disconnect({ topic: s.topic, reason: { code: 6000, message: 'test over' } }).catch(() => {});
      await client.core.relayer.transportClose().catch(() => {});
    },
  };

  client.on('session_proposal', async ({ id, params }: any) => {
    const offered = { ...params.requiredNamespaces?.eip155, ...params.optionalNamespaces?.eip155 };
    const chains: string[] = offered.chains ?? [];
    wallet.proposals.push({ chains, methods: offered.methods ?? [], name: params.proposer.metadata.name });
    if (wallet.rejectProposals) {
      await client.reject({ id, reason: { code: 5000, message: 'User rejected.' } });
      return;
    }
    const approved = chains.filter((c) => c in rpcByChain);
    const namespaces: Record<string, unknown> = {};
    if (approved.length) {
      namespaces.eip155 = { chains: approved, accounts: approved.map((c) => `${c}:${ACCOUNT}`), methods: offered.methods ?? [], events: offered.events ?? [] };
    }
    const solana = { ...params.requiredNamespaces?.solana, ...params.optionalNamespaces?.solana };
    if (options.solanaAccount && solana.chains?.length) {
      const chains: string[] = solana.chains;
      namespaces.solana = { chains, accounts: chains.map((c) => `${c}:${options.solanaAccount}`), methods: solana.methods ?? [], events: solana.events ?? [] };
    }
    const { topic, acknowledged } = await client.approve({ id, namespaces: namespaces as any });
    await acknowledged();
    wallet.sessions.push(topic);
  });

  client.on('session_request', async ({ topic, id, params }: any) => {
    const { chainId, request } = params;
    wallet.requests.push({ topic, method: request.method, chainId, params: request.params });
    let response: any;
    try {
      const result = request.method === 'wallet_switchEthereumChain' ? null : await rpc(rpcByChain[chainId], request.method, request.params);
      response = { id, jsonrpc: '2.0', result };
    } catch (e: any) {
      response = { id, jsonrpc: '2.0', error: { code: e.code ?? 5000, message: e.message } };
    }
    await client.respond({ topic, response });
  });

  client.on('session_delete', ({ topic }: any) => wallet.deleted.push(topic));
  return wallet;
}

/** Waits until the wallet holds a settled session and returns its topic. */
export function settledTopic(wallet: TestWallet): Promise<string> {
  return waitFor(() => wallet.sessions[0], 'the wallet to settle the session', 20_000);
}
