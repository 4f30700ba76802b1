// One protocol, two languages: element/ts/protocol.ts (what the shell and the views are typed
// against) checked against what the Rust hosts really send and read, through the real WebAssembly
// build of every module (the engine and the lazily loaded ones), routed as the shell routes them
// (test/support/hosts.mjs). Every snapshot part, effect and intent of every module is checked
// structurally, field by field and value by value: a field added, removed or retyped on one side
// and not the other fails here, union alternatives (BuyPart.order, ApprovalPart) included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import { ENGINE, Hosts, MODULES, ROUTES } from '../support/hosts.mjs';

const root = new URL('../../', import.meta.url);
const parse = async (file) => ts.createSourceFile(file, await readFile(new URL(`element/ts/${file}`, root), 'utf8'), ts.ScriptTarget.Latest, true);
const files = [await parse('protocol.ts'), await parse('routes.gen.ts')];

/** Every interface and type alias of protocol.ts and routes.gen.ts by name. */
const declarations = new Map();
for (const f of files) {
  f.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) declarations.set(node.name.text, node);
  });
}
/** A node's source text (a synthesized name: its identifier). */
const text = (node) => (node.pos >= 0 && node.getSourceFile() ? node.getText(node.getSourceFile()) : ts.idText(node));

// ----- a structural checker of JSON values against protocol.ts types -----

/** Union alternatives seen, per path ("BuyPart.order" → the indexes of the object shapes matched). */
const seenAlternatives = new Map();

/** The object shapes a type node allows (several for a union or an intersection with one), or null. */
function shapes(node) {
  if (!node) return null;
  if (ts.isParenthesizedTypeNode(node)) return shapes(node.type);
  if (ts.isInterfaceDeclaration(node)) {
    const own = [{ props: props(node.members), index: node.members.some(ts.isIndexSignatureDeclaration) }];
    const bases = (node.heritageClauses ?? []).flatMap((h) =>
      h.types.map((t) => shapes(ts.factory.createTypeReferenceNode(ts.idText(t.expression), t.typeArguments ? [...t.typeArguments] : undefined))),
    );
    return bases.reduce((acc, b) => (b ? merge(acc, b) : acc), own);
  }
  if (ts.isTypeLiteralNode(node)) return [{ props: props(node.members), index: node.members.some(ts.isIndexSignatureDeclaration) }];
  if (ts.isUnionTypeNode(node)) {
    const objects = node.types.filter((t) => !isNull(t)).map(shapes);
    return objects.every(Boolean) ? objects.flat() : null;
  }
  if (ts.isIntersectionTypeNode(node)) return node.types.map(shapes).reduce((acc, s) => (acc && s ? merge(acc, s) : null));
  if (ts.isTypeReferenceNode(node)) {
    const name = text(node.typeName);
    if (name === 'Record') return [{ props: new Map(), index: true, key: node.typeArguments[0], value: node.typeArguments[1] }];
    if (name === 'Partial') {
      const inner = shapes(node.typeArguments[0]);
      return inner && inner.map((sh) => ({ ...sh, props: new Map([...sh.props].map(([k, p]) => [k, { ...p, optional: true }])) }));
    }
    const decl = resolve(name);
    return decl ? shapes(ts.isInterfaceDeclaration(decl) ? decl : decl.type) : null;
  }
  return null;
}

function resolve(name) {
  return declarations.get(name) ?? null;
}

