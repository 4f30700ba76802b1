/**
 * A Safe app's own Safe (spec §6), in its own chunk: loaded only when the page runs inside an
 * iframe. When the parent's origin is an allowed ancestor (the core's `eip155::safe` rules: local
 * development, the preview hosts, Safe{Wallet}) and the parent answers the Safe Apps protocol's
 * `getSafeInfo`, the Safe is announced as a wallet of the `eip155` family (the engine lists it
 * first: `SAFE_ID`) whose provider speaks that protocol over `postMessage`.
 *
 * The parent is hostile like any wallet: only messages from `window.parent`, from the origin
 * checked, answering an id we sent, are read; every request ends in one answer (a timeout
 * otherwise); signing goes to the Safe's own approval (`signMessage`, `sendTransactions`), reads
 * to its `rpcCall`, anything else is refused.
 */
import type { Eip1193Provider } from '../provider';
import type { WalletFamily } from './index';
import { PROMPT_MS, RequestError, SILENT_MS, readField, str, within } from './injected';
import { loadRules } from './rules';

/** The Safe's wallet id (its rdns): the engine's `SAFE_ID`. */
export const SAFE_RDNS = 'global.safe';
/** The Safe Apps SDK version whose protocol this speaks (the Safe checks it). */
const SDK_VERSION = '9.1.0';
/** How long the parent has to say it is a Safe. */
const INFO_MS = 3000;

/** The node methods the Safe answers through `rpcCall` (no signing, no state change). */
const READS = new Set([
  'eth_call',
  'eth_gasPrice',
  'eth_getLogs',
  'eth_getBalance',
  'eth_getCode',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getTransactionCount',
  'eth_estimateGas',
  'eth_blockNumber',
  'eth_feeHistory',
  'eth_maxPriorityFeePerGas',
  'eth_getBlockReceipts',
]);

const ICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#121312"/><path d="M19 24a5 5 0 0 1 5-5h20v8H27v4h17v14a5 5 0 0 1-5 5H19v-8h17v-4H19z" fill="#12ff80"/></svg>',
  );

/** The parent window's origin (the Safe's), as the browser reports it; '' when unknown. */
function parentOrigin(): string {
  const ancestors = readField(location, 'ancestorOrigins') as DOMStringList | undefined;
  if (ancestors && ancestors.length > 0) return ancestors[0] ?? '';
  try {
    return document.referrer ? new URL(document.referrer).origin : '';
  } catch {
    return '';
  }
}

/** The Safe Apps protocol to the parent: one request, one answer (or a timeout). */
class SafeChannel {
  #pending = new Map<string, { resolve: (data: unknown) => void; reject: (e: Error) => void }>();
  #stopped = false;

