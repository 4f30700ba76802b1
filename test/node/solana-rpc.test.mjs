// The local Solana chain (demo/solana/rpc.mjs): the real Solana VM (litesvm: real System, SPL Token
// and Associated Token Account programs) behind the standard JSON-RPC, driven here by the
// published client (@solana/kit, @solana-program/*) as a wallet and a dapp would drive a cluster.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  createSolanaRpc,
  generateKeyPairSigner,
  lamports,
} from '@solana/kit';
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { createSolanaRpc as createChain, GENESIS_HASH } from '../../demo/solana/rpc.mjs';
import { signedWire } from '../../demo/solana/seed.mjs';

let chain;
let url;
let rpc;
before(async () => {
  chain = createChain();
  url = await chain.listen(0);
  rpc = createSolanaRpc(url);
});
after(() => chain.close());

/** Signs `instructions` with `payer` (and any signer they name) on the latest blockhash; the base64 wire transaction. */
const wire = (payer, instructions) => signedWire(rpc, payer, instructions);

async function funded(sol = 2n) {
  const k = await generateKeyPairSigner();
  await rpc.requestAirdrop(k.address, lamports(sol * 1_000_000_000n)).send();
  return k;
}

async function call(method, params) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.json();
}

test('an airdrop lands, is finalized and is in the address history', async () => {
  const k = await generateKeyPairSigner();
  const sig = await rpc.requestAirdrop(k.address, lamports(1_500_000_000n)).send();
  assert.equal((await rpc.getBalance(k.address).send()).value, 1_500_000_000n);
  const { value: [status] } = await rpc.getSignatureStatuses([sig]).send();
  assert.equal(status.confirmationStatus, 'finalized');
  assert.equal(status.err, null);
  const history = await rpc.getSignaturesForAddress(k.address).send();
  assert.deepEqual(history.map((h) => h.signature), [sig]);
  assert.equal(await rpc.getGenesisHash().send(), GENESIS_HASH, 'a fixed genesis: a fixed CAIP-2 id');
});

