// What the frame's approval shows (frame/src/prepare.ts, review/) is what it signs: the review is
// built from the very fields that are then signed, the visitor's "no" signs nothing, and the
// visibility gate (consent/gate.ts) and theme rules (consent/theme.ts) hold. The approval's
// document and its trusted click are tested in Chromium (test/browser/element/consent.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { parseTransaction, keccak256, encodeFunctionData, parseAbi, encodeAbiParameters, stringToHex, pad } from 'viem';
import { loadFrame } from '../../frame/test/load.mjs';
import { fakeRpc } from '../../frame/test/fake-rpc.mjs';

const f = await loadFrame();
const keys = await f.deriveKeys(crypto.getRandomValues(new Uint8Array(32)));
const ADDRESS = keys.address;
const SPENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const RPC_URL = 'http://rpc.test/';
const erc20 = parseAbi(['function approve(address,uint256)', 'function transfer(address,uint256)', 'function setApprovalForAll(address,bool)']);
const MAX = 2n ** 256n - 1n;

/** A node with a base fee; `token` answers symbol() and decimals() at TOKEN. */
function node({ symbol = 'USDC', decimals = 6, baseFee = '0x3b9aca00', tip = '0x3b9aca00', nonce = '0x0' } = {}) {
  return fakeRpc({
    eth_getBlockByNumber: () => ({ baseFeePerGas: baseFee }),
    eth_maxPriorityFeePerGas: () => tip,
    eth_gasPrice: () => '0x3b9aca00',
    eth_getTransactionCount: () => nonce,
    eth_estimateGas: () => '0xb411',
    eth_sendRawTransaction: ([raw]) => keccak256(raw),
    eth_call: ([{ to, data }]) => {
      if (to.toLowerCase() !== TOKEN.toLowerCase()) throw Object.assign(new Error('execution reverted'), { code: 3 });
      if (data === '0x95d89b41') return encodeAbiParameters([{ type: 'string' }], [symbol]);
      if (data === '0x313ce567') return pad(`0x${decimals.toString(16)}`);
      throw Object.assign(new Error('execution reverted'), { code: 3 });
    },
  });
}

/** handleRpc as the frame runs it; `decide` is the visitor; what was shown is recorded. */
async function request(n, method, params, { decide = true, chainId = 31337, network } = {}) {
  const shown = [];
  const result = await f.handleRpc(
    { method, params, chainId, rpcUrl: RPC_URL, network },
    {
      keys,
      call: f.rpcClient(n.fetch, RPC_URL),
      checkAborted: () => {},
      consent: async (prepared, net) => {
        shown.push({ review: prepared.review, network: net });
        return decide;
      },
    },
  );
  return { result, review: shown[0]?.review, network: shown[0]?.network };
}

const rows = (list) => Object.fromEntries(list);

test('nothing is signed or sent until the visitor approves; a "no" is 4001 User rejected the request.', async () => {
  const n = node();
  for (const [method, params] of [
    ['personal_sign', ['0x68656c6c6f', ADDRESS]],
    ['eth_sendTransaction', [{ to: SPENDER, value: '0x1' }]],
    ['wallet_sendCalls', [{ calls: [{ to: SPENDER, value: '0x1' }] }]],
  ]) {
    await assert.rejects(request(n, method, params, { decide: false }), { message: 'User rejected the request.', code: 4001 }, method);
  }
  assert.equal(n.methods('eth_sendRawTransaction').length, 0, 'no transaction sent');
});

test('the fee shown is the fee signed: the app\'s own gas and gas price are shown and signed as they are', async () => {
  const n = node();
  // The audit's case: a fee of 0.5 ETH hidden in the app's gasPrice.
  const gasPrice = (5n * 10n ** 17n) / 21000n;
  const { result, review } = await request(n, 'eth_sendTransaction', [{ to: SPENDER, value: '0x0', gas: '0x5208', gasPrice: `0x${gasPrice.toString(16)}` }]);
  const fee = rows(review.calls[0].fee);
  assert.equal(fee['Gas limit'], '21000');
  assert.equal(fee['Network fee'], '0.5 ETH', 'rounded up: at most what it costs');
  assert.equal(fee['Gas price'], '23809.52381 gwei');
  const tx = parseTransaction(n.methods('eth_sendRawTransaction')[0].params[0]);
  assert.equal(keccak256(n.methods('eth_sendRawTransaction')[0].params[0]), result);
  assert.equal(tx.gas, 21000n);
  assert.equal(tx.gasPrice, gasPrice);
  assert.equal(n.methods('eth_gasPrice').length, 0, 'the network\'s price was not what was shown');
});

