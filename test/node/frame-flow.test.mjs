// The whole frame (frame/src/frame.ts) driven by posted messages, against the wallet service of
// docs/embedded-wallet.md §2 in memory (frame/test/fake-service.mjs) and a JSON-RPC node in memory:
// start-up, every event of the §1 table, each request answered exactly once, and nothing secret
// ever posted to the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { keccak256, concat, toBytes, verifyMessage } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadFrame } from '../../frame/test/load.mjs';
import { fakeService, FRAME_BASE } from '../../frame/test/fake-service.mjs';
import { fakeRpc } from '../../frame/test/fake-rpc.mjs';
import { scriptedConsent } from '../../frame/test/consent.mjs';

const f = await loadFrame();
const DAPP = 'http://127.0.0.1:5173';
const RPC_URL = 'http://rpc.test/';

function memoryStorage() {
  const map = new Map();
  return { map, getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k) };
}

function slowNode(delayMs = 0) {
  return fakeRpc({
    eth_getBlockByNumber: () => ({ baseFeePerGas: '0x1' }),
    eth_maxPriorityFeePerGas: () => '0x1',
    eth_getTransactionCount: async () => {
      await new Promise((r) => setTimeout(r, delayMs));
      return '0x0';
    },
    eth_estimateGas: () => '0x5208',
    eth_sendRawTransaction: ([raw]) => keccak256(raw),
    eth_blockNumber: () => '0x2a',
  });
}

let seq = 0;
/** A frame embedded by `origin`, with its own storage unless one is passed (the same device). */
function embed(service, { origin = DAPP, storage = memoryStorage(), params = {}, decide, broadcastSignOut } = {}) {
  const posted = [];
  let reloads = 0;
  const visitor = scriptedConsent(decide);
  const frame = f.createFrame({
    consent: visitor.consent,
    broadcastSignOut,
    params: { projectId: 'demo-project', chainId: 31337, version: 'test', enableLogger: false, rpcUrl: RPC_URL, ...params },
    origin,
    base: FRAME_BASE,
    fetch: service.fetch,
    store: f.createStore(() => storage),
    post: (m) => posted.push(structuredClone(m)),
    reload: () => reloads++,
  });
  const send = (event, payload = {}) => {
    const id = `req_${String(++seq).padStart(16, '0')}`;
    frame.receive({ type: `@w3m-app/${event}`, id, payload });
    return id;
  };
  const answerOf = (id) => {
    const answers = posted.filter((m) => m.id === id);
    assert.equal(answers.length, 1, `exactly one answer to ${id}`);
    return answers[0];
  };
  async function request(event, payload) {
    const id = send(event, payload);
    await frame.idle();
    return answerOf(id);
  }
  async function ok(event, payload) {
    const a = await request(event, payload);
    assert.equal(a.type, `@w3m-frame/${event}_SUCCESS`, `${event}: ${JSON.stringify(a.payload)}`);
    return a.payload;
  }
  async function fails(event, payload) {
    const a = await request(event, payload);
    assert.equal(a.type, `@w3m-frame/${event}_ERROR`, `${event}: ${JSON.stringify(a.payload)}`);
    return a.payload;
  }
  const rpc = (method, params = [], chainId = 31337) => ({ method, params, chainId, chainNamespace: 'eip155', rpcUrl: RPC_URL });
  return { frame, posted, storage, send, answerOf, request, ok, fails, rpc, visitor, reloads: () => reloads };
}

const deviceOf = (e, origin = DAPP) => e.storage.map.get(`wm-frame/device/${origin}`);
const sessionOf = (e, origin = DAPP, project = 'demo-project') => e.storage.map.get(`wm-frame/session/${origin}/${project}`);

/**
 * CONNECT_EMAIL on a device the service does not know for the address: VERIFY_DEVICE; the visitor
 * opens the link in the mail; CONNECT_DEVICE then answers and the code is mailed. Resolves with it.
 */
async function codeFor(e, service, email, project = 'demo-project') {
  assert.deepEqual(await e.ok('CONNECT_EMAIL', { email }), { action: 'VERIFY_DEVICE' });
  service.approveDevice(email, deviceOf(e), project);
  assert.deepEqual(await e.ok('CONNECT_DEVICE'), {});
  return service.lastCode(email);
}

/** A started frame logged in by email as `email` (a new account unless it exists). */
async function loggedIn(service, email = 'alice@example.com', opts = {}) {
  const e = embed(service, opts);
  assert.equal(await e.frame.start(), true);
  const code = await codeFor(e, service, email, opts.params?.projectId);
  assert.deepEqual(await e.ok('CONNECT_OTP', { otp: code }), {});
  return e;
}

/** The EVM address of a root secret, computed apart from the frame. */
const addressOfRoot = (root) => privateKeyToAccount(keccak256(concat([toBytes('wallet-modal/evm'), root]))).address;

