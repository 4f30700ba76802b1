// Message signatures: personal_sign (EIP-191) and eth_signTypedData_v4 (EIP-712), each only for
// this wallet's own address.

import { hexToBytes } from 'viem/utils';
import type { PrivateKeyAccount } from 'viem/accounts';
import { FrameError } from './messages.ts';

export const UNAUTHORIZED = 4100;
export const INVALID_PARAMS = -32602;

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

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

/** personal_sign `[data, address]` → the EIP-191 signature. */
export async function personalSign(account: PrivateKeyAccount, params: readonly unknown[]): Promise<string> {
  const [data, address] = params;
  if (typeof data !== 'string') throw new FrameError('personal_sign expects [data, address]', INVALID_PARAMS);
  assertOwnAddress(account.address, address);
  return account.signMessage({ message: personalMessage(data) });
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

/** eth_signTypedData_v4 `[address, typedData]` on chain `chainId` → the EIP-712 signature. */
export async function signTypedDataV4(account: PrivateKeyAccount, params: readonly unknown[], chainId: number): Promise<string> {
  const [address, json] = params;
  assertOwnAddress(account.address, address);
  const td = parseTypedData(json);
  const domainChain = domainChainId(td.domain);
  if (domainChain !== null && domainChain !== chainId) {
    throw new FrameError(`Provided chainId "${domainChain}" must match the active chainId "${chainId}"`, INVALID_PARAMS);
  }
  try {
    // viem checks the rest: every referenced type defined, addresses, integer and bytes sizes.
    return await account.signTypedData(td as unknown as Parameters<PrivateKeyAccount['signTypedData']>[0]);
  } catch (e) {
    const why = (e as { shortMessage?: string })?.shortMessage;
    throw invalid(typeof why === 'string' ? why.slice(0, 200) : 'rejected');
  }
}