test('an EIP-1559 fee is shown as its gas limit, max fee and tip, and the largest fee they allow', async () => {
  const n = node();
  const { review } = await request(n, 'eth_sendTransaction', [{ to: SPENDER, value: '0xde0b6b3a7640000', maxFeePerGas: '0x77359400' }]);
  const fee = rows(review.calls[0].fee);
  assert.equal(fee['Gas limit'], '46097');
  assert.equal(fee['Max fee per gas'], '2 gwei');
  assert.equal(fee['Priority fee per gas'], '1 gwei');
  assert.equal(fee['Network fee (at most)'], '0.000093 ETH');
  assert.equal(review.calls[0].value, '1 ETH');
  const tx = parseTransaction(n.methods('eth_sendRawTransaction')[0].params[0]);
  assert.equal(tx.maxFeePerGas, 2_000_000_000n);
  assert.equal(tx.maxPriorityFeePerGas, 1_000_000_000n);
  assert.equal(tx.gas, 46097n);
});

test('data: null with input set: the call in input is shown (an unlimited approval, called out) and it is what is signed', async () => {
  const n = node();
  const input = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [SPENDER, MAX] });
  const { review } = await request(n, 'eth_sendTransaction', [{ to: TOKEN, data: null, input }]);
  assert.equal(review.calls[0].call.name, 'approve');
  assert.equal(rows(review.calls[0].call.rows).amount, 'Unlimited USDC');
  assert.ok(review.warnings.some((w) => w.startsWith(`Unlimited approval: ${SPENDER}`)), JSON.stringify(review.warnings));
  assert.equal(parseTransaction(n.methods('eth_sendRawTransaction')[0].params[0]).data, input);
});

test('data and input that disagree are refused before anything is shown', async () => {
  const n = node();
  const approve = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [SPENDER, MAX] });
  const transfer = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [SPENDER, 1n] });
  const shown = [];
  await assert.rejects(
    f.handleRpc({ method: 'eth_sendTransaction', params: [{ to: TOKEN, data: transfer, input: approve }], chainId: 31337, rpcUrl: RPC_URL }, { keys, call: f.rpcClient(n.fetch, RPC_URL), checkAborted: () => {}, consent: async (p) => (shown.push(p), true) }),
    { message: 'Invalid transaction: data and input differ (send one of them)', code: -32602 },
  );
  assert.equal(shown.length, 0);
  assert.equal(n.methods('eth_sendRawTransaction').length, 0);
});

test('an ERC-20 transfer shows the amount in the token\'s units and symbol, with the base units', async () => {
  const n = node({ symbol: 'USDC', decimals: 6 });
  const data = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [SPENDER, 1_500_000n] });
  const { review } = await request(n, 'eth_sendTransaction', [{ to: TOKEN, data }]);
  assert.deepEqual(review.calls[0].call, { name: 'transfer', rows: [['to', SPENDER], ['amount', '1.5 USDC (1500000 base units)']] });
  assert.equal(review.calls[0].to, TOKEN);
  assert.equal(review.warnings.length, 0);
});

test('a token symbol with a right-to-left override or controls is shown without them', async () => {
  const n = node({ symbol: 'US\u202eDC\u0007' });
  const data = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [SPENDER, 2_000_000n] });
  const { review } = await request(n, 'eth_sendTransaction', [{ to: TOKEN, data }]);
  assert.equal(rows(review.calls[0].call.rows).amount, '2 USDC (2000000 base units)');
  assert.equal(f.decodeSymbol(encodeAbiParameters([{ type: 'string' }], ['\u202e\u2066'])), null, 'nothing left to show');
  assert.equal(f.decodeSymbol(stringToHex('MKR', { size: 32 })), 'MKR', 'a bytes32 symbol');
  assert.equal(f.decodeSymbol('0x' + '00'.repeat(300)), null, 'too long');
});

test('setApprovalForAll and a contract call the wallet cannot read are called out', async () => {
  const n = node();
  const all = encodeFunctionData({ abi: erc20, functionName: 'setApprovalForAll', args: [SPENDER, true] });
  const { review } = await request(n, 'eth_sendTransaction', [{ to: TOKEN, data: all }]);
  assert.ok(review.warnings.some((w) => w.includes('every token of this collection')));
  const { review: opaque } = await request(n, 'eth_sendTransaction', [{ to: TOKEN, data: '0xdeadbeef00' }]);
  assert.deepEqual(opaque.calls[0].data, { bytes: 5, preview: '0xdeadbeef00' });
  assert.ok(opaque.warnings.some((w) => w.includes('cannot read')));
});

