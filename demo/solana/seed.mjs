// What `make demo` and the browser tests find on the local Solana chain: the demo wallet's account
// funded with SOL, a USDC-like token (SPL Token, 6 decimals) and a second one on Token-2022
// (9 decimals) held by it, and some history — all made by real transactions through the chain's
// JSON-RPC with the published client (@solana/kit), as a dapp's own setup would.
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
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

export const TOKEN_2022 = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');

/** `instructions` paid and signed by `payer` (and any signer they name) on the latest blockhash: the
 * base64 wire transaction. */
export async function signedWire(rpc, payer, instructions) {
  const { value: blockhash } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
}

/**
 * Seeds the chain at `url` for `owner` (a base58 address). Resolves with the mints:
 * `{ usdc: {mint, symbol, decimals, program}, second: {…} }`.
 */
export async function seedDemo(url, owner, { sol = 20n } = {}) {
  const rpc = createSolanaRpc(url);
  const send = async (payer, instructions) => rpc.sendTransaction(await signedWire(rpc, payer, instructions), { encoding: 'base64' }).send();
  const ownerAddress = address(owner);
  const issuer = await generateKeyPairSigner();
  await rpc.requestAirdrop(issuer.address, lamports(5_000_000_000n)).send();
  await rpc.requestAirdrop(ownerAddress, lamports(sol * 1_000_000_000n)).send();

  const mintToken = async (program, decimals, amount) => {
    const mint = await generateKeyPairSigner();
    const space = BigInt(getMintSize());
    const config = { programAddress: program };
    const [ata] = await findAssociatedTokenPda({ owner: ownerAddress, mint: mint.address, tokenProgram: program });
    await send(issuer, [
      getCreateAccountInstruction({ payer: issuer, newAccount: mint, lamports: await rpc.getMinimumBalanceForRentExemption(space).send(), space, programAddress: program }),
      getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: issuer.address }, config),
      getCreateAssociatedTokenIdempotentInstruction({ payer: issuer, owner: ownerAddress, mint: mint.address, ata, tokenProgram: program }),
      getMintToInstruction({ mint: mint.address, token: ata, mintAuthority: issuer, amount }, config),
    ]);
    return { mint: mint.address, ata };
  };
  const usdc = await mintToken(TOKEN_PROGRAM_ADDRESS, 6, 1_000_000_000n); // 1,000
  const second = await mintToken(TOKEN_2022, 9, 250_000_000_000n); // 250

  // Some history: the issuer's payments to the owner, and a token it keeps for itself.
  await send(issuer, [getTransferSolInstruction({ source: issuer, destination: ownerAddress, amount: lamports(250_000_000n) })]);
  const [issuerAta] = await findAssociatedTokenPda({ owner: issuer.address, mint: usdc.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await send(issuer, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: issuer, owner: issuer.address, mint: usdc.mint, ata: issuerAta }),
    getMintToInstruction({ mint: usdc.mint, token: issuerAta, mintAuthority: issuer, amount: 5_000_000n }),
    getTransferCheckedInstruction({ source: issuerAta, mint: usdc.mint, destination: usdc.ata, authority: issuer, amount: 2_500_000n, decimals: 6 }),
  ]);
  return {
    usdc: { mint: usdc.mint, symbol: 'USDC', name: 'USD Coin (local)', decimals: 6, program: TOKEN_PROGRAM_ADDRESS },
    second: { mint: second.mint, symbol: 'WMT', name: 'Wallet Modal Token', decimals: 9, program: TOKEN_2022 },
  };
}
