// What the approval shows (docs/embedded-wallet.md §4): built by the frame from the very values it
// then signs, so that what the visitor approves is what is signed. A message as its text (or its
// bytes in hex), typed data as its domain and fields, a transaction as its receiver, value, decoded
// call (token amounts in the token's units) and the network fee from the gas and fee fields that
// are signed. Allowances and operator approvals are called out.

import { formatUnits } from 'viem/utils';
import { ALLOWANCE_CALLS, TOKEN_AMOUNT_CALLS, decodeCall, type DecodedCall } from './calls.ts';
import type { NetworkShown } from './networks.ts';
import { t } from '../i18n/i18n.ts';
import { hasHidden, shown } from './text.ts';
import type { TokenInfo } from './tokens.ts';

export type Row = [label: string, value: string];

export interface CallShown {
  /** EIP-55, or null for a contract creation. */
  to: string | null;
  value: string;
  /** The decoded function and its arguments, when the selector is known. */
  call: { name: string; rows: Row[] } | null;
  /** The data's size and first bytes when it is not decoded (null: no data). */
  data: { bytes: number; preview: string } | null;
  /** Gas limit and fee rows of this transaction. */
  fee: Row[];
}

export type Review =
  | { kind: 'message'; text: string | null; hex: string | null; warnings: string[] }
  | { kind: 'typedData'; primaryType: string; domain: Row[]; fields: Row[]; more: number; warnings: string[] }
  | { kind: 'transactions'; calls: CallShown[]; total: string; warnings: string[] }
  /** A Solana transaction: its instructions as read (frame/src/solana.ts), its fee and what it costs. */
  | { kind: 'solana'; instructions: { name: string; rows: Row[] }[]; fee: Row[]; total: string; warnings: string[] };

