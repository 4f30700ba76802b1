// RPC_REQUEST in the frame (frame/src/rpc.ts, sign.ts, tx.ts, jsonrpc.ts): the allow-list, the
// signatures (checked by viem's verify functions), transactions completed from a node in memory and
// signed (checked by parsing the raw transaction and recovering its sender).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { verifyMessage, verifyTypedData, parseTransaction, recoverTransactionAddress, keccak256 } from 'viem';
import { loadFrame } from '../../frame/test/load.mjs';
import { fakeRpc } from '../../frame/test/fake-rpc.mjs';

const f = await loadFrame();
const keys = await f.deriveKeys(crypto.getRandomValues(new Uint8Array(32)));
const ADDRESS = keys.address;
const OTHER = '0x1111111111111111111111111111111111111111';
const RPC_URL = 'http://rpc.test/';
const noAbort = () => {};

/** What handleRpc needs; `consent` answers for the visitor (approves unless told otherwise) and records what was shown. */
function ctx(node, { connected = true, checkAborted = noAbort, approve = true, shown = [] } = {}) {
  return {
    keys: connected ? keys : null,
    call: f.rpcClient(node.fetch, RPC_URL),
    checkAborted,
    consent: async (prepared, network) => {
      shown.push({ review: prepared.review, network });
      return approve;
    },
  };
}
const rpc = (method, params = [], chainId = 31337) => ({ method, params, chainId, rpcUrl: RPC_URL });
const NOT_ALLOWED = { message: 'Requested RPC call is not allowed', code: 4200 };
const NOT_CONNECTED = { message: 'Not connected to email or social', code: 4100 };

/** A node with a base fee (EIP-1559) or without (legacy), answering raw transactions with their hash. */
function node({ baseFee = '0x3b9aca00', tip = '0x77359400', gasPrice = '0x4a817c800', nonce = '0x5', gas = '0x5208' } = {}) {
  return fakeRpc({
    eth_getBlockByNumber: () => ({ number: '0x10', ...(baseFee && { baseFeePerGas: baseFee }) }),
    eth_maxPriorityFeePerGas: () => tip,
    eth_gasPrice: () => gasPrice,
    eth_getTransactionCount: ([, tag]) => {
      assert.equal(tag, 'pending');
      return nonce;
    },
    eth_estimateGas: () => gas,
    eth_sendRawTransaction: ([raw]) => keccak256(raw),
    eth_getBalance: () => '0xde0b6b3a7640000',
    eth_getTransactionReceipt: () => ({ status: '0x1' }),
  });
}

test('the allow-list: the spec §6 safe and approval methods, nothing else', () => {
  for (const m of ['eth_call', 'eth_getBalance', 'eth_getLogs', 'eth_chainId', 'eth_estimateGas', 'eth_blockNumber', 'eth_gasPrice', 'eth_getCode',
    'eth_getTransactionCount', 'eth_getTransactionByHash', 'eth_getTransactionReceipt', 'eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_feeHistory',
    'eth_maxPriorityFeePerGas', 'eth_newFilter', 'eth_getFilterChanges', 'eth_getFilterLogs', 'eth_uninstallFilter', 'eth_newBlockFilter',
    'eth_sendRawTransaction', 'wallet_getCapabilities', 'wallet_getCallsStatus', 'wallet_getAssets', 'eth_accounts', 'eth_requestAccounts']) {
    assert.equal(f.permission(m), 'safe', m);
  }
  for (const m of ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_sendCalls', 'wallet_grantPermissions', 'wallet_revokePermissions', 'eth_sendUserOperation']) {
    assert.equal(f.permission(m), 'approval', m);
  }
  for (const m of ['eth_sign', 'eth_signTransaction', 'eth_signTypedData', 'eth_signTypedData_v3', 'wallet_addEthereumChain', 'wallet_switchEthereumChain',
    'ETH_CALL', 'eth_call ', '', 'constructor', '__proto__', 'toString', 'debug_traceTransaction', 'anvil_setBalance']) {
    assert.equal(f.permission(m), 'disallowed', m);
  }
});

test('a method off the list is refused with 4200 before anything is sent', async () => {
  const n = node();
  for (const m of ['eth_sign', 'eth_signTransaction', 'anvil_setBalance', 'toString']) {
    await assert.rejects(f.handleRpc(rpc(m, [ADDRESS, '0x00']), ctx(n)), NOT_ALLOWED, m);
  }
  assert.equal(n.calls.length, 0);
});

