// What the frame accepts from the app and how it answers (frame/src/messages.ts), the frame URL's
// parameters (validate.ts) and its storage wrapper (store.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFrame } from '../../frame/test/load.mjs';

const f = await loadFrame();
const ID = 'abcdefghijklmnop';

test('a well-formed request is read with its event name, id and payload', () => {
  assert.deepEqual(f.parseRequest({ type: '@w3m-app/CONNECT_EMAIL', id: ID, payload: { email: 'a@b.co' } }), {
    event: 'CONNECT_EMAIL',
    id: ID,
    payload: { email: 'a@b.co' },
  });
  // RPC_ABORT comes with a null payload; an absent one reads the same.
  assert.deepEqual(f.parseRequest({ type: '@w3m-app/RPC_ABORT', id: ID, payload: null }).payload, {});
  assert.deepEqual(f.parseRequest({ type: '@w3m-app/IS_CONNECTED', id: ID }).payload, {});
});

test('requests with a wrong type, id or payload are dropped', () => {
  const ok = { type: '@w3m-app/GET_USER', id: ID, payload: {} };
  const bad = [
    null,
    'string',
    [],
    { ...ok, type: '@w3m-frame/GET_USER' },
    { ...ok, type: 'GET_USER' },
    { ...ok, type: '@w3m-app/' },
    { ...ok, type: '@w3m-app/get_user' },
    { ...ok, type: '@w3m-app/' + 'A'.repeat(56) },
    { ...ok, type: 42 },
    { ...ok, id: 'short' },
    { ...ok, id: 'x'.repeat(15) },
    { ...ok, id: 'x'.repeat(65) },
    { ...ok, id: 'abcdefghijklmnop!' },
    { ...ok, id: 1234567890123456 },
    { ...ok, payload: [] },
    { ...ok, payload: 'x' },
    { ...ok, payload: { big: 'x'.repeat(256 * 1024) } },
    { ...ok, payload: { n: 1n } },
  ];
  for (const m of bad) assert.equal(f.parseRequest(m), null, JSON.stringify(m, (_, v) => (typeof v === 'bigint' ? 'bigint' : v))?.slice(0, 80));
  // Exactly at the bounds: a 64-character type, a 16- and a 64-character id, 256 KiB of payload JSON.
  assert.ok(f.parseRequest({ ...ok, type: '@w3m-app/' + 'A'.repeat(55) }));
  assert.ok(f.parseRequest({ ...ok, id: 'x'.repeat(64) }));
  const filler = 'x'.repeat(256 * 1024 - '{"a":""}'.length);
  assert.ok(f.parseRequest({ ...ok, payload: { a: filler } }));
  assert.equal(f.parseRequest({ ...ok, payload: { a: filler + 'x' } }), null);
  // The bound is in UTF-8 bytes: 'é' is two.
  assert.equal(f.parseRequest({ ...ok, payload: { a: 'é'.repeat(130 * 1024) } }), null);
});

test('a request is answered exactly once, with _SUCCESS or _ERROR and {message, code?}', () => {
  const posted = [];
  const req = f.parseRequest({ type: '@w3m-app/SIGN_OUT', id: ID, payload: {} });
  const reply = f.replier(req, (m) => posted.push(m));
  reply.ok({});
  reply.fail(new f.FrameError('late'));
  reply.ok({ again: true });
  assert.deepEqual(posted, [{ type: '@w3m-frame/SIGN_OUT_SUCCESS', id: ID, payload: {} }]);
  assert.ok(reply.done);

  const errors = [];
  const r2 = f.replier(req, (m) => errors.push(m));
  r2.fail(new f.FrameError('Requested RPC call is not allowed', 4200));
  r2.ok({});
  assert.deepEqual(errors, [
    { type: '@w3m-frame/SIGN_OUT_ERROR', id: ID, payload: { message: 'Requested RPC call is not allowed', code: 4200 } },
  ]);
});

