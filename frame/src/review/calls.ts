// The call a transaction's data makes, when its function selector is one whose meaning the visitor
// must see (token transfers and approvals, NFT operator approvals, wrapping): its name and
// arguments, decoded from the ABI words. Unknown selectors and data that does not decode are shown
// as bytes by the review; nothing here trusts the data's length or contents.

import { getAddress } from 'viem/utils';

type ArgType = 'address' | 'uint256' | 'bool';

export interface DecodedArg {
  name: string;
  type: ArgType;
  /** `0x…` EIP-55 for an address, a bigint for a uint256, a boolean for a bool. */
  value: string | bigint | boolean;
}

export interface DecodedCall {
  selector: string;
  name: string;
  args: DecodedArg[];
}

/** Selector → name and the static arguments read (trailing dynamic `bytes` are not shown). */
const FUNCTIONS: Record<string, { name: string; args: Array<[string, ArgType]> }> = {
  a9059cbb: { name: 'transfer', args: [['to', 'address'], ['amount', 'uint256']] },
  '095ea7b3': { name: 'approve', args: [['spender', 'address'], ['amount', 'uint256']] },
  '39509351': { name: 'increaseAllowance', args: [['spender', 'address'], ['amount', 'uint256']] },
  '23b872dd': { name: 'transferFrom', args: [['from', 'address'], ['to', 'address'], ['amount', 'uint256']] },
  a22cb465: { name: 'setApprovalForAll', args: [['operator', 'address'], ['approved', 'bool']] },
  '42842e0e': { name: 'safeTransferFrom', args: [['from', 'address'], ['to', 'address'], ['tokenId', 'uint256']] },
  b88d4fde: { name: 'safeTransferFrom', args: [['from', 'address'], ['to', 'address'], ['tokenId', 'uint256']] },
  f242432a: { name: 'safeTransferFrom', args: [['from', 'address'], ['to', 'address'], ['id', 'uint256'], ['amount', 'uint256']] },
  d0e30db0: { name: 'deposit', args: [] },
  '2e1a7d4d': { name: 'withdraw', args: [['amount', 'uint256']] },
};

/** The ERC-20 functions whose `amount` is in the token's units. */
export const TOKEN_AMOUNT_CALLS: ReadonlySet<string> = new Set(['transfer', 'approve', 'increaseAllowance', 'transferFrom']);
/** The functions that let someone else move the visitor's tokens. */
export const ALLOWANCE_CALLS: ReadonlySet<string> = new Set(['approve', 'increaseAllowance']);

/** `data` (`0x` + whole bytes, already checked) decoded, or null. */
export function decodeCall(data: string): DecodedCall | null {
  const hex = data.slice(2).toLowerCase();
  if (hex.length < 8) return null;
  const selector = hex.slice(0, 8);
  const f = Object.hasOwn(FUNCTIONS, selector) ? FUNCTIONS[selector] : null;
  if (!f) return null;
  const body = hex.slice(8);
  if (body.length < f.args.length * 64) return null;
  const args: DecodedArg[] = [];
  for (const [i, [name, type]] of f.args.entries()) {
    const word = body.slice(i * 64, i * 64 + 64);
    const n = BigInt(`0x${word}`);
    if (type === 'address') {
      if (n >> 160n !== 0n) return null;
      args.push({ name, type, value: getAddress(`0x${word.slice(24)}`) });
    } else if (type === 'bool') {
      if (n > 1n) return null;
      args.push({ name, type, value: n === 1n });
    } else {
      args.push({ name, type, value: n });
    }
  }
  return { selector: `0x${selector}`, name: f.name, args };
}
