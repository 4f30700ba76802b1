// One protocol, two languages: element/ts/protocol.ts (what the shell and the views are typed
// against) checked against what the Rust engine really sends and accepts, through the engine's
// real WebAssembly build. A field added on one side and not the other fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import initWasm, { WasmEngine } from '../../element/pkg/engine/wallet_modal_element.js';

const root = new URL('../../', import.meta.url);
const source = ts.createSourceFile('protocol.ts', await readFile(new URL('element/ts/protocol.ts', root), 'utf8'), ts.ScriptTarget.Latest, true);
await initWasm({ module_or_path: await readFile(new URL('element/pkg/engine/wallet_modal_element_bg.wasm', root)) });

/** Every interface and type alias of protocol.ts by name. */
const declarations = new Map();
source.forEachChild((node) => {
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) declarations.set(node.name.text, node);
});

/** The object members of a type node (an interface, a literal, or `X | null` around one), or null. */
function members(typeNode) {
  if (!typeNode) return null;
  if (ts.isInterfaceDeclaration(typeNode)) return typeNode.members;
  if (ts.isTypeLiteralNode(typeNode)) return typeNode.members;
  if (ts.isUnionTypeNode(typeNode)) {
    const objects = typeNode.types.map(members).filter(Boolean);
    return objects.length === 1 ? objects[0] : null;
  }
  if (ts.isArrayTypeNode(typeNode)) return members(typeNode.elementType);
  if (ts.isTypeReferenceNode(typeNode)) {
    const name = typeNode.typeName.getText(source);
    if (name === 'Array') return members(typeNode.typeArguments?.[0]);
    const decl = declarations.get(name);
    return decl && (ts.isInterfaceDeclaration(decl) ? decl.members : members(decl.type));
  }
  return null;
}

/** Field names of a members list, each with whether it is optional (`?:`). */
function fields(list) {
  return list.filter(ts.isPropertySignature).map((m) => ({ name: m.name.getText(source), optional: Boolean(m.questionToken), type: m.type }));
}

/**
 * Compares a JSON value from the engine with a protocol.ts type, recursively through every object
 * the value holds: the same field names (optional ones may be absent), nothing more.
 */
function compare(value, list, path, seen) {
  const declared = fields(list);
  const names = declared.map((f) => f.name);
  for (const key of Object.keys(value)) assert.ok(names.includes(key), `${path}.${key} is sent by the engine but missing from protocol.ts`);
  for (const f of declared) {
    if (!f.optional) assert.ok(f.name in value, `${path}.${f.name} is declared in protocol.ts but not sent by the engine`);
    const inner = value[f.name];
    const sub = members(f.type);
    if (!sub || inner === null || inner === undefined || typeof inner !== 'object') continue;
    const items = Array.isArray(inner) ? inner : [inner];
    for (const item of items) if (item && typeof item === 'object' && !Array.isArray(item)) compare(item, sub, `${path}.${f.name}`, seen);
    if (!Array.isArray(inner) && members(f.type)) seen.add(`${path}.${f.name}`);
  }
}

const ADDR = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const NETWORKS = [31337, 31338].map((id) => ({
  id,
  caipNetworkId: `eip155:${id}`,
  name: `Anvil ${id}`,
  chainNamespace: 'eip155',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [`http://127.0.0.1:${id}`] } },
  blockExplorers: { default: { name: 'Explorer', url: 'https://explorer.test' } },
  testnet: true,
}));

/** An engine driven to a state where every optional part of the snapshot is filled. */
function busyEngine() {
  const engine = new WasmEngine(JSON.stringify({ projectId: 'p', apiUrl: 'http://api.test', networks: NETWORKS, origin: 'http://127.0.0.1' }));
  const send = (event) => JSON.parse(engine.dispatch(JSON.stringify(event), 1000));
  const request = (out, method) => out.effects.find((e) => e.type === 'providerRequest' && e.method === method);
  send({ type: 'start', storage: {} });
  send({ type: 'announce', uuid: '350670db-19fa-4704-a166-e52e178b59d2', name: 'Demo Wallet', icon: 'data:image/svg+xml;base64,AA==', rdns: 'dev.walletmodal.demo' });
  send({ type: 'open' });
  let out = send({ type: 'selectConnector', id: 'dev.walletmodal.demo' });
  out = send({ type: 'providerResult', id: request(out, 'eth_requestAccounts').id, result: [ADDR] });
  out = send({ type: 'providerResult', id: request(out, 'eth_chainId').id, result: '0x7a69' });
  const balance = out.effects.find((e) => e.type === 'fetch' && e.body?.includes('eth_getBalance'));
  send({ type: 'fetchResult', id: balance.id, status: 200, body: '{"jsonrpc":"2.0","id":1,"result":"0x1"}' });
  send({ type: 'open' });
  out = send({ type: 'switchNetwork', caipNetworkId: 'eip155:31338' });
  out = send({ type: 'providerResult', id: request(out, 'wallet_switchEthereumChain').id, error: { code: 4001, message: 'no' } });
  send({ type: 'hostRequest', id: 1, method: 'personal_sign' });
  out = send({ type: 'switchNetwork', caipNetworkId: 'eip155:31338' });
  return { engine, send, snapshot: out.snapshot };
}