function openWithNode(account) {
  const data = Buffer.from(account.keyCiphertext, 'base64');
  const d = crypto.createDecipheriv('aes-256-gcm', Buffer.from(account.kek, 'base64'), data.subarray(0, 12));
  d.setAAD(Buffer.from(account.userId));
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]);
}

test('a page whose origin the project does not allow gets INIT_ERROR and then no answer at all', async () => {
  const service = fakeService({ allowedOrigins: ['https://only.example.com'] });
  const e = embed(service, { origin: 'https://evil.example' });
  assert.equal(await e.frame.start(), false);
  assert.deepEqual(e.posted, [{ type: '@w3m-frame/INIT_ERROR', payload: { message: 'Invalid App Configuration: this origin is not allowed for the project' } }]);
  e.send('IS_CONNECTED');
  e.send('CONNECT_EMAIL', { email: 'a@b.co' });
  await e.frame.idle();
  assert.equal(e.posted.length, 1);
  assert.ok(!service.calls.some((c) => c.path !== '/w/v1/origins'), 'only the origins were asked');
  assert.equal(service.calls[0].query, '?projectId=demo-project');
});

test('an allowed page gets READY; the device id is 16 random bytes hex kept per embedding origin', async () => {
  const service = fakeService({ allowedOrigins: ['http://127.0.0.1:*', 'https://*.example.com'] });
  const storage = memoryStorage();
  const e = embed(service, { storage });
  assert.equal(await e.frame.start(), true);
  assert.deepEqual(e.posted, [{ type: '@w3m-frame/READY', payload: {} }]);
  const device = storage.map.get(`wm-frame/device/${DAPP}`);
  assert.match(device, /^[0-9a-f]{32}$/);
  const again = embed(service, { storage });
  await again.frame.start();
  await again.ok('CONNECT_EMAIL', { email: 'dev@example.com' });
  assert.equal(service.calls.at(-1).body.deviceId, device, 'the same device after a reload');
  assert.notEqual((await (async () => { const o = embed(service); await o.frame.start(); return deviceOf(o); })()), device);
  // Another site embedding the frame in the same browser is another device: a login code asked
  // there is not mailed without the device approval the first site's device got.
  const other = embed(service, { storage, origin: 'https://shop.example.com' });
  await other.frame.start();
  const otherDevice = storage.map.get('wm-frame/device/https://shop.example.com');
  assert.match(otherDevice, /^[0-9a-f]{32}$/);
  assert.notEqual(otherDevice, device, 'each embedding origin has its own device id');
  service.approveDevice('dev@example.com', device);
  assert.deepEqual(await other.ok('CONNECT_EMAIL', { email: 'dev@example.com' }), { action: 'VERIFY_DEVICE' });
});