test('the RPC_REQUEST payload is checked: method, params, chainId and an http(s) rpcUrl', () => {
  const ok = { method: 'eth_chainId', params: [], chainId: 1, chainNamespace: 'eip155', rpcUrl: 'https://rpc.example' };
  assert.deepEqual(f.parseRpcRequest(ok), { method: 'eth_chainId', params: [], chainId: 1, solana: null, rpcUrl: 'https://rpc.example', network: undefined });
  assert.deepEqual(f.parseRpcRequest({ ...ok, network: { name: 'Anvil' } }).network, { name: 'Anvil' }, 'the page\'s name for the network, checked when shown');
  assert.deepEqual(f.parseRpcRequest({ ...ok, params: undefined }).params, []);
  for (const bad of [{ method: 'x'.repeat(65) }, { method: 7 }, { params: {} }, { chainId: '1x' }, { chainId: 0 }, { rpcUrl: 'ws://rpc.example' }, { rpcUrl: undefined }]) {
    assert.throws(() => f.parseRpcRequest({ ...ok, ...bad }), /Invalid RPC request/, JSON.stringify(bad));
  }
});

test('eth_accounts and eth_requestAccounts answer the address, or [] when signed out; eth_chainId the hex chain', async () => {
  const n = node();
  assert.deepEqual(await f.handleRpc(rpc('eth_accounts'), ctx(n)), [ADDRESS]);
  assert.deepEqual(await f.handleRpc(rpc('eth_requestAccounts'), ctx(n)), [ADDRESS]);
  assert.deepEqual(await f.handleRpc(rpc('eth_accounts'), ctx(n, { connected: false })), []);
  assert.equal(await f.handleRpc(rpc('eth_chainId', [], 31337), ctx(n)), '0x7a69');
  assert.equal(await f.handleRpc(rpc('eth_chainId', [], 1), ctx(n, { connected: false })), '0x1');
  assert.equal(n.calls.length, 0, 'answered by the frame');
});

test('without a session every signing method fails with 4100 Not connected to email or social', async () => {
  const n = node();
  for (const [m, params] of [
    ['personal_sign', ['0x68656c6c6f', ADDRESS]],
    ['eth_signTypedData_v4', [ADDRESS, '{}']],
    ['eth_sendTransaction', [{ from: ADDRESS, to: OTHER }]],
    ['wallet_sendCalls', [{ calls: [{ to: OTHER }] }]],
    ['wallet_grantPermissions', [{}]],
  ]) {
    await assert.rejects(f.handleRpc(rpc(m, params), ctx(n, { connected: false })), NOT_CONNECTED, m);
  }
  assert.equal(n.methods('eth_sendRawTransaction').length, 0);
});

test('safe methods are forwarded as JSON-RPC 2.0 to the rpcUrl, and the node\'s error message and code come back', async () => {
  const n = node();
  assert.equal(await f.handleRpc(rpc('eth_getBalance', [ADDRESS, 'latest']), ctx(n)), '0xde0b6b3a7640000');
  const [call] = n.calls;
  assert.equal(call.url, RPC_URL);
  assert.equal(call.jsonrpc, '2.0');
  assert.deepEqual(call.params, [ADDRESS, 'latest']);
  n.calls.length = 0;
  const failing = fakeRpc({ eth_call: () => { throw Object.assign(new Error('execution reverted: nope'), { code: 3 }); } });
  await assert.rejects(f.handleRpc(rpc('eth_call', [{ to: OTHER }, 'latest']), ctx(failing)), { message: 'execution reverted: nope', code: 3 });
});

test('an RPC answer over 1 MB is refused', async () => {
  const big = async () => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'x'.repeat(1_000_001) }));
  await assert.rejects(f.rpcClient(big, RPC_URL)('eth_getLogs', []), { message: 'The network answer is too large' });
  const declared = async () => new Response('{}', { headers: { 'content-length': '5000000' } });
  await assert.rejects(f.rpcClient(declared, RPC_URL)('eth_getLogs', []), { message: 'The network answer is too large' });
  const notJson = async () => new Response('<html>502</html>', { status: 502 });
  await assert.rejects(f.rpcClient(notJson, RPC_URL)('eth_getLogs', []), { message: 'The network answered HTTP 502' });
});

