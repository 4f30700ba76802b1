#!/usr/bin/env node
// A local Solana chain for the demo and the tests: the real Solana VM (npm `litesvm`, with the real
// SPL Token, Token-2022 and Associated Token Account programs) behind the standard Solana JSON-RPC
// over HTTP on loopback, like anvil for EVM. Every transaction really executes (signatures
// verified, fees charged, rent enforced); one transaction is one slot.
//
//   node demo/solana/rpc.mjs [--port 0] [--host 127.0.0.1]   prints `solana on http://HOST:PORT`
//
// Methods: getHealth, getVersion, getGenesisHash, getSlot, getBlockHeight, getEpochInfo,
// getLatestBlockhash, isBlockhashValid, getBalance, getAccountInfo, getMultipleAccounts,
// getMinimumBalanceForRentExemption, getFeeForMessage, getRecentPrioritizationFees,
// requestAirdrop, sendTransaction, simulateTransaction, getSignatureStatuses, getTransaction,
// getSignaturesForAddress, getTokenAccountsByOwner, getTokenAccountBalance, getTokenSupply.
// Accounts are answered in `base64` or `base58`, token accounts and mints also in `jsonParsed`.
// Everything a client sends is bounded: 1 MiB a body, 100 calls a batch, each parameter checked.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { LiteSVM, FailedTransactionMetadata } from 'litesvm';
import {
  address as toAddress,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  isAddress,
  lamports,
} from '@solana/kit';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
/** The chain's genesis hash: fixed, so that its CAIP-2 id (`solana:` + its first 32 characters) is too. */
export const GENESIS_HASH = getBase58Decoder().decode(createHash('sha256').update('wallet-modal local svm').digest());
const MAX_BODY = 1024 * 1024;
const MAX_BATCH = 100;
const MAX_KEYS = 100;
const FEE_PER_SIGNATURE = 5000n;
/** A blockhash stays valid this many slots, as on mainnet. */
const BLOCKHASH_SLOTS = 150n;
/** Transactions remembered for getSignatureStatuses / getTransaction, and per address. */
const HISTORY_MAX = 10_000;
const PER_ADDRESS_MAX = 1_000;

class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}
const invalidParams = (why) => new RpcError(-32602, `Invalid params: ${why}`);

const b58 = { enc: getBase58Encoder(), dec: getBase58Decoder() };
const b64 = { enc: getBase64Encoder(), dec: getBase64Decoder() };

/** A base58 address parameter, checked. */
function addressParam(v, what = 'address') {
  if (typeof v !== 'string' || v.length > 44 || !isAddress(v)) throw invalidParams(`${what} is not a base58 public key`);
  return toAddress(v);
}

function configParam(v) {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams('the configuration must be an object');
  return v;
}

/** The wire bytes of a transaction parameter (`base64`, or the deprecated default `base58`). */
function wireBytes(v, encoding = 'base58') {
  if (typeof v !== 'string' || v.length > 4 * 1232) throw invalidParams('the transaction must be an encoded string of at most 1232 bytes');
  try {
    const bytes = encoding === 'base64' ? b64.enc.encode(v) : encoding === 'base58' ? b58.enc.encode(v) : null;
    if (!bytes) throw invalidParams(`unsupported encoding ${String(encoding).slice(0, 20)}`);
    if (bytes.length > 1232) throw invalidParams('the transaction is larger than 1232 bytes');
    return bytes;
  } catch (e) {
    if (e instanceof RpcError) throw e;
    throw invalidParams('the transaction is not valid ' + encoding);
  }
}

function decodeTransaction(bytes) {
  try {
    const tx = getTransactionDecoder().decode(bytes);
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    return { tx, message };
  } catch {
    throw invalidParams('the bytes are not a transaction');
  }
}

/**
 * The names of litesvm's fieldless error codes (TypeScript `const enum`s: not in its JavaScript),
 * read from its declarations once.
 */
function enumNames(name) {
  const dts = readFileSync(createRequire(import.meta.url).resolve('litesvm/dist/internal.d.ts'), 'utf8');
  const body = new RegExp(`enum ${name} \\{([^}]*)\\}`).exec(dts)?.[1] ?? '';
  const names = [];
  for (const m of body.matchAll(/(\w+) = (\d+)/g)) names[Number(m[2])] = m[1];
  return names;
}
const TX_ERRORS = enumNames('TransactionErrorFieldless');
const IX_ERRORS = enumNames('InstructionErrorFieldless');

