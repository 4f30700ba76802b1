// The public `./core` entry in Node (the real build in dist/), checked against independent
// implementations on thousands of seeded random inputs: viem (addresses, units, hashes, signatures)
// and siwe (EIP-4361 text), plus Node's own ed25519 for Solana signatures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import * as viem from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import siwe from 'siwe';
import * as core from '../../dist/core.js';
// A plain base58 encoder (the Demo Wallet's, not the core's), as the oracle of the core's.
import { base58 } from '../../demo/wallet/solana-wallet.js';

const { SiweMessage } = siwe;

// ---- seeded randomness (mulberry32) ----
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (xs) => xs[int(xs.length)];
  const digits = (n) => Array.from({ length: n }, () => int(10)).join('');
  const hex = (n) => Array.from({ length: n }, () => '0123456789abcdefABCDEF'[int(22)]).join('');
  const bytes = (n) => Uint8Array.from({ length: n }, () => int(256));
  const text = (n) => Array.from({ length: n }, () => pick(CHARS)).join('');
  return { next, int, pick, digits, hex, bytes, text };
}
const CHARS = Array.from('abcXYZ019 .,:-_\n\t\u0000é中😀\u{10FFFF}');


const throwsWith = (fn, re) =>
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Error, 'a real Error');
    assert.match(e.message, re);
    return true;
  });

// Must run first: nothing is initialised yet.
test('every function throws "call await init()" before init() resolves', () => {
  throwsWith(() => core.checksumAddress('0x' + '0'.repeat(40)), /^wallet-modal\/core: call await init\(\) before using checksumAddress/);
  throwsWith(() => core.parseUnits('1', 18), /call await init\(\) before using parseUnits/);
  throwsWith(() => core.isEvmAddress('0x'), /call await init\(\) before using isEvmAddress/);
});