test('a new account by email: the frame draws R, uploads only its AES-GCM seal and the address, and answers the Login user', async () => {
  const service = fakeService();
  const e = await loggedIn(service, 'alice@example.com');
  const [account] = service.accounts.values();
  assert.ok(account.keyCiphertext, 'the seal was uploaded');
  const root = openWithNode(account);
  assert.equal(root.length, 32);
  assert.equal(account.address, addressOfRoot(root), 'the uploaded address is the key of R');
  const keyCall = service.calls.find((c) => c.path === '/w/v1/key');
  assert.deepEqual(Object.keys(keyCall.body).sort(), ['address', 'keyCiphertext']);
  assert.match(keyCall.auth, /^Bearer /);
  const user = await e.ok('GET_USER', {});
  // The same key's Solana account (ed25519, derived from the same root secret in the frame).
  const solana = user.accounts?.[1]?.address;
  assert.match(solana ?? '', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  assert.deepEqual(user, {
    email: 'alice@example.com',
    address: account.address,
    chainId: 31337,
    accounts: [{ address: account.address, type: 'eoa' }, { address: solana, type: 'eoa', namespace: 'solana' }],
    preferredAccountType: 'eoa',
    smartAccountDeployed: false,
  });
  assert.match(user.address, /[A-F]/, 'EIP-55 mixed case');
  assert.deepEqual(await e.ok('IS_CONNECTED'), { isConnected: true });
  const token = sessionOf(e);
  assert.ok(service.sessions.has(token), 'the session token is kept for this embedding origin');
  // Nothing secret crossed postMessage: not R, the private key, the kek, the seal or the session.
  const everything = JSON.stringify(e.posted).toLowerCase();
  const pk = keccak256(concat([toBytes('wallet-modal/evm'), root])).slice(2);
  for (const secret of [root.toString('hex'), pk, account.kek, account.keyCiphertext, token]) {
    assert.ok(!everything.includes(secret.toLowerCase()), 'a secret was posted');
  }
});

test('a reload restores the session from storage: connected, the same address; another embedding origin has none', async () => {
  const service = fakeService({ allowedOrigins: ['http://127.0.0.1:*', 'https://*.example.com'] });
  const first = await loggedIn(service);
  const address = (await first.ok('GET_USER')).address;
  const reloaded = embed(service, { storage: first.storage });
  await reloaded.frame.start();
  assert.deepEqual(reloaded.posted, [{ type: '@w3m-frame/READY', payload: {} }]);
  assert.deepEqual(await reloaded.ok('IS_CONNECTED'), { isConnected: true });
  assert.equal((await reloaded.ok('GET_USER')).address, address);
  assert.deepEqual(await reloaded.ok('RPC_REQUEST', reloaded.rpc('eth_accounts')), [address]);
  const elsewhere = embed(service, { storage: first.storage, origin: 'https://shop.example.com' });
  await elsewhere.frame.start();
  assert.deepEqual(await elsewhere.ok('IS_CONNECTED'), { isConnected: false });
  assert.deepEqual(await elsewhere.fails('GET_USER'), { message: 'Not connected to email or social', code: 4100 });
});

test('a session the service no longer knows (401) is forgotten at start-up; READY comes, and IS_CONNECTED says sessionExpired once', async () => {
  const service = fakeService();
  const first = await loggedIn(service);
  service.sessions.clear();
  const reloaded = embed(service, { storage: first.storage });
  await reloaded.frame.start();
  assert.deepEqual(reloaded.posted, [{ type: '@w3m-frame/READY', payload: {} }]);
  assert.equal(first.storage.map.has(`wm-frame/session/${DAPP}/demo-project`), false);
  assert.deepEqual(await reloaded.ok('IS_CONNECTED'), { isConnected: false, sessionExpired: true });
  assert.deepEqual(await reloaded.ok('IS_CONNECTED'), { isConnected: false });
});

test('a service that is down at start-up keeps the session; it is restored once the service answers', async () => {
  const service = fakeService();
  const first = await loggedIn(service);
  service.overrides.set('GET /w/v1/session', async () => service.err(503, 'Unavailable'));
  const reloaded = embed(service, { storage: first.storage });
  await reloaded.frame.start();
  assert.ok(first.storage.map.has(`wm-frame/session/${DAPP}/demo-project`), 'kept');
  service.overrides.delete('GET /w/v1/session');
  assert.deepEqual(await reloaded.ok('IS_CONNECTED'), { isConnected: true });
});

test('a known email on a new device: VERIFY_DEVICE, then CONNECT_DEVICE long-polls through 408s until approved; the same key opens', async () => {
  const service = fakeService({ pollMs: 20 });
  const first = await loggedIn(service, 'bob@example.com');
  const address = (await first.ok('GET_USER')).address;
  const laptop = embed(service);
  await laptop.frame.start();
  assert.deepEqual(await laptop.ok('CONNECT_EMAIL', { email: 'bob@example.com' }), { action: 'VERIFY_DEVICE' });
  const id = laptop.send('CONNECT_DEVICE');
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(laptop.posted.filter((m) => m.id === id).length, 0, 'still waiting');
  const deviceId = deviceOf(laptop);
  const waits = service.calls.filter((c) => c.path === '/w/v1/device/wait' && c.body.deviceId === deviceId);
  assert.ok(waits.length >= 2, `retried after 408 (${waits.length} polls)`);
  assert.deepEqual(waits[0].body, { email: 'bob@example.com', deviceId, projectId: 'demo-project' });
  service.approveDevice('bob@example.com', deviceId);
  await laptop.frame.idle();
  assert.deepEqual(laptop.answerOf(id), { type: '@w3m-frame/CONNECT_DEVICE_SUCCESS', id, payload: {} });
  await laptop.ok('CONNECT_OTP', { otp: service.lastCode('bob@example.com') });
  assert.equal((await laptop.ok('GET_USER')).address, address, 'the existing key, decrypted');
  assert.equal(service.calls.filter((c) => c.path === '/w/v1/key').length, 1, 'no second key uploaded');
});

test('the service\'s errors reach the page as they are: 429 Please try again after N seconds, Invalid code', async () => {
  const service = fakeService();
  const e = embed(service);
  await e.frame.start();
  service.overrides.set('POST /w/v1/email/start', async () => service.err(429, 'Please try again after 17 seconds', { retryAfter: 17 }));
  assert.deepEqual(await e.fails('CONNECT_EMAIL', { email: 'carol@example.com' }), { message: 'Please try again after 17 seconds' });
  service.overrides.clear();
  const code = await codeFor(e, service, 'carol@example.com');
  const wrong = code === '000000' ? '111111' : '000000';
  assert.deepEqual(await e.fails('CONNECT_OTP', { otp: wrong }), { message: 'Invalid code' });
  assert.deepEqual(await e.ok('IS_CONNECTED'), { isConnected: false });
});

test('malformed emails and codes are refused without asking the service; CONNECT_OTP needs CONNECT_EMAIL first', async () => {
  const service = fakeService();
  const e = embed(service);
  await e.frame.start();
  const before = service.calls.length;
  assert.deepEqual(await e.fails('CONNECT_OTP', { otp: '123456' }), { message: 'No email login in progress' });
  assert.deepEqual(await e.fails('CONNECT_DEVICE'), { message: 'No email login in progress' });
  for (const email of ['', 'no-at', 'a@b', 'x'.repeat(250) + '@b.co', 42, 'a@b.co\n']) {
    assert.deepEqual(await e.fails('CONNECT_EMAIL', { email }), { message: 'Invalid email' });
  }
  await e.ok('CONNECT_EMAIL', { email: 'dan@example.com' });
  for (const otp of ['12345', '1234567', 'abcdef', 123456]) {
    assert.deepEqual(await e.fails('CONNECT_OTP', { otp }), { message: 'Invalid code' });
  }
  assert.equal(service.calls.length, before + 1, 'only the valid CONNECT_EMAIL reached the service');
});

test('a key stored meanwhile by another tab (409) is read back and used instead of the new one', async () => {
  const service = fakeService();
  const other = crypto.randomBytes(32);
  service.overrides.set('POST /w/v1/key', async () => {
    const [account] = service.accounts.values();
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(account.kek, 'base64'), iv);
    c.setAAD(Buffer.from(account.userId));
    account.keyCiphertext = Buffer.concat([iv, c.update(other), c.final(), c.getAuthTag()]).toString('base64');
    account.address = addressOfRoot(other);
    return service.err(409, 'A key is already stored');
  });
  const e = await loggedIn(service, 'erin@example.com');
  assert.equal((await e.ok('GET_USER')).address, addressOfRoot(other));
});