test('a request that gets no answer in time is aborted (fetchText time-out)', async () => {
  let aborted = false;
  const hanging = (url, init) =>
    new Promise((_, reject) => init.signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); }));
  const t0 = Date.now();
  await assert.rejects(f.fetchText(hanging, RPC_URL, {}, 50, 1000), (e) => e.kind === 'timeout');
  assert.ok(aborted && Date.now() - t0 < 1000);
});

test('personal_sign signs hex data as bytes and anything else as UTF-8 text (EIP-191), for our address only', async () => {
  const n = node();
  const hexSig = await f.handleRpc(rpc('personal_sign', ['0x68656c6c6f', ADDRESS.toLowerCase()]), ctx(n));
  assert.ok(await verifyMessage({ address: ADDRESS, message: { raw: '0x68656c6c6f' }, signature: hexSig }));
  assert.ok(await verifyMessage({ address: ADDRESS, message: 'hello', signature: hexSig }), 'the bytes of "hello"');
  const text = 'Sign in to dapp.example\nNonce: 0xZZ é 😀';
  const textSig = await f.handleRpc(rpc('personal_sign', [text, ADDRESS]), ctx(n));
  assert.ok(await verifyMessage({ address: ADDRESS, message: text, signature: textSig }));
  // Odd-length hex is text, not bytes.
  const odd = await f.handleRpc(rpc('personal_sign', ['0xabc', ADDRESS]), ctx(n));
  assert.ok(await verifyMessage({ address: ADDRESS, message: '0xabc', signature: odd }));
  await assert.rejects(f.handleRpc(rpc('personal_sign', ['0x00', OTHER]), ctx(n)), { code: 4100 });
  await assert.rejects(f.handleRpc(rpc('personal_sign', [ADDRESS, '0x00']), ctx(n)), { code: 4100 }, 'reversed params');
  await assert.rejects(f.handleRpc(rpc('personal_sign', [{}, ADDRESS]), ctx(n)), { code: -32602 });
});

const MAIL = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
    Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }, { name: 'amount', type: 'uint256' }],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
    amount: '1000000000000000000',
  },
};

test('eth_signTypedData_v4 signs the EIP-712 JSON; the signature verifies for our address', async () => {
  const n = node();
  const sig = await f.handleRpc(rpc('eth_signTypedData_v4', [ADDRESS, JSON.stringify(MAIL)]), ctx(n));
  const { EIP712Domain, ...types } = MAIL.types;
  assert.ok(await verifyTypedData({ address: ADDRESS, ...MAIL, types, message: { ...MAIL.message, amount: 10n ** 18n }, signature: sig }));
  assert.ok(!(await verifyTypedData({ address: ADDRESS, ...MAIL, types, message: { ...MAIL.message, contents: 'Hello, Eve!' }, signature: sig })));
  // The document may also come as an object; the domain chain id as hex.
  const sig2 = await f.handleRpc(rpc('eth_signTypedData_v4', [ADDRESS, { ...MAIL, domain: { ...MAIL.domain, chainId: '0x7a69' } }]), ctx(n));
  assert.equal(sig2, sig);
});

test('eth_signTypedData_v4 refuses bad JSON, a wrong shape, invalid values, another chain and another address', async () => {
  const n = node();
  const sign = (doc, address = ADDRESS, chainId = 31337) => f.handleRpc(rpc('eth_signTypedData_v4', [address, doc], chainId), ctx(n));
  await assert.rejects(sign('{not json'), { message: 'Invalid typed data: not JSON', code: -32602 });
  await assert.rejects(sign('[]'), { message: 'Invalid typed data: not an object' });
  await assert.rejects(sign(JSON.stringify({ ...MAIL, types: [] })), { message: 'Invalid typed data: types' });
  await assert.rejects(sign(JSON.stringify({ ...MAIL, primaryType: 'Letter' })), { message: 'Invalid typed data: primaryType' });
  await assert.rejects(sign(JSON.stringify({ ...MAIL, message: 'x' })), { message: 'Invalid typed data: message' });
  await assert.rejects(sign(JSON.stringify({ ...MAIL, types: { ...MAIL.types, Person: [{ name: 'x' }] } })), { message: 'Invalid typed data: the fields of Person' });
  const badAddress = { ...MAIL, message: { ...MAIL.message, to: { name: 'Bob', wallet: '0x1234' } } };
  await assert.rejects(sign(JSON.stringify(badAddress)), (e) => e.code === -32602 && /^Invalid typed data: /.test(e.message));
  await assert.rejects(sign(JSON.stringify(MAIL), ADDRESS, 1), { message: 'Provided chainId "31337" must match the active chainId "1"' });
  await assert.rejects(sign(JSON.stringify(MAIL), OTHER), { code: 4100 });
});