test('wallet_sendCalls shows every call, each with its fee, and the total it can cost', async () => {
  const n = node();
  const approve = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [SPENDER, 5_000_000n] });
  const { review } = await request(n, 'wallet_sendCalls', [{ calls: [{ to: TOKEN, data: approve }, { to: SPENDER, value: '0xde0b6b3a7640000' }] }]);
  assert.equal(review.calls.length, 2);
  assert.equal(rows(review.calls[0].call.rows).amount, '5 USDC (5000000 base units)');
  assert.equal(review.calls[1].value, '1 ETH');
  assert.equal(review.total, '1.000277 ETH at most (value and network fee)');
  assert.deepEqual(n.methods('eth_sendRawTransaction').map((c) => parseTransaction(c.params[0]).nonce), [0, 1]);
});

test('a batch whose second transaction fails once the first is sent answers the first (its id), never an error', async () => {
  let sends = 0;
  const n = fakeRpc({
    eth_getBlockByNumber: () => ({ baseFeePerGas: '0x1' }),
    eth_maxPriorityFeePerGas: () => '0x1',
    eth_getTransactionCount: () => '0x0',
    eth_estimateGas: () => '0x5208',
    eth_sendRawTransaction: ([raw]) => {
      if (sends++ === 1) throw Object.assign(new Error('insufficient funds for gas * price + value'), { code: -32000 });
      return keccak256(raw);
    },
  });
  const { result } = await request(n, 'wallet_sendCalls', [{ calls: [{ to: SPENDER, value: '0x1' }, { to: SPENDER, value: '0x2' }] }]);
  const [first] = n.methods('eth_sendRawTransaction');
  assert.deepEqual(result, { id: keccak256(first.params[0]) }, 'the app learns the batch went out (it must not send it again)');
});

test('a message shows as its text (hidden characters removed and called out), binary as hex', async () => {
  const n = node();
  const { review } = await request(n, 'personal_sign', [stringToHex('Pay \u202egnp.exe'), ADDRESS]);
  assert.equal(review.text, 'Pay gnp.exe');
  assert.ok(review.warnings[0].includes('hidden characters'));
  const { review: bin } = await request(n, 'personal_sign', ['0x00ff10', ADDRESS]);
  assert.deepEqual([bin.text, bin.hex], [null, '0x00ff10']);
});

test('a Permit signature is called out, and an unlimited one says so', async () => {
  const n = node();
  const permit = {
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
      Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }],
    },
    primaryType: 'Permit',
    domain: { name: 'USD Coin', chainId: 31337, verifyingContract: TOKEN },
    message: { owner: ADDRESS, spender: SPENDER, value: MAX.toString(), nonce: '0', deadline: '9999999999' },
  };
  const { review } = await request(n, 'eth_signTypedData_v4', [ADDRESS, JSON.stringify(permit)]);
  assert.equal(review.primaryType, 'Permit');
  assert.ok(review.warnings[0].includes(SPENDER));
  assert.ok(review.warnings.some((w) => w.startsWith('Unlimited')));
  assert.deepEqual(rows(review.domain).name, 'USD Coin');
});

test('typed data that cannot be signed is refused before it is shown', async () => {
  const n = node();
  const shown = [];
  const bad = { types: { Mail: [{ name: 'to', type: 'Person' }] }, primaryType: 'Mail', domain: {}, message: { to: {} } };
  await assert.rejects(
    f.handleRpc({ method: 'eth_signTypedData_v4', params: [ADDRESS, JSON.stringify(bad)], chainId: 31337, rpcUrl: RPC_URL }, { keys, call: f.rpcClient(n.fetch, RPC_URL), checkAborted: () => {}, consent: async (p) => (shown.push(p), true) }),
    (e) => e.code === -32602 && /^Invalid typed data/.test(e.message),
  );
  assert.equal(shown.length, 0);
});

test('the network is named by the frame for chains it knows, and marked as named by the site otherwise', async () => {
  const n = node();
  const { network } = await request(n, 'personal_sign', ['0x01', ADDRESS], { chainId: 1, network: { name: 'Totally Not Mainnet', symbol: 'FAKE' } });
  assert.deepEqual(network, { chainId: 1, name: 'Ethereum', symbol: 'ETH', decimals: 18, namedBySite: false });
  const { network: local } = await request(n, 'personal_sign', ['0x01', ADDRESS], { network: { name: 'Anvil\u202e', symbol: 'ETH', decimals: 18 } });
  assert.deepEqual(local, { chainId: 31337, name: 'Anvil', symbol: 'ETH', decimals: 18, namedBySite: true });
});