test('SIGN_OUT answers within 3 s even when the service hangs, and the session and keys are gone', async () => {
  const service = fakeService();
  const e = await loggedIn(service);
  // A service that never answers, and a fetch that does not even honour its abort signal.
  service.overrides.set('POST /w/v1/signout', () => new Promise((resolve) => setTimeout(() => resolve(service.json(200, {})), 5_000)));
  const t0 = Date.now();
  assert.deepEqual(await e.ok('SIGN_OUT'), {});
  const took = Date.now() - t0;
  assert.ok(took < 3_500, `answered after ${took} ms`);
  assert.equal(e.storage.map.has(`wm-frame/session/${DAPP}`), false);
  assert.deepEqual(await e.ok('IS_CONNECTED'), { isConnected: false });
  assert.deepEqual(await e.ok('RPC_REQUEST', e.rpc('eth_accounts')), []);
  assert.deepEqual(await e.fails('RPC_REQUEST', e.rpc('personal_sign', ['0x00', '0x0000000000000000000000000000000000000000'])), {
    message: 'Not connected to email or social',
    code: 4100,
  });
});

test('SIGN_OUT ends the session at the service too', async () => {
  const service = fakeService();
  const e = await loggedIn(service);
  assert.equal(service.sessions.size, 1);
  await e.ok('SIGN_OUT');
  assert.equal(service.sessions.size, 0);
  const signout = service.calls.find((c) => c.path === '/w/v1/signout');
  assert.equal(signout.method, 'POST');
});

test('UPDATE_EMAIL: a code to the current email, then one to the new; the user\'s email changes', async () => {
  const service = fakeService();
  const e = await loggedIn(service, 'old@example.com');
  assert.deepEqual(await e.ok('UPDATE_EMAIL', { email: 'new@example.com' }), { action: 'VERIFY_PRIMARY_OTP' });
  assert.deepEqual(await e.ok('UPDATE_EMAIL_PRIMARY_OTP', { otp: service.lastCode('old@example.com') }), { action: 'VERIFY_SECONDARY_OTP' });
  assert.deepEqual(await e.ok('UPDATE_EMAIL_SECONDARY_OTP', { otp: service.lastCode('new@example.com') }), { email: 'new@example.com' });
  assert.equal((await e.ok('GET_USER')).email, 'new@example.com');
  await loggedIn(service, 'taken@example.com');
  assert.deepEqual(await e.fails('UPDATE_EMAIL', { email: 'taken@example.com' }), { message: 'That email belongs to another account' });
});

test('an authenticated call answered 401 forgets the session: Session Expired, then not connected', async () => {
  const service = fakeService();
  const e = await loggedIn(service);
  service.sessions.clear();
  assert.deepEqual(await e.fails('UPDATE_EMAIL', { email: 'z@example.com' }), { message: 'Session Expired' });
  assert.equal(e.storage.map.has(`wm-frame/session/${DAPP}`), false);
  assert.deepEqual(await e.ok('IS_CONNECTED'), { isConnected: false });
  const fresh = embed(service);
  await fresh.frame.start();
  assert.deepEqual(await fresh.fails('UPDATE_EMAIL', { email: 'z@example.com' }), { message: 'Not connected to email or social', code: 4100 });
});

