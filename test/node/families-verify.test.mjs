// Bitcoin, Polkadot and Cosmos message signatures: made by the test wallets' signing code (the
// same functions the browser's demo wallets run) and by the families' reference libraries, and
// checked both by wallet-modal/core (dist/core.js, the Rust core compiled to WebAssembly) and by
// those libraries (bip322-js, @polkadot/util-crypto, @keplr-wallet/cosmos).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Verifier, Signer } from 'bip322-js';
import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady, signatureVerify } from '@polkadot/util-crypto';
import { u8aToHex, u8aWrapBytes, stringToU8a } from '@polkadot/util';
import { Secp256k1Wallet } from '@cosmjs/amino';
import { verifyADR36Amino, makeADR36AminoSignDoc } from '@keplr-wallet/cosmos';
import { bitcoinAddresses, signBip322, signLegacy, signPsbt, BITCOIN_DEMO_SEED } from '../../demo/wallet/families/bitcoin-wallet.js';
import * as btc from '@scure/btc-signer';
import { adr36Doc } from '../../demo/wallet/families/keplr-wallet.js';
import * as core from '../../dist/core.js';

await core.init();
const hex = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
const MESSAGE = 'Sign in to example.com ✓ <&>';

test('Bitcoin: the demo wallet\'s BIP-322 and legacy signatures verify in wallet-modal/core and bip322-js, on every network', () => {
  for (const net of ['mainnet', 'testnet', 'regtest']) {
    const { payment, ordinals } = bitcoinAddresses(BITCOIN_DEMO_SEED, net);
    for (const p of [payment, ordinals]) {
      const sig = signBip322(hex(BITCOIN_DEMO_SEED), p, MESSAGE);
      assert.equal(core.verifyBitcoinMessage(p.address, MESSAGE, sig), true, `${net} ${p.address}`);
      assert.equal(Verifier.verifySignature(p.address, MESSAGE, sig), true, `bip322-js ${net} ${p.address}`);
      assert.equal(core.verifyBitcoinMessage(p.address, MESSAGE + '.', sig), false);
    }
    const legacy = signLegacy(hex(BITCOIN_DEMO_SEED), MESSAGE);
    assert.equal(core.verifyBitcoinMessage(payment.address, MESSAGE, legacy), true);
    assert.equal(Verifier.verifySignature(payment.address, MESSAGE, legacy), true);
  }
  assert.equal(core.isBitcoinAddress(bitcoinAddresses(BITCOIN_DEMO_SEED, 'testnet').payment.address, 'bip122:000000000019d6689c085ae165831e93'), false, 'a testnet address is not mainnet\'s');
});

test('Bitcoin: a signature bip322-js makes verifies in wallet-modal/core, and why one does not is said', () => {
  const wif = 'L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k';
  const address = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l';
  const sig = Signer.sign(wif, address, MESSAGE);
  assert.equal(core.verifyBitcoinMessage(address, MESSAGE, sig), true);
  let why = '';
  assert.equal(core.verifyBitcoinMessage(address, 'x', 'AA==', (w) => (why = w)), false);
  assert.match(why, /Not a Bitcoin message signature/);
});

test('Polkadot: an sr25519 and an ed25519 signature of <Bytes>…</Bytes> verify in wallet-modal/core and signatureVerify', async () => {
  await cryptoWaitReady();
  for (const type of ['sr25519', 'ed25519']) {
    const pair = new Keyring({ type, ss58Format: 0 }).addFromUri('//Alice');
    const signature = u8aToHex(pair.sign(u8aWrapBytes(stringToU8a(MESSAGE))));
    assert.equal(signatureVerify(MESSAGE, signature, pair.address).isValid, true);
    assert.equal(core.verifyPolkadotMessage(pair.address, MESSAGE, signature), true, type);
    assert.equal(core.verifyPolkadotMessage(pair.address, 'another', signature), false);
  }
  assert.equal(core.isPolkadotAddress('15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'), true);
  assert.equal(core.isPolkadotAddress('15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp6'), false, 'a checksum error');
});

test('Cosmos: the demo wallet\'s ADR-036 document is Keplr\'s, and its signature verifies in wallet-modal/core and verifyADR36Amino', async () => {
  const wallet = await Secp256k1Wallet.fromKey(hex('2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819'), 'osmo');
  const [{ address }] = await wallet.getAccounts();
  assert.deepEqual(adr36Doc(address, MESSAGE), makeADR36AminoSignDoc(address, MESSAGE), 'the same document Keplr signs');
  const { signature } = await wallet.signAmino(address, adr36Doc(address, MESSAGE));
  assert.equal(verifyADR36Amino('osmo', address, MESSAGE, Buffer.from(signature.pub_key.value, 'base64'), Buffer.from(signature.signature, 'base64')), true);
  assert.equal(core.verifyCosmosMessage(address, MESSAGE, signature), true);
  assert.equal(core.verifyCosmosMessage(address, MESSAGE + '!', signature), false);
  assert.equal(core.isCosmosAddress(address, 'osmo'), true);
  assert.equal(core.isCosmosAddress(address, 'cosmos'), false);
});

test('Bitcoin: the demo wallet signs a transfer\'s PSBT as the core\'s vectors say, and a tampering wallet signs another transaction', () => {
  // core/src/chain/bip122/psbt.rs: SCURE (unsigned) and SCURE_SIGNED.
  const unsigned = hex('70736274ff010071020000000102b3e44fb8dd0c69a71bff421e6670be8d20a70b9122c0617d2b1f3882d5c4dc0000000000ffffffff0240420f00000000001600141111111111111111111111111111111111111111f0a7f629010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b000000000001011f00f2052a010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b000000');
  const signed = signPsbt(hex(BITCOIN_DEMO_SEED), unsigned, [0]);
  assert.match(Buffer.from(signed).toString('hex'), /^70736274ff.*220203fdbad05a5e2681ff21f6b5f637d23da64f9e899ba5969a221ec984f4775cf9eb4730440220136a04b8/);
  const tx = btc.Transaction.fromPSBT(signed);
  tx.finalize();
  assert.equal(tx.id, '9a2e28b110eeaf7e45570c4412b37f48fe71d70656e179e70d64f0f8888f3802');
  const other = btc.Transaction.fromPSBT(signPsbt(hex(BITCOIN_DEMO_SEED), unsigned, [0], true));
  assert.equal(other.getOutput(0).amount, 999_999n, 'one satoshi less to the receiver');
});
