// The public `./core` entry in Chromium: the real build in /dist/core.js, loaded with fetch.
// Expected values were produced independently by viem 2, siwe 3 and Node's ed25519.
import { expect } from '@esm-bundle/chai';
import * as core from '/dist/core.js';

const DEV_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
// viem privateKeyToAccount(<first anvil dev key>).signMessage({ message: 'hello world' })
const SIG_HELLO =
  '0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b';
// … and { message: 'héllo 😀' }
const SIG_UNICODE =
  '0xd67d44881f0ec1ed32fd99e599d535ac08a03085f798a701f29a020dece096cf63371095486e26cb65122b350ffcda35dbc9a3a649318da81dff1e4c632b8fdb1b';
// Node: ed25519 key from 32 bytes of 7, signing 'Sign in to example.com'
const SOL_KEY = 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB';
const SOL_SIG =
  '853ac396a9e84509fde8ad0f2018d08fb34112aafce28a6a0e5517820d54cd698d2d0fbb72e30456cbf41ac408101ae1ecf231051fe0823c6aed8638d6595c07';

const hexBytes = (h) => Uint8Array.from(h.match(/../g).map((b) => parseInt(b, 16)));
const utf8 = (s) => new TextEncoder().encode(s);

function expectError(fn, re) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'threw').to.be.instanceOf(Error);
  expect(caught.message).to.match(re);
  return caught;
}

