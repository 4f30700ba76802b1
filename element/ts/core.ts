/**
 * `wallet-modal/core`: the product's utilities (EIP-55 addresses, units, Keccak-256, EIP-191
 * signatures, Solana, Bitcoin, Polkadot and Cosmos signatures and addresses, CAIP identifiers, EIP-4361 sign-in messages, names, display
 * formatting), implemented in Rust and compiled to WebAssembly.
 *
 * Call `await init()` once before anything else. In a browser it fetches the `.wasm` file that sits
 * next to this module; in Node ≥ 20 it reads that file from disk. Pass your own source (URL,
 * Response, bytes or a compiled module) when your host serves the `.wasm` from somewhere else.
 */
import initWasm, * as wasm from '../pkg/utils/wallet_modal_utils.js';
import type { InitInput as WasmInitInput } from '../pkg/utils/wallet_modal_utils.js';

/** Whatever `init` can load the module from. */
export type InitInput =
  | string
  | URL
  | Request
  | Response
  | Promise<Response>
  | BufferSource
  | WebAssembly.Module;

/** A CAIP chain namespace the product knows. */
export type ChainNamespace = 'eip155' | 'solana' | 'bip122' | 'polkadot' | 'cosmos';

/** A parsed CAIP-2 network id. */
export interface CaipNetworkId {
  chainNamespace: ChainNamespace;
  chainId: string;
}

/** A parsed CAIP-10 account address. */
export interface CaipAddress {
  chainNamespace: ChainNamespace;
  chainId: string;
  /** Exactly as written in the input. */
  address: string;
}

/** The fields of an EIP-4361 sign-in message. */
export interface SiwxMessageFields {
  /** RFC 3986 authority asking for the sign-in, e.g. `example.com` or `localhost:3000`. */
  domain: string;
  /** EIP-55 checksummed address. */
  accountAddress: string;
  /** EIP-155 chain id, an integer from 0 to 2^53 − 1. */
  chainId: number;
  /** Absolute RFC 3986 URI of the resource the sign-in is for. */
  uri: string;
  /** Always `'1'`. */
  version: string;
  /** At least 8 ASCII letters or digits. */
  nonce: string;
  /** One line of printable ASCII (no `"`, `%`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`). */
  statement?: string;
  /** Absolute URIs; an empty list still writes the `Resources:` line. */
  resources?: string[];
  /** RFC 3339 date-time. */
  issuedAt: string;
  /** RFC 3339 date-time; omitted when absent or empty. */
  expirationTime?: string;
  /** RFC 3339 date-time; omitted when absent or empty. */
  notBefore?: string;
  /** URI path characters; omitted when absent or empty. */
  requestId?: string;
}

let ready = false;
let loading: Promise<void> | undefined;

function nodeVersion(): string | undefined {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return proc?.versions?.node;
}

async function defaultSource(): Promise<InitInput> {
  // A literal URL: the build writes the hashed file beside this module, and bundlers follow it.
  const url = new URL('./wallet_modal_utils_bg.wasm', import.meta.url);
  if (nodeVersion()) {
    // Node's fetch cannot read file: URLs. The specifier is marked external when bundling.
    const fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ 'node:fs/promises' as string)) as {
      readFile(path: URL): Promise<Uint8Array>;
    };
    return fs.readFile(url);
  }
  return url;
}

/**
 * Loads the WebAssembly module. Resolves once; later calls return at once. With no argument the
 * bundled `.wasm` is loaded from next to this module.
 */
