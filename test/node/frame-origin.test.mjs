// The frame's allowed-origins check (frame/src/origin.ts): the same cases as the core's
// (core/src/service/origins.rs), so a project's patterns mean the same to the modal and the frame;
// and how the frame tells which page embeds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFrame } from '../../frame/test/load.mjs';

const f = await loadFrame();
const allowed = (origin, patterns) => f.originAllowed(origin, patterns);

test('an exact origin pattern allows only that scheme, host and port', () => {
  const p = ['https://example.com'];
  assert.ok(allowed('https://example.com', p));
  assert.ok(allowed('https://EXAMPLE.com', p));
  assert.ok(allowed('https://example.com:443', p));
  assert.ok(!allowed('http://example.com', p));
  assert.ok(!allowed('https://example.com:8443', p));
  assert.ok(!allowed('https://evil.com', p));
  assert.ok(allowed('https://example.com', ['https://example.com/']));
});

test('a *. pattern allows exactly one label in its place', () => {
  const p = ['https://*.example.com'];
  assert.ok(allowed('https://app.example.com', p));
  assert.ok(allowed('https://my-app.Example.com', p));
  assert.ok(!allowed('https://example.com', p));
  assert.ok(!allowed('https://a.b.example.com', p));
  assert.ok(!allowed('https://app.example.com.evil.io', p));
  assert.ok(!allowed('https://appexample.com', p));
  assert.ok(!allowed('http://app.example.com', p));
});

test('a pattern without a scheme allows any scheme', () => {
  const p = ['*.vercel.app'];
  assert.ok(allowed('https://my-app-git-main.vercel.app', p));
  assert.ok(allowed('http://preview.vercel.app', p));
  assert.ok(!allowed('https://vercel.app', p));
  assert.ok(!allowed('https://my.vercel.app.evil.com', p));
});

test('a :* port allows any port, the default one too; a fixed port only itself', () => {
  const p = ['http://127.0.0.1:*'];
  assert.ok(allowed('http://127.0.0.1:5173', p));
  assert.ok(allowed('http://127.0.0.1', p));
  assert.ok(!allowed('https://127.0.0.1:5173', p));
  assert.ok(!allowed('http://127.0.0.10:5173', p));
  assert.ok(!allowed('http://localhost.evil.com:3000', ['http://localhost:*']));
  assert.ok(allowed('http://localhost:3000', ['http://localhost:3000']));
  assert.ok(!allowed('http://localhost:3001', ['http://localhost:3000']));
  assert.ok(!allowed('http://localhost', ['http://localhost:3000']));
});

test('a * inside a label needs at least one character', () => {
  const p = ['https://app-*.example.com'];
  assert.ok(allowed('https://app-pr12.example.com', p));
  assert.ok(!allowed('https://app-.example.com', p));
  assert.ok(!allowed('https://web-1.example.com', p));
});

test('malformed origins, wildcard origins and an empty list are refused', () => {
  const p = ['*.example.com', 'https://example.com'];
  for (const o of ['', 'null', 'example.com', 'https://', 'https://user@example.com', 'https://*.example.com', 'https://example.com:*']) {
    assert.ok(!allowed(o, p), o);
  }
  assert.ok(!allowed('https://example.com', []));
  assert.ok(!allowed('https://example.com', [null, 42, {}]));
  assert.ok(allowed('http://[::1]:5173', ['http://[::1]:*']));
  assert.ok(!allowed('http://[::2]:5173', ['http://[::1]:*']));
});

test('the embedding origin is ancestorOrigins[0], else the referrer origin, else none', () => {
  assert.equal(f.embeddingOrigin(['https://dapp.example', 'https://top.example'], 'https://other.example/x'), 'https://dapp.example');
  assert.equal(f.embeddingOrigin(undefined, 'https://dapp.example:8443/page?q=1#h'), 'https://dapp.example:8443');
  assert.equal(f.embeddingOrigin([], 'http://127.0.0.1:5173/'), 'http://127.0.0.1:5173');
  assert.equal(f.embeddingOrigin(undefined, ''), null);
  assert.equal(f.embeddingOrigin(undefined, 'not a url'), null);
  // An opaque (sandboxed) parent and non-http schemes give no origin to answer.
  assert.equal(f.embeddingOrigin(['null'], 'https://dapp.example/'), null);
  assert.equal(f.embeddingOrigin(undefined, 'file:///home/x.html'), null);
  assert.equal(f.embeddingOrigin(['chrome-extension://abc'], ''), null);
});
