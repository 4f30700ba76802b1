// Sign-in at login (spec §3, Login user: `siwxMessage`, `message`, `signature`): once the visitor
// has logged in, the frame signs an EIP-4361 message saying that this account signs in to the
// embedding page — its own origin's host, which the page cannot choose (the frame takes it from the
// origin it answers), with a nonce of the frame's, for a day — so that the modal's sign-in needs no
// second prompt. Nothing the page posts goes into the text: it can only ask for this statement
// about itself, which it has anyway by embedding the logged-in wallet.
import type { Keys } from './keys.ts';

const STATEMENT = 'Sign in with your account to continue.';
const DAY_MS = 24 * 3_600_000;

/** The sign-in of `keys`' EVM account to `origin` on `chainId`, signed. */
export async function loginSignIn(keys: Keys, origin: string, chainId: number, now = Date.now()): Promise<{ siwxMessage: Record<string, unknown>; message: string; signature: string }> {
  const url = new URL(origin);
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
  const fields = {
    domain: url.host,
    accountAddress: keys.address,
    chainId,
    uri: url.origin,
    version: '1',
    nonce,
    statement: STATEMENT,
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + DAY_MS).toISOString(),
  };
  const message =
    `${fields.domain} wants you to sign in with your Ethereum account:\n${fields.accountAddress}\n\n${STATEMENT}\n\n` +
    `URI: ${fields.uri}\nVersion: 1\nChain ID: ${chainId}\nNonce: ${nonce}\nIssued At: ${fields.issuedAt}\nExpiration Time: ${fields.expirationTime}`;
  return { siwxMessage: fields, message, signature: await keys.evm.signMessage({ message }) };
}
