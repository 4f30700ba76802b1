// The embedded wallet on Solana, in the frame (frame/src/solana.ts through rpc.ts's handleRpc):
// transactions built by the published client (@solana/kit, @solana-program/*) are read back in the
// approval instruction by instruction, signed by the frame's ed25519 key and executed by the real
// Solana VM (demo/solana/rpc.mjs); message signatures are checked by @noble/curves and by
// wallet-modal/core's verifySolanaMessage.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519';
import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getBase58Encoder,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { loadFrame } from '../../frame/test/load.mjs';
import { createSolanaRpc as createChain } from '../../demo/solana/rpc.mjs';
import { seedDemo } from '../../demo/solana/seed.mjs';
import * as core from '../../dist/core.js';

const LOCAL_REF = '4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
const f = await loadFrame();
const keys = await f.deriveKeys(crypto.getRandomValues(new Uint8Array(32)));
const ME = keys.solanaAddress;

let chain;
let url;
let rpc;
let tokens;
before(async () => {
  chain = createChain();
  url = await chain.listen(0);
  rpc = createSolanaRpc(url);
  // The frame's account holds SOL and the USDC-like token (real transactions).
  ({ usdc: tokens } = await seedDemo(url, ME, { sol: 3n }));
  await core.init();
});
after(() => chain.close());

/** What handleRpc needs: the visitor approves (or not), and what the approval showed is kept. */
function ctx({ approve = true, shown = [] } = {}) {
  return {
    keys,
    call: f.rpcClient(fetch, url),
    checkAborted: () => {},
    consent: async (prepared, network) => {
      shown.push({ review: prepared.review, network, method: prepared.method });
      return approve;
    },
  };
}
const request = (method, params) => ({ method, params, chainId: 0, solana: LOCAL_REF, rpcUrl: url, network: { name: 'Solana Local' } });

