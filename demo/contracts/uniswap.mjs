// The demo's market: Uniswap V2 (factory, Router02, WETH9) on each anvil chain, with pools of the demo
// tokens, and the accounts the on-ramp providers pay out from. Imported by deploy.mjs.
//
// The contracts are the pinned npm artifacts, deployed as they are: `@uniswap/v2-core` (UniswapV2Factory,
// UniswapV2Pair) and `@uniswap/v2-periphery` (UniswapV2Router02, WETH9). The router's library computes
// pair addresses with the pair init code hash compiled into it (the mainnet one); it matches the
// keccak256 of v2-core's UniswapV2Pair creation code, which the factory deploys. `uniswapArtifacts()`
// checks that, and `deployUniswap()` checks the router quotes on the chain (a wrong hash reverts).
//
// Everything is deployed and provided by anvil's dev account 9 (the "market maker"), so the addresses
// on a fresh anvil are the same with or without the history of deploy.mjs: WETH9 at its nonce 0, the
// factory at 1, the router at 2. Account 0 (the tokens' owner) mints it the liquidity once per token.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** anvil's dev accounts 4, 5 and 9 (the well-known test mnemonic, m/44'/60'/0'/0/i). */
export const MARKET_MAKER = {
  address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  key: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
};
/** The accounts the on-ramp providers pay out from (unlocked on anvil: `eth_sendTransaction`). */
export const ONRAMP_PROVIDERS = [
  { id: 'meld', address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65' }, // account 4
  { id: 'coinbase', address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc' }, // account 5
];
/** What each on-ramp account holds (whole tokens). */
export const ONRAMP_FUNDS = { USDC: '1000000', WMT: '10000' };

/**
 * The pools (whole units). Prices: 1 ETH = 3,000 USDC, 1 WMT = 0.25 USDC (= the price table of the
 * backend, chain/manifest.rs PRICES_USD), hence 1 ETH = 12,000 WMT: no arbitrage between them.
 */
export const POOLS = [
  { a: 'ETH', amountA: '1000', b: 'USDC', amountB: '3000000' },
  { a: 'USDC', amountA: '250000', b: 'WMT', amountB: '1000000' },
  { a: 'ETH', amountA: '100', b: 'WMT', amountB: '1200000' },
];

/** The mainnet pair init code hash, compiled into UniswapV2Library.pairFor of the periphery. */
export const PAIR_INIT_CODE_HASH = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f';

const hex = (s) => (s.startsWith('0x') ? s : `0x${s}`);

function packageVersion(name) {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

function artifact(pkg, name) {
  const path = join(dirname(require.resolve(`${pkg}/package.json`)), 'build', `${name}.json`);
  const j = JSON.parse(readFileSync(path, 'utf8'));
  const bytecode = j.bytecode ?? j.evm?.bytecode?.object;
  if (!Array.isArray(j.abi) || typeof bytecode !== 'string') throw new Error(`${path}: no abi or bytecode`);
  return { abi: j.abi, bytecode: hex(bytecode), source: `${pkg}@${packageVersion(pkg)}` };
}

/**
 * `{versions, initCodeHash, contracts: {WETH9, UniswapV2Factory, UniswapV2Router02, UniswapV2Pair}}`,
 * each contract `{abi, bytecode, source}`. Throws when the router's init code hash is not the pair's.
 */
export function uniswapArtifacts(keccak256) {
  const contracts = {
    WETH9: artifact('@uniswap/v2-periphery', 'WETH9'),
    UniswapV2Factory: artifact('@uniswap/v2-core', 'UniswapV2Factory'),
    UniswapV2Router02: artifact('@uniswap/v2-periphery', 'UniswapV2Router02'),
    UniswapV2Pair: artifact('@uniswap/v2-core', 'UniswapV2Pair'),
  };
  if (keccak256) {
    const hash = keccak256(contracts.UniswapV2Pair.bytecode);
    if (hash !== PAIR_INIT_CODE_HASH) {
      throw new Error(`UniswapV2Pair init code hash ${hash} is not the router's ${PAIR_INIT_CODE_HASH}`);
    }
  }
  const routerCode = contracts.UniswapV2Router02.bytecode.toLowerCase();
  if (!routerCode.includes(PAIR_INIT_CODE_HASH.slice(2))) {
    throw new Error('UniswapV2Router02 does not embed the expected pair init code hash');
  }
  return {
    versions: { '@uniswap/v2-core': packageVersion('@uniswap/v2-core'), '@uniswap/v2-periphery': packageVersion('@uniswap/v2-periphery') },
    initCodeHash: PAIR_INIT_CODE_HASH,
    contracts,
  };
}

/**
 * Deploys WETH9, the factory and Router02 from the market maker, funds it (mints by `owner`, the
 * tokens' owner), adds the POOLS, funds the on-ramp accounts and checks a quote. Returns the manifest
 * fields `{uniswap, onramp}` of the chain.
 *
 * ctx: {ethers, provider, owner (ethers Wallet of the tokens' owner), tokens: {USDC, WMT} (contracts),
 *       sent (awaits a transaction promise, throws when it failed), mined (awaits a hash's receipt), log}
 */
export async function deployUniswap(ctx) {
  const { ethers, provider, owner, tokens, sent, mined, log } = ctx;
  const { contracts: U, initCodeHash } = uniswapArtifacts(ethers.keccak256);
  const mm = new ethers.Wallet(MARKET_MAKER.key, provider);
  const chainId = Number((await provider.getNetwork()).chainId);
  const nonce0 = await provider.getTransactionCount(mm.address);
  if (nonce0 !== 0) {
    log(`chain ${chainId}: the market maker has sent ${nonce0} transactions already; Uniswap addresses differ from a fresh anvil`);
  }
  const deploy = async (c, args) => {
    const f = new ethers.ContractFactory(c.abi, c.bytecode, mm);
    const d = await f.deploy(...args);
    await mined(d.deploymentTransaction().hash);
    return d;
  };
  // Nonces 0, 1, 2 of the market maker.
  const weth = await deploy(U.WETH9, []);
  const factory = await deploy(U.UniswapV2Factory, [mm.address]);
  const router = await deploy(U.UniswapV2Router02, [factory.target, weth.target]);

  const decimals = { ETH: 18, USDC: 6, WMT: 18 };
  const units = (sym, n) => ethers.parseUnits(n, decimals[sym]);
  // What the market maker needs: the pools and the on-ramp accounts' funds, minted in one go per token.
  const need = { USDC: 0n, WMT: 0n };
  for (const p of POOLS) {
    for (const [sym, n] of [[p.a, p.amountA], [p.b, p.amountB]]) if (sym !== 'ETH') need[sym] += units(sym, n);
  }
  for (const sym of Object.keys(need)) need[sym] += units(sym, ONRAMP_FUNDS[sym]) * BigInt(ONRAMP_PROVIDERS.length);
  for (const sym of Object.keys(need)) {
    await sent(tokens[sym].connect(owner).mint(mm.address, need[sym]));
    await sent(tokens[sym].connect(mm).approve(router.target, ethers.MaxUint256));
  }
  const r = router.connect(mm);
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
  for (const p of POOLS) {
    if (p.a === 'ETH') {
      const amount = units(p.b, p.amountB);
      await sent(r.addLiquidityETH(tokens[p.b].target, amount, amount, 0n, mm.address, deadline, { value: units('ETH', p.amountA) }));
    } else {
      const [a, b] = [units(p.a, p.amountA), units(p.b, p.amountB)];
      await sent(r.addLiquidity(tokens[p.a].target, tokens[p.b].target, a, b, a, b, mm.address, deadline));
    }
  }
  for (const { address } of ONRAMP_PROVIDERS) {
    for (const sym of Object.keys(ONRAMP_FUNDS)) {
      await sent(tokens[sym].connect(mm).transfer(address, units(sym, ONRAMP_FUNDS[sym])));
    }
  }

  const addressOf = (sym) => (sym === 'ETH' ? weth.target : tokens[sym].target);
  const symbolOf = (addr) => (addr.toLowerCase() === String(weth.target).toLowerCase() ? 'WETH'
    : Object.keys(tokens).find((s) => String(tokens[s].target).toLowerCase() === addr.toLowerCase()));
  const pairAbi = U.UniswapV2Pair.abi;
  const pairs = [];
  for (const p of POOLS) {
    const address = await factory.getPair(addressOf(p.a), addressOf(p.b));
    const pair = new ethers.Contract(address, pairAbi, provider);
    const [token0, token1] = [await pair.token0(), await pair.token1()];
    pairs.push({ address, token0, token1, symbols: [symbolOf(token0), symbolOf(token1)] });
  }
  // A wrong init code hash in the router shows here as a revert (pairFor points at no contract).
  const [, out] = await router.getAmountsOut(units('ETH', '1'), [weth.target, tokens.USDC.target]);
  const quoted = Number(ethers.formatUnits(out, 6));
  if (!(quoted > 2900 && quoted < 3000)) throw new Error(`chain ${chainId}: 1 ETH quotes ${quoted} USDC`);
  log(`chain ${chainId}: Uniswap V2 router ${router.target}, ${pairs.map((p) => p.symbols.join('/')).join(', ')}; 1 ETH = ${quoted} USDC`);
  return {
    uniswap: {
      factory: factory.target,
      router: router.target,
      weth: weth.target,
      initCodeHash,
      liquidityProvider: mm.address,
      pairs,
    },
    onramp: { providers: ONRAMP_PROVIDERS.map((p) => ({ ...p })) },
  };
}