test('eth_sendTransaction on an EIP-1559 chain: pending nonce, estimated gas, 2 × base fee + tip, signed by our key', async () => {
  const n = node({ baseFee: '0x3b9aca00', tip: '0x77359400', nonce: '0x5', gas: '0x5208' });
  const hash = await f.handleRpc(rpc('eth_sendTransaction', [{ from: ADDRESS, to: OTHER, value: '0xde0b6b3a7640000' }]), ctx(n));
  const [sent] = n.methods('eth_sendRawTransaction');
  const raw = sent.params[0];
  assert.equal(hash, keccak256(raw));
  const tx = parseTransaction(raw);
  assert.equal(tx.type, 'eip1559');
  assert.equal(tx.chainId, 31337);
  assert.equal(tx.nonce, 5);
  assert.equal(tx.gas, 21000n);
  assert.equal(tx.to, OTHER);
  assert.equal(tx.value, 10n ** 18n);
  assert.equal(tx.maxPriorityFeePerGas, 2_000_000_000n);
  assert.equal(tx.maxFeePerGas, 2n * 1_000_000_000n + 2_000_000_000n);
  assert.equal(await recoverTransactionAddress({ serializedTransaction: raw }), ADDRESS);
  assert.deepEqual(n.methods('eth_estimateGas')[0].params, [{ from: ADDRESS, to: OTHER, value: '0xde0b6b3a7640000' }]);
});

test('eth_sendTransaction on a chain without a base fee is a legacy transaction at eth_gasPrice, with EIP-155 replay protection', async () => {
  const n = node({ baseFee: null, gasPrice: '0x4a817c800' });
  await f.handleRpc(rpc('eth_sendTransaction', [{ to: OTHER, data: '0xa9059cbb' }], 10), ctx(n));
  const raw = n.methods('eth_sendRawTransaction')[0].params[0];
  const tx = parseTransaction(raw);
  assert.equal(tx.type, 'legacy');
  assert.equal(tx.gasPrice, 20_000_000_000n);
  assert.equal(tx.chainId, 10);
  assert.equal(tx.data, '0xa9059cbb');
  assert.equal(await recoverTransactionAddress({ serializedTransaction: raw }), ADDRESS);
  assert.equal(n.methods('eth_maxPriorityFeePerGas').length, 0);
});

test('the app\'s own gas, nonce and fees are kept; nothing is read for them', async () => {
  const n = node();
  await f.handleRpc(rpc('eth_sendTransaction', [{ from: ADDRESS, to: OTHER, chainId: '0x7a69', gas: '0x7530', nonce: '0x9', maxFeePerGas: '0x64', maxPriorityFeePerGas: '0xa' }]), ctx(n));
  const tx = parseTransaction(n.methods('eth_sendRawTransaction')[0].params[0]);
  assert.deepEqual([tx.gas, tx.nonce, tx.maxFeePerGas, tx.maxPriorityFeePerGas], [30000n, 9, 100n, 10n]);
  assert.deepEqual(n.calls.map((c) => c.method), ['eth_sendRawTransaction']);
  const legacy = node();
  await f.handleRpc(rpc('eth_sendTransaction', [{ to: OTHER, gasPrice: '0x3e8', gas: '0x5208' }]), ctx(legacy));
  const lt = parseTransaction(legacy.methods('eth_sendRawTransaction')[0].params[0]);
  assert.equal(lt.type, 'legacy');
  assert.equal(lt.gasPrice, 1000n);
});