test('the snapshot the engine sends has exactly the fields of protocol.ts Snapshot, nested objects included', () => {
  const { snapshot } = busyEngine();
  assert.ok(snapshot.account && snapshot.banner && snapshot.walletRequest && snapshot.switching && snapshot.network, 'every optional part filled');
  const seen = new Set();
  compare(snapshot, declarations.get('Snapshot').members, 'Snapshot', seen);
  for (const part of ['Snapshot.account', 'Snapshot.banner', 'Snapshot.switching', 'Snapshot.network', 'Snapshot.allWallets']) assert.ok(seen.has(part), `${part} compared`);
});

test('a pairing and a failed connection have the fields of protocol.ts too', () => {
  const engine = new WasmEngine(JSON.stringify({ projectId: 'p', apiUrl: 'http://api.test', networks: NETWORKS }));
  const send = (event) => JSON.parse(engine.dispatch(JSON.stringify(event), 1000));
  send({ type: 'start', storage: {}, legacyProvider: true });
  send({ type: 'open' });
  send({ type: 'selectConnector', id: 'walletConnect' });
  const pairing = send({ type: 'walletConnectUri', uri: `wc:${'a'.repeat(64)}@2?relay-protocol=irn&symKey=${'b'.repeat(64)}`, expiresAtMs: 99999 });
  assert.ok(pairing.snapshot.walletConnect?.uri, 'a pairing shown');
  const seen = new Set();
  compare(pairing.snapshot, declarations.get('Snapshot').members, 'Snapshot', seen);
  assert.ok(seen.has('Snapshot.walletConnect'), 'walletConnect compared');

  send({ type: 'back' });
  const asked = send({ type: 'selectConnector', id: 'injected' });
  const id = asked.effects.find((e) => e.type === 'providerRequest' && e.method === 'eth_requestAccounts').id;
  const failed = send({ type: 'providerResult', id, error: { code: 4001, message: 'no' } });
  assert.equal(failed.snapshot.connecting?.state, 'error');
  compare(failed.snapshot, declarations.get('Snapshot').members, 'Snapshot', seen);
  assert.ok(seen.has('Snapshot.connecting'), 'connecting compared');
});

test('every Intent of protocol.ts is an event the engine reads', () => {
  const intent = declarations.get('Intent');
  assert.ok(intent && ts.isUnionTypeNode(intent.type));
  const { send } = busyEngine();
  const samples = { view: 'Connect', id: 'walletConnect', query: 'x', caipNetworkId: 'eip155:31337', namespace: 'eip155' };
  const types = [];
  for (const variant of intent.type.types) {
    const list = fields(members(variant));
    const type = list.find((f) => f.name === 'type').type.literal.text;
    types.push(type);
    const event = { type };
    for (const f of list) if (f.name !== 'type' && !f.optional) event[f.name] = samples[f.name];
    const out = send(event);
    const refused = out.effects.find((e) => e.type === 'alert' && e.key === 'INVALID_EVENT');
    assert.equal(refused, undefined, `intent ${type}: ${refused?.message}`);
  }
  assert.ok(types.length >= 12, `${types.length} intents checked`);
});

// ----- the account module (lazy slices in their own wasm) -----

const { default: initAccount, WasmAccount } = await import('../../element/pkg/account/wallet_modal_account.js');
await initAccount({ module_or_path: await readFile(new URL('element/pkg/account/wallet_modal_account_bg.wasm', root)) });