/** Rows of typed data shown at most (the rest is counted). */
export const MAX_FIELDS = 60;
/** Characters of a message shown at most. */
export const MAX_SHOWN_CHARS = 20_000;
/** An allowance at or above 2^128 is as good as unlimited: no token has that many units. */
const UNLIMITED = 1n << 128n;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `personal_sign` message: its UTF-8 text when the bytes are printable text, else the hex. */
export function messageReview(message: string | { raw: Uint8Array }): Review {
  const warnings: string[] = [];
  const long = (n: number) =>
    warnings.push(t('This message is long: only its first {shown} characters are shown, of {total}.', { shown: MAX_SHOWN_CHARS.toLocaleString('en-US'), total: n.toLocaleString('en-US') }));
  if (typeof message === 'string') {
    if (hasHidden(message, true)) warnings.push(t('This message contains hidden characters; they are not shown.'));
    if (message.length > MAX_SHOWN_CHARS) long(message.length);
    return { kind: 'message', text: shown(message, MAX_SHOWN_CHARS, true), hex: null, warnings };
  }
  let text: string | null = null;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(message.raw);
  } catch {
    text = null;
  }
  // eslint-disable-next-line no-control-regex
  if (text !== null && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) {
    if (hasHidden(text, true)) warnings.push(t('This message contains hidden characters; they are not shown.'));
    if (text.length > MAX_SHOWN_CHARS) long(text.length);
    return { kind: 'message', text: shown(text, MAX_SHOWN_CHARS, true), hex: null, warnings };
  }
  if (message.raw.length > MAX_SHOWN_CHARS / 2) long(2 + 2 * message.raw.length);
  const hex = `0x${Array.from(message.raw.subarray(0, MAX_SHOWN_CHARS / 2), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return { kind: 'message', text: null, hex: message.raw.length > MAX_SHOWN_CHARS / 2 ? `${hex}…` : hex, warnings };
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return shown(v, 200);
  if (v === null) return 'null';
  return shown(String(v), 200);
}

type Fields = Record<string, readonly { name: string; type: string }[]>;

/**
 * The fields of `value` as the type `type` declares them, in its order (what EIP-712 hashes and so
 * what is signed), nested structs and arrays flattened to `a.b[0].c`. Keys the type does not
 * declare are not signed and not shown (`extra` counts them).
 */
function typedRows(types: Fields, type: string, value: unknown, prefix: string, rows: Row[], count: { n: number; extra: number }, depth = 0): void {
  if (depth > 16) return;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    if (Array.isArray(value)) value.forEach((x, i) => typedRows(types, array[1], x, `${prefix}[${i}]`, rows, count, depth + 1));
    return;
  }
  const fields = Object.hasOwn(types, type) ? types[type] : null;
  if (!fields) {
    count.n++;
    if (rows.length < MAX_FIELDS) rows.push([prefix, scalar(value)]);
    return;
  }
  const record = isRecord(value) ? value : {};
  for (const k of Object.keys(record)) if (!fields.some((f) => f.name === k)) count.extra++;
  for (const f of fields) typedRows(types, f.type, record[f.name], prefix ? `${prefix}.${shown(f.name, 64)}` : shown(f.name, 64), rows, count, depth + 1);
}

/** The domain fields EIP-712 signs when the document does not declare `EIP712Domain` (as viem does). */
function domainFields(domain: Record<string, unknown>): { name: string; type: string }[] {
  const order: [string, string][] = [['name', 'string'], ['version', 'string'], ['chainId', 'uint256'], ['verifyingContract', 'address'], ['salt', 'bytes32']];
  return order.filter(([k]) => domain[k] !== undefined && domain[k] !== null).map(([name, type]) => ({ name, type }));
}

/** `eth_signTypedData_v4`'s document (already checked for shape): its domain and message fields, as signed. */
export function typedDataReview(td: { types: Fields; primaryType: string; domain: Record<string, unknown>; message: Record<string, unknown> }): Review {
  const domain: Row[] = [];
  const fields: Row[] = [];
  const types: Fields = { ...td.types, EIP712Domain: Object.hasOwn(td.types, 'EIP712Domain') ? td.types.EIP712Domain : domainFields(td.domain) };
  const domainCount = { n: 0, extra: 0 };
  const count = { n: 0, extra: 0 };
  typedRows(types, 'EIP712Domain', td.domain, '', domain, domainCount);
  if (td.primaryType !== 'EIP712Domain') typedRows(types, td.primaryType, td.message, '', fields, count);
  const warnings: string[] = [];
  const primary = shown(td.primaryType, 64);
  const extra = count.extra + domainCount.extra;
  if (extra === 1) warnings.push(t('1 field of this document is not part of what is signed, and not shown.'));
  else if (extra > 1) warnings.push(t('{n} fields of this document are not part of what is signed, and not shown.', { n: extra }));
  if (!types.EIP712Domain.some((f) => f.name === 'chainId')) warnings.push(t('This signature is not tied to a network: it is valid on every chain.'));
  // EIP-2612 Permit and Permit2: a signature that lets the spender move tokens without a transaction.
  if (/^Permit(Single|Batch|TransferFrom|BatchTransferFrom)?$/.test(primary)) {
    const spender = scalar(td.message.spender ?? '');
    warnings.push(
      spender
        ? t('This signature lets {spender} move your tokens without asking you again.', { spender })
        : t('This signature lets the spender move your tokens without asking you again.'),
    );
    const value = td.message.value ?? (isRecord(td.message.details) ? td.message.details.amount : undefined);
    try {
      if (value !== undefined && BigInt(value as string) >= UNLIMITED) warnings.push(t('Unlimited: the spender can move all of this token, now and later.'));
    } catch {
      // not a number: shown as it is
    }
  }
  return { kind: 'typedData', primaryType: primary, domain, fields, more: count.n - fields.length, warnings };
}

/** An amount in a unit of `decimals`, thousands kept plain (what is signed, not rounded). */
export function amount(n: bigint, decimals: number, symbol: string): string {
  return `${formatUnits(n, decimals)} ${symbol}`;
}

/** Up to six decimals, rounded up (a fee is shown as at most what it can cost). */
export function feeAmount(n: bigint, decimals: number, symbol: string): string {
  if (decimals <= 6) return `${formatUnits(n, decimals)} ${symbol}`;
  const unit = 10n ** BigInt(decimals - 6);
  return `${formatUnits((n + unit - 1n) / unit, 6)} ${symbol}`;
}

/** A decoded argument's row label: its name in the ABI (calls.ts), in the frame's language. */
function argLabel(name: string): string {
  switch (name) {
    case 'to':
      return t('to');
    case 'from':
      return t('from');
    case 'amount':
      return t('amount');
    case 'spender':
      return t('spender');
    case 'operator':
      return t('operator');
    case 'approved':
      return t('approved');
    case 'tokenId':
      return t('tokenId');
    case 'id':
      return t('id');
    default:
      return name;
  }
}

/** A decoded call's rows and warnings; `token` is the called contract's symbol and decimals when it answered. */
export function callRows(call: DecodedCall, token: TokenInfo | null): { rows: Row[]; warnings: string[] } {
  const rows: Row[] = [];
  const warnings: string[] = [];
  const isToken = TOKEN_AMOUNT_CALLS.has(call.name) && token?.decimals !== null && token?.decimals !== undefined;
  for (const a of call.args) {
    const label = argLabel(a.name);
    if (a.type === 'uint256') {
      const n = a.value as bigint;
      if (a.name === 'amount' && ALLOWANCE_CALLS.has(call.name) && n >= UNLIMITED) rows.push([label, token?.symbol ? t('Unlimited {symbol}', { symbol: token.symbol }) : t('Unlimited')]);
      else if (a.name === 'amount' && isToken) rows.push([label, t('{amount} ({n} base units)', { amount: amount(n, token!.decimals!, token!.symbol ?? t('units')), n })]);
      else rows.push([label, n.toString()]);
    } else {
      rows.push([label, String(a.value)]);
    }
  }
  if (ALLOWANCE_CALLS.has(call.name)) {
    const spender = String(call.args[0].value);
    const n = call.args[1].value as bigint;
    if (n >= UNLIMITED) warnings.push(t('Unlimited approval: {spender} can move all of this token from your wallet, now and later.', { spender }));
    else if (n > 0n) warnings.push(t('{spender} will be able to move this amount of the token from your wallet.', { spender }));
  }
  if (call.name === 'setApprovalForAll' && call.args[1].value === true) {
    warnings.push(t('{operator} will be able to move every token of this collection from your wallet.', { operator: String(call.args[0].value) }));
  }
  return { rows, warnings };
}

/** One transaction's receiver, value and call, as signed. */
export function callShown(
  tx: { to?: string | null; value?: bigint; data?: string },
  network: NetworkShown,
  token: TokenInfo | null,
  fee: Row[],
): { shown: CallShown; warnings: string[] } {
  const data = tx.data && tx.data !== '0x' ? tx.data : null;
  const decoded = data ? decodeCall(data) : null;
  const { rows, warnings } = decoded ? callRows(decoded, token) : { rows: [], warnings: [] };
  if (data && !decoded) warnings.push(t('This transaction calls a contract with data the wallet cannot read. Approve only if you trust this site.'));
  return {
    shown: {
      to: tx.to ?? null,
      value: amount(tx.value ?? 0n, network.decimals, network.symbol),
      call: decoded ? { name: decoded.name, rows } : null,
      data: data && !decoded ? { bytes: (data.length - 2) / 2, preview: data.length > 74 ? `${data.slice(0, 74)}…` : data } : null,
      fee,
    },
    warnings,
  };
}
