// The frame's transactions on real nodes: two anvil chains, one with EIP-1559 (London and later)
// and one without a base fee (Berlin). eth_sendTransaction and wallet_sendCalls go through the
// frame's RPC_REQUEST handling (frame/src/rpc.ts, tx.ts) with the real fetch, and must be mined.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import { loadFrame } from '../../frame/test/load.mjs';

const f = await loadFrame();
const require = createRequire(import.meta.url);
const ANVIL = require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil');
const started = [];

/** An anvil on a free port; resolves to its URL once it answers JSON-RPC. */
async function anvil(chainId, extra = []) {
  const child = spawn(ANVIL, ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(chainId), ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${out}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/Listening on (127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    });
    child.on('exit', (code) => reject(new Error(`anvil exited (${code}): ${out}`)));
  });
  for (let i = 0; i < 100; i++) {
    try {
      await f.rpcClient(fetch, url)('eth_chainId', []);
      return url;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('anvil does not answer');
}

after(() => {
  for (const c of started) c.kill('SIGTERM');
});

const keys = await f.deriveKeys(crypto.getRandomValues(new Uint8Array(32)));
const ADDRESS = keys.address;
const RECEIVER = '0x000000000000000000000000000000000000bEEF';

async function setup(chainId, extra) {
  const rpcUrl = await anvil(chainId, extra);
  const call = f.rpcClient(fetch, rpcUrl);
  await call('anvil_setBalance', [ADDRESS, '0x56bc75e2d63100000']); // 100 ETH
  // The visitor approves everything here (the approval itself is tested in Chromium); what it was shown is kept.
  const shown = [];
  const ctx = { keys, call, checkAborted: () => {}, consent: async (prepared) => (shown.push(prepared.review), true) };
  const rpc = (method, params) => f.handleRpc({ method, params, chainId, rpcUrl }, ctx);
  return { rpcUrl, call, rpc, shown };
}

const receipt = async (call, hash) => {
  for (let i = 0; i < 50; i++) {
    const r = await call('eth_getTransactionReceipt', [hash]);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no receipt for ${hash}`);
};

test('eth_sendTransaction on an EIP-1559 anvil: a type-2 transaction from our address is mined and pays the receiver', async () => {
  const { call, rpc } = await setup(31337);
  const before = BigInt(await rpc('eth_getBalance', [RECEIVER, 'latest']));
  const hash = await rpc('eth_sendTransaction', [{ from: ADDRESS.toLowerCase(), to: RECEIVER, value: '0xde0b6b3a7640000' }]);
  const r = await receipt(call, hash);
  assert.equal(r.status, '0x1');
  assert.equal(r.from.toLowerCase(), ADDRESS.toLowerCase());
  assert.equal(r.type, '0x2');
  assert.equal(BigInt(await rpc('eth_getBalance', [RECEIVER, 'latest'])) - before, 10n ** 18n);
  const tx = await rpc('eth_getTransactionByHash', [hash]);
  assert.equal(tx.chainId, '0x7a69');
});

test('eth_sendTransaction on a Berlin anvil (no base fee) sends a legacy transaction at the node\'s gas price', async () => {
  const { call, rpc } = await setup(31338, ['--hardfork', 'berlin']);
  const hash = await rpc('eth_sendTransaction', [{ to: RECEIVER, value: '0x1' }]);
  const r = await receipt(call, hash);
  assert.equal(r.status, '0x1');
  assert.equal(r.type, '0x0');
  const tx = await rpc('eth_getTransactionByHash', [hash]);
  assert.equal(BigInt(tx.gasPrice), BigInt(await call('eth_gasPrice', [])));
  assert.equal(tx.chainId, '0x7a6a', 'EIP-155 chain id in the signature');
});

test('a contract created by eth_sendTransaction answers eth_call through the frame', async () => {
  const { call, rpc } = await setup(31339);
  // Init code that deploys a runtime returning 42 for any call.
  const initCode = '0x600a600c600039600a6000f3602a60005260206000f3';
  const hash = await rpc('eth_sendTransaction', [{ from: ADDRESS, data: initCode }]);
  const r = await receipt(call, hash);
  assert.equal(r.status, '0x1');
  assert.ok(r.contractAddress);
  assert.equal(BigInt(await rpc('eth_call', [{ to: r.contractAddress, data: '0x' }, 'latest'])), 42n);
});

test('wallet_sendCalls on anvil: every call mined, consecutive nonces, {id} is the first hash', async () => {
  const { call, rpc } = await setup(31340);
  const nonce = Number(await rpc('eth_getTransactionCount', [ADDRESS, 'latest']));
  const { id } = await rpc('wallet_sendCalls', [{ version: '2.0.0', chainId: '0x7a6c', from: ADDRESS, calls: [{ to: RECEIVER, value: '0x2' }, { to: RECEIVER, value: '0x3', data: '0x' }] }]);
  const first = await receipt(call, id);
  assert.equal(first.status, '0x1');
  assert.equal(Number(await rpc('eth_getTransactionCount', [ADDRESS, 'latest'])), nonce + 2);
  const tx = await rpc('eth_getTransactionByHash', [id]);
  assert.equal(Number(tx.nonce), nonce);
});

test('a transaction the node refuses (not enough ether) is answered with the node\'s message', async () => {
  const { rpc } = await setup(31341);
  await assert.rejects(rpc('eth_sendTransaction', [{ to: RECEIVER, value: '0x56bc75e2d63100000' }]), (e) => {
    assert.ok(e instanceof f.FrameError);
    assert.match(e.message, /insufficient funds|Insufficient funds|lack of funds|OutOfFund/i);
    assert.equal(typeof e.code, 'number');
    return true;
  });
});
