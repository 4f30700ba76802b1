// Message signatures: personal_sign (EIP-191) and eth_signTypedData_v4 (EIP-712), each only for
// this wallet's own address.

import { hashTypedData, hexToBytes } from 'viem/utils';
import type { PrivateKeyAccount } from 'viem/accounts';
import { FrameError } from './messages.ts';

export const UNAUTHORIZED = 4100;
export const INVALID_PARAMS = -32602;

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
/** Largest message signed (characters of its hex or text): 64 KiB of bytes. */
export const MAX_MESSAGE_CHARS = 2 + 2 * 64 * 1024;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws 4100 unless `address` is `own` (case-insensitive). */
export function assertOwnAddress(own: string, address: unknown): void {
  if (typeof address !== 'string' || address.toLowerCase() !== own.toLowerCase()) {
    throw new FrameError('The requested account and/or method has not been authorized by the user', UNAUTHORIZED);
  }
}

/** The text `personal_sign` signs: hex (`0x…`, whole bytes) as those bytes, anything else as UTF-8. */
export function personalMessage(data: string): string | { raw: Uint8Array } {
  return HEX_BYTES.test(data) ? { raw: hexToBytes(data as `0x${string}`) } : data;
}

/** personal_sign `[data, address]` checked for the wallet `own`: the message it signs. */
export function parsePersonalSign(params: readonly unknown[], own: string): string | { raw: Uint8Array } {
  const [data, address] = params;
  if (typeof data !== 'string') throw new FrameError('personal_sign expects [data, address]', INVALID_PARAMS);
  if (data.length > MAX_MESSAGE_CHARS) throw new FrameError('personal_sign: the message is too long', INVALID_PARAMS);
  assertOwnAddress(own, address);
  return personalMessage(data);
}

/** personal_sign `[data, address]` → the EIP-191 signature. */
export async function personalSign(account: PrivateKeyAccount, params: readonly unknown[]): Promise<string> {
  return account.signMessage({ message: parsePersonalSign(params, account.address) });
}

export interface TypedData {
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

const invalid = (why: string) => new FrameError(`Invalid typed data: ${why}`, INVALID_PARAMS);

/** The EIP-712 document of eth_signTypedData_v4 (a JSON string, or the object itself), checked for shape. */
export function parseTypedData(input: unknown): TypedData {
  let td: unknown = input;
  if (typeof input === 'string') {
    try {
      td = JSON.parse(input);
    } catch {
      throw invalid('not JSON');
    }
  }
  if (!isRecord(td)) throw invalid('not an object');
  const { types, primaryType, domain = {}, message } = td;
  if (!isRecord(types)) throw invalid('types');
  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields) || !fields.every((f) => isRecord(f) && typeof f.name === 'string' && typeof f.type === 'string')) {
      throw invalid(`the fields of ${name.slice(0, 64)}`);
    }
  }
  if (typeof primaryType !== 'string' || (!Object.hasOwn(types, primaryType) && primaryType !== 'EIP712Domain')) throw invalid('primaryType');
  if (!isRecord(domain)) throw invalid('domain');
  if (!isRecord(message)) throw invalid('message');
  return td as unknown as TypedData;
}

/** The domain's chain id as a number (it may be written as a number, a decimal or a 0x string), or null. */
function domainChainId(domain: Record<string, unknown>): number | null {
  const c = domain.chainId;
  if (c === undefined || c === null) return null;
  try {
    return Number(BigInt(c as string | number));
  } catch {
    throw invalid('domain.chainId');
  }
}

/** eth_signTypedData_v4 `[address, typedData]` checked for the wallet `own` on `chainId`: the document it signs. */
export function parseTypedDataRequest(params: readonly unknown[], own: string, chainId: number): TypedData {
  const [address, json] = params;
  assertOwnAddress(own, address);
  if (typeof json === 'string' && json.length > MAX_MESSAGE_CHARS) throw invalid('too long');
  const td = parseTypedData(json);
  const domainChain = domainChainId(td.domain);
  if (domainChain !== null && domainChain !== chainId) {
    throw new FrameError(`Provided chainId "${domainChain}" must match the active chainId "${chainId}"`, INVALID_PARAMS);
  }
  // Checked in full before the visitor sees it (every referenced type defined, addresses, integer
  // and bytes sizes): what is approved can be signed.
  try {
    hashTypedData(td as unknown as Parameters<typeof hashTypedData>[0]);
  } catch (e) {
    const why = (e as { shortMessage?: string })?.shortMessage;
    throw invalid(typeof why === 'string' ? why.slice(0, 200) : 'rejected');
  }
  return td;
}

/** eth_signTypedData_v4 `[address, typedData]` on chain `chainId` → the EIP-712 signature. */
export async function signTypedDataV4(account: PrivateKeyAccount, params: readonly unknown[], chainId: number): Promise<string> {
  return signTypedData(account, parseTypedDataRequest(params, account.address, chainId));
}

/** The EIP-712 signature of a checked document. */
export async function signTypedData(account: PrivateKeyAccount, td: TypedData): Promise<string> {
  try {
    // viem checks the rest: every referenced type defined, addresses, integer and bytes sizes.
    return await account.signTypedData(td as unknown as Parameters<PrivateKeyAccount['signTypedData']>[0]);
  } catch (e) {
    const why = (e as { shortMessage?: string })?.shortMessage;
    throw invalid(typeof why === 'string' ? why.slice(0, 200) : 'rejected');
  }
}