test('typed data shows only the fields its types sign, in their order; keys outside them are counted, not shown', async () => {
  const n = node();
  const doc = {
    types: { Mail: [{ name: 'to', type: 'Person' }, { name: 'amount', type: 'uint256' }], Person: [{ name: 'wallet', type: 'address' }] },
    primaryType: 'Mail',
    domain: { name: 'Ether Mail', chainId: 31337 },
    message: { decoy: 'amount: 1', ...Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`pad${i}`, 'x'])), amount: '1000', to: { wallet: SPENDER, nickname: 'friend' } },
  };
  const { review, result } = await request(n, 'eth_signTypedData_v4', [ADDRESS, JSON.stringify(doc)]);
  assert.deepEqual(review.fields, [['to.wallet', SPENDER], ['amount', '1000']], 'what is hashed, and nothing else');
  assert.ok(review.warnings.some((w) => w.startsWith('72 fields of this document are not part of what is signed')), review.warnings.join(' | '));
  assert.deepEqual(rows(review.domain), { name: 'Ether Mail', chainId: '31337' }, 'the domain viem signs without an EIP712Domain type');
  assert.equal(await (await import('viem')).recoverTypedDataAddress({ ...doc, signature: result }), ADDRESS, 'and that is what was signed');
});

test('typed data whose domain leaves out the chain says it is valid on every chain', async () => {
  const n = node();
  const doc = { types: { EIP712Domain: [{ name: 'name', type: 'string' }], Ping: [{ name: 'n', type: 'uint256' }] }, primaryType: 'Ping', domain: { name: 'X', chainId: 31337 }, message: { n: '1' } };
  const { review } = await request(n, 'eth_signTypedData_v4', [ADDRESS, JSON.stringify(doc)]);
  assert.ok(review.warnings.includes('This signature is not tied to a network: it is valid on every chain.'));
  assert.deepEqual(rows(review.domain), { name: 'X' }, 'the chainId given but not typed is not shown as signed');
});

test('a nonce the site sets is shown; a currency the site names on an unknown chain is marked; a long message says it is cut', async () => {
  const n = node();
  const { review } = await request(n, 'eth_sendTransaction', [{ to: SPENDER, value: '0x1', nonce: '0x7' }]);
  assert.equal(rows(review.calls[0].fee)['Nonce (set by the site)'], '7');
  const { network } = await request(n, 'personal_sign', ['0x01', ADDRESS], { network: { symbol: 'ETH', decimals: 36 } });
  assert.deepEqual([network.namedBySite, network.decimals], [true, 36]);
  const { review: long } = await request(n, 'personal_sign', ['a'.repeat(25_000), ADDRESS]);
  assert.ok(long.warnings.includes('This message is long: only its first 20,000 characters are shown, of 25,000.'));
});

test('a node that refuses the nonce gets one retry with the nonce read again', async () => {
  let sends = 0;
  let count = 3;
  const n = fakeRpc({
    eth_getBlockByNumber: () => ({ baseFeePerGas: '0x1' }),
    eth_maxPriorityFeePerGas: () => '0x1',
    eth_getTransactionCount: () => `0x${(count++).toString(16)}`,
    eth_estimateGas: () => '0x5208',
    eth_sendRawTransaction: ([raw]) => {
      if (sends++ === 0) throw Object.assign(new Error('nonce too low: next nonce 4, tx nonce 3'), { code: -32003 });
      return keccak256(raw);
    },
  });
  await request(n, 'eth_sendTransaction', [{ to: SPENDER, value: '0x1' }]);
  const nonces = n.methods('eth_sendRawTransaction').map((c) => parseTransaction(c.params[0]).nonce);
  assert.deepEqual(nonces, [3, 4]);
});

test('two sends at once from two frames of the same wallet read their nonces one after the other', async () => {
  let pending = 0;
  const n = fakeRpc({
    eth_getBlockByNumber: () => ({ baseFeePerGas: '0x1' }),
    eth_maxPriorityFeePerGas: () => '0x1',
    eth_getTransactionCount: async () => {
      await new Promise((r) => setTimeout(r, 20));
      return `0x${pending.toString(16)}`;
    },
    eth_estimateGas: () => '0x5208',
    eth_sendRawTransaction: ([raw]) => {
      const tx = parseTransaction(raw);
      if (tx.nonce !== pending) throw Object.assign(new Error(`nonce too low: next nonce ${pending}, tx nonce ${tx.nonce}`), { code: -32003 });
      pending++;
      return keccak256(raw);
    },
  });
  const [a, b] = await Promise.all([request(n, 'eth_sendTransaction', [{ to: SPENDER, value: '0x1' }]), request(n, 'eth_sendTransaction', [{ to: SPENDER, value: '0x2' }])]);
  assert.notEqual(a.result, b.result);
  assert.deepEqual(n.methods('eth_sendRawTransaction').map((c) => parseTransaction(c.params[0]).nonce), [0, 1], 'no nonce signed twice, no retry needed');
});