function props(members) {
  const out = new Map();
  for (const m of members) if (ts.isPropertySignature(m)) out.set(m.name.getText(m.getSourceFile()).replace(/'/g, ''), { type: m.type, optional: Boolean(m.questionToken) });
  return out;
}

function merge(a, b) {
  return a.flatMap((x) => b.map((y) => ({ props: new Map([...x.props, ...y.props]), index: x.index || y.index })));
}

function isNull(node) {
  return ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword;
}

/**
 * Errors of `value` against `node` (empty: it matches). Objects must have exactly the declared
 * fields (optional ones may be absent), literal types their literal, unions one alternative.
 */
function check(value, node, path) {
  if (!node) return [`${path}: no type`];
  switch (node.kind) {
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.AnyKeyword:
      return [];
    case ts.SyntaxKind.StringKeyword:
      return typeof value === 'string' ? [] : [`${path}: ${JSON.stringify(value)} is not a string`];
    case ts.SyntaxKind.NumberKeyword:
      return typeof value === 'number' ? [] : [`${path}: ${JSON.stringify(value)} is not a number`];
    case ts.SyntaxKind.BooleanKeyword:
      return typeof value === 'boolean' ? [] : [`${path}: ${JSON.stringify(value)} is not a boolean`];
  }
  if (ts.isParenthesizedTypeNode(node)) return check(value, node.type, path);
  if (ts.isLiteralTypeNode(node)) {
    const expected = node.literal.kind === ts.SyntaxKind.NullKeyword ? null : node.literal.kind === ts.SyntaxKind.TrueKeyword ? true : node.literal.kind === ts.SyntaxKind.FalseKeyword ? false : node.literal.text;
    return value === expected ? [] : [`${path}: ${JSON.stringify(value)} is not ${JSON.stringify(expected)}`];
  }
  if (ts.isArrayTypeNode(node)) return Array.isArray(value) ? value.flatMap((v, i) => check(v, node.elementType, `${path}[${i}]`)) : [`${path}: not an array`];
  if (ts.isTupleTypeNode(node)) {
    if (!Array.isArray(value) || value.length !== node.elements.length) return [`${path}: not a ${node.elements.length}-tuple`];
    return value.flatMap((v, i) => check(v, node.elements[i], `${path}[${i}]`));
  }
  if (ts.isTypeReferenceNode(node) && text(node.typeName) === 'Array') return check(value, ts.factory.createArrayTypeNode(node.typeArguments[0]), path);
  if (ts.isUnionTypeNode(node) && value !== null && typeof value === 'object' && !Array.isArray(value)) return checkObject(value, node, path);
  if (ts.isUnionTypeNode(node)) {
    const results = node.types.map((t) => check(value, t, path));
    return results.some((r) => r.length === 0) ? [] : [`${path}: ${JSON.stringify(value).slice(0, 80)} matches none of ${text(node)}`];
  }
  if (ts.isTypeReferenceNode(node)) {
    const decl = resolve(text(node.typeName));
    if (decl && ts.isTypeAliasDeclaration(decl) && !shapes(decl.type)) return check(value, decl.type, path);
  }
  return checkObject(value, node, path);
}

function checkObject(value, node, path) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: ${JSON.stringify(value)} is not an object`];
  const alternatives = shapes(node);
  if (!alternatives) return [`${path}: cannot read the type ${text(node)}`];
  let best = null;
  for (const [i, shape] of alternatives.entries()) {
    const errors = [];
    for (const key of Object.keys(value)) {
      const p = shape.props.get(key);
      if (p) errors.push(...check(value[key], p.type, `${path}.${key}`));
      else if (shape.value) {
        if (shape.key && shape.key.kind !== ts.SyntaxKind.StringKeyword) errors.push(...check(key, shape.key, `${path} key`));
        errors.push(...check(value[key], shape.value, `${path}.${key}`));
      }
      else if (!shape.index) errors.push(`${path}.${key} is sent but not declared in protocol.ts`);
    }
    for (const [key, p] of shape.props) if (!p.optional && !(key in value)) errors.push(`${path}.${key} is declared in protocol.ts but not sent`);
    if (shape.props.size === 0 && !shape.index && !shape.value && Object.keys(value).length) errors.push(`${path}: unexpected fields`);
    if (errors.length === 0) {
      const key = path.replace(/ \([^)]*\)/g, '');
      if (alternatives.length > 1) (seenAlternatives.get(key) ?? seenAlternatives.set(key, new Set()).get(key)).add(i);
      return [];
    }
    if (!best || errors.length < best.length) best = errors;
  }
  return best;
}

/** Asserts that a value matches the named protocol.ts type. */
function conforms(value, typeName, path = typeName) {
  const decl = resolve(typeName);
  assert.ok(decl, `protocol.ts declares ${typeName}`);
  const errors = check(value, ts.isInterfaceDeclaration(decl) ? ts.factory.createTypeReferenceNode(typeName) : decl.type, path);
  assert.deepEqual(errors, [], errors.join('\n'));
}

/** The literal `type`s of a union of `{ type: '…' }` object types. */
function variantTypes(name) {
  const decl = resolve(name);
  return decl.type.types.map((t) => text(t.members.find((m) => m.name.getText(m.getSourceFile()) === 'type').type).replace(/'/g, ''));
}

/** Declared field names of an interface or an intersection of them. */
function fieldNames(name) {
  const decl = resolve(name);
  return [...shapes(ts.isInterfaceDeclaration(decl) ? decl : decl.type)[0].props.keys()].sort();
}

// ----- the hosts driven through every part -----

const ADDR = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CHAIN = 'eip155:31337';
const USDC = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
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
const OPTIONS = {
  projectId: 'p',
  apiUrl: 'http://api.test',
  networks: NETWORKS,
  origin: 'http://127.0.0.1',
  debug: true,
  features: { email: true, socials: ['google', 'farcaster'], swaps: ['1inch'], swapNetworks: [CHAIN], onramp: ['meld', 'coinbase'], activity: true },
};
const HASH = `0x${'ab'.repeat(32)}`;

/** Connected with the demo wallet on `CHAIN`, the modal closed. */
function connected(options = OPTIONS) {
  const h = new Hosts(options);
  h.send({ type: 'start', storage: {} });
  h.send({ type: 'announce', uuid: '350670db-19fa-4704-a166-e52e178b59d2', name: 'Demo Wallet', icon: 'data:image/svg+xml;base64,AA==', rdns: 'dev.walletmodal.demo', namespace: 'eip155' });
  h.send({ type: 'open' });
  h.serve('/appkit/v1/config', { features: OPTIONS.features });
  h.serve('/getAnalyticsConfig', { isAnalyticsEnabled: true });
  h.send({ type: 'selectConnector', id: 'dev.walletmodal.demo' });
  h.answer('eth_requestAccounts', [ADDR.toLowerCase()]).answer('eth_chainId', '0x7a69');
  return h;
}

/** The Account view with what the account holds, and each of its screens visited. */
function account() {
  const h = connected();
  h.send({ type: 'open' });
  assert.ok(h.loaded('account'), 'the Account view loads the account module');
  h.serve('http://127.0.0.1:31337', { jsonrpc: '2.0', id: 1, result: '0x21e19e0c9bab2400000' }, 200, 'eth_getBalance');
  h.serve('/v1/supported-chains', { http: [CHAIN], ws: [] });
  h.serve('/balance?', { balances: [
    { name: 'Ether', symbol: 'ETH', chainId: CHAIN, quantity: { decimals: '18', numeric: '9999.5' }, value: 29998500.0, price: 3000.0, iconUrl: 'http://api.test/i/eth' },
    { name: 'USD Coin', symbol: 'USDC', chainId: CHAIN, address: `${CHAIN}:${USDC}`, quantity: { decimals: '6', numeric: '1000' }, value: 1000.0, price: 1.0 },
  ] });
  h.serve('/v1/identity/', { name: 'alice.demo.eth', avatar: null });
  h.send({ type: 'selectAccountTab', tab: 'nfts' });
  conforms(h.snapshot, 'ViewSnapshot', 'ViewSnapshot (NFTs loading)');
  h.serve('/nfts', { data: [{ chainId: CHAIN, contract: { address: USDC, name: 'Pass', symbol: 'P' }, tokenId: '1', name: 'Pass #1', imageUrl: 'http://api.test/1.svg', isSpam: false }], next: '2' });
  h.send({ type: 'selectAccountTab', tab: 'activity' });
  conforms(h.snapshot, 'ViewSnapshot', 'ViewSnapshot (activity loading)');
  h.serve('/history', { next: 'c', data: [
    { id: 't', metadata: { operationType: 'send', minedAt: '2026-11-02T10:00:00Z', chain: CHAIN, sentFrom: ADDR, sentTo: ADDR, hash: '0x1', status: 'confirmed' },
      transfers: [{ fungible_info: { name: 'USD Coin', symbol: 'USDC' }, direction: 'out', quantity: { numeric: '1' } }] },
  ] });
  h.send({ type: 'copyAddress' });
  h.send({ type: 'hostRequest', id: 1, method: 'personal_sign' });
  return h;
}

const engineTests = [];

test('the engine\'s snapshot has exactly the fields of protocol.ts Snapshot, nested objects included, in every state', () => {
  const bare = new Hosts({ networks: NETWORKS });
  conforms(bare.snapshot, 'ViewSnapshot', 'ViewSnapshot (config error)');
  assert.ok(bare.snapshot.configError, 'a config error shown');

  const h = connected();
  h.send({ type: 'open' }).send({ type: 'navigate', view: 'AllWallets' });
  h.serve('/getWallets', { count: 1, data: [{ id: 'w1', name: 'Wallet 1', image_id: 'i1', rdns: null, chains: [CHAIN], mobile_link: null, desktop_link: null, webapp_link: null }] });
  conforms(h.snapshot, 'ViewSnapshot', 'ViewSnapshot (all wallets)');
  h.send({ type: 'switchNetwork', caipNetworkId: 'eip155:31338' });
  h.answer('wallet_switchEthereumChain', null, { code: 4001, message: 'no' });
  h.send({ type: 'switchNetwork', caipNetworkId: 'eip155:31338' });
  const s = h.snapshots.get(ENGINE);
  const empty = ['connection', 'banner', 'switching', 'network'].filter((k) => !s[k]);
  assert.deepEqual(empty, [], 'every optional part filled');
  assert.ok(s.allWallets.items.length, 'the catalogue filled');
  conforms(h.snapshot, 'ViewSnapshot');

  const w = connected();
  w.send({ type: 'disconnect' }).send({ type: 'open' }).send({ type: 'selectConnector', id: 'walletConnect' });
  w.send({ type: 'walletConnectUri', uri: `wc:${'a'.repeat(64)}@2?relay-protocol=irn&symKey=${'b'.repeat(64)}`, expiresAtMs: 99999 });
  assert.ok(w.snapshot.walletConnect?.uri, 'a pairing shown');
  conforms(w.snapshot, 'ViewSnapshot', 'ViewSnapshot (pairing)');
  w.send({ type: 'back' }).send({ type: 'selectConnector', id: 'dev.walletmodal.demo' });
  w.answer('eth_requestAccounts', null, { code: 4001, message: 'no' });
  assert.equal(w.snapshot.connecting?.state, 'error');
  conforms(w.snapshot, 'ViewSnapshot', 'ViewSnapshot (failed connection)');
  engineTests.push(h, w);
});

test('the account module\'s snapshot has exactly the fields of protocol.ts AccountParts, each screen and union included', () => {
  const h = account();
  const parts = () => h.snapshot;
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (activity)');
  assert.ok(parts().account?.balance && parts().walletRequest && parts().activity?.groups.length, 'account, wallet prompt and activity filled');

  // Send: the form, the preview with its fee, sent.
  h.send({ type: 'navigate', view: 'WalletSend' }).send({ type: 'sendSetAmount', amount: '1' }).send({ type: 'sendSetReceiver', receiver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
  h.send({ type: 'sendPreview' }).answer('eth_estimateGas', '0x5208').answer('eth_gasPrice', '0x1');
  assert.ok(parts().send?.preview?.fee, 'a preview with its fee');
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (send preview)');
  h.send({ type: 'sendConfirm' }).answer('eth_sendTransaction', HASH);
  h.send({ type: 'navigate', view: 'WalletReceive' });
  assert.ok(parts().sent && parts().receive?.qr, 'sent and receive filled');
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (sent, receive)');

  // Swap: tokens, a quote, the action.
  h.send({ type: 'navigate', view: 'Swap' });
  h.serve('/convert/tokens', { tokens: [{ name: 'Ether', symbol: 'ETH', address: `${CHAIN}:${NATIVE}`, decimals: 18 }, { name: 'USD Coin', symbol: 'USDC', address: `${CHAIN}:${USDC}`, decimals: 6, logoUri: 'https://x/usdc.svg' }] });
  h.serve('/convert/gas-price', { standard: '1000000000' });
  h.send({ type: 'swapSetAmount', amount: '1' }).fire('swap-quote');
  h.serve('/convert/quotes', { quotes: [{ toAmount: '2990000000' }] });
  assert.equal(parts().swap.receive, '2,990');
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (swap)');

  // Buy: options, quotes, then the order through each of its stages.
  h.send({ type: 'navigate', view: 'OnRampProviders' });
  h.serve('/onramp/options', {
    purchaseCurrencies: [{ id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [{ name: CHAIN, display_name: 'Anvil', chain_id: '31337', contract_address: USDC, decimals: 6 }] }],
    paymentCurrencies: [{ id: 'USD', name: 'US Dollar', symbol: 'USD', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }] }],
    providers: [{ id: 'meld', name: 'Meld', feePercent: '1.00' }, { id: 'coinbase', name: 'Coinbase', feePercent: '2.00' }],
  });
  h.send({ type: 'buySetAmount', amount: '100' }).fire('buy-quote');
  h.serve('/v1/onramp/quote', { purchaseAmount: { amount: '99' }, fee: { amount: '1.00' } }, 200, '"provider":"meld"');
  h.serve('/v1/onramp/quote', { purchaseAmount: { amount: '98' } }, 500, '"provider":"coinbase"');
  assert.equal(parts().buy.quotes.length, 2);
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (buy quotes)');
  h.send({ type: 'buyChoose', provider: 'meld' });
  conforms(parts(), 'ViewSnapshot');
  h.serve('/v1/generators/onrampurl', { url: 'http://api.test/onramp/meld/checkout/o1', orderId: 'o1' });
  conforms(parts(), 'ViewSnapshot');
  h.fire('buy-order').serve('/v1/onramp/orders/o1', { id: 'o1', status: 'COMPLETED', purchaseCurrency: 'USDC', purchaseAmount: '99', txHash: HASH });
  conforms(parts(), 'ViewSnapshot');
  h.send({ type: 'buyReset' }).send({ type: 'buySetAmount', amount: '100' }).fire('buy-quote');
  h.serve('/v1/onramp/quote', { purchaseAmount: { amount: '99' } }, 200, '"provider":"meld"');
  h.send({ type: 'buyChoose', provider: 'meld' }).serve('/v1/generators/onrampurl', {}, 500);
  conforms(parts(), 'ViewSnapshot');
  assert.deepEqual([...seenAlternatives.get('ViewSnapshot.buy.order')].sort(), [0, 1, 2, 3], 'every stage of BuyPart.order (preparing, open, completed, failed) checked');
  engineTests.push(h);
});

/** Logged in to the embedded wallet by email, through the frame the test plays. */
function embedded() {
  const h = new Hosts(OPTIONS);
  h.send({ type: 'start', storage: {} }).send({ type: 'open' });
  h.serve('/appkit/v1/config', { features: OPTIONS.features });
  h.send({ type: 'loadFrame' });
  assert.ok(h.loaded('embedded'), 'the email field loads the embedded wallet');
  h.send({ type: 'init', random: 'ab'.repeat(16) });
  h.send({ type: 'emailSubmit', email: 'a@example.com' });
  h.send({ type: 'frameMessage', data: { type: '@w3m-frame/READY' } });
  h.now += 500;
  h.fire('frame-deadline');
  h.frameAnswer('CONNECT_EMAIL', { action: 'VERIFY_OTP' });
  h.send({ type: 'emailOtp', otp: '123456' }).frameAnswer('CONNECT_OTP', {});
  h.frameAnswer('IS_CONNECTED', { isConnected: true });
  h.frameAnswer('GET_USER', { address: ADDR.toLowerCase(), email: 'a@example.com', chainId: 31337 });
  assert.equal(h.snapshot.connection?.connectorId, 'embedded', 'logged in');
  return h;
}

test('the embedded wallet module\'s snapshot has exactly the fields of protocol.ts EmbeddedParts, approvals included', () => {
  const h = embedded();
  const parts = () => h.snapshot;
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (logged in)');
  // A request that signs goes to the frame, which asks the visitor and tells the modal to show it.
  h.send({ type: 'frameTheme', dark: true, variables: { '--wm-accent': '#3b5bdb' } });
  h.send({ type: 'request', connector: 'embedded', key: 'host-sign', method: 'personal_sign', params: ['0x6869', ADDR] });
  assert.ok(parts().approval, 'waiting for the frame');
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (waiting for the frame)');
  h.send({ type: 'frameMessage', data: { type: '@w3m-frame/APPROVAL_VIEW', payload: { open: true, height: 420, method: 'personal_sign' } } });
  assert.equal(parts().approval?.open, true, 'the frame shows its approval');
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (the frame shows its approval)');
  h.send({ type: 'close' });
  h.send({ type: 'openUpdateEmail' }).send({ type: 'updateEmailSubmit', email: 'b@example.com' });
  conforms(parts(), 'ViewSnapshot', 'ViewSnapshot (email update)');

  const s = new Hosts(OPTIONS);
  s.send({ type: 'start', storage: {} }).send({ type: 'open' }).send({ type: 'socialLogin', provider: 'google' });
  s.send({ type: 'init', random: 'cd'.repeat(16) });
  s.send({ type: 'frameMessage', data: { type: '@w3m-frame/READY' } });
  s.now += 500;
  s.fire('frame-deadline').frameAnswer('GET_SOCIAL_REDIRECT_URI', { uri: 'https://accounts.example/auth?state=1' });
  assert.ok(s.snapshots.get('embedded').social, 'a social login under way');
  conforms(s.snapshot, 'ViewSnapshot', 'ViewSnapshot (social)');
  s.send({ type: 'socialResult', uri: 'https://accounts.example/done?state=1&code=2' });
  conforms(s.snapshot, 'ViewSnapshot', 'ViewSnapshot (social result)');
  const f = new Hosts(OPTIONS);
  f.send({ type: 'start', storage: {} }).send({ type: 'open' }).send({ type: 'farcasterLogin' });
  f.send({ type: 'init', random: 'ef'.repeat(16) }).send({ type: 'frameMessage', data: { type: '@w3m-frame/READY' } });
  f.now += 500;
  f.fire('frame-deadline').frameAnswer('GET_FARCASTER_URI', { url: 'https://farcaster.xyz/~/siwf?channelToken=x' });
  assert.ok(f.snapshots.get('embedded').farcaster?.qr, 'a Farcaster QR code shown');
  conforms(f.snapshot, 'ViewSnapshot', 'ViewSnapshot (farcaster)');
  engineTests.push(h, s, f);
});

test('every key of protocol.ts AllParts is written, each by one module only, once every module is loaded', () => {
  const h = account();
  h.send({ type: 'loadFrame' });
  h.send({ type: 'siwxConfig', domain: 'dapp.test', uri: 'https://dapp.test', appName: 'Dapp', random: 'ab'.repeat(32) });
  assert.deepEqual([...h.hosts.keys()].sort(), [...MODULES].sort(), 'every module loaded');
  const owners = new Map();
  for (const [module, snapshot] of h.snapshots) {
    for (const key of Object.keys(snapshot)) {
      assert.ok(!owners.has(key), `${key} is written by ${owners.get(key)} and by ${module}`);
      owners.set(key, module);
    }
  }
  assert.deepEqual([...owners.keys()].sort(), fieldNames('AllParts'), 'the modules write exactly the keys of AllParts');
  conforms(h.snapshot, 'AllParts');
});

test('every effect any module sent is a protocol.ts Effect, and every Effect variant was sent', () => {
  assert.ok(engineTests.length >= 6, 'the scenarios above ran');
  const sent = new Set();
  for (const h of engineTests) {
    h.send({ type: 'close' });
    h.send({ type: 'notAnEvent' });
    for (const { module, effects } of h.log) {
      for (const e of effects) {
        conforms(e, 'Effect', `${module}: Effect ${e.type}`);
        sent.add(e.type);
      }
    }
  }
  assert.deepEqual([...sent].sort(), [...new Set(variantTypes('Effect'))].sort(), 'every Effect variant was sent');
});

test('every event type a module reads is a protocol.ts intent or host event, and each intent is read where the routes send it', () => {
  const engineEvents = resolve('EngineEventType').type.types.map((t) => t.literal.text);
  const read = new Set([...engineEvents, ...Object.values(ROUTES).flatMap((r) => r.events)]);
  const intents = new Set([...variantTypes('Intent'), ...variantTypes('AccountIntent'), ...variantTypes('EmbeddedIntent'), ...variantTypes('SiwxIntent')]);
  const own = new Set(['providerResult', 'fetchResult', 'timer', 'notes', 'request', 'release']);
  const host = new Set(variantTypes('HostEvent'));
  for (const type of read) assert.ok(intents.has(type) || host.has(type), `${type} is read by a module but is no intent or host event of protocol.ts`);
  for (const type of [...intents, ...host]) assert.ok(read.has(type) || own.has(type), `${type} is declared in protocol.ts but no module reads it`);

  const h = account();
  const samples = { view: 'Account', id: 'walletConnect', connectorId: 'walletConnect', query: 'x', caipNetworkId: CHAIN, namespace: 'eip155', tab: 'tokens', index: 0, amount: '1', receiver: ADDR, address: USDC, symbol: 'USDC', currency: 'USD', method: 'card', provider: 'meld', email: 'a@example.com', otp: '123456' };
  for (const name of ['Intent', 'AccountIntent', 'EmbeddedIntent', 'SiwxIntent']) {
    for (const variant of resolve(name).type.types) {
      const fields = [...shapes(variant)[0].props];
      const type = fields.find(([k]) => k === 'type')[1].type.literal.text;
      const event = { type };
      for (const [k, p] of fields) if (k !== 'type' && !p.optional) event[k] = type === 'socialLogin' ? 'google' : samples[k];
      const before = h.log.length;
      h.send(event);
      const refused = h.log.slice(before).flatMap((o) => o.effects).find((e) => e.type === 'alert' && e.key === 'INVALID_EVENT');
      assert.equal(refused, undefined, `${name} ${type}: ${refused?.message}`);
    }
  }
});

test('ViewName is the core\'s list of views, and the engine opens each of them by name', () => {
  const names = resolve('ViewName').type.types.map((t) => t.literal.text);
  assert.ok(names.length >= 20 && names.includes('OnRampProviders') && names.includes('WalletSendPreview'));
  const h = new Hosts(OPTIONS);
  for (const view of names) {
    const before = h.log.length;
    h.send({ type: 'open', view });
    const error = h.log.slice(before).flatMap((o) => o.effects).find((e) => e.type === 'emit' && e.name === 'error' && /Unknown view/.test(e.detail.message));
    assert.equal(error, undefined, `${view}: ${error?.detail.message}`);
  }
  const before = h.log.length;
  h.send({ type: 'open', view: 'NotAView' });
  assert.ok(h.log.slice(before).flatMap((o) => o.effects).some((e) => e.type === 'emit' && e.name === 'error'), 'an unknown view is refused');
  assert.deepEqual(MODULES[0], ENGINE);
});