describe('wallet-modal/core in the browser', () => {
  it('throws "call await init()" before init(), then init() fetches the wasm next to the module', async () => {
    expectError(() => core.keccak256(new Uint8Array()), /^wallet-modal\/core: call await init\(\) before using keccak256/);
    await core.init();
    await core.init(); // idempotent
    expect(core.keccak256(new Uint8Array())).to.equal('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('EIP-55 checksums match the spec vectors; isEvmAddress strict needs 0x and a valid mixed-case checksum', () => {
    for (const v of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(core.checksumAddress(v.toLowerCase())).to.equal(v);
      expect(core.checksumAddress(v.slice(2))).to.equal(v);
      expect(core.isEvmAddress(v, true)).to.equal(true);
    }
    expect(core.isEvmAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', true)).to.equal(false);
    expect(core.isEvmAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).to.equal(true);
    expect(core.isEvmAddress('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', true)).to.equal(false);
    expect(core.isEvmAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', true)).to.equal(true);
    expectError(() => core.checksumAddress('0x123'), /Invalid address/);
  });

  it('isSolanaAddress needs 32-44 base58 characters decoding to 32 bytes', () => {
    expect(core.isSolanaAddress(SOL_KEY)).to.equal(true);
    expect(core.isSolanaAddress('11111111111111111111111111111111')).to.equal(true);
    expect(core.isSolanaAddress('0okenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).to.equal(false);
    expect(core.isSolanaAddress('abc')).to.equal(false);
  });

  it('parseUnits returns a bigint, rounds half away from zero and rejects anything off-grammar with "Invalid"', () => {
    expect(core.parseUnits('1.5', 18)).to.equal(1500000000000000000n);
    expect(core.parseUnits('-1.15', 1)).to.equal(-12n);
    expect(core.parseUnits('0.123456789', 6)).to.equal(123457n);
    expect(core.parseUnits(`${2n ** 300n}`, 2)).to.equal(2n ** 300n * 100n);
    for (const bad of ['', '.5', '1.', '1e5', '+1', ' 1', '0x10']) expectError(() => core.parseUnits(bad, 18), /Invalid/);
  });

  it('formatUnits prints like viem (no trailing zeros, sign kept, any size)', () => {
    expect(core.formatUnits(1500000000000000000n, 18)).to.equal('1.5');
    expect(core.formatUnits(-5n, 2)).to.equal('-0.05');
    expect(core.formatUnits(0n, 18)).to.equal('0');
    expect(core.formatUnits(2n ** 256n, 0)).to.equal('115792089237316195423570985008687907853269984665640564039457584007913129639936');
  });

  it('keccak256 is Keccak-256 and hashMessage is EIP-191 over UTF-8 bytes', () => {
    expect(core.keccak256(utf8('abc'))).to.equal('0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    expect(core.hashMessage('hello world')).to.equal('0xd9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68');
    expect(core.hashMessage('héllo 😀')).to.equal('0xe642c76e68fc9e5d60e414e111622dfce98ed3b6bef3efe144078d59a3883bfa');
  });

  it('recoverMessageAddress returns the checksummed signer, verifyMessage is case-insensitive and false on mismatch', () => {
    expect(core.recoverMessageAddress('hello world', SIG_HELLO)).to.equal(DEV_ADDRESS);
    expect(core.recoverMessageAddress('héllo 😀', SIG_UNICODE)).to.equal(DEV_ADDRESS);
    expect(core.verifyMessage(DEV_ADDRESS.toLowerCase(), 'hello world', SIG_HELLO)).to.equal(true);
    expect(core.verifyMessage(DEV_ADDRESS, 'hello world!', SIG_HELLO)).to.equal(false);
    expect(core.verifyMessage(DEV_ADDRESS, 'hello world', '0x1234')).to.equal(false);
    expectError(() => core.recoverMessageAddress('hello world', SIG_HELLO.slice(0, 130)), /Invalid signature/);
    expectError(() => core.recoverMessageAddress('hello world', SIG_HELLO.slice(0, 130) + '1d'), /Invalid signature/);
  });

  it('verifySolanaMessage checks ed25519 over the bytes with a base58 public key', () => {
    const msg = utf8('Sign in to example.com');
    expect(core.verifySolanaMessage(SOL_KEY, msg, hexBytes(SOL_SIG))).to.equal(true);
    expect(core.verifySolanaMessage(SOL_KEY, utf8('Sign in to evil.com'), hexBytes(SOL_SIG))).to.equal(false);
    expect(core.verifySolanaMessage(SOL_KEY, msg, hexBytes(SOL_SIG).slice(1))).to.equal(false);
  });

  it('CAIP parsers need 2 or 3 non-empty parts with a known namespace and keep the address verbatim', () => {
    expect(core.parseCaipNetworkId('eip155:137')).to.deep.equal({ chainNamespace: 'eip155', chainId: '137' });
    expect(core.parseCaipAddress('eip155:1:0xAbC')).to.deep.equal({ chainNamespace: 'eip155', chainId: '1', address: '0xAbC' });
    expectError(() => core.parseCaipNetworkId('eip155:1:x'), /Invalid CAIP network id/);
    expectError(() => core.parseCaipAddress('foo:1:0x'), /Invalid CAIP address/);
    expectError(() => core.parseCaipAddress('eip155::0x'), /Invalid CAIP address/);
  });

  it('isTransactionHash is 0x + 64 hex, isSignedMessage is 0x + at least 62 hex', () => {
    expect(core.isTransactionHash('0x' + 'ab'.repeat(32))).to.equal(true);
    expect(core.isTransactionHash('0x' + 'ab'.repeat(33))).to.equal(false);
    expect(core.isSignedMessage('0x' + 'a'.repeat(62))).to.equal(true);
    expect(core.isSignedMessage('0x' + 'a'.repeat(61))).to.equal(false);
  });

  it('createSiwxMessage writes siwe text byte for byte and parseSiwxMessage reads it back', () => {
    const fields = {
      domain: 'example.com',
      accountAddress: DEV_ADDRESS,
      chainId: 1,
      uri: 'https://example.com/login',
      version: '1',
      nonce: 'abcdefgh12',
      statement: 'Hello world',
      resources: [],
      issuedAt: '2024-01-01T00:00:00.000Z',
      requestId: 'r-1',
    };
    // new SiweMessage({...fields, address: accountAddress}).prepareMessage() (siwe 3.0.0)
    const expected =
      'example.com wants you to sign in with your Ethereum account:\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n\nHello world\n\n' +
      'URI: https://example.com/login\nVersion: 1\nChain ID: 1\nNonce: abcdefgh12\nIssued At: 2024-01-01T00:00:00.000Z\nRequest ID: r-1\nResources:';
    const text = core.createSiwxMessage(fields);
    expect(text).to.equal(expected);
    expect(core.parseSiwxMessage(text)).to.deep.equal(fields);
    expectError(() => core.createSiwxMessage({ ...fields, nonce: 'short' }), /^Invalid SIWX message fields: invalid nonce/);
    expectError(() => core.parseSiwxMessage(text.replace('Version: 1', 'Version: 9')), /^Invalid SIWX message: line 7: invalid version/);
  });

  it('names: validateAccountName and nameCoinType with exactly "Invalid chainId"', () => {
    expect(core.validateAccountName('my-name')).to.equal(true);
    expect(core.validateAccountName('abc')).to.equal(false);
    expect(core.validateAccountName('ab_cd')).to.equal(false);
    expect(core.nameCoinType(137)).to.equal(0x80000089);
    const e = expectError(() => core.nameCoinType(2 ** 31), /^Invalid chainId$/);
    expect(e.message).to.equal('Invalid chainId');
  });

  it('formatNativeBalance truncates to 3 decimals, truncateAddress keeps 4 + 6 characters', () => {
    expect(core.formatNativeBalance('0.29999999999999999999')).to.equal('0.299');
    expect(core.formatNativeBalance('-1.23456')).to.equal('-1.234');
    expect(core.formatNativeBalance('')).to.equal('0.000');
    expect(core.formatNativeBalance('abc')).to.equal('0.000');
    expect(core.truncateAddress(DEV_ADDRESS)).to.equal('0xf3...b92266');
    expect(core.truncateAddress('0x12345678')).to.equal('0x12345678');
  });
});