test('social login: the authorization URL names the embedding origin; the result URI logs in and answers the Login user', async () => {
  const service = fakeService();
  const e = embed(service);
  await e.frame.start();
  const { uri } = await e.ok('GET_SOCIAL_REDIRECT_URI', { provider: 'google' });
  assert.equal(new URL(uri).searchParams.get('origin'), DAPP);
  const call = service.calls.find((c) => c.path === '/w/v1/social/uri');
  assert.equal(new URLSearchParams(call.query).get('origin'), DAPP);
  assert.equal(new URLSearchParams(call.query).get('projectId'), 'demo-project', 'the service checks the origin against the project');
  assert.equal(new URLSearchParams(call.query).get('deviceId'), deviceOf(e), 'the result is bound to the device that started the flow');
  assert.deepEqual(await e.fails('GET_SOCIAL_REDIRECT_URI', { provider: 'goo gle' }), { message: 'Invalid provider' });
  const state = new URL(uri).searchParams.get('state');
  const user = await e.ok('CONNECT_SOCIAL', { uri: `${FRAME_BASE}/social/done?sub=alice&provider=google&state=${state}` });
  const [account] = service.accounts.values();
  assert.equal(user.address, account.address);
  assert.equal(user.address, addressOfRoot(openWithNode(account)));
  assert.equal(user.userName, 'alice');
  assert.equal(user.socialProvider, 'google');
  assert.equal(user.email, 'alice@google.test');
  assert.equal(service.calls.find((c) => c.path === '/w/v1/social/connect').body.deviceId, deviceOf(e));
});

test('a social result started on another device does not log this frame in (login CSRF)', async () => {
  const service = fakeService();
  const attacker = embed(service);
  await attacker.frame.start();
  const { uri } = await attacker.ok('GET_SOCIAL_REDIRECT_URI', { provider: 'google' });
  const state = new URL(uri).searchParams.get('state');
  // The attacker's own finished sign-in, handed to the visitor's frame (a link with ?result_uri=).
  const visitor = embed(service);
  await visitor.frame.start();
  assert.deepEqual(await visitor.fails('CONNECT_SOCIAL', { uri: `${FRAME_BASE}/social/done?sub=mallory&provider=google&state=${state}` }), {
    message: 'This sign-in was started on another device',
  });
  assert.deepEqual(await visitor.ok('IS_CONNECTED'), { isConnected: false });
});

test('Farcaster: GET_FARCASTER_URI gives the link; CONNECT_FARCASTER waits for the approval and answers {userName}', async () => {
  const service = fakeService({ pollMs: 20 });
  const e = embed(service);
  await e.frame.start();
  assert.deepEqual(await e.fails('CONNECT_FARCASTER'), { message: 'No Farcaster sign-in in progress' });
  const { url } = await e.ok('GET_FARCASTER_URI');
  const channelToken = new URL(url).searchParams.get('channelToken');
  assert.equal(service.calls.find((c) => c.path === '/w/v1/farcaster/channel').body.origin, DAPP);
  assert.equal(service.calls.find((c) => c.path === '/w/v1/farcaster/channel').body.projectId, 'demo-project');
  const id = e.send('CONNECT_FARCASTER');
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(e.posted.filter((m) => m.id === id).length, 0, 'waiting for the Farcaster client');
  service.approveFarcaster(channelToken, 'dwr');
  await e.frame.idle();
  // {userName} as the table has it, within the Login user (the element reads the address from it).
  const answer = e.answerOf(id).payload;
  assert.equal(answer.userName, 'dwr');
  const user = await e.ok('GET_USER');
  assert.deepEqual(answer, user);
  assert.equal(user.socialProvider, 'farcaster');
  assert.equal(user.email, null);
  assert.equal(user.address, [...service.accounts.values()][0].address);
});

test('a long-poll gives up after its total time with an error, not a hang', async () => {
  const service = fakeService({ pollMs: 10 });
  const e = embed(service);
  await e.frame.start();
  const ctx = { polls: new Map() };
  const t0 = Date.now();
  await assert.rejects(
    f.longPoll(ctx, 'device', async () => { throw new f.ApiError(408, 'Not approved yet'); }, 150),
    { message: 'Timed out waiting for approval' },
  );
  assert.ok(Date.now() - t0 < 2_000);
  await assert.rejects(f.longPoll(ctx, 'device', async () => { throw new f.ApiError(400, 'Unknown channel'); }), { message: 'Unknown channel' });
  assert.equal(ctx.polls.size, 0);
});