test('a transaction from another address, to a bad address or with malformed fields is refused unsent', async () => {
  const n = node();
  const send = (tx) => f.handleRpc(rpc('eth_sendTransaction', [tx]), ctx(n));
  await assert.rejects(send({ from: OTHER, to: OTHER }), { code: 4100 });
  await assert.rejects(send({ to: '0x1234' }), { message: 'Invalid transaction: to' });
  await assert.rejects(send({ to: '0xcD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' }), { message: 'Invalid transaction: to' }, 'bad EIP-55 checksum');
  await assert.rejects(send({ to: OTHER, value: '1000' }), { message: 'Invalid transaction: value' });
  await assert.rejects(send({ to: OTHER, value: -1 }), { message: 'Invalid transaction: value' });
  await assert.rejects(send({ to: OTHER, data: '0xabc' }), { message: 'Invalid transaction: data' });
  await assert.rejects(send({}), /without to must carry contract code/);
  await assert.rejects(send('0x'), { message: 'Invalid transaction: not an object' });
  await assert.rejects(send({ to: OTHER, chainId: '0x1' }), { message: 'Invalid transaction: the chainId is not the active chain' });
  assert.equal(n.methods('eth_sendRawTransaction').length, 0);
});

test('a node error while completing the transaction is answered with its message, and nothing is sent', async () => {
  const failing = fakeRpc({
    ...Object.fromEntries(['eth_getBlockByNumber', 'eth_maxPriorityFeePerGas', 'eth_getTransactionCount'].map((m) => [m, () => (m === 'eth_getBlockByNumber' ? { baseFeePerGas: '0x1' } : '0x1')])),
    eth_estimateGas: () => { throw Object.assign(new Error('insufficient funds for transfer'), { code: -32000 }); },
    eth_sendRawTransaction: () => '0x' + '00'.repeat(32),
  });
  await assert.rejects(f.handleRpc(rpc('eth_sendTransaction', [{ to: OTHER, value: '0x1' }]), ctx(failing)), { message: 'insufficient funds for transfer', code: -32000 });
  assert.equal(failing.methods('eth_sendRawTransaction').length, 0);
});

test('wallet_sendCalls sends each call as a transaction with consecutive nonces and answers {id: first hash}', async () => {
  const n = node({ nonce: '0x7' });
  const result = await f.handleRpc(
    rpc('wallet_sendCalls', [{ version: '2.0.0', chainId: '0x7a69', from: ADDRESS, calls: [{ to: OTHER, value: '0x1' }, { to: OTHER, data: '0x1234' }] }]),
    ctx(n),
  );
  const raws = n.methods('eth_sendRawTransaction').map((c) => c.params[0]);
  assert.equal(raws.length, 2);
  assert.deepEqual(result, { id: keccak256(raws[0]) });
  assert.deepEqual(raws.map((r) => parseTransaction(r).nonce), [7, 8]);
  assert.equal(parseTransaction(raws[1]).data, '0x1234');
  await assert.rejects(f.handleRpc(rpc('wallet_sendCalls', [{ chainId: '0x1', calls: [{ to: OTHER }] }]), ctx(n)), /not the active chain/);
  await assert.rejects(f.handleRpc(rpc('wallet_sendCalls', [{ calls: [] }]), ctx(n)), { message: 'Invalid transaction: calls' });
  await assert.rejects(f.handleRpc(rpc('wallet_sendCalls', [{ calls: Array(33).fill({ to: OTHER }) }]), ctx(n)), { message: 'Invalid transaction: calls' });
});

test('wallet_grantPermissions, wallet_revokePermissions and eth_sendUserOperation are not supported (4200)', async () => {
  const n = node();
  for (const m of ['wallet_grantPermissions', 'wallet_revokePermissions', 'eth_sendUserOperation']) {
    await assert.rejects(f.handleRpc(rpc(m, [{}]), ctx(n)), { message: 'Not supported by this wallet', code: 4200 }, m);
  }
});

test('an aborted request stops before its signature: nothing is signed or sent', async () => {
  const n = node();
  const aborted = () => { throw new f.FrameError('Request was aborted', 4001); };
  await assert.rejects(f.handleRpc(rpc('eth_sendTransaction', [{ to: OTHER }]), ctx(n, { checkAborted: aborted })), { message: 'Request was aborted' });
  await assert.rejects(f.handleRpc(rpc('personal_sign', ['0x00', ADDRESS]), ctx(n, { checkAborted: aborted })), { message: 'Request was aborted' });
  assert.equal(n.methods('eth_sendRawTransaction').length, 0);
});