/** The JSON of a transaction error, as the Solana RPC writes it (`"AccountNotFound"`, `{"InstructionError": [0, {"Custom": 1}]}`). */
function errorJson(failed) {
  const err = failed.err();
  if (typeof err === 'number') return TX_ERRORS[err] ?? `TransactionError${err}`;
  const name = err?.constructor?.name ?? '';
  if (name === 'TransactionErrorInstructionError') {
    const inner = err.err();
    const detail = typeof inner === 'number' ? (IX_ERRORS[inner] ?? `InstructionError${inner}`) : inner?.constructor?.name === 'InstructionErrorCustom' ? { Custom: inner.code } : String(inner);
    return { InstructionError: [err.index, detail] };
  }
  if (name === 'TransactionErrorInsufficientFundsForRent') return { InsufficientFundsForRent: { account_index: Number(/account_index: (\d+)/.exec(String(err))?.[1] ?? 0) } };
  if (name === 'TransactionErrorDuplicateInstruction') return { DuplicateInstruction: Number(/(\d+)/.exec(String(err))?.[1] ?? 0) };
  return String(err).slice(0, 200);
}

/** A transaction error in words, as the RPC's simulation failure says it. */
function describe(err) {
  if (typeof err === 'string') return err;
  if (err.InstructionError) {
    const [i, d] = err.InstructionError;
    return `Error processing Instruction ${i}: ${d.Custom !== undefined ? `custom program error: 0x${d.Custom.toString(16)}` : d}`;
  }
  return Object.keys(err)[0] ?? 'Transaction failed';
}

/** The parsed form of an SPL token account or mint (`jsonParsed`), or null for other data. */
function parsedToken(account) {
  const owner = account.programAddress;
  if (owner !== TOKEN_PROGRAM && owner !== TOKEN_2022_PROGRAM) return null;
  const d = account.data;
  const program = owner === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022';
  const le64 = (at) => new DataView(d.buffer, d.byteOffset + at, 8).getBigUint64(0, true);
  const key = (at) => b58.dec.decode(d.subarray(at, at + 32));
  if (d.length === 82 || (owner === TOKEN_2022_PROGRAM && d.length > 165 && d[165] === 1)) {
    const decimals = d[44];
    return {
      program,
      space: d.length,
      parsed: {
        type: 'mint',
        info: {
          mintAuthority: new DataView(d.buffer, d.byteOffset).getUint32(0, true) ? key(4) : null,
          supply: le64(36).toString(),
          decimals,
          isInitialized: d[45] === 1,
          freezeAuthority: new DataView(d.buffer, d.byteOffset + 46).getUint32(0, true) ? key(50) : null,
        },
      },
    };
  }
  if (d.length >= 165) {
    return { program, space: d.length, parsed: { type: 'account', info: { mint: key(0), owner: key(32), amount: le64(64).toString(), state: ['uninitialized', 'initialized', 'frozen'][d[108]] ?? 'unknown' } } };
  }
  return null;
}

/**
 * The chain and its RPC. `handle(body)` answers one request body (a call or a batch); `server`
 * listens when started with `listen()`.
 */