/** An account module with its tokens and activity filled from answers in the services' shapes. */
function busyAccount() {
  const m = new WasmAccount(JSON.stringify({ projectId: 'p', apiUrl: 'http://api.test', networks: NETWORKS }));
  const send = (event) => JSON.parse(m.dispatch(JSON.stringify(event), 1000));
  const chain = 'eip155:31337';
  let out = send({ type: 'context', visible: true, account: { namespace: 'eip155', address: ADDR, caipNetworkId: chain, connectorId: 'x' } });
  const balance = out.effects.find((e) => e.type === 'fetch' && e.url.includes('/balance'));
  send({ type: 'fetchResult', id: balance.id, status: 200, body: JSON.stringify({ balances: [
    { name: 'USD Coin', symbol: 'USDC', chainId: chain, address: `${chain}:0x5FbDB2315678afecb367f032d93F642f64180aa3`, value: 10, price: 1, quantity: { decimals: '6', numeric: '10' }, iconUrl: 'http://api.test/i' },
  ] }) });
  out = send({ type: 'selectAccountTab', tab: 'activity' });
  const history = out.effects.find((e) => e.type === 'fetch' && e.url.includes('/history'));
  out = send({ type: 'fetchResult', id: history.id, status: 200, body: JSON.stringify({ next: 'c', data: [
    { id: 't', metadata: { operationType: 'send', minedAt: '2026-11-02T10:00:00Z', chain, sentFrom: ADDR, sentTo: ADDR, hash: '0x1', status: 'confirmed' },
      transfers: [{ fungible_info: { name: 'USD Coin', symbol: 'USDC' }, direction: 'out', quantity: { numeric: '1' } }] },
  ] }) });
  return { send, part: out.part };
}