test('the chain: GET_CHAIN_ID from the frame URL, SWITCH_NETWORK remembers chainId and rpcUrl', async () => {
  const service = fakeService();
  const e = embed(service);
  await e.frame.start();
  assert.deepEqual(await e.ok('GET_CHAIN_ID'), { chainId: 31337 });
  assert.deepEqual(await e.ok('SWITCH_NETWORK', { chainId: 10, rpcUrl: 'https://mainnet.optimism.io' }), { chainId: 10 });
  assert.deepEqual(await e.ok('GET_CHAIN_ID'), { chainId: 10 });
  assert.deepEqual(await e.fails('SWITCH_NETWORK', { chainId: '0xzz', rpcUrl: 'https://x' }), { message: 'Invalid chainId' });
  assert.deepEqual(await e.fails('SWITCH_NETWORK', { chainId: 5, rpcUrl: 'file:///etc/passwd' }), { message: 'Invalid rpcUrl' });
  assert.deepEqual(await e.ok('GET_CHAIN_ID'), { chainId: 10 });
  // The element sends rpcUrl: null for a network without one.
  assert.deepEqual(await e.ok('SWITCH_NETWORK', { chainId: 8453, rpcUrl: null }), { chainId: 8453 });
  const noChain = embed(service, { params: { chainId: null } });
  await noChain.frame.start();
  assert.deepEqual(await noChain.fails('GET_CHAIN_ID'), { message: 'No network selected' });
});

test('theme, dapp data, smart accounts and RELOAD', async () => {
  const service = fakeService();
  const e = await loggedIn(service);
  assert.deepEqual(await e.ok('SYNC_THEME', { themeMode: 'dark', themeVariables: { '--w3m-accent': '#f00' } }), {});
  assert.deepEqual(await e.fails('SYNC_THEME', { themeMode: 'neon' }), { message: 'Invalid themeMode' });
  assert.deepEqual(await e.fails('SYNC_THEME', { themeMode: 'light', themeVariables: { x: 'y'.repeat(17 * 1024) } }), { message: 'Invalid themeVariables' });
  assert.deepEqual(await e.ok('SYNC_DAPP_DATA', { metadata: { name: 'Demo', url: DAPP, icons: [] }, projectId: 'demo-project', sdkVersion: 'html-1.0.0', sdkType: 'wm' }), {});
  assert.deepEqual(await e.fails('SYNC_DAPP_DATA', { projectId: 'another' }), { message: 'projectId does not match the frame' });
  assert.deepEqual(await e.ok('GET_SMART_ACCOUNT_ENABLED_NETWORKS'), { smartAccountEnabledNetworks: [] });
  const { address } = await e.ok('GET_USER');
  assert.deepEqual(await e.ok('SET_PREFERRED_ACCOUNT', { type: 'eoa' }), { type: 'eoa', address });
  for (const ev of ['SET_PREFERRED_ACCOUNT', 'INIT_SMART_ACCOUNT']) {
    assert.deepEqual(await e.fails(ev, { type: 'smartAccount' }), { message: 'Smart accounts are not available yet' });
  }
  const before = e.posted.length;
  e.send('RELOAD');
  await e.frame.idle();
  assert.equal(e.reloads(), 1);
  assert.equal(e.posted.length, before, 'RELOAD is not answered: the page goes away');
  assert.deepEqual(await e.fails('NOT_AN_EVENT'), { message: 'Unsupported request NOT_AN_EVENT' });
});

test('malformed messages get no answer, and an id already in flight is not answered twice', async () => {
  const service = fakeService({ pollMs: 50 });
  const e = embed(service);
  await e.frame.start();
  const before = e.posted.length;
  for (const m of [null, 'hi', { type: '@w3m-app/IS_CONNECTED', id: 'short' }, { type: '@w3m-app/IS_CONNECTED', id: 'x'.repeat(16), payload: [] },
    { type: '@w3m-frame/READY', id: 'x'.repeat(16) }, { type: '@w3m-app/IS_CONNECTED', id: 'x'.repeat(16), payload: { a: 'b'.repeat(300_000) } }]) {
    e.frame.receive(m);
  }
  await e.frame.idle();
  assert.equal(e.posted.length, before);
  await e.ok('CONNECT_EMAIL', { email: 'fay@example.com' });
  await loggedIn(service, 'gus@example.com');
  await e.ok('CONNECT_EMAIL', { email: 'gus@example.com' }); // a new device: VERIFY_DEVICE
  const dup = { type: '@w3m-app/CONNECT_DEVICE', id: 'dup_dup_dup_dup_1', payload: {} };
  e.frame.receive(dup);
  e.frame.receive(dup);
  setTimeout(() => service.approveDevice('gus@example.com', e.storage.map.get('wm-frame/device')), 60);
  await e.frame.idle();
  assert.equal(e.posted.filter((m) => m.id === dup.id).length, 1);
});