test('a SOL transfer signed by the sender executes: the receiver gets it, the sender pays it and the fee', async () => {
  const a = await funded();
  const b = await generateKeyPairSigner();
  const before = (await rpc.getBalance(a.address).send()).value;
  const tx = await wire(a, [getTransferSolInstruction({ source: a, destination: b.address, amount: lamports(500_000_000n) })]);
  const slot = await rpc.getSlot().send();
  const sig = await rpc.sendTransaction(tx, { encoding: 'base64' }).send();
  assert.equal((await rpc.getBalance(b.address).send()).value, 500_000_000n);
  assert.equal((await rpc.getBalance(a.address).send()).value, before - 500_000_000n - 5000n, 'the fee: 5000 lamports a signature');
  assert.ok((await rpc.getSlot().send()) > slot, 'a transaction is a slot');
  const got = await rpc.getTransaction(sig, { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send();
  assert.equal(got.meta.err, null);
  assert.equal(got.transaction[0], tx, 'the transaction as it was sent');
  const again = await call('sendTransaction', [tx, { encoding: 'base64' }]);
  assert.equal(again.error.code, -32002, 'the same transaction twice is refused');
  assert.match(again.error.message, /already been processed/);
});

test('a transfer that cannot pay is refused at preflight with the program error, and recorded as failed without it', async () => {
  const a = await funded(1n);
  const b = await generateKeyPairSigner();
  const tx = await wire(a, [getTransferSolInstruction({ source: a, destination: b.address, amount: lamports(5_000_000_000n) })]);
  const refused = await call('sendTransaction', [tx, { encoding: 'base64' }]);
  assert.equal(refused.error.code, -32002);
  assert.match(refused.error.message, /^Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1$/);
  assert.deepEqual(refused.error.data.err, { InstructionError: [0, { Custom: 1 }] });
  const sig = (await call('sendTransaction', [tx, { encoding: 'base64', skipPreflight: true }])).result;
  const { value: [status] } = await rpc.getSignatureStatuses([sig]).send();
  assert.deepEqual(status.err, { InstructionError: [0n, { Custom: 1n }] }, 'as kit reads it (numbers as bigint)');
  assert.equal((await rpc.getBalance(b.address).send()).value, 0n);
  const rent = await call('sendTransaction', [await wire(a, [getTransferSolInstruction({ source: a, destination: b.address, amount: lamports(10n) })]), { encoding: 'base64' }]);
  assert.deepEqual(rent.error.data.err, { InsufficientFundsForRent: { account_index: 1 } }, 'a new account below rent exemption');
});

test('an SPL token: a mint, the receiver\'s associated token account made on the way, balances in jsonParsed and by owner', async () => {
  const payer = await funded();
  const mint = await generateKeyPairSigner();
  const alice = await generateKeyPairSigner();
  const space = BigInt(getMintSize());
  const rent = await rpc.getMinimumBalanceForRentExemption(space).send();
  const [payerAta] = await findAssociatedTokenPda({ owner: payer.address, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [aliceAta] = await findAssociatedTokenPda({ owner: alice.address, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await rpc.sendTransaction(await wire(payer, [
    getCreateAccountInstruction({ payer, newAccount: mint, lamports: rent, space, programAddress: TOKEN_PROGRAM_ADDRESS }),
    getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: payer.address }),
    getCreateAssociatedTokenIdempotentInstruction({ payer, owner: payer.address, mint: mint.address, ata: payerAta }),
    getMintToInstruction({ mint: mint.address, token: payerAta, mintAuthority: payer, amount: 100_000_000n }),
  ]), { encoding: 'base64' }).send();
  await rpc.sendTransaction(await wire(payer, [
    getCreateAssociatedTokenIdempotentInstruction({ payer, owner: alice.address, mint: mint.address, ata: aliceAta }),
    getTransferCheckedInstruction({ source: payerAta, mint: mint.address, destination: aliceAta, authority: payer, amount: 12_500_000n, decimals: 6 }),
  ]), { encoding: 'base64' }).send();
  assert.deepEqual((await rpc.getTokenAccountBalance(aliceAta).send()).value, { amount: '12500000', decimals: 6, uiAmount: 12.5, uiAmountString: '12.5' });
  const { value: accounts } = await rpc.getTokenAccountsByOwner(alice.address, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'jsonParsed' }).send();
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0].pubkey, aliceAta);
  const info = accounts[0].account.data.parsed.info;
  assert.equal(info.mint, mint.address);
  assert.equal(info.owner, alice.address);
  assert.equal(info.tokenAmount.uiAmountString, '12.5');
  const byMint = await rpc.getTokenAccountsByOwner(payer.address, { mint: mint.address }, { encoding: 'base64' }).send();
  assert.equal(byMint.value.length, 1);
  assert.equal((await rpc.getTokenSupply(mint.address).send()).value.uiAmountString, '100');
  const parsedMint = (await rpc.getAccountInfo(mint.address, { encoding: 'jsonParsed' }).send()).value.data.parsed;
  assert.deepEqual([parsedMint.type, parsedMint.info.decimals, parsedMint.info.mintAuthority], ['mint', 6, payer.address]);
});

test('the fee of a message is 5000 lamports a signature; a blockhash stays valid for 150 slots', async () => {
  const a = await funded();
  const tx = await wire(a, [getTransferSolInstruction({ source: a, destination: (await generateKeyPairSigner()).address, amount: lamports(1_000_000n) })]);
  const bytes = Buffer.from(tx, 'base64');
  const message = bytes.subarray(1 + 64).toString('base64');
  assert.equal((await call('getFeeForMessage', [message])).result.value, 5000);
  const { value } = await rpc.getLatestBlockhash().send();
  await rpc.requestAirdrop(a.address, lamports(1n)).send();
  assert.equal((await rpc.isBlockhashValid(value.blockhash).send()).value, true, 'still valid a slot later');
  assert.equal((await call('isBlockhashValid', ['11111111111111111111111111111111'])).result.value, false);
});

test('hostile input gets a clear JSON-RPC error: bad JSON, unknown methods, bad addresses, large bodies and batches', async () => {
  const raw = (body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assert.equal((await (await raw('{')).json()).error.code, -32700);
  assert.equal((await call('getBlock', [1])).error.code, -32601);
  assert.equal((await call('__proto__', [])).error.code, -32601);
  const bad = await call('getBalance', ['not-base58-0OIl']);
  assert.deepEqual([bad.error.code, bad.error.message], [-32602, 'Invalid params: address is not a base58 public key']);
  assert.equal((await call('getBalance', 'x')).error.code, -32602);
  assert.equal((await call('sendTransaction', ['AAAA', { encoding: 'base64' }])).error.code, -32602, 'not a transaction');
  assert.equal((await call('requestAirdrop', [(await generateKeyPairSigner()).address, -1])).error.code, -32602);
  const big = await raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth', params: ['x'.repeat(1024 * 1024)] }));
  assert.equal(big.status, 413);
  const batch = await (await raw(JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'getHealth' }))))).json();
  assert.equal(batch.error.code, -32600);
  const ok = await (await raw(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'getHealth' }, { jsonrpc: '2.0', id: 2, method: 'getSlot' }]))).json();
  assert.deepEqual(ok.map((r) => r.id), [1, 2]);
  assert.equal(ok[0].result, 'ok');
});

test('Token-2022 too: its program is on chain, its token accounts (with extensions) are found by owner and parsed', async () => {
  const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
  for (const program of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022, 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL']) {
    assert.equal((await rpc.getAccountInfo(program, { encoding: 'base64' }).send()).value?.executable, true, `${program} is deployed`);
  }
  const payer = await funded();
  const mint = await generateKeyPairSigner();
  const bob = await generateKeyPairSigner();
  const space = BigInt(getMintSize());
  const config = { programAddress: TOKEN_2022 };
  const [bobAta] = await findAssociatedTokenPda({ owner: bob.address, mint: mint.address, tokenProgram: TOKEN_2022 });
  await rpc.sendTransaction(await wire(payer, [
    getCreateAccountInstruction({ payer, newAccount: mint, lamports: await rpc.getMinimumBalanceForRentExemption(space).send(), space, programAddress: TOKEN_2022 }),
    getInitializeMint2Instruction({ mint: mint.address, decimals: 9, mintAuthority: payer.address }, config),
    getCreateAssociatedTokenIdempotentInstruction({ payer, owner: bob.address, mint: mint.address, ata: bobAta, tokenProgram: TOKEN_2022 }),
    getMintToInstruction({ mint: mint.address, token: bobAta, mintAuthority: payer, amount: 3_000_000_000n }, config),
  ]), { encoding: 'base64' }).send();
  const { value } = await rpc.getTokenAccountsByOwner(bob.address, { programId: TOKEN_2022 }, { encoding: 'jsonParsed' }).send();
  assert.equal(value.length, 1);
  assert.equal(value[0].account.data.program, 'spl-token-2022');
  assert.ok(value[0].account.data.space > 165, 'an extended account');
  assert.equal(value[0].account.data.parsed.info.tokenAmount.uiAmountString, '3');
  assert.equal((await rpc.getTokenAccountsByOwner(bob.address, { programId: TOKEN_PROGRAM_ADDRESS }).send()).value.length, 0, 'not under the classic program');
});
