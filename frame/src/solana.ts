// The embedded wallet on Solana: the root secret's ed25519 key (keys.ts) signs WalletConnect's
// Solana methods — solana_signMessage, solana_signTransaction, solana_signAndSendTransaction —
// each prepared and shown here first, from the very bytes then signed: a transaction's message is
// read instruction by instruction (System transfers, associated token accounts created,
// TransferChecked and Transfer of SPL Token and Token-2022, compute budget), its fee is the
// signatures' plus the rent of the accounts it creates, and an instruction this wallet cannot read
// is shown as such with a warning. Every amount is shown exactly (what is signed, not rounded). Versioned messages with address lookup tables are refused (their
// accounts are not in the message, so they could not be shown).

import { base58, toBase64, type Bytes, type Keys } from './keys.ts';
import { t } from './i18n/i18n.ts';
import { FrameError } from './messages.ts';
import type { RpcCall } from './jsonrpc.ts';
import type { Prepared } from './prepare.ts';
import { amount, messageReview, type Review, type Row } from './review/review.ts';
import type { NetworkShown } from './review/networks.ts';
import { INVALID_PARAMS, UNAUTHORIZED } from './sign.ts';

/** The largest transaction Solana carries (bytes), and the longest message signed (base58
 * characters: base58 decoding is quadratic, so a message is bounded before it is read; 8,192
 * characters are about 6 KB). */
const MAX_TRANSACTION = 1232;
const MAX_MESSAGE_BASE58 = 8192;
/** The fee of one signature (the base fee: this wallet adds no priority fee). */
export const LAMPORTS_PER_SIGNATURE = 5000n;

const SYSTEM = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const ASSOCIATED_TOKEN = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
/** Token accounts' sizes: a Token one, a Token-2022 associated one (with its immutable-owner extension). */
const ACCOUNT_SIZE: Record<string, number> = { [TOKEN]: 165, [TOKEN_2022]: 170 };

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const invalid = (why: string) => new FrameError(why, INVALID_PARAMS);

/** Base58 text as bytes, at most `max` characters; throws INVALID_PARAMS otherwise. */
export function fromBase58(s: unknown, max: number, what: string): Bytes {
  if (typeof s !== 'string' || s.length === 0 || s.length > max) throw invalid(`Invalid ${what}`);
  let n = 0n;
  for (const c of s) {
    const d = B58.indexOf(c);
    if (d < 0) throw invalid(`Invalid ${what}: not base58`);
    n = n * 58n + BigInt(d);
  }
  const out: number[] = [];
  while (n > 0n) {
    out.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const c of s) {
    if (c !== '1') break;
    out.unshift(0);
  }
  return Uint8Array.from(out);
}

