#!/usr/bin/env node
// Compiles the demo contracts (solc-js from npm, pinned optimizer settings) and deploys them to anvil
// chains with some history, then writes a JSON manifest the demo backend reads (`--contracts`).
//
//   node demo/contracts/deploy.mjs --rpc http://127.0.0.1:8545 [--rpc URL ...] --out manifest.json
//        [--api-url http://127.0.0.1:4173] [--no-history]
//   node demo/contracts/deploy.mjs --compile-only [--artifacts artifacts.json]
//
// Each chain also gets the demo's market (uniswap.mjs): Uniswap V2 from the pinned npm artifacts, pools of
// ETH, USDC and WMT, and the funded accounts of the on-ramp providers; the manifest records them
// (`uniswap`, `onramp`). `--artifacts` also holds the Uniswap contracts' ABIs and bytecode.
//
// Compiled artifacts are cached in demo/contracts/build/ (git-ignored), keyed by a hash of the
// sources, the compiler version, the OpenZeppelin version and the settings: later runs skip solc.
//
// On a fresh anvil the addresses are always the same (same deployers, same nonce order): the deployer
// is anvil's first dev account, the spam token comes from the third (an unsolicited airdrop).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { deployUniswap, uniswapArtifacts } from './uniswap.mjs';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
const SRC = join(HERE, 'src');
const BUILD = join(HERE, 'build');
const OZ_DIR = dirname(require.resolve('@openzeppelin/contracts/package.json'));