test('RPC_ABORT drops the queued approval requests (Request was aborted) and stops the one in progress before it signs; safe requests go on', async () => {
  const node = slowNode(150);
  const service = fakeService({ rpc: node });
  const e = await loggedIn(service);
  const { address } = await e.ok('GET_USER');
  const tx = e.send('RPC_REQUEST', e.rpc('eth_sendTransaction', [{ from: address, to: address, value: '0x1' }]));
  const sign1 = e.send('RPC_REQUEST', e.rpc('personal_sign', ['0x01', address]));
  const sign2 = e.send('RPC_REQUEST', e.rpc('eth_signTypedData_v4', [address, '{}']));
  const safe = e.send('RPC_REQUEST', e.rpc('eth_blockNumber'));
  await new Promise((r) => setTimeout(r, 30));
  const abort = e.send('RPC_ABORT', null);
  await e.frame.idle();
  for (const id of [tx, sign1, sign2]) {
    assert.deepEqual(e.answerOf(id).payload, { message: 'Request was aborted', code: 4001 });
    assert.equal(e.answerOf(id).type, '@w3m-frame/RPC_REQUEST_ERROR');
  }
  assert.deepEqual(e.answerOf(safe).payload, '0x2a');
  assert.equal(e.posted.filter((m) => m.id === abort).length, 0, 'RPC_ABORT itself has no answer');
  assert.equal(node.methods('eth_sendRawTransaction').length, 0, 'the transaction was not sent');
  // After the abort the queue works again.
  const sig = await e.ok('RPC_REQUEST', e.rpc('personal_sign', ['0x01', address]));
  assert.ok(await verifyMessage({ address, message: { raw: '0x01' }, signature: sig }));
});

test('approval requests run one at a time, in order of arrival', async () => {
  const node = slowNode(40);
  const service = fakeService({ rpc: node });
  const e = await loggedIn(service);
  const { address } = await e.ok('GET_USER');
  const first = e.send('RPC_REQUEST', e.rpc('eth_sendTransaction', [{ to: address, value: '0x1' }]));
  const second = e.send('RPC_REQUEST', e.rpc('personal_sign', ['hello', address]));
  await e.frame.idle();
  const order = e.posted.map((m) => m.id).filter((id) => id === first || id === second);
  assert.deepEqual(order, [first, second]);
  assert.equal(e.answerOf(first).type, '@w3m-frame/RPC_REQUEST_SUCCESS');
  assert.equal(node.methods('eth_sendRawTransaction').length, 1);
});

test('RPC_REQUEST through the frame: a refused method is 4200, a malformed request is an error, signing needs the session', async () => {
  const service = fakeService({ rpc: slowNode() });
  const e = embed(service);
  await e.frame.start();
  assert.deepEqual(await e.fails('RPC_REQUEST', e.rpc('eth_sign', [])), { message: 'Requested RPC call is not allowed', code: 4200 });
  assert.deepEqual(await e.fails('RPC_REQUEST', { method: 'eth_chainId', chainId: 1, rpcUrl: 'ftp://x' }), { message: 'Invalid RPC request: rpcUrl', code: -32602 });
  assert.deepEqual(await e.ok('RPC_REQUEST', e.rpc('eth_chainId', [], 8453)), '0x2105');
  // rpcUrl: null uses the frame's own RPC URL for that chain (from the frame URL), and only for it.
  assert.deepEqual(await e.ok('RPC_REQUEST', { method: 'eth_blockNumber', params: [], chainId: 31337, rpcUrl: null }), '0x2a');
  assert.deepEqual(await e.fails('RPC_REQUEST', { method: 'eth_blockNumber', params: [], chainId: 1, rpcUrl: null }), { message: 'Invalid RPC request: rpcUrl', code: -32602 });
  assert.deepEqual(await e.fails('RPC_REQUEST', e.rpc('eth_sendTransaction', [{ to: '0x0000000000000000000000000000000000000001' }])), {
    message: 'Not connected to email or social',
    code: 4100,
  });
});

test('a request that signs waits for the visitor in the frame\'s approval: nothing is answered or sent until then', async () => {
  const node = slowNode();
  const service = fakeService({ rpc: node });
  let approve;
  const e = await loggedIn(service, 'alice@example.com', { decide: () => new Promise((r) => (approve = r)) });
  const { address } = await e.ok('GET_USER');
  const id = e.send('RPC_REQUEST', e.rpc('eth_sendTransaction', [{ from: address, to: address, value: '0x1' }]));
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(e.posted.filter((m) => m.id === id).length, 0, 'no answer while the visitor has not decided');
  assert.equal(node.methods('eth_sendRawTransaction').length, 0, 'nothing sent');
  const [{ header, review }] = e.visitor.asked;
  assert.deepEqual({ origin: header.origin, address: header.address, email: header.email, chainId: header.network.chainId, method: header.method }, {
    origin: DAPP,
    address,
    email: 'alice@example.com',
    chainId: 31337,
    method: 'eth_sendTransaction',
  });
  assert.equal(review.calls[0].to, address);
  approve(true);
  await e.frame.idle();
  assert.equal(e.answerOf(id).type, '@w3m-frame/RPC_REQUEST_SUCCESS');
  assert.equal(node.methods('eth_sendRawTransaction').length, 1);
  assert.deepEqual(e.visitor.state.busy, ['Sending…']);
  assert.ok(e.visitor.state.closed >= 1, 'the approval closed once answered');
});