function fromBase64(s: unknown, max: number, what: string): Bytes {
  if (typeof s !== 'string' || s.length > Math.ceil(max / 3) * 4) throw invalid(`Invalid ${what}`);
  let bin: string;
  try {
    bin = atob(s);
  } catch {
    throw invalid(`Invalid ${what}: not base64`);
  }
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** A reader of a message's bytes: every read is bounded (a short message throws, never reads past). */
class Reader {
  #i = 0;
  constructor(readonly bytes: Uint8Array) {}
  get at(): number {
    return this.#i;
  }
  byte(): number {
    if (this.#i >= this.bytes.length) throw invalid('Invalid transaction: it ends too early');
    return this.bytes[this.#i++];
  }
  take(n: number): Uint8Array {
    if (this.#i + n > this.bytes.length) throw invalid('Invalid transaction: it ends too early');
    const out = this.bytes.subarray(this.#i, this.#i + n);
    this.#i += n;
    return out;
  }
  /** Solana's compact-u16. */
  length(): number {
    let n = 0;
    for (let shift = 0; shift <= 14; shift += 7) {
      const b = this.byte();
      n |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return n;
    }
    throw invalid('Invalid transaction: a length is too long');
  }
}

interface Instruction {
  program: string;
  accounts: string[];
  data: Uint8Array;
}

/** A transaction's message, read. */
export interface Message {
  signers: number;
  keys: string[];
  instructions: Instruction[];
}

/** The wire transaction split: its signature slots and its message (legacy or v0 without lookups). */
export function readTransaction(tx: Uint8Array): { signatures: number; signaturesAt: number; messageBytes: Uint8Array; message: Message } {
  const r = new Reader(tx);
  const signatures = r.length();
  const signaturesAt = r.at;
  r.take(64 * signatures);
  const messageBytes = tx.subarray(r.at);
  return { signatures, signaturesAt, messageBytes, message: readMessage(messageBytes) };
}

export function readMessage(bytes: Uint8Array): Message {
  const r = new Reader(bytes);
  let first = r.byte();
  const versioned = (first & 0x80) !== 0;
  if (versioned) {
    if ((first & 0x7f) !== 0) throw invalid('Invalid transaction: an unknown message version');
    first = r.byte();
  }
  const signers = first;
  r.byte(); // read-only signed
  r.byte(); // read-only unsigned
  const count = r.length();
  const keys = Array.from({ length: count }, () => base58(r.take(32) as Bytes));
  r.take(32); // the recent blockhash
  const n = r.length();
  const instructions: Instruction[] = [];
  for (let k = 0; k < n; k++) {
    const program = keys[r.byte()];
    const accounts = Array.from({ length: r.length() }, () => keys[r.byte()]);
    const data = r.take(r.length());
    if (program === undefined || accounts.includes(undefined as unknown as string)) throw invalid('Invalid transaction: an account index out of range');
    instructions.push({ program, accounts, data });
  }
  if (versioned && r.length() > 0) throw new FrameError('This transaction uses address lookup tables, whose accounts this wallet cannot show', 4200);
  if (signers === 0 || signers > keys.length) throw invalid('Invalid transaction: its signers');
  return { signers, keys, instructions };
}

const u64 = (d: Uint8Array, at: number) => new DataView(d.buffer, d.byteOffset + at, 8).getBigUint64(0, true);
const u32 = (d: Uint8Array, at: number) => new DataView(d.buffer, d.byteOffset + at, 4).getUint32(0, true);

interface Shown {
  instructions: { name: string; rows: Row[] }[];
  /** What leaves the account beside the fee (lamports). */
  lamports: bigint;
  rent: bigint;
  warnings: string[];
}

/** The owner of a token account, read from the chain (jsonParsed); null when it cannot be. */
async function tokenOwner(call: RpcCall, account: string): Promise<string | null> {
  try {
    const v = (await call('getAccountInfo', [account, { encoding: 'jsonParsed', commitment: 'confirmed' }])) as { value?: { data?: { parsed?: { info?: { owner?: unknown } } } } };
    const owner = v?.value?.data?.parsed?.info?.owner;
    return typeof owner === 'string' && owner.length <= 44 ? owner : null;
  } catch {
    return null;
  }
}

async function rentOf(call: RpcCall, size: number): Promise<bigint | null> {
  try {
    const v = await call('getMinimumBalanceForRentExemption', [size]);
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : null;
  } catch {
    return null;
  }
}

/** Each instruction as the approval shows it, and what the transaction costs the account. */
export async function showMessage(m: Message, own: string, network: NetworkShown, call: RpcCall): Promise<Shown> {
  const sol = (l: bigint) => amount(l, network.decimals, network.symbol);
  const shown: Shown = { instructions: [], lamports: 0n, rent: 0n, warnings: [] };
  // Token accounts this transaction creates, with their owner (the receiver it names); the rent of
  // an account size, asked once.
  const created = new Map<string, string>();
  const rents = new Map<number, Promise<bigint | null>>();
  for (const ix of m.instructions) {
    const d = ix.data;
    if (ix.program === SYSTEM && d.length === 12 && u32(d, 0) === 2) {
      const [from, to] = ix.accounts;
      const lamports = u64(d, 4);
      if (from === own) shown.lamports += lamports;
      shown.instructions.push({ name: t('Send {symbol}', { symbol: network.symbol }), rows: [[t('From'), from], [t('To'), to], [t('Amount'), sol(lamports)]] });
    } else if (ix.program === ASSOCIATED_TOKEN && (d.length === 0 || (d.length === 1 && d[0] <= 1)) && ix.accounts.length >= 6) {
      const [payer, account, owner, mint, , tokenProgram] = ix.accounts;
      created.set(account, owner);
      const size = Object.hasOwn(ACCOUNT_SIZE, tokenProgram) ? ACCOUNT_SIZE[tokenProgram] : undefined;
      if (size !== undefined && !rents.has(size)) rents.set(size, rentOf(call, size));
      const rent = size === undefined ? null : await rents.get(size)!;
      const rows: Row[] = [[t('Owner'), owner], [t('Token (mint)'), mint], [t('Account'), account]];
      if (payer === own && rent !== null) {
        shown.rent += rent;
        rows.push([t('Rent (paid by you)'), sol(rent)]);
      }
      shown.instructions.push({ name: t('Create a token account (if it does not exist)'), rows });
    } else if ((ix.program === TOKEN || ix.program === TOKEN_2022) && d.length === 10 && d[0] === 12 && ix.accounts.length >= 4) {
      const [source, mint, destination, authority] = ix.accounts;
      const units = u64(d, 1);
      const receiver = created.get(destination) ?? (await tokenOwner(call, destination));
      const rows: Row[] = [
        [t('From'), authority === own ? t('your token account {account}', { account: source }) : source],
        [t('To'), receiver ?? t('token account {account}', { account: destination })],
      ];
      if (!receiver) shown.warnings.push(t('The receiving token account could not be read: its owner is not shown.'));
      rows.push([t('Amount'), amount(units, d[9], '').trim()], [t('Token (mint)'), mint]);
      shown.instructions.push({ name: ix.program === TOKEN ? t('Send tokens') : t('Send tokens (Token-2022)'), rows });
    } else if ((ix.program === TOKEN || ix.program === TOKEN_2022) && d.length === 9 && d[0] === 3 && ix.accounts.length >= 3) {
      const [source, destination] = ix.accounts;
      shown.instructions.push({
        name: t('Send tokens (unchecked)'),
        rows: [[t('From'), source], [t('To'), t('token account {account}', { account: destination })], [t('Amount (base units)'), u64(d, 1).toString()]],
      });
      shown.warnings.push(t('A token transfer that does not say its decimals: the amount is in the token’s smallest units.'));
    } else if (ix.program === COMPUTE_BUDGET && d.length >= 5 && (d[0] === 2 || d[0] === 3)) {
      shown.instructions.push(
        d[0] === 2
          ? { name: t('Compute limit'), rows: [[t('Units'), u32(d, 1).toString()]] }
          : { name: t('Priority fee'), rows: [[t('Micro-lamports per unit'), d.length >= 9 ? u64(d, 1).toString() : '?']] },
      );
    } else {
      const preview = Array.from(d.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
      shown.instructions.push({
        name: t('Unknown instruction'),
        rows: [[t('Program'), ix.program], [t('Accounts'), String(ix.accounts.length)], [t('Data'), t('{bytes} bytes: {preview}', { bytes: d.length, preview: `${preview}${d.length > 16 ? '…' : ''}` })]],
      });
      shown.warnings.push(t('An instruction of a program this wallet cannot read ({program}): approve only if you trust the site.', { program: ix.program }));
    }
  }
  return shown;
}

/** The approval of a transaction `m` for `own`. */
async function transactionReview(m: Message, own: string, network: NetworkShown, call: RpcCall): Promise<Review> {
  const s = await showMessage(m, own, network, call);
  const fee = LAMPORTS_PER_SIGNATURE * BigInt(m.signers);
  const sol = (l: bigint) => amount(l, network.decimals, network.symbol);
  const feeRows: Row[] = [[t('Network fee'), sol(fee)]];
  if (m.keys[0] !== own) {
    feeRows[0] = [t('Network fee'), t('{fee}, paid by {payer}', { fee: sol(fee), payer: m.keys[0] })];
    s.warnings.push(t('Another account pays this transaction’s fee.'));
  }
  const paid = (m.keys[0] === own ? fee : 0n) + s.lamports + s.rent;
  return { kind: 'solana', instructions: s.instructions, fee: feeRows, total: t('{amount} (amount, fee and rent)', { amount: sol(paid) }), warnings: s.warnings };
}

/** The ed25519 signature of `bytes` by the Solana key. */
async function sign(keys: Keys, bytes: Uint8Array): Promise<Uint8Array> {
  const prefix = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
  const key = await crypto.subtle.importKey('pkcs8', Uint8Array.from([...prefix, ...keys.solanaSeed]), { name: 'Ed25519' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('Ed25519', key, bytes as Bytes));
}

/** The request's object: WalletConnect's params are an object; a one-element list of it is taken too. */
function request(params: readonly unknown[] | Record<string, unknown>): Record<string, unknown> {
  const p = Array.isArray(params) ? params[0] : params;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw invalid('Invalid params: an object is expected');
  return p as Record<string, unknown>;
}

/** `method` for the Solana account of `keys` on `network`, prepared; throws the FrameError to answer. */
export async function prepareSolana(method: string, params: readonly unknown[], keys: Keys, network: NetworkShown, call: RpcCall): Promise<Prepared> {
  const own = keys.solanaAddress;
  if (!own) throw new FrameError('This browser cannot sign for Solana (no Ed25519 in WebCrypto)', 4200);
  const p = request(params);
  if (method === 'solana_signMessage') {
    if (p.pubkey !== undefined && p.pubkey !== own) throw new FrameError('The requested account has not been authorized by the user', UNAUTHORIZED);
    const message = fromBase58(p.message, MAX_MESSAGE_BASE58, 'message');
    return { method, review: messageReview({ raw: message }), execute: async (before) => (await before(), { signature: base58((await sign(keys, message)) as Bytes) }) };
  }
  if (method !== 'solana_signTransaction' && method !== 'solana_signAndSendTransaction') throw new FrameError('Not supported by this wallet', 4200);
  const tx = fromBase64(p.transaction, MAX_TRANSACTION, 'transaction');
  const { signatures, signaturesAt, messageBytes, message } = readTransaction(tx);
  const slot = message.keys.slice(0, message.signers).indexOf(own);
  if (slot < 0 || slot >= signatures) throw new FrameError('The transaction is not this account’s to sign', UNAUTHORIZED);
  const review = await transactionReview(message, own, network, call);
  return {
    method,
    review,
    execute: async (before) => {
      await before();
      const signature = await sign(keys, messageBytes);
      const signed = Uint8Array.from(tx);
      signed.set(signature, signaturesAt + 64 * slot);
      if (method === 'solana_signTransaction') return { signature: base58(signature as Bytes), transaction: toBase64(signed as Bytes) };
      const sent = await call('sendTransaction', [toBase64(signed as Bytes), { encoding: 'base64', preflightCommitment: 'confirmed' }]);
      return { signature: typeof sent === 'string' && sent.length <= 88 ? sent : base58(signature as Bytes) };
    },
  };
}
