/**
 * A wallet-standard wallet's request interface (loaded on the first request to one: the initial
 * load has only the discovery, `solana.ts`). `standard:connect`, `standard:disconnect`,
 * `solana_signAndSendTransaction` and `solana_signMessage` (WalletConnect's Solana methods, which
 * the core speaks to every Solana wallet) go to the wallet's features (a transaction travels as
 * base64, a message and its signature as base58, as WalletConnect has them); `wallet-modal:chain` and `wallet-modal:switchChain` keep the chain the modal uses
 * (the standard has no current chain). Every field is read once; nothing a wallet throws reaches
 * the host page.
 */
import type { Eip1193Provider, readField as ReadField } from '../provider';
import type { method as Method, solanaChains as SolanaChains, str as Str } from './solana';

/**
 * What the discovery (`solana.ts`, in the initial load) lends this chunk. Imported instead, they
 * would split into a chunk of their own that the initial load fetches too.
 */
export interface Helpers {
  readField: typeof ReadField;
  method: typeof Method;
  solanaChains: typeof SolanaChains;
  str: typeof Str;
}
let readField: Helpers['readField'];
let method: Helpers['method'];
let solanaChains: Helpers['solanaChains'];
let str: Helpers['str'];

const MAX_ACCOUNTS = 32;
/** The largest transaction Solana carries (bytes), and the longest message signed. */
const MAX_TRANSACTION = 1232;
/** The longest message signed, as base58 text (as the secure frame bounds it). */
const MAX_MESSAGE_BASE58 = 8192;

class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(s: unknown, max: number): Uint8Array {
  if (typeof s !== 'string' || s.length > Math.ceil(max / 3) * 4) throw new RequestError(-32602, 'Invalid params: not base64 of a transaction');
  const bin = atob(s);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 text (messages and signatures travel so, as in WalletConnect's Solana methods). */
function toBase58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  for (; n > 0n; n /= 58n) out = B58[Number(n % 58n)] + out;
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

/** Base58 text of at most `max` characters (decoding is quadratic: bounded first). */
function fromBase58(s: unknown, max: number): Uint8Array {
  if (typeof s !== 'string' || s.length > max) throw new RequestError(-32602, `Expected base58 text of at most ${max} characters`);
  let n = 0n;
  for (const c of s) {
    const d = B58.indexOf(c);
    if (d < 0) throw new RequestError(-32602, 'Expected base58 text');
    n = n * 58n + BigInt(d);
  }
  const out: number[] = [];
  for (; n > 0n; n /= 256n) out.unshift(Number(n % 256n));
  for (const c of s) {
    if (c !== '1') break;
    out.unshift(0);
  }
  return new Uint8Array(out);
}

/**
 * The fields of a Sign In With Solana text (CAIP-122 lines) as `solana:signIn`'s input, or null
 * when the text is not one.
 */
function signInInput(text: string): Record<string, unknown> | null {
  const lines = text.split('\n');
  const domain = lines[0]?.match(/^(\S+) wants you to sign in with your Solana account:$/)?.[1];
  if (!domain || !lines[1] || lines[2] !== '') return null;
  const input: Record<string, unknown> = { domain, address: lines[1] };
  let i = 3;
  if (lines[i] && !lines[i]!.startsWith('URI: ')) {
    input.statement = lines[i];
    i += 2;
  } else if (lines[i] === '') i += 1;
  const names: Record<string, string> = { URI: 'uri', Version: 'version', 'Chain ID': 'chainId', Nonce: 'nonce', 'Issued At': 'issuedAt', 'Expiration Time': 'expirationTime', 'Not Before': 'notBefore', 'Request ID': 'requestId' };
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === 'Resources:') {
      input.resources = lines.slice(i + 1).map((l) => l.replace(/^- /, ''));
      break;
    }
    const at = line.indexOf(': ');
    const key = names[line.slice(0, at)];
    if (at < 0 || !key) return null;
    input[key] = key === 'chainId' ? `solana:${line.slice(at + 2)}` : line.slice(at + 2);
  }
  return input;
}

function bytes(v: unknown, max: number): Uint8Array | null {
  return v instanceof Uint8Array && v.length <= max ? v : null;
}

/** The request interface the engine speaks to a wallet-standard wallet. */
export class StandardProvider implements Eip1193Provider {
  readonly #wallet: object;
  #chain: string | null = null;
  #listeners = new Map<string, Set<(data: unknown) => void>>();
  #off: (() => void) | null = null;

  constructor(wallet: object, helpers: Helpers) {
    ({ readField, method, solanaChains, str } = helpers);
    this.#wallet = wallet;
  }

  /** Its Solana accounts, as the wallet lists them now (at most 32). */
  #accounts(): object[] {
    const list = readField(this.#wallet, 'accounts');
    if (!Array.isArray(list)) return [];
    return list.slice(0, MAX_ACCOUNTS).filter((a): a is object => typeof a === 'object' && a !== null && solanaChains(a).length > 0);
  }