/** anvil's dev accounts 0, 1 and 2 (the well-known test mnemonic; never use them elsewhere). */
export const ACCOUNTS = {
  deployer: {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  friend: {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    key: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  spammer: {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    key: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
};

/** Compiler settings: part of the cache key, so changing them recompiles. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

function log(...a) {
  if (!process.env.DEPLOY_QUIET) console.error('[contracts]', ...a);
}

function parseArgs(argv) {
  const o = { rpc: [], out: null, apiUrl: 'http://127.0.0.1:4173', history: true, compileOnly: false, artifacts: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--rpc') o.rpc.push(val());
    else if (a === '--out') o.out = val();
    else if (a === '--api-url') o.apiUrl = val().replace(/\/+$/, '');
    else if (a === '--no-history') o.history = false;
    else if (a === '--compile-only') o.compileOnly = true;
    else if (a === '--artifacts') o.artifacts = val();
    else if (a === '--rebase') o.rebase = val().replace(/\/+$/, '');
    else if (a === '-h' || a === '--help') o.help = true;
    else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  if (o.rebase && !o.out) throw new Error('--rebase URL needs --out manifest.json (the manifest to re-point)');
  if (!o.help && !o.compileOnly && !o.rebase && (o.rpc.length === 0 || !o.out)) throw new Error('--rpc URL and --out FILE are required');
  return o;
}

// ----- compile -------------------------------------------------------------------------------------------

function sources() {
  const out = {};
  for (const f of readdirSync(SRC).filter((f) => f.endsWith('.sol')).sort()) {
    out[`src/${f}`] = { content: readFileSync(join(SRC, f), 'utf8') };
  }
  return out;
}

function solcVersion() {
  return JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')).version;
}

function ozVersion() {
  return JSON.parse(readFileSync(join(OZ_DIR, 'package.json'), 'utf8')).version;
}

/** The artifacts `{key, solc, contracts: {Name: {abi, bytecode}}}`, from the cache when possible. */
export async function compile() {
  const src = sources();
  const key = createHash('sha256')
    .update(JSON.stringify({ solc: solcVersion(), oz: ozVersion(), settings: SETTINGS, src }))
    .digest('hex')
    .slice(0, 16);
  const cached = join(BUILD, `artifacts-${key}.json`);
  if (existsSync(cached)) {
    try {
      return JSON.parse(readFileSync(cached, 'utf8'));
    } catch {
      // a torn file from an interrupted run: compile again
    }
  }
  const t0 = Date.now();
  const solc = require('solc');
  const input = { language: 'Solidity', sources: src, settings: SETTINGS };
  const findImports = (path) => {
    const prefix = '@openzeppelin/contracts/';
    if (!path.startsWith(prefix) || path.includes('..')) return { error: `import not found: ${path}` };
    try {
      return { contents: readFileSync(join(OZ_DIR, path.slice(prefix.length)), 'utf8') };
    } catch (e) {
      return { error: `cannot read ${path}: ${e.message}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (output.errors || []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contracts = {};
  for (const [file, byName] of Object.entries(output.contracts)) {
    if (!file.startsWith('src/')) continue;
    for (const [name, c] of Object.entries(byName)) {
      contracts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    }
  }
  const artifacts = { key, solc: solc.version(), openzeppelin: ozVersion(), settings: SETTINGS, contracts };
  mkdirSync(BUILD, { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(artifacts));
  renameSync(tmp, cached); // atomic: concurrent runs never read half a file
  log(`compiled ${Object.keys(contracts).join(', ')} with solc ${solc.version()} in ${Date.now() - t0} ms`);
  return artifacts;
}

// ----- deploy --------------------------------------------------------------------------------------------

async function rawRpc(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Deploys everything to one chain and makes some history; returns the chain's manifest entry. */
async function deployChain(ethers, artifacts, rpcUrl, { apiUrl, history }) {
  const chainId = Number(BigInt(await rawRpc(rpcUrl, 'eth_chainId')));
  const network = ethers.Network.from(chainId);
  // No batching and fast polling: anvil mines each transaction at once.
  const provider = new ethers.JsonRpcProvider(rpcUrl, network, {
    staticNetwork: network,
    batchMaxCount: 1,
    pollingInterval: 20,
    cacheTimeout: -1,
  });
  const deployer = new ethers.Wallet(ACCOUNTS.deployer.key, provider);
  const friend = new ethers.Wallet(ACCOUNTS.friend.key, provider);
  const spammer = new ethers.Wallet(ACCOUNTS.spammer.key, provider);
  const nonce0 = await provider.getTransactionCount(deployer.address);
  if (nonce0 !== 0) {
    log(`chain ${chainId}: the deployer has sent ${nonce0} transactions already; addresses differ from a fresh anvil`);
  }

  const { DemoToken, DemoCollection } = artifacts.contracts;
  const tokenFactory = (w) => new ethers.ContractFactory(DemoToken.abi, DemoToken.bytecode, w);
  const nftFactory = new ethers.ContractFactory(DemoCollection.abi, DemoCollection.bytecode, deployer);
  // The receipt, asked until it is there. Not ethers' tx.wait(): it checks the receipt once, then on
  // each new block; anvil mines a transaction a moment after answering eth_sendTransaction and then
  // makes no further block, so a first check that came too early waited for ever (a hang seen under load).
  const mined = async (hash) => {
    for (const t0 = Date.now(); Date.now() - t0 < 30_000; await new Promise((r) => setTimeout(r, 20))) {
      const receipt = await rawRpc(rpcUrl, 'eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
    }
    throw new Error(`chain ${chainId}: transaction ${hash} not mined within 30 s`);
  };
  const sent = async (txPromise) => {
    const tx = await txPromise;
    const receipt = await mined(tx.hash);
    if (receipt.status !== '0x1') throw new Error(`transaction ${tx.hash} failed`);
    return receipt;
  };
  const deploy = async (factory, args) => {
    const c = await factory.deploy(...args);
    await mined(c.deploymentTransaction().hash);
    return c;
  };

  // Deployer nonces 0..3: the fixed order that makes the addresses predictable.
  const usdc = await deploy(tokenFactory(deployer), ['USD Coin', 'USDC', 6]);
  const wmt = await deploy(tokenFactory(deployer), ['Wallet Modal Token', 'WMT', 18]);
  const pts = await deploy(tokenFactory(deployer), ['Demo Points', 'PTS', 0]);
  const baseURI = `${apiUrl}/demo-nft/`;
  const nft = await deploy(nftFactory, ['Wallet Modal Pass', 'WMP', baseURI]);
  // The spam token: an unsolicited "airdrop" from another account (its nonce 0).
  const spam = await deploy(tokenFactory(spammer), ['Claim Rewards At claim-rewards.example', 'CLAIM', 18]);

  const U = (n, d) => ethers.parseUnits(n, d);
  const D = ACCOUNTS.deployer.address;
  const F = ACCOUNTS.friend.address;
  if (history) {
    await sent(usdc.mint(D, U('10000', 6)));
    await sent(wmt.mint(D, U('5000', 18)));
    await sent(pts.mint(D, 1200n));
    await sent(usdc.mint(F, U('500', 6)));
    await sent(usdc.transfer(F, U('125.5', 6)));
    await sent(usdc.connect(friend).transfer(D, U('42', 6)));
    await sent(deployer.sendTransaction({ to: F, value: U('1.5', 18) }));
    await sent(friend.sendTransaction({ to: D, value: U('0.25', 18) }));
    await sent(wmt.transfer(F, U('100', 18)));
    await sent(pts.transfer(F, 200n));
    await sent(nft.mint(D));
    await sent(nft.mint(D));
    await sent(nft.mint(F));
    await sent(nft.transferFrom(D, F, 2n));
    await sent(nft.connect(friend).transferFrom(F, D, 3n));
    await sent(usdc.approve(F, U('1000', 6)));
    await sent(spam.mint(D, U('1000000', 18)));
  }
  // The market (also without the history: the swap and on-ramp APIs need it).
  const market = await deployUniswap({ ethers, provider, owner: deployer, tokens: { USDC: usdc, WMT: wmt }, sent, mined, log });
  const token = (kind, c, name, symbol, decimals, image, spamFlag = false) => ({
    kind,
    address: c.target,
    name,
    symbol,
    decimals,
    image,
    spam: spamFlag,
  });
  return {
    chainId,
    rpcUrl,
    deployer: D,
    tokens: [
      token('erc20', usdc, 'USD Coin', 'USDC', 6, 'usdc'),
      token('erc20', wmt, 'Wallet Modal Token', 'WMT', 18, 'wmt'),
      token('erc20', pts, 'Demo Points', 'PTS', 0, 'pts'),
      { ...token('erc721', nft, 'Wallet Modal Pass', 'WMP', 0, 'nft-1'), baseURI },
      token('erc20', spam, 'Claim Rewards At claim-rewards.example', 'CLAIM', 18, 'claim', true),
    ],
    uniswap: market.uniswap,
    onramp: market.onramp,
  };
}

/**
 * Re-points a deployed manifest at a backend on another address (`make demo` retries the backend on
 * another port when its port was taken): each chain's NFT collection gets the new base URI (its
 * owner, the deployer, sends setBaseURI) and the manifest the new apiUrl.
 */
async function rebase(o) {
  const ethers = await import('ethers');
  const manifest = JSON.parse(readFileSync(o.out, 'utf8'));
  const artifacts = await compile();
  const { DemoCollection } = artifacts.contracts;
  const baseURI = `${o.rebase}/demo-nft/`;
  for (const chain of manifest.chains) {
    const network = ethers.Network.from(chain.chainId);
    const provider = new ethers.JsonRpcProvider(chain.rpcUrl, network, { staticNetwork: network, batchMaxCount: 1, pollingInterval: 20 });
    const deployer = new ethers.Wallet(ACCOUNTS.deployer.key, provider);
    for (const t of chain.tokens.filter((t) => t.kind === 'erc721')) {
      const nft = new ethers.Contract(t.address, DemoCollection.abi, deployer);
      const tx = await nft.setBaseURI(baseURI);
      for (const t0 = Date.now(); !(await rawRpc(chain.rpcUrl, 'eth_getTransactionReceipt', [tx.hash])); ) {
        if (Date.now() - t0 > 30_000) throw new Error(`chain ${chain.chainId}: setBaseURI not mined within 30 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      t.baseURI = baseURI;
    }
  }
  manifest.apiUrl = o.rebase;
  const tmp = `${o.out}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(tmp, o.out);
  log(`manifest ${o.out} re-pointed at ${o.rebase}`);
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`error: ${e.message}`);
    process.exit(2);
  }
  if (o.help) {
    console.error('usage: deploy.mjs --rpc URL [--rpc URL ...] --out manifest.json [--api-url URL] [--no-history]\n' +
      '       deploy.mjs --compile-only [--artifacts FILE]\n' +
      '       deploy.mjs --rebase API_URL --out manifest.json');
    return;
  }
  if (o.rebase) return rebase(o);
  const artifacts = await compile();
  const ethers = await import('ethers');
  if (o.artifacts) {
    // The demo's own contracts plus the Uniswap ones (npm artifacts, not compiled here).
    const uni = uniswapArtifacts(ethers.keccak256);
    const out = {
      ...artifacts,
      uniswap: { versions: uni.versions, initCodeHash: uni.initCodeHash },
      contracts: { ...artifacts.contracts, ...uni.contracts },
    };
    writeFileSync(o.artifacts, JSON.stringify(out));
  }
  if (o.compileOnly) {
    log(`artifacts ${artifacts.key} (solc ${artifacts.solc}) in ${relative(process.cwd(), BUILD) || '.'}`);
    return;
  }
  const chains = [];
  for (const url of o.rpc) {
    const t0 = Date.now();
    const chain = await deployChain(ethers, artifacts, url, o);
    log(`chain ${chain.chainId} (${url}): ${chain.tokens.map((t) => `${t.symbol} ${t.address}`).join(', ')}, Uniswap router ${chain.uniswap.router} in ${Date.now() - t0} ms`);
    chains.push(chain);
  }
  // Redeploying to some chains keeps the other chains of an existing manifest.
  let kept = [];
  if (existsSync(o.out)) {
    try {
      const old = JSON.parse(readFileSync(o.out, 'utf8'));
      if (old.version === 1 && Array.isArray(old.chains)) {
        kept = old.chains.filter((c) => !chains.some((n) => n.chainId === c.chainId));
      }
    } catch {
      // not a manifest: replaced
    }
  }
  const manifest = {
    version: 1,
    solc: artifacts.solc,
    openzeppelin: artifacts.openzeppelin,
    artifactsKey: artifacts.key,
    apiUrl: o.apiUrl,
    chains: [...kept, ...chains].sort((a, b) => a.chainId - b.chainId),
  };
  mkdirSync(dirname(o.out), { recursive: true });
  const tmp = `${o.out}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(tmp, o.out);
  log(`manifest written to ${o.out}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Whatever happens, the script ends: `make demo` and the tests wait for it.
  setTimeout(() => {
    console.error('error: deploying took over 3 minutes; giving up');
    process.exit(1);
  }, 180_000).unref();
  main().catch((e) => {
    console.error(`error: ${e.stack || e.message}`);
    process.exit(1);
  });
}