test('the account module\'s Send and Receive screens have the fields of protocol.ts too', () => {
  const { send } = busyAccount();
  send({ type: 'selectAccountTab', tab: 'tokens' });
  send({ type: 'openSend' });
  send({ type: 'sendSetAmount', amount: '1' });
  send({ type: 'sendSetReceiver', receiver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
  let out = send({ type: 'sendPreview' });
  const gas = out.effects.find((e) => e.type === 'providerRequest' && e.method === 'eth_estimateGas');
  const price = out.effects.find((e) => e.type === 'providerRequest' && e.method === 'eth_gasPrice');
  send({ type: 'providerResult', id: gas.id, result: '0x5208' });
  out = send({ type: 'providerResult', id: price.id, result: '0x1' });
  assert.ok(out.part.send?.preview?.fee, 'a preview with its fee');
  const seen = new Set();
  compare(out.part, declarations.get('AccountPart').members, 'AccountPart', seen);
  assert.ok(seen.has('AccountPart.send'), 'send compared');
  out = send({ type: 'sendConfirm' });
  const tx = out.effects.find((e) => e.type === 'providerRequest' && e.method === 'eth_sendTransaction');
  out = send({ type: 'providerResult', id: tx.id, result: `0x${'ab'.repeat(32)}` });
  out = send({ type: 'openReceive' });
  assert.ok(out.part.sent && out.part.receive, 'sent and receive filled');
  compare(out.part, declarations.get('AccountPart').members, 'AccountPart', seen);
  for (const p of ['AccountPart.sent', 'AccountPart.receive']) assert.ok(seen.has(p), `${p} compared`);
});

test('the account module sends exactly the fields of protocol.ts AccountPart, nested objects included', () => {
  const { part } = busyAccount();
  assert.ok(part.tokens.tokens.length === 1 && part.activity.groups.length === 1, 'tokens and activity filled');
  const seen = new Set();
  compare(part, declarations.get('AccountPart').members, 'AccountPart', seen);
  for (const p of ['AccountPart.tokens', 'AccountPart.activity']) assert.ok(seen.has(p), `${p} compared`);
});

test('every AccountIntent of protocol.ts is an event the account module reads', () => {
  const intent = declarations.get('AccountIntent');
  assert.ok(intent && ts.isUnionTypeNode(intent.type));
  const { send } = busyAccount();
  const samples = { tab: 'tokens', index: 0, amount: '1', receiver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' };
  for (const variant of intent.type.types) {
    const list = fields(members(variant));
    const type = list.find((f) => f.name === 'type').type.literal.text;
    const event = { type };
    for (const f of list) if (f.name !== 'type' && !f.optional) event[f.name] = samples[f.name];
    const out = send(event);
    const refused = out.effects.find((e) => e.type === 'alert' && e.key === 'INVALID_EVENT');
    assert.equal(refused, undefined, `intent ${type}: ${refused?.message}`);
  }
});

// ----- the trade modules (the Swap and Buy screens, each in its own wasm) -----

const { default: initSwap, WasmSwap } = await import('../../element/pkg/swap/wallet_modal_swap.js');
await initSwap({ module_or_path: await readFile(new URL('element/pkg/swap/wallet_modal_swap_bg.wasm', root)) });
const { default: initBuy, WasmBuy } = await import('../../element/pkg/buy/wallet_modal_buy.js');
await initBuy({ module_or_path: await readFile(new URL('element/pkg/buy/wallet_modal_buy_bg.wasm', root)) });

/** A trade module with its screen open and filled from answers in the services' shapes. */
function busyTrade(Wasm, open, answers) {
  const m = new Wasm(JSON.stringify({ projectId: 'p', apiUrl: 'http://api.test', networks: NETWORKS }));
  let now = 1000;
  const send = (event) => JSON.parse(m.dispatch(JSON.stringify(event), now));
  const chain = 'eip155:31337';
  send({ type: 'context', visible: true, swapNetworks: [chain], held: [{ address: null, balance: '10', price: 3000 }],
    account: { namespace: 'eip155', address: ADDR, caipNetworkId: chain, connectorId: 'x' } });
  let out = send({ type: open });
  const asked = [...out.effects];
  const track = (o) => (asked.push(...o.effects), o);
  for (const [path, body, then] of answers) {
    const req = asked.find((e) => e.type === 'fetch' && e.url.includes(path));
    assert.ok(req, `${open}: a ${path} request`);
    out = track(send({ type: 'fetchResult', id: req.id, status: 200, body: JSON.stringify(body) }));
    if (then) {
      now += 1000;
      out = track(send(then));
      const timer = out.effects.find((e) => e.type === 'startTimer');
      if (timer) {
        now += timer.ms;
        out = track(send({ type: 'timer', id: timer.id }));
      }
    }
  }
  return { send, part: out.part };
}

test('the Swap and Buy modules send exactly the fields of protocol.ts TradePart, and read every TradeIntent', () => {
  const chain = 'eip155:31337';
  const native = `${chain}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`;
  const usdc = `${chain}:0x5fbdb2315678afecb367f032d93f642f64180aa3`;
  const swap = busyTrade(WasmSwap, 'openSwap', [
    ['/convert/gas-price', { standard: '1000000000' }],
    ['/convert/tokens', { tokens: [{ name: 'Ether', symbol: 'ETH', address: native, decimals: 18 }, { name: 'USD Coin', symbol: 'USDC', address: usdc, decimals: 6 }] }, { type: 'swapSetAmount', amount: '1' }],
    ['/convert/quotes', { quotes: [{ toAmount: '2990000000' }] }],
  ]);
  assert.equal(swap.part.swap.receive, '2,990');
  const buy = busyTrade(WasmBuy, 'openBuy', [
    ['/onramp/options', { purchaseCurrencies: [{ id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [{ name: chain, display_name: 'Anvil', chain_id: '31337', contract_address: '0x5fbd' }] }],
      paymentCurrencies: [{ id: 'USD', name: 'US Dollar', symbol: 'USD', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }] }],
      providers: [{ id: 'meld', name: 'Meld', feePercent: '1.00' }] }, { type: 'buySetAmount', amount: '100' }],
    ['/onramp/quote', { purchaseAmount: { amount: '99' }, fee: { amount: '1.00' } }],
  ]);
  assert.equal(buy.part.buy.quotes.length, 1);
  const seen = new Set();
  for (const part of [swap.part, buy.part]) compare(part, declarations.get('TradePart').members, 'TradePart', seen);
  for (const p of ['TradePart.swap', 'TradePart.buy', 'TradePart.swap.from']) assert.ok(seen.has(p), `${p} compared`);

  const intent = declarations.get('TradeIntent');
  assert.ok(intent && ts.isUnionTypeNode(intent.type));
  const samples = { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', amount: '1', symbol: 'USDC', currency: 'USD', method: 'card', provider: 'meld' };
  for (const variant of intent.type.types) {
    const list = fields(members(variant));
    const type = list.find((f) => f.name === 'type').type.literal.text;
    const event = { type };
    for (const f of list) if (f.name !== 'type' && !f.optional) event[f.name] = samples[f.name];
    const out = (type.startsWith('swap') || type === 'openSwap' ? swap : buy).send(event);
    const refused = out.effects.find((e) => e.type === 'alert' && e.key === 'INVALID_EVENT');
    assert.equal(refused, undefined, `intent ${type}: ${refused?.message}`);
  }
});