/** `instructions` paid by `payer` (default: the frame's account), unsigned, in base64. */
async function unsigned(instructions, payer = ME) {
  const { value: blockhash } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayer(address(payer), m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}

const rowsOf = (review) => Object.fromEntries(review.instructions.flatMap((ix) => ix.rows));

test('a SOL transfer is shown from its bytes, signed by the frame once approved, and executed by the chain', async () => {
  const bob = await generateKeyPairSigner();
  const tx = await unsigned([getTransferSolInstruction({ source: createNoopSigner(address(ME)), destination: bob.address, amount: lamports(250_000_000n) })]);
  const shown = [];
  const out = await f.handleRpc(request('solana_signAndSendTransaction', [{ transaction: tx }]), ctx({ shown }));
  const [{ review, network }] = shown;
  assert.equal(review.kind, 'solana');
  assert.deepEqual(review.instructions.map((i) => i.name), ['Send SOL']);
  assert.deepEqual(rowsOf(review), { From: ME, To: bob.address, Amount: '0.25 SOL' });
  assert.deepEqual(review.fee, [['Network fee', '0.000005 SOL']]);
  assert.equal(review.total, '0.250005 SOL (amount, fee and rent)');
  assert.deepEqual([network.name, network.namedBySite, network.symbol], ['Solana Local', true, 'SOL']);
  assert.match(out.signature, /^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
  assert.equal((await rpc.getBalance(bob.address).send()).value, 250_000_000n);
  const { value: [status] } = await rpc.getSignatureStatuses([out.signature]).send();
  assert.equal(status.err, null);
});

test('a token transfer to a receiver without an account shows the account created, its rent, the receiver and the amount', async () => {
  const carol = await generateKeyPairSigner();
  const mint = address(tokens.mint);
  const me = createNoopSigner(address(ME));
  const [mine] = await findAssociatedTokenPda({ owner: address(ME), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [theirs] = await findAssociatedTokenPda({ owner: carol.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const tx = await unsigned([
    getCreateAssociatedTokenIdempotentInstruction({ payer: me, ata: theirs, owner: carol.address, mint }),
    getTransferCheckedInstruction({ source: mine, mint, destination: theirs, authority: me, amount: 12_500_000n, decimals: 6 }),
  ]);
  const shown = [];
  await f.handleRpc(request('solana_signAndSendTransaction', [{ transaction: tx }]), ctx({ shown }));
  const [{ review }] = shown;
  assert.deepEqual(review.instructions.map((i) => i.name), ['Create a token account (if it does not exist)', 'Send tokens']);
  const rent = await rpc.getMinimumBalanceForRentExemption(165n).send();
  const [create, send] = review.instructions.map((i) => Object.fromEntries(i.rows));
  assert.equal(create.Owner, carol.address);
  assert.equal(create['Rent (paid by you)'], `${Number(rent) / 1e9} SOL`);
  assert.equal(send.To, carol.address, 'the receiver, not its token account');
  assert.equal(send.Amount, '12.5');
  assert.equal(send['Token (mint)'], tokens.mint);
  assert.equal(review.total, `${Number(5000n + rent) / 1e9} SOL (amount, fee and rent)`);
  const { value } = await rpc.getTokenAccountBalance(theirs).send();
  assert.equal(value.amount, '12500000');
});

test('a rejected approval signs and sends nothing', async () => {
  const bob = await generateKeyPairSigner();
  const tx = await unsigned([getTransferSolInstruction({ source: createNoopSigner(address(ME)), destination: bob.address, amount: lamports(1_000_000n) })]);
  await assert.rejects(f.handleRpc(request('solana_signAndSendTransaction', [{ transaction: tx }]), ctx({ approve: false })), { code: 4001 });
  assert.equal((await rpc.getBalance(bob.address).send()).value, 0n);
});

test('a message is signed by the frame’s key: @noble/curves and wallet-modal/core both verify it', async () => {
  const message = new TextEncoder().encode('Sign in to wallet-modal');
  const shown = [];
  const out = await f.handleRpc(request('solana_signMessage', { message: getBase58Decoder().decode(message), pubkey: ME }), ctx({ shown }));
  assert.equal(shown[0].review.text, 'Sign in to wallet-modal');
  const signature = getBase58Encoder().encode(out.signature);
  const publicKey = getBase58Encoder().encode(ME);
  assert.equal(ed25519.verify(signature, message, publicKey), true);
  assert.equal(core.verifySolanaMessage(ME, message, new Uint8Array(signature)), true);
  await assert.rejects(f.handleRpc(request('solana_signMessage', { message: 'abc', pubkey: 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB' }), ctx()), { code: 4100 });
  // A message too long to decode (base58 is quadratic): refused before it is read, at once.
  const started = performance.now();
  await assert.rejects(f.handleRpc(request('solana_signMessage', { message: '2'.repeat(100_000), pubkey: ME }), ctx()), { code: -32602 });
  assert.ok(performance.now() - started < 100, 'refused before decoding');
});

test('what cannot be shown or is not its own to sign is refused before the visitor is asked', async () => {
  const other = await generateKeyPairSigner();
  const shown = [];
  // Another account's transaction.
  const foreign = await unsigned([getTransferSolInstruction({ source: createNoopSigner(other.address), destination: address(ME), amount: lamports(1n) })], other.address);
  await assert.rejects(f.handleRpc(request('solana_signAndSendTransaction', [{ transaction: foreign }]), ctx({ shown })), { code: 4100 });
  // Bytes that end too early, base64 that is not, and a transaction larger than Solana carries.
  await assert.rejects(f.handleRpc(request('solana_signTransaction', [{ transaction: 'AQAB' }]), ctx({ shown })), { code: -32602 });
  await assert.rejects(f.handleRpc(request('solana_signTransaction', [{ transaction: '!!!' }]), ctx({ shown })), { code: -32602 });
  await assert.rejects(f.handleRpc(request('solana_signTransaction', [{ transaction: 'A'.repeat(4000) }]), ctx({ shown })), { code: -32602 });
  // An EVM method on a Solana network, a Solana one on an EVM network, a node read.
  await assert.rejects(f.handleRpc(request('personal_sign', ['0x00', ME]), ctx({ shown })), { code: 4200 });
  await assert.rejects(f.handleRpc({ ...request('solana_signMessage', { message: 'abc' }), solana: null, chainId: 1 }, ctx({ shown })), { code: 4200 });
  await assert.rejects(f.handleRpc(request('getBalance', [ME]), ctx({ shown })), { code: 4200 });
  assert.deepEqual(shown, [], 'nothing was shown');
});

test('an instruction of a program it cannot read is shown as such, with a warning; solana_signTransaction answers the signed transaction', async () => {
  const tx = await unsigned([
    getTransferSolInstruction({ source: createNoopSigner(address(ME)), destination: address(ME), amount: lamports(1n) }),
    { programAddress: address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'), accounts: [], data: new TextEncoder().encode('hello') },
  ]);
  const shown = [];
  const out = await f.handleRpc(request('solana_signTransaction', [{ transaction: tx }]), ctx({ shown }));
  const [{ review }] = shown;
  assert.equal(review.instructions[1].name, 'Unknown instruction');
  assert.match(review.warnings[0], /cannot read \(MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr\)/);
  const signed = Buffer.from(out.transaction, 'base64');
  const message = signed.subarray(1 + 64);
  assert.equal(ed25519.verify(signed.subarray(1, 65), message, getBase58Encoder().encode(ME)), true, 'the signature in its slot signs the message');
  assert.equal(getBase58Decoder().decode(signed.subarray(1, 65)), out.signature);
});

test('the frame parses a Solana RPC request by its CAIP-2 reference and node, and the Login user lists the Solana account', () => {
  const req = f.parseRpcRequest({ method: 'solana_signMessage', params: [{ message: 'abc' }], chainId: LOCAL_REF, chainNamespace: 'solana', rpcUrl: url });
  assert.deepEqual([req.solana, req.chainId, req.rpcUrl], [LOCAL_REF, 0, url]);
  assert.throws(() => f.parseRpcRequest({ method: 'solana_signMessage', chainId: 'short', chainNamespace: 'solana', rpcUrl: url }), { code: -32602 });
  assert.throws(() => f.parseRpcRequest({ method: 'solana_signMessage', chainId: LOCAL_REF, chainNamespace: 'solana', rpcUrl: null }), { code: -32602 });
  const user = f.loginUser({ wallet: { keys, profile: { email: 'a@example.com', userName: null, socialProvider: null }, connected: true }, state: { chainId: 1 } }, null);
  assert.deepEqual(user.accounts, [{ address: keys.address, type: 'eoa' }, { address: ME, type: 'eoa', namespace: 'solana' }]);
});