test('unexpected errors are answered without their text', () => {
  assert.deepEqual(f.toFailure(new TypeError('secret internals at 0xdeadbeef')), { message: 'Something went wrong' });
  assert.deepEqual(f.toFailure('x'), { message: 'Something went wrong' });
  assert.deepEqual(f.toFailure(new f.FrameError('Invalid code')), { message: 'Invalid code' });
});

test('the frame URL parameters are read and bounded', () => {
  const p = f.frameParams('?projectId=demo-project&chainId=31337&version=html-1.0.0&enableLogger=true&rpcUrl=' + encodeURIComponent('http://127.0.0.1:8545'));
  assert.deepEqual(p, { projectId: 'demo-project', chainId: 31337, version: 'html-1.0.0', enableLogger: true, rpcUrl: 'http://127.0.0.1:8545', locale: null });
  assert.equal(f.frameParams('?chainId=1'), null, 'no projectId');
  assert.equal(f.frameParams('?projectId=' + 'a'.repeat(129)), null);
  assert.equal(f.frameParams('?projectId=a%20b'), null);
  const q = f.frameParams('?projectId=p&chainId=-1&rpcUrl=javascript:alert(1)&enableLogger=1&version=' + 'v'.repeat(65));
  assert.deepEqual(q, { projectId: 'p', chainId: null, version: null, enableLogger: false, rpcUrl: null, locale: null });
  assert.equal(f.frameParams('?projectId=p&chainId=eip155:10').chainId, 10);
  assert.equal(f.frameParams('?projectId=p&rpcUrl=' + encodeURIComponent('https://rpc.example/' + 'x'.repeat(2048))).rpcUrl, null);
});

test('rpc URLs must be http(s), at most 2048 characters, without credentials', () => {
  assert.equal(f.httpUrl('https://rpc.example/v1?key=1'), 'https://rpc.example/v1?key=1');
  assert.equal(f.httpUrl('https://x/' + 'a'.repeat(2038)).length, 2048);
  for (const u of ['', 'ftp://rpc.example', 'data:text/plain,1', 'https://user:pw@rpc.example', 'https://x/' + 'a'.repeat(2039), 42, null]) {
    assert.equal(f.httpUrl(u), null, String(u).slice(0, 40));
  }
});

test('chain ids are positive safe integers', () => {
  assert.equal(f.chainId(1), 1);
  assert.equal(f.chainId('0x7a69'), 31337);
  assert.equal(f.chainId('137'), 137);
  for (const c of [0, -1, 1.5, 2 ** 53, '01', '', 'abc', null, {}]) assert.equal(f.chainId(c), null, String(c));
});

test('the store falls back to memory when localStorage throws or is missing', () => {
  const throwing = {
    getItem() { throw new Error('SecurityError'); },
    setItem() { throw new Error('QuotaExceededError'); },
    removeItem() { throw new Error('SecurityError'); },
  };
  for (const storage of [() => throwing, () => null, () => { throw new Error('no access'); }]) {
    const s = f.createStore(storage);
    assert.equal(s.get('k'), null);
    s.set('k', 'v');
    assert.equal(s.get('k'), 'v');
    s.remove('k');
    assert.equal(s.get('k'), null);
  }
});

test('while localStorage works it is the truth: a value removed elsewhere is gone here too', () => {
  const map = new Map();
  const storage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, v), removeItem: (k) => map.delete(k) };
  const s = f.createStore(() => storage);
  s.set(f.sessionKey('https://dapp.example', 'p1'), 'token');
  assert.equal(map.get('wm-frame/session/https://dapp.example/p1'), 'token');
  map.clear(); // another tab signed out
  assert.equal(s.get(f.sessionKey('https://dapp.example', 'p1')), null);
  assert.equal(f.deviceKey('https://dapp.example'), 'wm-frame/device/https://dapp.example');
});
