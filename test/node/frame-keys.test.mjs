// Key custody (frame/src/keys.ts, docs/embedded-wallet.md §3): the root secret's seal is plain
// AES-256-GCM that Node's own crypto opens, and the derived keys match independent implementations
// (viem's keccak256 + ethers' secp256k1 for the EVM address, Node's sha256 and ed25519 for Solana).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { keccak256, concat, toBytes } from 'viem';
import { Wallet as EthersWallet } from 'ethers';
import { loadFrame } from '../../frame/test/load.mjs';

const f = await loadFrame();
const rootOf = (byte) => new Uint8Array(32).fill(byte);
const kek = () => crypto.randomBytes(32).toString('base64');

function nodeOpen(sealedB64, kekB64, userId) {
  const data = Buffer.from(sealedB64, 'base64');
  const d = crypto.createDecipheriv('aes-256-gcm', Buffer.from(kekB64, 'base64'), data.subarray(0, 12));
  d.setAAD(Buffer.from(userId, 'utf8'));
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]);
}

test('the sealed root is base64 of a 12-byte IV and AES-256-GCM ciphertext with the user id as associated data', async () => {
  const root = crypto.getRandomValues(new Uint8Array(32));
  const k = kek();
  const sealed = await f.sealRoot(root, k, 'user-42');
  assert.equal(Buffer.from(sealed, 'base64').length, 12 + 32 + 16);
  assert.deepEqual(new Uint8Array(nodeOpen(sealed, k, 'user-42')), root);
  assert.throws(() => nodeOpen(sealed, k, 'user-43'), 'the user id is bound');
  // A fresh IV each time: the same secret never seals to the same text.
  assert.notEqual(await f.sealRoot(root, k, 'user-42'), sealed);
});

test('openRoot returns what sealRoot sealed, and refuses another kek, another user id or a changed byte', async () => {
  const root = crypto.getRandomValues(new Uint8Array(32));
  const k = kek();
  const sealed = await f.sealRoot(root, k, 'u1');
  assert.deepEqual(await f.openRoot(sealed, k, 'u1'), root);
  const refused = { message: 'Unable to decrypt the wallet key' };
  await assert.rejects(f.openRoot(sealed, kek(), 'u1'), refused);
  await assert.rejects(f.openRoot(sealed, k, 'u2'), refused);
  const bytes = Buffer.from(sealed, 'base64');
  bytes[20] ^= 1;
  await assert.rejects(f.openRoot(bytes.toString('base64'), k, 'u1'), refused);
  await assert.rejects(f.openRoot(Buffer.from(sealed, 'base64').subarray(0, 40).toString('base64'), k, 'u1'), refused);
  await assert.rejects(f.openRoot(sealed, Buffer.alloc(16).toString('base64'), 'u1'), { message: 'Invalid key data' });
  await assert.rejects(f.openRoot('%%%not base64', k, 'u1'), { message: 'Invalid key data' });
});

test('a sealed text made by Node opens in the frame (the service could rewrap it)', async () => {
  const root = crypto.randomBytes(32);
  const k = kek();
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(k, 'base64'), iv);
  c.setAAD(Buffer.from('ü-user', 'utf8'));
  const ct = Buffer.concat([c.update(root), c.final(), c.getAuthTag()]);
  assert.deepEqual(Buffer.from(await f.openRoot(Buffer.concat([iv, ct]).toString('base64'), k, 'ü-user')), root);
});

test('the EVM key is keccak256("wallet-modal/evm" ‖ R) and its address matches ethers', async () => {
  for (const byte of [0, 1, 0x5a, 0xff]) {
    const root = rootOf(byte);
    const expectedKey = keccak256(concat([toBytes('wallet-modal/evm'), root]));
    assert.equal(f.evmPrivateKey(root), expectedKey);
    const keys = await f.deriveKeys(rootOf(byte));
    assert.equal(keys.address, new EthersWallet(expectedKey).address, 'EIP-55 address');
    assert.match(keys.address, /^0x[0-9a-fA-F]{40}$/);
    assert.notEqual(keys.address, keys.address.toLowerCase(), 'checksummed (mixed case)');
  }
});

test('the Solana seed is sha256("wallet-modal/solana" ‖ R) and its address is the base58 ed25519 public key', async () => {
  const root = crypto.randomBytes(32);
  const expected = crypto.createHash('sha256').update('wallet-modal/solana').update(root).digest();
  assert.deepEqual(Buffer.from(await f.solanaSeed(new Uint8Array(root))), expected);
  const keys = await f.deriveKeys(new Uint8Array(root));
  assert.deepEqual(Buffer.from(keys.solanaSeed), expected);
  const pub = crypto
    .createPublicKey(crypto.createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), expected]), format: 'der', type: 'pkcs8' }))
    .export({ format: 'jwk' });
  assert.equal(keys.solanaAddress, f.base58(new Uint8Array(Buffer.from(pub.x, 'base64url'))));
});

test('the Solana address follows RFC 8032 test vector 1 and base58 matches known encodings', async () => {
  const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
  const pub = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
  assert.equal(await f.solanaAddress(new Uint8Array(seed)), f.base58(new Uint8Array(pub)));
  assert.equal(f.base58(new Uint8Array(32)), '11111111111111111111111111111111');
  assert.equal(f.base58(new TextEncoder().encode('Hello World!')), '2NEpo7TZRRrLZSi2U');
  assert.equal(f.base58(Uint8Array.from([0, 0, 0x28, 0x7f, 0xb4, 0xcd])), '11233QC4');
});

test('deriving the keys wipes the root secret from memory', async () => {
  const root = crypto.getRandomValues(new Uint8Array(32));
  const copy = root.slice();
  const keys = await f.deriveKeys(root);
  assert.ok(root.every((b) => b === 0), 'R zeroed');
  assert.equal(keys.address, (await f.deriveKeys(copy)).address);
  await assert.rejects(f.deriveKeys(new Uint8Array(31)), { message: 'Invalid key data' });
});

test('a new root secret is 32 random bytes', () => {
  const a = f.newRootSecret();
  const b = f.newRootSecret();
  assert.equal(a.length, 32);
  assert.notDeepEqual(a, b);
});