export async function init(input?: InitInput): Promise<void> {
  if (ready) return;
  if (!loading) {
    loading = (async () => {
      const source = input ?? (await defaultSource());
      await initWasm({ module_or_path: source as WasmInitInput | Promise<WasmInitInput> });
      ready = true;
    })();
    // A failed load can be retried.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

function use(name: string): void {
  if (!ready) throw new Error(`wallet-modal/core: call await init() before using ${name}()`);
}

function str(fn: string, arg: string, value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`${fn}: Invalid ${arg}: expected a string, got ${typeof value}`);
  return value;
}

function bytes(fn: string, arg: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${fn}: Invalid ${arg}: expected a Uint8Array`);
  return value;
}

function num(fn: string, arg: string, value: unknown): number {
  if (typeof value !== 'number') throw new TypeError(`${fn}: Invalid ${arg}: expected a number, got ${typeof value}`);
  return value;
}

/** EIP-55 checksum of a 40-hex-digit address (`0x` optional in, always present out). Throws on anything else. */
export function checksumAddress(addr: string): string {
  use('checksumAddress');
  return wasm.checksumAddress(str('checksumAddress', 'address', addr));
}

/**
 * Whether `addr` is 40 hex digits, `0x` optional. With `strict` (the wallet layer) `0x` is required
 * and a mixed-case address must carry a valid EIP-55 checksum; all-lower and all-upper pass.
 */
export function isEvmAddress(addr: string, strict = false): boolean {
  use('isEvmAddress');
  return typeof addr === 'string' && wasm.isEvmAddress(addr, !!strict);
}

/** Whether `addr` is 32–44 base58 characters decoding to exactly 32 bytes. */
export function isSolanaAddress(addr: string): boolean {
  use('isSolanaAddress');
  return typeof addr === 'string' && wasm.isSolanaAddress(addr);
}

/**
 * `value` × 10^`decimals` as a bigint. Grammar: optional `-`, digits, optionally `.` and digits —
 * nothing else (throws an Error whose message contains `Invalid`). Digits past `decimals` round the
 * magnitude half away from zero.
 */
export function parseUnits(value: string, decimals: number): bigint {
  use('parseUnits');
  return BigInt(wasm.parseUnits(str('parseUnits', 'value', value), num('parseUnits', 'decimals', decimals)));
}

/** `value` / 10^`decimals` as a decimal string without trailing zeros (like viem's `formatUnits`). */
export function formatUnits(value: bigint, decimals: number): string {
  use('formatUnits');
  if (typeof value !== 'bigint') throw new TypeError(`formatUnits: Invalid value: expected a bigint, got ${typeof value}`);
  return wasm.formatUnits(value.toString(), num('formatUnits', 'decimals', decimals));
}

/** Keccak-256 (not SHA3-256) of `data` as `0x`-prefixed lowercase hex. */
export function keccak256(data: Uint8Array): string {
  use('keccak256');
  return wasm.keccak256(bytes('keccak256', 'data', data));
}

/** EIP-191 `personal_sign` hash of the UTF-8 bytes of `message`. */
export function hashMessage(message: string): string {
  use('hashMessage');
  return wasm.hashMessage(str('hashMessage', 'message', message));
}

/**
 * The checksummed signer of a `personal_sign` signature (`0x` + 65 bytes r‖s‖v, v 27/28 or 0/1).
 * Throws on a malformed signature.
 */
export function recoverMessageAddress(message: string, signature: string): string {
  use('recoverMessageAddress');
  return wasm.recoverMessageAddress(
    str('recoverMessageAddress', 'message', message),
    str('recoverMessageAddress', 'signature', signature),
  );
}

/**
 * Whether `signature` is `address`'s `personal_sign` signature of `message` (address compared
 * case-insensitively). Anything wrong or malformed gives `false`.
 */
export function verifyMessage(address: string, message: string, signature: string): boolean {
  use('verifyMessage');
  if (typeof address !== 'string' || typeof message !== 'string' || typeof signature !== 'string') return false;
  return wasm.verifyMessage(address, message, signature);
}

/** Whether `signature` (64 bytes) is the ed25519 signature of `message` by the base58 `publicKey`. */
export function verifySolanaMessage(publicKey: string, message: Uint8Array, signature: Uint8Array): boolean {
  use('verifySolanaMessage');
  if (typeof publicKey !== 'string' || !(message instanceof Uint8Array) || !(signature instanceof Uint8Array)) return false;
  return wasm.verifySolanaMessage(publicKey, message, signature);
}

/**
 * Whether `addr` is a Bitcoin address (P2PKH, P2SH, segwit v0 or taproot, checksum checked); with
 * `caipNetworkId`, one of that network's (a `tb1…` address is not mainnet's).
 */
export function isBitcoinAddress(addr: string, caipNetworkId?: string): boolean {
  use('isBitcoinAddress');
  return typeof addr === 'string' && wasm.isBitcoinAddress(addr, typeof caipNetworkId === 'string' ? caipNetworkId : '');
}

/** Whether `addr` is an SS58 account address (any network's prefix; checksum checked). */
export function isPolkadotAddress(addr: string): boolean {
  use('isPolkadotAddress');
  return typeof addr === 'string' && wasm.isPolkadotAddress(addr);
}

/** Whether `addr` is a Cosmos Bech32 address (20 or 32 bytes); with `prefix`, that chain's (`osmo`). */
export function isCosmosAddress(addr: string, prefix?: string): boolean {
  use('isCosmosAddress');
  return typeof addr === 'string' && wasm.isCosmosAddress(addr, typeof prefix === 'string' ? prefix : '');
}

const utf8 = (m: string | Uint8Array): Uint8Array | null =>
  typeof m === 'string' ? new TextEncoder().encode(m) : m instanceof Uint8Array ? m : null;

/**
 * Whether `signature` (base64) is `address`'s Bitcoin message signature of `message`: BIP-322
 * simple (P2WPKH, P2SH-P2WPKH, taproot key path) or the legacy BIP-137 form (P2PKH; segwit
 * addresses Electrum-style). `onError` hears why not.
 */
export function verifyBitcoinMessage(address: string, message: string | Uint8Array, signature: string, onError?: (why: string) => void): boolean {
  use('verifyBitcoinMessage');
  const m = utf8(message);
  const why = typeof address !== 'string' || typeof signature !== 'string' || !m ? 'Invalid arguments: expected (address, message, base64 signature)' : wasm.bitcoinMessageError(address, m, signature);
  if (why) onError?.(why);
  return !why;
}

/**
 * Whether `signature` (0x hex, 64 bytes) is `address`'s Polkadot signature of `message` as an
 * extension's `signRaw` makes it (sr25519 or ed25519, over `<Bytes>message</Bytes>`).
 */
export function verifyPolkadotMessage(address: string, message: string | Uint8Array, signature: string, onError?: (why: string) => void): boolean {
  use('verifyPolkadotMessage');
  const m = utf8(message);
  const why = typeof address !== 'string' || typeof signature !== 'string' || !m ? 'Invalid arguments: expected (address, message, hex signature)' : wasm.polkadotMessageError(address, m, signature);
  if (why) onError?.(why);
  return !why;
}

/** An ADR-036 signature as Keplr's `signArbitrary` answers it. */
export interface CosmosSignature {
  pub_key: { type?: string; value: string };
  signature: string;
}

/**
 * Whether `signature` (Keplr's `signArbitrary` answer) is `signer`'s ADR-036 signature of `data`:
 * its key is the signer's and signs the amino document carrying the data.
 */
export function verifyCosmosMessage(signer: string, data: string | Uint8Array, signature: CosmosSignature, onError?: (why: string) => void): boolean {
  use('verifyCosmosMessage');
  const m = utf8(data);
  const key = signature?.pub_key?.value;
  const sig = signature?.signature;
  const why =
    typeof signer !== 'string' || !m || typeof key !== 'string' || typeof sig !== 'string'
      ? 'Invalid arguments: expected (signer, data, {pub_key: {value}, signature})'
      : wasm.cosmosMessageError(signer, m, key, sig);
  if (why) onError?.(why);
  return !why;
}

/** Parses a CAIP-2 id (`eip155:1`): exactly 2 non-empty parts and a known namespace, else throws. */
export function parseCaipNetworkId(id: string): CaipNetworkId {
  use('parseCaipNetworkId');
  return JSON.parse(wasm.parseCaipNetworkId(str('parseCaipNetworkId', 'id', id))) as CaipNetworkId;
}

/** Parses a CAIP-10 address: exactly 3 non-empty parts and a known namespace, else throws. */
export function parseCaipAddress(s: string): CaipAddress {
  use('parseCaipAddress');
  return JSON.parse(wasm.parseCaipAddress(str('parseCaipAddress', 'address', s))) as CaipAddress;
}

/** Whether `s` is `0x` + exactly 64 hex digits. */
export function isTransactionHash(s: string): boolean {
  use('isTransactionHash');
  return typeof s === 'string' && wasm.isTransactionHash(s);
}

/** Whether `s` is `0x` + at least 62 hex digits. */
export function isSignedMessage(s: string): boolean {
  use('isSignedMessage');
  return typeof s === 'string' && wasm.isSignedMessage(s);
}

/**
 * The EIP-4361 text for `fields`, byte for byte what `siwe`'s `prepareMessage()` writes. Throws an
 * Error naming the field when the fields cannot form a well-formed message.
 */
export function createSiwxMessage(fields: SiwxMessageFields): string {
  use('createSiwxMessage');
  if (typeof fields !== 'object' || fields === null) throw new TypeError('createSiwxMessage: Invalid fields: expected an object');
  // Like siwe, a `null` statement writes the empty-statement form.
  const statement = (fields.statement as string | null | undefined) === null ? '' : fields.statement;
  return wasm.createSiwxMessage(JSON.stringify({ ...fields, statement }));
}

/** Reads an EIP-4361 message back into its fields; throws an Error naming the bad line otherwise. */
export function parseSiwxMessage(text: string): SiwxMessageFields {
  use('parseSiwxMessage');
  return JSON.parse(wasm.parseSiwxMessage(str('parseSiwxMessage', 'text', text))) as SiwxMessageFields;
}

/** What a sign-in's check concludes (see [`verifySiwxSession`]). */
export type SiwxSessionCheck =
  | { valid: true; expiresAt: number | null }
  | { valid: false; error: string }
  /** An EVM contract account: ask its chain (`chainCall` as a JSON-RPC request), then `sessionChainSaysValid`. */
  | { valid: null; expiresAt: number | null; chainCall: { method: string; params: unknown[] } };

/**
 * A dapp backend's check of a sign-in from `<wallet-modal>`'s `signin` event (or the host verifier's
 * `verify`): the message is a CAIP-122 message of `domain` (EIP-4361 on EVM, SIWS on Solana) for
 * `caipAddress`'s account and network, with `nonce` when given (the one this server issued),
 * neither expired nor early at `now` (ms, default the clock), and the signature is the
 * account's. Never throws: a refusal says why.
 */
export function verifySiwxSession(input: { domain: string; message: string; signature: string; caipAddress: string; nonce?: string; now?: number }): SiwxSessionCheck {
  use('verifySiwxSession');
  if (typeof input !== 'object' || input === null) return { valid: false, error: 'expected an object' };
  return JSON.parse(wasm.verifySiwxSession(JSON.stringify(input))) as SiwxSessionCheck;
}

/** Whether an EVM contract account's chain answered (`result` of the `chainCall`) that the signature is its own (ERC-1271). */
export function sessionChainSaysValid(caipAddress: string, result: unknown): boolean {
  use('sessionChainSaysValid');
  return wasm.sessionChainSaysValid(str('sessionChainSaysValid', 'caipAddress', caipAddress), JSON.stringify(result ?? null));
}

/** Whether `name` has at least 4 characters, only ASCII letters, digits and `-`. */
export function validateAccountName(name: string): boolean {
  use('validateAccountName');
  return typeof name === 'string' && wasm.validateAccountName(name);
}

/** ENSIP-11 coin type `(0x80000000 | chainId) >>> 0`; throws `Error('Invalid chainId')` unless 0 ≤ chainId < 2^31. */
export function nameCoinType(chainId: number): number {
  use('nameCoinType');
  if (typeof chainId !== 'number') throw new Error('Invalid chainId');
  return wasm.nameCoinType(chainId);
}

/** A decimal string truncated toward zero to exactly 3 decimals; empty or non-numeric gives `'0.000'`. */
export function formatNativeBalance(value: string): string {
  use('formatNativeBalance');
  return typeof value === 'string' ? wasm.formatNativeBalance(value) : '0.000';
}

/** First 4 characters + `...` + last 6 when longer than 10 characters, else unchanged. */
export function truncateAddress(addr: string): string {
  use('truncateAddress');
  return wasm.truncateAddress(str('truncateAddress', 'address', addr));
}