  #account(): object {
    const a = this.#accounts()[0];
    if (!a) throw new RequestError(4100, 'The wallet has no Solana account connected');
    return a;
  }

  /** The chain the modal uses: the one it selected, else the account's (or wallet's) first. */
  #currentChain(): string {
    const a = this.#accounts()[0];
    const supported = [...solanaChains(a), ...solanaChains(this.#wallet)];
    if (this.#chain && supported.includes(this.#chain)) return this.#chain;
    return supported[0] ?? '';
  }

  async request(args: { method: string; params?: unknown }): Promise<unknown> {
    const name = readField(args, 'method');
    const params = readField(args, 'params');
    const first = Array.isArray(params) ? params[0] : undefined;
    switch (name) {
      case 'standard:connect': {
        const connect = method(this.#wallet, 'standard:connect', 'connect');
        if (!connect) throw new RequestError(4200, 'The wallet cannot connect (no standard:connect)');
        await connect({ silent: readField(first, 'silent') === true });
        return this.#accounts().map((a) => str(readField(a, 'address'), 64));
      }
      case 'wallet-modal:chain':
        return this.#currentChain();
      case 'wallet-modal:switchChain': {
        const wanted = [str(readField(first, 'chain'), 64), str(readField(first, 'caipNetworkId'), 64)];
        const supported = [...solanaChains(this.#accounts()[0]), ...solanaChains(this.#wallet)];
        const chain = wanted.find((c) => c && supported.includes(c));
        if (!chain) throw new RequestError(4902, 'The wallet does not support this network');
        this.#chain = chain;
        this.#emit('chainChanged', chain);
        return null;
      }
      case 'standard:disconnect': {
        const disconnect = method(this.#wallet, 'standard:disconnect', 'disconnect');
        if (disconnect) await disconnect();
        return null;
      }
      case 'solana_signAndSendTransaction': {
        const send = method(this.#wallet, 'solana:signAndSendTransaction', 'signAndSendTransaction');
        const transaction = fromBase64(readField(first, 'transaction'), MAX_TRANSACTION);
        if (!send) {
          // A wallet that only signs: the signed transaction goes back, and the core sends it
          // through the network's node.
          const signOnly = method(this.#wallet, 'solana:signTransaction', 'signTransaction');
          if (!signOnly) throw new RequestError(4200, 'The wallet can neither send nor sign transactions');
          const out = await signOnly({ account: this.#account(), chain: this.#currentChain(), transaction });
          const signed = bytes(readField(Array.isArray(out) ? out[0] : undefined, 'signedTransaction'), MAX_TRANSACTION);
          if (!signed) throw new RequestError(-32603, 'The wallet did not answer a signed transaction');
          return { transaction: toBase64(signed) };
        }
        const out = await send({ account: this.#account(), chain: this.#currentChain(), transaction });
        const signature = bytes(readField(Array.isArray(out) ? out[0] : undefined, 'signature'), 64);
        if (!signature) throw new RequestError(-32603, 'The wallet did not answer a signature');
        return { signature: toBase64(signature) };
      }
      case 'solana_signMessage': {
        const sign = method(this.#wallet, 'solana:signMessage', 'signMessage');
        if (!sign) throw new RequestError(4200, 'The wallet cannot sign messages (no solana:signMessage)');
        const message = fromBase58(readField(first, 'message'), MAX_MESSAGE_BASE58);
        // A sign-in message, to a wallet that signs in itself (`solana:signIn`): it gets the fields
        // and writes the text (answered as `signedMessage`, which the core checks again).
        const signIn = method(this.#wallet, 'solana:signIn', 'signIn');
        const input = signIn ? signInInput(new TextDecoder().decode(message)) : null;
        if (signIn && input) {
          const out = await signIn(input);
          const result = Array.isArray(out) ? out[0] : undefined;
          const signature = bytes(readField(result, 'signature'), 64);
          const signed = bytes(readField(result, 'signedMessage'), MAX_MESSAGE_BASE58);
          if (!signature || !signed) throw new RequestError(-32603, 'The wallet did not answer a signed sign-in message');
          return { signature: toBase58(signature), signedMessage: toBase58(signed) };
        }
        const out = await sign({ account: this.#account(), message });
        const signature = bytes(readField(Array.isArray(out) ? out[0] : undefined, 'signature'), 64);
        if (!signature) throw new RequestError(-32603, 'The wallet did not answer a signature');
        return { signature: toBase58(signature) };
      }
      default:
        throw new RequestError(4200, `The wallet does not support ${str(name, 64)}`);
    }
  }

  on(event: string, listener: (data: unknown) => void): void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    this.#subscribe();
  }

  removeListener(event: string, listener: (data: unknown) => void): void {
    this.#listeners.get(event)?.delete(listener);
    if ([...this.#listeners.values()].every((s) => s.size === 0)) {
      this.#off?.();
      this.#off = null;
    }
  }

  #emit(event: string, data: unknown): void {
    for (const fn of this.#listeners.get(event) ?? []) fn(data);
  }

  /** The wallet's `change` event: its accounts (or chains) changed. */
  #subscribe(): void {
    if (this.#off) return;
    const on = method(this.#wallet, 'standard:events', 'on');
    if (!on) return;
    try {
      const off = on('change', (properties: unknown) => {
        if (readField(properties, 'accounts') === undefined) return;
        const list = this.#accounts().map((a) => str(readField(a, 'address'), 64));
        this.#emit(list.length ? 'accountsChanged' : 'disconnect', list);
      });
      this.#off = typeof off === 'function' ? () => void (off as () => void)() : () => {};
    } catch {
      // A wallet whose events throw still answers requests.
    }
  }
}

