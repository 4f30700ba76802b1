// A dapp backend checking a sign-in with the `./core` entry in Node (the real build in dist/), as
// the README shows: messages written and signed by independent code (siwe, viem, Node's ed25519),
// and every refusal the issue names — a replayed nonce, another domain, another chain, an expired
// message, another key's signature, a 100 KB message — refused with an error that says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import siwe from 'siwe';
import { privateKeyToAccount } from 'viem/accounts';
import * as core from '../../dist/core.js';
import { base58 } from '../../demo/wallet/solana-wallet.js';

await core.init();
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const other = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const NOW = Date.parse('2026-11-27T12:00:00Z');

function evmMessage({ domain = 'dapp.test', chainId = 1, nonce = 'serverNonce1', expirationTime = '2026-11-28T12:00:00.000Z' } = {}) {
  return new siwe.SiweMessage({ domain, address: account.address, uri: 'https://dapp.test', version: '1', chainId, nonce, issuedAt: '2026-11-27T11:59:00.000Z', expirationTime, statement: 'Sign in' }).prepareMessage();
}

const check = async (message, { signer = account, nonce = 'serverNonce1', caipAddress = `eip155:1:${account.address}` } = {}) =>
  core.verifySiwxSession({ domain: 'dapp.test', nonce, now: NOW, caipAddress, message, signature: await signer.signMessage({ message }) });

test('a sign-in signed by the account for this domain, chain and nonce is valid until its expiration time', async () => {
  const r = await check(evmMessage());
  assert.deepEqual(r, { valid: true, expiresAt: Date.parse('2026-11-28T12:00:00Z') });
});

test('a replayed nonce, another domain, another chain, an expired message, another key and a 100 KB message are refused, each saying why', async () => {
  assert.match((await check(evmMessage({ nonce: 'oldNonce123' }))).error, /nonce is not the one issued/);
  assert.match((await check(evmMessage({ domain: 'evil.test' }))).error, /for evil\.test, not dapp\.test/);
  assert.match((await check(evmMessage({ chainId: 10 }))).error, /chain 10, not eip155:1/);
  assert.match((await check(evmMessage({ expirationTime: '2026-11-27T11:59:30.000Z' }))).error, /expired/);
  const byOther = await check(evmMessage(), { signer: other });
  assert.equal(byOther.valid, null, 'not the key: the account may be a contract, its chain decides');
  assert.equal(byOther.chainCall.method, 'eth_call');
  assert.equal(core.sessionChainSaysValid(`eip155:1:${account.address}`, '0x'), false, 'an EOA answers nothing: refused');
  assert.match((await check(evmMessage(), { caipAddress: `eip155:1:${other.address}` })).error, /another account/);
  const big = evmMessage() + '\n' + 'x'.repeat(100_000);
  assert.match(core.verifySiwxSession({ domain: 'dapp.test', caipAddress: `eip155:1:${account.address}`, message: big, signature: '0x00' }).error, /larger than 64 KB|longer than/);
  assert.match(core.verifySiwxSession({ domain: 'dapp.test' }).error, /`caipAddress` must be a string/);
});

test('a Solana sign-in (SIWS) signed with ed25519 is valid; the same text signed by another key is not', () => {
  const keys = crypto.generateKeyPairSync('ed25519');
  const pub = base58(keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
  const ref = '4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
  const message = `dapp.test wants you to sign in with your Solana account:\n${pub}\n\nSign in\n\nURI: https://dapp.test\nVersion: 1\nChain ID: ${ref}\nNonce: serverNonce1\nIssued At: 2026-11-27T11:59:00.000Z`;
  const sign = (k) => base58(crypto.sign(null, Buffer.from(message), k));
  const input = { domain: 'dapp.test', nonce: 'serverNonce1', now: NOW, caipAddress: `solana:${ref}:${pub}`, message };
  assert.deepEqual(core.verifySiwxSession({ ...input, signature: sign(keys.privateKey) }), { valid: true, expiresAt: null });
  const stranger = crypto.generateKeyPairSync('ed25519').privateKey;
  assert.match(core.verifySiwxSession({ ...input, signature: sign(stranger) }).error, /not the account's/);
});