  constructor(readonly origin: string) {
    window.addEventListener('message', this.#onMessage);
  }

  stop(): void {
    this.#stopped = true;
    window.removeEventListener('message', this.#onMessage);
    for (const p of this.#pending.values()) p.reject(new RequestError(4900, 'The Safe is no longer reachable'));
    this.#pending.clear();
  }

  #onMessage = (event: MessageEvent): void => {
    if (event.source !== window.parent || event.origin !== this.origin) return;
    const data: unknown = event.data;
    const id = readField(data, 'id');
    const pending = typeof id === 'string' ? this.#pending.get(id) : undefined;
    if (!pending || typeof id !== 'string') return;
    this.#pending.delete(id);
    if (readField(data, 'success') === true) pending.resolve(readField(data, 'data'));
    else pending.reject(new RequestError(4001, str(readField(data, 'error'), 300) || 'The Safe refused the request'));
  };

  send(method: string, params: unknown, ms: number): Promise<unknown> {
    if (this.#stopped) return Promise.reject(new RequestError(4900, 'The Safe is no longer reachable'));
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const answer = new Promise<unknown>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    window.parent.postMessage({ id, method, params, env: { sdkVersion: SDK_VERSION } }, this.origin);
    return within<unknown>(answer, ms, `the Safe's ${method}`).finally(() => this.#pending.delete(id));
  }
}

/** The Safe as an EIP-1193 provider. */
export class SafeProvider implements Eip1193Provider {
  constructor(
    private readonly channel: SafeChannel,
    readonly address: string,
    readonly chainId: string,
  ) {}

  async request(args: { method: string; params?: unknown }): Promise<unknown> {
    const method = str(readField(args, 'method'), 100);
    const raw = readField(args, 'params');
    const params: unknown[] = Array.isArray(raw) ? raw : [];
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [this.address];
      case 'eth_chainId':
        return this.chainId;
      case 'net_version':
        return String(Number.parseInt(this.chainId, 16));
      case 'wallet_switchEthereumChain':
        if (str(readField(params[0], 'chainId'), 20).toLowerCase() === this.chainId) return null;
        throw new RequestError(4200, 'A Safe app stays on its Safe’s network: switch it in the Safe');
      case 'wallet_revokePermissions':
        return null;
      case 'personal_sign':
        return this.#signature(await this.channel.send('signMessage', { message: str(params[0], 100_000) }, PROMPT_MS));
      case 'eth_signTypedData_v4': {
        let typed: unknown = params[1];
        try {
          if (typeof typed === 'string') typed = JSON.parse(str(typed, 200_000));
        } catch {
          throw new RequestError(-32602, 'The typed data is not JSON');
        }
        return this.#signature(await this.channel.send('signTypedMessage', { typedData: typed }, PROMPT_MS));
      }
      case 'eth_sendTransaction':
        return this.#send(params[0]);
      default:
        if (READS.has(method)) return this.channel.send('rpcCall', { call: method, params }, SILENT_MS);
        throw new RequestError(4200, `The Safe does not support ${method || 'this request'}`);
    }
  }

  /** A signature the Safe gave at once, else `0x` (the Safe's owners sign it later, as Safe apps expect). */
  #signature(data: unknown): string {
    const sig = str(readField(data, 'signature'), 100_000);
    return /^0x[0-9a-fA-F]*$/.test(sig) ? sig : '0x';
  }

  /**
   * A transaction proposed to the Safe (`sendTransactions`); the hash of the transaction that
   * executed it when the Safe executed it at once (one owner), else the Safe's own hash.
   */
  async #send(tx: unknown): Promise<string> {
    // A field left out takes its default; one given must be hex (never dropped: the Safe must
    // propose exactly what was asked). `input` is `data`'s other name.
    const field = (key: string, fallback: string, max: number): string => {
      const v = readField(tx, key);
      if (v === undefined || v === null) return fallback;
      if (typeof v !== 'string' || v.length > max) throw new RequestError(-32602, `The transaction’s ${key} is not a hex string`);
      return v;
    };
    const to = field('to', '', 42);
    const value = field('value', '0x0', 66);
    const data = field(readField(tx, 'data') != null ? 'data' : 'input', '0x', 1_000_000);
    if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw new RequestError(-32602, 'The Safe sends only to an address');
    if (!/^0x[0-9a-fA-F]{1,64}$/.test(value) || !/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new RequestError(-32602, 'The transaction’s value or data is not hex');
    const proposed = await this.channel.send('sendTransactions', { txs: [{ to, value: BigInt(value).toString(), data }] }, PROMPT_MS);
    const safeTxHash = str(readField(proposed, 'safeTxHash'), 66);
    if (!/^0x[0-9a-fA-F]{64}$/.test(safeTxHash)) throw new RequestError(-32603, 'The Safe answered no transaction hash');
    const executed = await this.channel.send('getTxBySafeTxHash', { safeTxHash }, SILENT_MS).catch(() => null);
    const txHash = str(readField(executed, 'txHash'), 66);
    return /^0x[0-9a-fA-F]{64}$/.test(txHash) ? txHash : safeTxHash;
  }
}

/**
 * Looks for the Safe once: nothing outside an iframe, nothing under a parent that is not an
 * allowed ancestor, nothing when the parent does not answer `getSafeInfo` in time.
 */
function discoverSafe(onWallet: (info: { uuid: string; name: string; icon: string; rdns: string }, provider: Eip1193Provider) => void): () => void {
  let stopped = false;
  let channel: SafeChannel | null = null;
  const origin = parentOrigin();
  if (window.parent !== window && origin) {
    void (async () => {
      const rules = await loadRules();
      if (stopped || !rules.safeAncestorAllowed(origin)) return;
      channel = new SafeChannel(origin);
      const info = await channel.send('getSafeInfo', undefined, INFO_MS);
      const [address, chainId] = rules.safeAccount(JSON.stringify(info ?? null));
      if (stopped || !address || !chainId) return;
      onWallet({ uuid: 'safe-app', name: 'Safe', icon: ICON, rdns: SAFE_RDNS }, new SafeProvider(channel, address, chainId));
    })().catch(() => {
      // Not a Safe (no answer, or not one we can use): no wallet to list.
      channel?.stop();
    });
  }
  return () => {
    stopped = true;
    channel?.stop();
  };
}

/** The Safe as a family's discovery (`eip155`), added by the element inside an iframe only. */
export const safe: WalletFamily = { namespace: 'eip155', discoverWallets: discoverSafe };