export function createSolanaRpc() {
  const svm = new LiteSVM();
  let slot = 1n;
  /** Blockhashes still valid: blockhash -> last valid slot. */
  const blockhashes = new Map();
  /** Transactions by signature, oldest first; and each address's signatures, newest last. */
  const history = new Map();
  const byAddress = new Map();

  const context = () => ({ slot: Number(slot), apiVersion: '2.2.0' });
  const latest = () => {
    const hash = svm.latestBlockhash();
    if (!blockhashes.has(hash)) blockhashes.set(hash, slot + BLOCKHASH_SLOTS);
    return { blockhash: hash, lastValidBlockHeight: Number(blockhashes.get(hash)) };
  };

  /** One slot passes: a new blockhash; the old ones stay valid for their 150 slots. */
  function nextSlot() {
    latest();
    slot += 1n;
    svm.warpToSlot(slot);
    svm.expireBlockhash();
    for (const [hash, last] of blockhashes) if (last < slot) blockhashes.delete(hash);
    latest();
  }

  function remember(signature, entry, addresses) {
    history.set(signature, entry);
    if (history.size > HISTORY_MAX) history.delete(history.keys().next().value);
    for (const a of addresses) {
      const list = byAddress.get(a) ?? [];
      list.push(signature);
      if (list.length > PER_ADDRESS_MAX) list.shift();
      byAddress.set(a, list);
    }
  }

  function fee(message) {
    return FEE_PER_SIGNATURE * BigInt(message.header.numSignerAccounts);
  }

  function accountJson(account, encoding = 'base64') {
    const j = rawAccountJson(account, encoding);
    // jsonParsed token accounts carry the token amount with its mint's decimals, as the real RPC does.
    if (encoding === 'jsonParsed' && j?.data?.parsed?.type === 'account') {
      const { decimals } = mintDecimals(toAddress(j.data.parsed.info.mint));
      j.data.parsed.info.tokenAmount = tokenAmount(BigInt(j.data.parsed.info.amount), decimals);
      delete j.data.parsed.info.amount;
    }
    return j;
  }

  function rawAccountJson(account, encoding) {
    if (!account.exists) return null;
    const common = { executable: account.executable, lamports: Number(account.lamports), owner: account.programAddress, rentEpoch: Number.MAX_SAFE_INTEGER, space: account.data.length };
    if (encoding === 'jsonParsed') {
      const parsed = parsedToken(account);
      if (parsed) return { ...common, data: parsed };
      return { ...common, data: [b64.dec.decode(account.data), 'base64'] };
    }
    if (encoding === 'base58') {
      if (account.data.length > 128) throw invalidParams('base58 is limited to 128 bytes of data: use base64');
      return { ...common, data: [b58.dec.decode(account.data), 'base58'] };
    }
    if (encoding === 'base64') return { ...common, data: [b64.dec.decode(account.data), 'base64'] };
    throw invalidParams(`unsupported encoding ${String(encoding).slice(0, 20)}`);
  }

  function tokenAccounts(owner, filter, encoding) {
    let programs = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];
    let mint = null;
    if (filter && typeof filter === 'object' && typeof filter.mint === 'string') mint = addressParam(filter.mint, 'mint');
    else if (filter && typeof filter === 'object' && typeof filter.programId === 'string') {
      const p = addressParam(filter.programId, 'programId');
      if (p !== TOKEN_PROGRAM && p !== TOKEN_2022_PROGRAM) throw invalidParams('programId is not a token program');
      programs = [p];
    } else throw invalidParams('the filter must be {mint} or {programId}');
    const ownerBytes = b58.enc.encode(owner);
    const mintBytes = mint ? b58.enc.encode(mint) : null;
    const same = (d, at, key) => key.every((b, i) => d[at + i] === b);
    const out = [];
    for (const program of programs) {
      for (const a of svm.getProgramAccounts(toAddress(program))) {
        const d = a.data;
        if (d.length < 165 || (d.length > 165 && d[165] !== 2) || !same(d, 32, ownerBytes) || (mintBytes && !same(d, 0, mintBytes))) continue;
        out.push({ pubkey: a.address, account: accountJson({ ...a, exists: true }, encoding ?? 'base64') });
      }
    }
    return out;
  }

  function tokenAmount(amount, decimals) {
    const s = amount.toString().padStart(decimals + 1, '0');
    const ui = decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '') : s;
    return { amount: amount.toString(), decimals, uiAmount: Number(ui), uiAmountString: ui };
  }

  function mintDecimals(mint) {
    const m = svm.getAccount(mint);
    const p = m.exists ? parsedToken(m) : null;
    if (p?.parsed.type !== 'mint') throw new RpcError(-32602, 'Invalid param: not a Token mint');
    return p.parsed.info;
  }

  /** Runs a transaction: preflight (unless skipped), then for real; remembered either way once it ran. */
  function send(bytes, { skipPreflight = false } = {}) {
    const { tx, message } = decodeTransaction(bytes);
    const signature = b58.dec.decode(tx.signatures[message.staticAccounts[0]] ?? new Uint8Array(64));
    const recent = message.lifetimeToken;
    if (!blockhashes.has(recent) && recent !== svm.latestBlockhash()) {
      throw new RpcError(-32002, 'Transaction simulation failed: Blockhash not found', { err: 'BlockhashNotFound', logs: [] });
    }
    if (history.has(signature)) throw new RpcError(-32002, 'Transaction simulation failed: This transaction has already been processed', { err: 'AlreadyProcessed', logs: [] });
    if (!skipPreflight) {
      const sim = svm.simulateTransaction(tx);
      if (sim instanceof FailedTransactionMetadata) {
        const err = errorJson(sim);
        throw new RpcError(-32002, `Transaction simulation failed: ${describe(err)}`, { err, logs: sim.meta().logs().slice(0, 100) });
      }
    }
    const result = svm.sendTransaction(tx);
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result;
    remember(signature, { slot, err: failed ? errorJson(result) : null, fee: fee(message), logs: meta.logs().slice(0, 100), wire: bytes, blockTime: Math.floor(Date.now() / 1000) }, message.staticAccounts);
    nextSlot();
    return signature;
  }

  const methods = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0-litesvm', 'feature-set': 0 }),
    getGenesisHash: () => GENESIS_HASH,
    getSlot: () => Number(slot),
    getBlockHeight: () => Number(slot),
    getEpochInfo: () => ({ absoluteSlot: Number(slot), blockHeight: Number(slot), epoch: 0, slotIndex: Number(slot), slotsInEpoch: 432000, transactionCount: history.size }),
    getLatestBlockhash: () => ({ context: context(), value: latest() }),
    isBlockhashValid: ([hash]) => ({ context: context(), value: typeof hash === 'string' && (blockhashes.has(hash) || hash === svm.latestBlockhash()) }),
    getBalance: ([a]) => ({ context: context(), value: Number(svm.getBalance(addressParam(a)) ?? 0n) }),
    getAccountInfo: ([a, config]) => ({ context: context(), value: accountJson(svm.getAccount(addressParam(a)), configParam(config).encoding ?? 'base64') }),
    getMultipleAccounts: ([keys, config]) => {
      if (!Array.isArray(keys) || keys.length > MAX_KEYS) throw invalidParams(`at most ${MAX_KEYS} addresses`);
      const encoding = configParam(config).encoding ?? 'base64';
      return { context: context(), value: keys.map((k) => accountJson(svm.getAccount(addressParam(k)), encoding)) };
    },
    getMinimumBalanceForRentExemption: ([size]) => {
      if (!Number.isSafeInteger(size) || size < 0 || size > 10 * 1024 * 1024) throw invalidParams('the size must be 0 to 10 MiB');
      return Number(svm.minimumBalanceForRentExemption(BigInt(size)));
    },
    getFeeForMessage: ([message]) => {
      const bytes = wireBytes(message, 'base64');
      let m;
      try {
        m = getCompiledTransactionMessageDecoder().decode(bytes);
      } catch {
        throw invalidParams('not a transaction message');
      }
      return { context: context(), value: Number(fee(m)) };
    },
    getRecentPrioritizationFees: () => [],
    requestAirdrop: ([a, amount]) => {
      const to = addressParam(a);
      if (!Number.isSafeInteger(amount) || amount <= 0 || amount > 1_000_000 * 1e9) throw invalidParams('the amount must be 1 lamport to 1,000,000 SOL');
      const result = svm.airdrop(to, lamports(BigInt(amount)));
      if (!result || result instanceof FailedTransactionMetadata) throw new RpcError(-32603, 'Airdrop failed');
      const signature = b58.dec.decode(result.signature());
      remember(signature, { slot, err: null, fee: FEE_PER_SIGNATURE, logs: result.logs(), wire: null, blockTime: Math.floor(Date.now() / 1000) }, [to]);
      nextSlot();
      return signature;
    },
    sendTransaction: ([wire, config]) => {
      const c = configParam(config);
      return send(wireBytes(wire, c.encoding ?? 'base58'), { skipPreflight: c.skipPreflight === true });
    },
    simulateTransaction: ([wire, config]) => {
      const c = configParam(config);
      const { tx } = decodeTransaction(wireBytes(wire, c.encoding ?? 'base58'));
      const sim = svm.simulateTransaction(tx);
      const failed = sim instanceof FailedTransactionMetadata;
      const meta = sim.meta();
      return { context: context(), value: { err: failed ? errorJson(sim) : null, logs: meta.logs().slice(0, 100), unitsConsumed: Number(meta.computeUnitsConsumed()), accounts: null, returnData: null } };
    },
    getSignatureStatuses: ([sigs]) => {
      if (!Array.isArray(sigs) || sigs.length > 256) throw invalidParams('at most 256 signatures');
      return {
        context: context(),
        value: sigs.map((s) => {
          const h = typeof s === 'string' ? history.get(s) : undefined;
          if (!h) return null;
          return { slot: Number(h.slot), confirmations: null, err: h.err, status: h.err ? { Err: h.err } : { Ok: null }, confirmationStatus: 'finalized' };
        }),
      };
    },
    getTransaction: ([sig, config]) => {
      const h = typeof sig === 'string' ? history.get(sig) : undefined;
      if (!h || !h.wire) return null;
      const encoding = configParam(config).encoding ?? 'json';
      if (encoding !== 'base64') throw invalidParams('this chain answers getTransaction in base64 only');
      return { slot: Number(h.slot), blockTime: h.blockTime, transaction: [b64.dec.decode(h.wire), 'base64'], meta: { err: h.err, status: h.err ? { Err: h.err } : { Ok: null }, fee: Number(h.fee), logMessages: h.logs, preBalances: [], postBalances: [], innerInstructions: [], preTokenBalances: [], postTokenBalances: [] }, version: 0 };
    },
    getSignaturesForAddress: ([a, config]) => {
      const list = byAddress.get(addressParam(a)) ?? [];
      const limit = Math.min(Math.max(Number(configParam(config).limit ?? 1000) | 0, 1), 1000);
      return list
        .slice()
        .reverse()
        .slice(0, limit)
        .map((signature) => {
          const h = history.get(signature);
          return h ? { signature, slot: Number(h.slot), err: h.err, memo: null, blockTime: h.blockTime, confirmationStatus: 'finalized' } : null;
        })
        .filter(Boolean);
    },
    getTokenAccountsByOwner: ([owner, filter, config]) => ({ context: context(), value: tokenAccounts(addressParam(owner, 'owner'), filter, configParam(config).encoding) }),
    getTokenAccountBalance: ([a]) => {
      const acc = svm.getAccount(addressParam(a));
      const p = acc.exists ? parsedToken(acc) : null;
      if (p?.parsed.type !== 'account') throw new RpcError(-32602, 'Invalid param: not a Token account');
      const { decimals } = mintDecimals(toAddress(p.parsed.info.mint));
      return { context: context(), value: tokenAmount(BigInt(p.parsed.info.amount), decimals) };
    },
    getTokenSupply: ([mint]) => {
      const info = mintDecimals(addressParam(mint, 'mint'));
      return { context: context(), value: tokenAmount(BigInt(info.supply), info.decimals) };
    },
  };
  function call(req) {
    const id = req && typeof req === 'object' && (typeof req.id === 'number' || typeof req.id === 'string' || req.id === null) ? req.id : null;
    try {
      if (!req || typeof req !== 'object' || Array.isArray(req) || req.jsonrpc !== '2.0' || typeof req.method !== 'string') throw new RpcError(-32600, 'Invalid request');
      const method = Object.hasOwn(methods, req.method) ? methods[req.method] : null;
      if (!method) throw new RpcError(-32601, `Method not found: ${req.method.slice(0, 64)}`);
      const params = req.params === undefined ? [] : req.params;
      if (!Array.isArray(params)) throw invalidParams('params must be an array');
      return { jsonrpc: '2.0', id, result: method(params) };
    } catch (e) {
      const err = e instanceof RpcError ? e : new RpcError(-32603, 'Internal error');
      if (!(e instanceof RpcError)) console.error('[solana]', e);
      return { jsonrpc: '2.0', id, error: { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) } };
    }
  }

  /** Answers one body: its JSON text, or null for an empty batch of notifications. */
  function handle(text) {
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > MAX_BATCH) return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid request: a batch holds 1 to ${MAX_BATCH} calls` } });
      return JSON.stringify(body.map(call));
    }
    return JSON.stringify(call(body));
  }

  const server = http.createServer((req, res) => {
    const headers = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, solana-client', 'access-control-allow-methods': 'POST, OPTIONS' };
    if (req.method === 'OPTIONS') return res.writeHead(204, headers).end();
    if (req.method !== 'POST') return res.writeHead(405, { ...headers, allow: 'POST' }).end();
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Request body larger than 1 MiB' } }));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(handle(Buffer.concat(chunks).toString('utf8')));
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  return {
    svm,
    handle,
    server,
    /** Listens on `port` (0: any free one) and resolves with the URL. */
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(`http://${host}:${server.address().port}`));
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : fallback;
  };
  const rpc = createSolanaRpc();
  const url = await rpc.listen(Number(arg('--port', '0')), arg('--host', '127.0.0.1'));
  // `--seed <address>`: the demo's tokens and funds for that account (demo/solana/seed.mjs), the
  // mints written to `--out <file>` (JSON) before the URL is printed.
  // (`--seed demo`: the Demo Wallet's Solana account, demo/wallet/solana-wallet.js.)
  let owner = arg('--seed', null);
  if (owner === 'demo') owner = (await import('../wallet/solana-wallet.js')).SOLANA_DEMO_ADDRESS;
  if (owner) {
    const { seedDemo } = await import('./seed.mjs');
    const tokens = await seedDemo(url, owner);
    const out = arg('--out', null);
    if (out) (await import('node:fs')).writeFileSync(out, JSON.stringify({ rpcUrl: url, owner, tokens }, null, 2));
  }
  console.log(`solana on ${url}`);
  const stop = () => rpc.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
