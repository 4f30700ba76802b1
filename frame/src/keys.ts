// Key custody (docs/embedded-wallet.md §3). The root secret R (32 random bytes) is drawn here, sealed
// with AES-256-GCM under the account's key-encryption key (kek) with the user id as associated
// data, and only `iv ‖ ciphertext` leaves the frame. From R:
//   EVM private key   = keccak256(utf8("wallet-modal/evm") ‖ R)       (secp256k1)
//   Solana key's seed = sha256(utf8("wallet-modal/solana") ‖ R)       (ed25519)
// R is wiped once the keys are derived; the keys live in memory only.

import { keccak256 } from 'viem/utils';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { FrameError } from './messages.ts';

export const ROOT_BYTES = 32;
const IV_BYTES = 12;
const EVM_LABEL = 'wallet-modal/evm';
const SOLANA_LABEL = 'wallet-modal/solana';

/** Bytes over a plain ArrayBuffer (what WebCrypto takes). */
export type Bytes = Uint8Array<ArrayBuffer>;

export interface Keys {
  /** The secp256k1 account: signs, never exposes its key through this interface's users. */
  evm: PrivateKeyAccount;
  /** The EIP-55 address. */
  address: `0x${string}`;
  /** The ed25519 seed of the Solana key. */
  solanaSeed: Bytes;
  /** Its base58 address, when this browser's WebCrypto has Ed25519; else null. */
  solanaAddress: string | null;
}

const utf8 = (s: string): Bytes => new TextEncoder().encode(s) as Bytes;

function concat(a: Bytes, b: Bytes): Bytes {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function toBase64(bytes: Bytes): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function fromBase64(text: string): Bytes {
  let bin: string;
  try {
    bin = atob(text);
  } catch {
    throw new FrameError('Invalid key data');
  }
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** A fresh root secret from the browser's CSPRNG. */
export function newRootSecret(): Bytes {
  return crypto.getRandomValues(new Uint8Array(ROOT_BYTES));
}

async function aesKey(kekBase64: string, use: KeyUsage): Promise<CryptoKey> {
  const raw = fromBase64(kekBase64);
  if (raw.length !== 32) throw new FrameError('Invalid key data');
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, [use]);
}

/** base64(iv ‖ AES-256-GCM(kek, R, additionalData = utf8(userId))). */
export async function sealRoot(root: Bytes, kekBase64: string, userId: string): Promise<string> {
  const key = await aesKey(kekBase64, 'encrypt');
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ct = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(userId) }, key, root),
  );
  return toBase64(concat(iv, ct));
}

/** R back from `sealRoot`'s output; throws 'Unable to decrypt the wallet key' when it does not open. */
export async function openRoot(sealedBase64: string, kekBase64: string, userId: string): Promise<Bytes> {
  const key = await aesKey(kekBase64, 'decrypt');
  const data = fromBase64(sealedBase64);
  if (data.length !== IV_BYTES + ROOT_BYTES + 16) throw new FrameError('Unable to decrypt the wallet key');
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: data.subarray(0, IV_BYTES), additionalData: utf8(userId) },
      key,
      data.subarray(IV_BYTES),
    );
  } catch {
    throw new FrameError('Unable to decrypt the wallet key');
  }
  return new Uint8Array(plain);
}

/** The EVM private key of R: keccak256(utf8('wallet-modal/evm') ‖ R). */
export function evmPrivateKey(root: Bytes): `0x${string}` {
  return keccak256(concat(utf8(EVM_LABEL), root));
}

/** The Solana seed of R: sha256(utf8('wallet-modal/solana') ‖ R). */
export async function solanaSeed(root: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concat(utf8(SOLANA_LABEL), root)));
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58(bytes: Bytes): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = '';
  while (n > 0n) {
    s = B58[Number(n % 58n)] + s;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    s = '1' + s;
  }
  return s;
}

// PKCS#8 wrapping of a 32-byte Ed25519 seed (RFC 8410).
const ED25519_PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

/** The base58 Solana address of `seed` through WebCrypto's Ed25519, or null where it has none. */
export async function solanaAddress(seed: Bytes): Promise<string | null> {
  try {
    const key = await crypto.subtle.importKey('pkcs8', concat(ED25519_PKCS8_PREFIX, seed), { name: 'Ed25519' }, true, ['sign']);
    const jwk = await crypto.subtle.exportKey('jwk', key);
    if (!jwk.x) return null;
    const pub = fromBase64(jwk.x.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (jwk.x.length % 4)) % 4));
    return pub.length === 32 ? base58(pub) : null;
  } catch {
    return null;
  }
}

/** Every key of R. R itself is wiped (zeroed) afterwards: only the derived keys stay in memory. */
export async function deriveKeys(root: Bytes): Promise<Keys> {
  if (root.length !== ROOT_BYTES) throw new FrameError('Invalid key data');
  try {
    const evm = privateKeyToAccount(evmPrivateKey(root));
    const seed = await solanaSeed(root);
    return { evm, address: evm.address, solanaSeed: seed, solanaAddress: await solanaAddress(seed) };
  } finally {
    root.fill(0);
  }
}