test('the session is checked at the service right before a signature: signed out elsewhere, nothing is signed', async () => {
  const node = slowNode();
  const service = fakeService({ rpc: node });
  const e = await loggedIn(service, 'alice@example.com', {
    decide: async () => {
      service.sessions.clear(); // another tab signed out while the approval showed
      return true;
    },
  });
  const { address } = await e.ok('GET_USER');
  assert.deepEqual(await e.fails('RPC_REQUEST', e.rpc('personal_sign', ['0x01', address])), { message: 'Session Expired', code: 4100 });
  assert.deepEqual(await e.fails('RPC_REQUEST', e.rpc('eth_sendTransaction', [{ to: address, value: '0x1' }])), { message: 'Not connected to email or social', code: 4100 });
  assert.equal(node.methods('eth_sendRawTransaction').length, 0);
  assert.deepEqual(await e.ok('IS_CONNECTED'), { isConnected: false });
});

test('a sign-out in one frame reaches the others: they forget the keys, end the approval shown and tell their page', async () => {
  const service = fakeService({ rpc: slowNode() });
  const storage = memoryStorage();
  const tabs = [];
  const broadcast = () => tabs.forEach((t) => t !== a && t.frame.signedOutElsewhere());
  const a = await loggedIn(service, 'alice@example.com', { storage, broadcastSignOut: () => broadcast() });
  tabs.push(a);
  const b = embed(service, { storage, decide: () => new Promise(() => {}) });
  tabs.push(b);
  await b.frame.start();
  const { address } = await b.ok('GET_USER');
  const pending = b.send('RPC_REQUEST', b.rpc('personal_sign', ['0x01', address]));
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(b.visitor.asked.length, 1, 'the approval shows in the other tab');
  await a.ok('SIGN_OUT');
  await b.frame.idle();
  assert.deepEqual(b.answerOf(pending).payload, { message: 'Request was aborted', code: 4001 });
  assert.ok(b.posted.some((m) => m.type === '@w3m-frame/SIGNED_OUT'), 'the page hears the sign-out');
  assert.deepEqual(await b.ok('IS_CONNECTED'), { isConnected: false });
  assert.deepEqual(await b.fails('RPC_REQUEST', b.rpc('personal_sign', ['0x01', address])), { message: 'Not connected to email or social', code: 4100 });
});

test('a wallet is scoped per project: the same email in another project is another account, and sessions do not cross', async () => {
  const service = fakeService();
  const storage = memoryStorage();
  const first = await loggedIn(service, 'alice@example.com', { storage });
  const a = (await first.ok('GET_USER')).address;
  const other = await loggedIn(service, 'alice@example.com', { storage, params: { projectId: 'other-project' } });
  const b = (await other.ok('GET_USER')).address;
  assert.notEqual(a, b, 'another address by default');
  assert.equal(new Set([...service.accounts.values()].map((x) => x.userId)).size, 2);
  const reloaded = embed(service, { storage });
  await reloaded.frame.start();
  assert.equal((await reloaded.ok('GET_USER')).address, a, 'each project keeps its own session');
  // A session of another project stored under this one is refused, not adopted.
  storage.map.set(`wm-frame/session/${DAPP}/demo-project`, sessionOf(other, DAPP, 'other-project'));
  const mixed = embed(service, { storage });
  await mixed.frame.start();
  assert.deepEqual(await mixed.ok('IS_CONNECTED'), { isConnected: false });
});

test('SYNC_THEME reaches the approval', async () => {
  const service = fakeService();
  const e = embed(service);
  await e.frame.start();
  await e.ok('SYNC_THEME', { themeMode: 'dark', themeVariables: { '--wm-accent': '#ff0000' } });
  assert.deepEqual(e.visitor.state.theme, { themeMode: 'dark', themeVariables: { '--wm-accent': '#ff0000' } });
});

test('a page asking GET_USER for a sign-in (siwx, its own statement and domain) gets the Login user and no signature: signing is the visitor\'s click in the frame', async () => {
  const service = fakeService();
  const e = await loggedIn(service, 'alice@example.com');
  const plain = await e.ok('GET_USER', {});
  const asked = await e.ok('GET_USER', { siwx: true, statement: 'I give away everything', domain: 'bank.example', message: 'sign this' });
  assert.deepEqual(asked, plain, 'the same Login user');
  for (const k of ['signature', 'message', 'siwxMessage']) assert.equal(asked[k], undefined, k);
  assert.ok(!JSON.stringify(e.posted).includes('give away'), 'nothing the page named was signed or echoed');
});