/** A fake IntersectionObserver the test moves by hand, and a clock. */
function gateRig(tracksVisibility = true) {
  let now = 0;
  const timers = [];
  let observer;
  class IO {
    constructor(cb, options) {
      this.cb = cb;
      this.options = options;
      this.targets = [];
      observer = this;
    }
    observe(t) {
      this.targets.push(t);
    }
    disconnect() {
      this.targets = [];
    }
  }
  const env = {
    IntersectionObserver: IO,
    tracksVisibility,
    now: () => now,
    setTimeout: (fn, ms) => {
      const t = { at: now + ms, fn };
      timers.push(t);
      return t;
    },
    clearTimeout: (t) => {
      const i = timers.indexOf(t);
      if (i >= 0) timers.splice(i, 1);
    },
    pageVisible: () => true,
    sizeAsAsked: () => true,
  };
  const advance = (ms) => {
    now += ms;
    for (const t of [...timers].sort((x, y) => x.at - y.at)) {
      if (t.at <= now) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    }
  };
  const report = (entries) => observer.cb(entries.map(([target, isIntersecting, isVisible, ratio = 1]) => ({ target, isIntersecting, isVisible, intersectionRatio: ratio })));
  return { env, advance, report, observer: () => observer };
}

test('the visibility gate opens Approve only after 500 ms of being visible and unobscured, and closes at once when covered', () => {
  const rig = gateRig();
  const card = {};
  const button = {};
  const changes = [];
  const gate = f.visibilityGate([card, button], rig.env, (open) => changes.push(open));
  assert.equal(rig.observer().options.trackVisibility, true, 'IntersectionObserver v2 occlusion tracking');
  assert.ok(rig.observer().options.delay >= 100);
  rig.report([[card, true, true], [button, true, true]]);
  rig.advance(499);
  assert.equal(gate.open, false, 'not before 500 ms');
  rig.advance(1);
  assert.equal(gate.open, true);
  rig.report([[button, true, false]]); // an overlay drawn over the button
  assert.equal(gate.open, false, 'closed while covered');
  rig.report([[button, true, true]]);
  rig.advance(300);
  assert.equal(gate.open, false, 'the 500 ms start again');
  rig.advance(200);
  assert.equal(gate.open, true);
  assert.deepEqual(changes, [true, false, true]);
  gate.stop();
  assert.equal(gate.open, false);
});

test('an approval that is never unobscured never opens', () => {
  const rig = gateRig();
  const card = {};
  const gate = f.visibilityGate([card], rig.env, () => {});
  rig.report([[card, true, false]]);
  rig.advance(10_000);
  assert.equal(gate.open, false);
});

test('without occlusion tracking the approval must be wholly in view, its page visible and the frame the size it asked for', () => {
  const rig = gateRig(false);
  let size = true;
  rig.env.sizeAsAsked = () => size;
  const card = {};
  const gate = f.visibilityGate([card], rig.env, () => {});
  assert.equal(rig.observer().options.trackVisibility, undefined);
  rig.report([[card, true, undefined, 0.6]]);
  rig.advance(1000);
  assert.equal(gate.open, false, 'partly out of view');
  rig.report([[card, true, undefined, 1]]);
  rig.advance(500);
  assert.equal(gate.open, true);
  size = false;
  gate.recheck();
  assert.equal(gate.open, false, 'resized by the page');
});

test('the theme may set an accent only where white or black text on it stays legible', () => {
  assert.deepEqual(f.accentPair('#2671bf'), { fill: 'rgb(38, 113, 191)', text: '#ffffff' });
  assert.deepEqual(f.accentPair('#ffd400'), { fill: 'rgb(255, 212, 0)', text: '#000000' });
  // Any solid colour keeps 4.5:1 with white or with black: the text colour is chosen by contrast.
  const grey = f.accentPair('#777777');
  assert.equal(grey.text, '#000000');
  assert.ok(f.contrast([119, 119, 119], [0, 0, 0]) >= 4.5);
  assert.equal(f.accentPair('url(https://evil.example/x.png)'), null);
  assert.equal(f.accentPair('red; background: url(x)'), null);
});