test('init() with no argument loads the bundled wasm from disk in Node, and is idempotent', async () => {
  await core.init();
  await core.init();
  assert.equal(core.checksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'), '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
});

test('checksumAddress equals viem checksumAddress on 3000 random addresses, 0x optional in input', () => {
  const r = rng(1);
  for (let i = 0; i < 3000; i++) {
    const body = r.hex(40);
    const expected = viem.checksumAddress(`0x${body.toLowerCase()}`);
    assert.equal(core.checksumAddress(r.next() < 0.5 ? `0x${body}` : body), expected);
    assert.equal(viem.getAddress(expected), expected);
  }
});

test('checksumAddress throws on anything but 40 hex digits', () => {
  for (const bad of ['', '0x', '0x' + 'a'.repeat(39), '0x' + 'a'.repeat(41), '0X' + 'a'.repeat(40), 'g'.repeat(40), ' 0x' + 'a'.repeat(40)]) {
    throwsWith(() => core.checksumAddress(bad), /Invalid address/);
  }
});

test('isEvmAddress strict agrees with viem isAddress(strict) and lets all-lower and all-upper pass', () => {
  const r = rng(2);
  for (let i = 0; i < 3000; i++) {
    const sum = viem.checksumAddress(`0x${r.hex(40).toLowerCase()}`);
    // Flip the case of one letter now and then to break the checksum.
    let a = sum;
    if (r.next() < 0.5) {
      const idx = 2 + r.int(40);
      const c = a[idx];
      a = a.slice(0, idx) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + a.slice(idx + 1);
    }
    const allUpper = a.slice(2) === a.slice(2).toUpperCase();
    if (!allUpper) assert.equal(core.isEvmAddress(a, true), viem.isAddress(a, { strict: true }), a);
    assert.equal(core.isEvmAddress(a), true);
    assert.equal(core.isEvmAddress(a.toLowerCase(), true), true);
    assert.equal(core.isEvmAddress('0x' + a.slice(2).toUpperCase(), true), true);
    assert.equal(core.isEvmAddress(a.slice(2), true), false, 'strict needs 0x');
    assert.equal(core.isEvmAddress(a.slice(2), false), true, 'loose: 0x optional');
  }
  assert.equal(core.isEvmAddress('0x' + 'a'.repeat(39)), false);
});

test('isSolanaAddress: 32-44 base58 chars decoding to exactly 32 bytes (1000 random keys)', () => {
  const r = rng(3);
  for (let i = 0; i < 1000; i++) {
    const key = r.bytes(32);
    assert.equal(core.isSolanaAddress(base58(key)), true);
    assert.equal(core.isSolanaAddress(base58(r.bytes(1 + r.int(31)))), false);
    assert.equal(core.isSolanaAddress(base58(r.bytes(33 + r.int(10)))), false);
  }
  assert.equal(core.isSolanaAddress('0'.repeat(32)), false);
  assert.equal(core.isSolanaAddress('l'.repeat(44)), false);
});

test('parseUnits equals viem parseUnits on 5000 random decimals (rounding half away from zero)', () => {
  const r = rng(4);
  for (let i = 0; i < 5000; i++) {
    const v = `${r.next() < 0.3 ? '-' : ''}${r.digits(1 + r.int(40))}${r.next() < 0.7 ? '.' + r.digits(1 + r.int(40)) : ''}`;
    const d = r.int(40);
    assert.equal(core.parseUnits(v, d), viem.parseUnits(v, d), `${v} ${d}`);
  }
});

test('parseUnits grammar: only -?digits(.digits)? — everything else throws an Error containing "Invalid"', () => {
  for (const bad of ['', '.5', '1.', '1e5', '+1', ' 1', '1 ', '0x10', '-', '-.5', '1.2.3', '1,5', 'NaN', 'Infinity', '１']) {
    throwsWith(() => core.parseUnits(bad, 18), /Invalid/);
  }
  const r = rng(5);
  for (let i = 0; i < 3000; i++) {
    const s = r.text(r.int(8));
    const ok = /^-?[0-9]+(\.[0-9]+)?$/.test(s);
    if (ok) assert.equal(core.parseUnits(s, 6), viem.parseUnits(s, 6));
    else throwsWith(() => core.parseUnits(s, 6), /Invalid/);
  }
});

test('parseUnits and formatUnits handle integers past 2^256', () => {
  const big = 2n ** 300n + 12345n;
  assert.equal(core.parseUnits(big.toString(), 18), big * 10n ** 18n);
  assert.equal(core.formatUnits(-big, 0), (-big).toString());
  assert.equal(core.formatUnits(big * 10n ** 18n + 5n, 18), `${big}.000000000000000005`);
});

test('formatUnits equals viem formatUnits on 5000 random bigints (no trailing zeros, sign kept)', () => {
  const r = rng(6);
  for (let i = 0; i < 5000; i++) {
    const v = BigInt(`${r.next() < 0.3 ? '-' : ''}${r.digits(1 + r.int(100))}`);
    const d = r.int(40);
    assert.equal(core.formatUnits(v, d), viem.formatUnits(v, d), `${v} ${d}`);
  }
  assert.equal(core.formatUnits(-5n, 2), '-0.05');
  assert.equal(core.formatUnits(0n, 18), '0');
});

test('keccak256 equals viem keccak256 on 2000 random byte strings (Keccak, not SHA3)', () => {
  const r = rng(7);
  for (let i = 0; i < 2000; i++) {
    const b = r.bytes(r.int(400));
    assert.equal(core.keccak256(b), viem.keccak256(b));
  }
  assert.equal(core.keccak256(new Uint8Array()), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
});

test('hashMessage equals viem hashMessage on 2000 random unicode messages (length in UTF-8 bytes)', () => {
  const r = rng(8);
  for (let i = 0; i < 2000; i++) {
    const m = r.text(r.int(120));
    assert.equal(core.hashMessage(m), viem.hashMessage(m), JSON.stringify(m));
  }
});

test('recoverMessageAddress and verifyMessage agree with viem signMessage on 300 random keys', async () => {
  const r = rng(9);
  for (let i = 0; i < 300; i++) {
    const key = r.bytes(32);
    key[0] = 1 + (key[0] % 200); // stay below the curve order
    const account = privateKeyToAccount(viem.toHex(key));
    const message = r.text(r.int(80));
    const sig = await account.signMessage({ message });
    assert.equal(core.recoverMessageAddress(message, sig), account.address);
    assert.equal(core.verifyMessage(account.address.toLowerCase(), message, sig), true);
    assert.equal(core.verifyMessage(account.address, message + '!', sig), false);
    // v as 0/1 recovers the same signer.
    const v = parseInt(sig.slice(130), 16);
    assert.equal(core.recoverMessageAddress(message, sig.slice(0, 130) + (v - 27).toString(16).padStart(2, '0')), account.address);
  }
});

test('recoverMessageAddress throws on malformed signatures while verifyMessage returns false', () => {
  const sig = '0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b';
  for (const bad of ['', '0x', sig.slice(0, 130), sig + '00', sig.slice(0, 130) + '1d', sig.slice(2), sig.slice(0, 129) + 'z']) {
    throwsWith(() => core.recoverMessageAddress('hello world', bad), /Invalid signature/);
    assert.equal(core.verifyMessage('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'hello world', bad), false);
  }
  assert.equal(core.verifyMessage('not an address', 'hello world', sig), false);
  assert.equal(core.verifyMessage('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'hello world', sig), true);
});

test('verifySolanaMessage agrees with Node ed25519 on 300 random keys and messages', () => {
  const r = rng(10);
  const pkcs8 = Buffer.from('302e020100300506032b657004220420', 'hex');
  for (let i = 0; i < 300; i++) {
    const secret = crypto.createPrivateKey({ key: Buffer.concat([pkcs8, Buffer.from(r.bytes(32))]), format: 'der', type: 'pkcs8' });
    const pub = Buffer.from(crypto.createPublicKey(secret).export({ format: 'jwk' }).x, 'base64url');
    const message = r.bytes(r.int(200));
    const sig = new Uint8Array(crypto.sign(null, message, secret));
    assert.equal(core.verifySolanaMessage(base58(pub), message, sig), true);
    const tampered = sig.slice();
    tampered[r.int(64)] ^= 1 << r.int(8);
    assert.equal(core.verifySolanaMessage(base58(pub), message, tampered), crypto.verify(null, message, crypto.createPublicKey(secret), tampered));
    const other = Uint8Array.from([...message, 1]);
    assert.equal(core.verifySolanaMessage(base58(pub), other, sig), false);
  }
  assert.equal(core.verifySolanaMessage('0OIl', new Uint8Array(), new Uint8Array(64)), false);
});

test('CAIP parsers: exactly 2 / 3 non-empty parts with a known namespace, address verbatim', () => {
  assert.deepEqual(core.parseCaipNetworkId('eip155:1'), { chainNamespace: 'eip155', chainId: '1' });
  assert.deepEqual(core.parseCaipAddress('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:AbC'), {
    chainNamespace: 'solana',
    chainId: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    address: 'AbC',
  });
  for (const ns of ['eip155', 'solana', 'bip122', 'polkadot', 'cosmos']) assert.equal(core.parseCaipNetworkId(`${ns}:x`).chainNamespace, ns);
  for (const bad of ['', 'eip155', 'eip155:', ':1', 'eip155:1:0x', 'foo:1']) throwsWith(() => core.parseCaipNetworkId(bad), /Invalid CAIP network id/);
  for (const bad of ['', 'eip155:1', 'eip155:1:', 'eip155::0x', 'eip155:1:0x:y', 'foo:1:0x']) throwsWith(() => core.parseCaipAddress(bad), /Invalid CAIP address/);
});

test('isTransactionHash is 0x + exactly 64 hex, isSignedMessage is 0x + at least 62 hex', () => {
  const r = rng(11);
  for (let i = 0; i < 1000; i++) {
    const n = r.int(140);
    const h = '0x' + r.hex(n);
    assert.equal(core.isTransactionHash(h), n === 64);
    assert.equal(core.isSignedMessage(h), n >= 62);
    assert.equal(core.isTransactionHash(h.slice(2) + '00'), false);
  }
});

// ---- EIP-4361 ----
function randomSiweFields(r, addrs) {
  const pad = (n) => String(n).padStart(2, '0');
  const date = () =>
    `${1990 + r.int(60)}-${pad(1 + r.int(12))}-${pad(1 + r.int(31))}${r.pick(['T', 't'])}${pad(r.int(25))}:${pad(r.int(60))}:${pad(r.int(61))}${r.pick(['Z', 'z', '.1Z', '.123456Z', '+05:30', '-00:00', '+24:00', ''])}`;
  const uris = ['https://example.com/login', 'urn:x', 'did:pkh:eip155:1:0xabc', 'https://a.com/p?q=1#f', 'ipfs://bafybeig', 'http://[::1]:8080/', 'mailto:a@b.c'];
  const f = {
    domain: r.pick(['example.com', 'localhost:3000', 'sub.a-b.io', 'user@host.io:8080', '[::1]:80', '127.0.0.1', 'ex%20ample.com']),
    address: r.pick(addrs),
    uri: r.pick(uris),
    version: '1',
    chainId: r.pick([1, 10, 137, 0, 2 ** 53 - 1, r.int(2 ** 31)]),
    nonce: Array.from({ length: 8 + r.int(24) }, () => r.pick(Array.from('abcXYZ0123456789'))).join(''),
    issuedAt: date(),
  };
  if (r.next() < 0.6) f.statement = r.pick(['', 'I accept the Terms of Service: https://example.com/tos', Array.from({ length: 1 + r.int(40) }, () => r.pick(Array.from("abcXYZ019 !#$&'()*+,-./:;=?@[]_~"))).join('')]);
  if (r.next() < 0.5) f.resources = Array.from({ length: r.int(4) }, () => r.pick(uris));
  if (r.next() < 0.3) f.expirationTime = r.pick(['', date()]);
  if (r.next() < 0.3) f.notBefore = r.pick(['', date()]);
  if (r.next() < 0.3) f.requestId = r.pick(['', 'abc', 'a:b@c', `${r.int(1e6)}`, 'a b']);
  // Occasionally break a field.
  if (r.next() < 0.05) f.nonce = 'short';
  if (r.next() < 0.05) f.address = f.address.toLowerCase();
  if (r.next() < 0.05) f.domain = r.pick(['', 'a b', 'x/y', 'x:abc', '[zz]']);
  if (r.next() < 0.05) f.statement = r.pick(['a\nb', 'é', 'a%b', 'a|b', '"q"']);
  if (r.next() < 0.05) f.uri = r.pick(['nope', 'https://a b', '1x:y', 'https://a/%zz']);
  if (r.next() < 0.03) f.version = '2';
  if (r.next() < 0.03) f.resources = ['not a uri'];
  return f;
}

const toOurs = ({ address, ...rest }) => ({ ...rest, accountAddress: address });

test('createSiwxMessage is byte-for-byte siwe prepareMessage() on 2000 random field sets, and rejects what siwe rejects', () => {
  const r = rng(12);
  const addrs = Array.from({ length: 30 }, () => viem.checksumAddress(`0x${r.hex(40).toLowerCase()}`));
  let accepted = 0;
  let rejected = 0;
  for (let i = 0; i < 2000; i++) {
    const f = randomSiweFields(r, addrs);
    let expected;
    try {
      expected = new SiweMessage({ ...f }).prepareMessage();
    } catch {
      expected = undefined;
    }
    if (expected === undefined) {
      throwsWith(() => core.createSiwxMessage(toOurs(f)), /^Invalid SIWX message fields: /);
      rejected++;
    } else {
      assert.equal(core.createSiwxMessage(toOurs(f)), expected, JSON.stringify(f));
      accepted++;
    }
  }
  assert.ok(accepted > 700 && rejected > 200, `both outcomes exercised (${accepted}/${rejected})`);
});

test('createSiwxMessage: blank lines around an absent or empty statement, bare Resources: for an empty list, chain id 2^53-1', () => {
  const base = {
    domain: 'example.com',
    accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    uri: 'https://example.com',
    version: '1',
    chainId: 2 ** 53 - 1,
    nonce: '12345678',
    issuedAt: '2024-01-01T00:00:00Z',
  };
  const head = 'example.com wants you to sign in with your Ethereum account:\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n';
  const tail = 'URI: https://example.com\nVersion: 1\nChain ID: 9007199254740991\nNonce: 12345678\nIssued At: 2024-01-01T00:00:00Z';
  assert.equal(core.createSiwxMessage(base), `${head}\n\n${tail}`);
  assert.equal(core.createSiwxMessage({ ...base, statement: '' }), `${head}\n\n\n${tail}`);
  assert.equal(core.createSiwxMessage({ ...base, statement: 'Hi' }), `${head}\nHi\n\n${tail}`);
  assert.equal(core.createSiwxMessage({ ...base, resources: [] }), `${head}\n\n${tail}\nResources:`);
  throwsWith(() => core.createSiwxMessage({ ...base, chainId: 2 ** 53 }), /chain id/);
  throwsWith(() => core.createSiwxMessage({ ...base, chainId: 1.5 }), /Invalid SIWX message fields/);
});

test('parseSiwxMessage inverts siwe text on 1000 random messages (same fields as siwe parses, chainId a number)', () => {
  const r = rng(13);
  const addrs = Array.from({ length: 30 }, () => viem.checksumAddress(`0x${r.hex(40).toLowerCase()}`));
  let n = 0;
  while (n < 1000) {
    const f = randomSiweFields(r, addrs);
    let text;
    try {
      text = new SiweMessage({ ...f }).prepareMessage();
    } catch {
      continue;
    }
    n++;
    const ref = new SiweMessage(text);
    const ours = core.parseSiwxMessage(text);
    assert.equal(typeof ours.chainId, 'number');
    const want = {
      domain: ref.domain,
      accountAddress: ref.address,
      chainId: ref.chainId,
      uri: ref.uri,
      version: ref.version,
      nonce: ref.nonce,
      statement: ref.statement,
      resources: ref.resources,
      issuedAt: ref.issuedAt,
      expirationTime: ref.expirationTime,
      notBefore: ref.notBefore,
      requestId: ref.requestId,
    };
    for (const k of Object.keys(want)) if (want[k] === undefined) delete want[k];
    assert.deepEqual(ours, want, text);
    assert.equal(core.createSiwxMessage(ours), text);
  }
});

test('parseSiwxMessage rejects text that is not a well-formed message with a clear Error', () => {
  const good = core.createSiwxMessage({
    domain: 'example.com',
    accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    uri: 'https://example.com',
    version: '1',
    chainId: 1,
    nonce: '12345678',
    issuedAt: '2024-01-01T00:00:00Z',
  });
  const bad = ['', 'hello', good + '\n', good.replace('Version: 1', 'Version: 2'), good.replace('Nonce: 12345678', 'Nonce: 1234'), good.replace('0xf39F', '0xf39f'), good + '\nResources:\n- nope'];
  for (const b of bad) throwsWith(() => core.parseSiwxMessage(b), /^Invalid SIWX message: line \d+: /);
  throwsWith(() => core.parseSiwxMessage(good.replace('Nonce: 12345678', 'Nonce: 1234')), /line 8: invalid nonce/);
});

test('validateAccountName: at least 4 characters, only ASCII letters, digits and -', () => {
  for (const ok of ['abcd', 'my-name-1', '----', 'ABCD1234']) assert.equal(core.validateAccountName(ok), true, ok);
  for (const bad of ['', 'abc', 'ab_c', 'ab.cd', 'naïve', 'ab cd', 'ab\ncd']) assert.equal(core.validateAccountName(bad), false, bad);
});

test('nameCoinType is (0x80000000 | chainId) >>> 0 below 2^31, otherwise exactly "Invalid chainId"', () => {
  const r = rng(14);
  for (let i = 0; i < 1000; i++) {
    const id = r.int(2 ** 31);
    assert.equal(core.nameCoinType(id), (0x80000000 | id) >>> 0);
  }
  assert.equal(core.nameCoinType(2 ** 31 - 1), 0xffffffff);
  for (const bad of [2 ** 31, 2 ** 32, 2 ** 53, Infinity, NaN, -1, 1.5]) {
    assert.throws(() => core.nameCoinType(bad), (e) => e instanceof Error && e.message === 'Invalid chainId');
  }
});

test('formatNativeBalance truncates toward zero to exactly 3 decimals by string arithmetic', () => {
  assert.equal(core.formatNativeBalance('0.29999999999999999999'), '0.299');
  assert.equal(core.formatNativeBalance('-1.23456'), '-1.234');
  assert.equal(core.formatNativeBalance('12'), '12.000');
  assert.equal(core.formatNativeBalance('123456789012345678901234567890.9999'), '123456789012345678901234567890.999');
  for (const bad of ['', 'abc', 'NaN', '1.2.3', '0x10']) assert.equal(core.formatNativeBalance(bad), '0.000', bad);
  const r = rng(15);
  for (let i = 0; i < 2000; i++) {
    const int = r.digits(1 + r.int(30)).replace(/^0+(?=\d)/, '');
    const frac = r.digits(r.int(30));
    const neg = r.next() < 0.3;
    const s = `${neg ? '-' : ''}${int}${frac ? '.' + frac : ''}`;
    const kept = frac.slice(0, 3).padEnd(3, '0');
    const zero = /^0+$/.test(int + kept);
    assert.equal(core.formatNativeBalance(s), `${neg && !zero ? '-' : ''}${int}.${kept}`, s);
  }
});

test('truncateAddress keeps the first 4 and last 6 characters when longer than 10', () => {
  assert.equal(core.truncateAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'), '0xf3...b92266');
  assert.equal(core.truncateAddress('0123456789'), '0123456789');
  assert.equal(core.truncateAddress('0123456789a'), '0123...56789a');
});
