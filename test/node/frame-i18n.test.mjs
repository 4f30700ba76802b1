// The secure frame's own page in the modal's language (frame/src/i18n/): the English texts are the
// `t('…')` literals of frame/src (frame/test/i18n-keys.mjs reads them from the sources), every
// catalogue translates exactly those with the same placeholders and nothing but plain text; the
// frame URL's `locale` is bounded (anything else: English), resolved with the views' rules, and the
// approval — drawn by the real consent/ code in frame/test/dom.mjs's document — shows its texts in
// that language, its values as they are, right to left in Arabic, and never before its catalogue
// is ready (a catalogue that fails leaves it in English).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { loadFrame } from '../../frame/test/load.mjs';
import { englishKeys, extractWhere, root, sources } from '../../frame/test/i18n-keys.mjs';
import { fakeService, FRAME_BASE } from '../../frame/test/fake-service.mjs';
import { fakeRpc } from '../../frame/test/fake-rpc.mjs';
import { fakeDocument, SilentIntersectionObserver } from '../../frame/test/dom.mjs';

const f = await loadFrame();
const LANGUAGES = ['es', 'fr', 'de', 'pt', 'ja', 'ko', 'zh-CN', 'tr', 'ar'];
const EN = englishKeys();
const DAPP = 'https://dapp.example';
const RPC_URL = 'http://rpc.test/';
const FSI = '\u2068';
const PDI = '\u2069';
// A language may say a value once where English says it twice: the same names, not the same count.
const placeholders = (s) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();
const catalogue = async (tag) => (await f.CATALOGUES[tag]()).default;

test('the English texts are the t(\'…\') literals of frame/src, every t() has one, and none is markup', () => {
  const { texts, dynamic } = extractWhere();
  assert.deepEqual(dynamic, [], 't() is only ever called with a literal (else its text could not be listed)');
  assert.ok(EN.length >= 90, `${EN.length} texts`);
  for (const text of ['Approve', 'Reject', 'Sign message', '{origin} asks you to sign this message.', 'Network fee', 'Approve becomes available once this window has been fully visible for a moment.', 'This signature lets {spender} move your tokens without asking you again.', 'Send {symbol}']) {
    assert.ok(texts.has(text), `"${text}" found in the sources`);
  }
  for (const text of EN) assert.doesNotMatch(text, /[<>&]/, text);
  // Nothing of the frame writes markup: every text goes through textContent.
  for (const file of sources()) assert.doesNotMatch(readFileSync(file, 'utf8'), /innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment/, path.relative(root, file));
});

test('the frame has the views\' ten languages, one catalogue file each', () => {
  assert.deepEqual(Object.keys(f.CATALOGUES), LANGUAGES);
  for (const tag of LANGUAGES) assert.ok(existsSync(path.join(root, `frame/src/i18n/${tag}.ts`)), tag);
});

for (const tag of LANGUAGES) {
  test(`${tag}: every English text translated, with the same placeholders, as plain text, and no other key`, async () => {
    const c = await catalogue(tag);
    const missing = EN.filter((k) => typeof c[k] !== 'string' || !c[k].trim());
    assert.deepEqual(missing, [], `${tag} lacks ${missing.length} text(s)`);
    assert.deepEqual(Object.keys(c).filter((k) => !EN.includes(k)), [], `${tag} has texts the sources no longer show`);
    for (const k of EN) {
      assert.deepEqual(placeholders(c[k]), placeholders(k), `${tag}: the placeholders of "${k}"`);
      // Plain text: no markup, no control, bidi or invisible characters (the frame adds its own isolates).
      assert.doesNotMatch(c[k], /[<>]/, `${tag}: "${k}" has markup`);
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(c[k], /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/, `${tag}: "${k}" has hidden characters`);
    }
    const same = EN.filter((k) => c[k] === k);
    assert.ok(same.length < EN.length * 0.1, `${tag}: ${same.length} texts left in English: ${same.join(' | ')}`);
  });
}

test('the frame URL\'s locale: a bounded BCP 47-like tag, else dropped (English)', () => {
  const locale = (v) => f.frameParams(`?projectId=p&locale=${encodeURIComponent(v)}`).locale;
  for (const ok of ['es', 'pt-BR', 'zh-Hans-CN', 'de-DE-1996', 'ar', 'fil', 'EN-gb']) assert.equal(locale(ok), ok);
  for (const bad of ['', 'e', 'español', 'es_ES', 'es-', '-es', 'es-ES-x-private-a', 'es-abcdefghi', 'a'.repeat(36), 'abc-defghijk-lmnopqrs-tuvwxyz12', 'es-aa-bb-cc-dd', '<b>es</b>', 'es"><script>', 'es ES', '../es', 'es\u202e', 'es\n']) {
    assert.equal(locale(bad), null, JSON.stringify(bad));
  }
  assert.equal(f.localeTag('abc-defghijk-lmnopqrs-tuvwxyz'), 'abc-defghijk-lmnopqrs-tuvwxyz');
  assert.equal(f.frameParams('?projectId=p').locale, null);
  assert.equal(f.frameParams('?projectId=p&locale=es&locale=de').locale, 'es', 'the first one');
});

/** element/ts/frame-io.ts (the element's side: it loads the frame), bundled for Node. */
async function loadFrameIo() {
  const dir = mkdtempSync(path.join(tmpdir(), 'wm-frame-io-'));
  try {
    const outfile = path.join(dir, 'frame-io.mjs');
    await esbuild.build({ absWorkingDir: root, entryPoints: ['element/ts/frame-io.ts'], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', outfile, logLevel: 'error' });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the element adds its language to the core\'s frame URL as locale=, every other parameter as it was', async () => {
  const { withLocale } = await loadFrameIo();
  const url = 'http://127.0.0.1:8081/frame?projectId=demo-project&chainId=eip155%3A1&version=html-wagmi-1.0.0&enableLogger=false&rpcUrl=https%3A%2F%2Frpc%2Fx%3Fy%3D1';
  assert.equal(withLocale(url, 'es'), `${url}&locale=es`);
  assert.equal(withLocale(url, 'zh-Hans-CN'), `${url}&locale=zh-Hans-CN`);
  assert.equal(withLocale('https://secure.example/frame', 'ar'), 'https://secure.example/frame?locale=ar');
  assert.equal(withLocale('https://secure.example/frame?projectId=p#x', 'de'), 'https://secure.example/frame?projectId=p&locale=de#x');
  for (const bad of ['', 'es_ES', '<b>', 'a'.repeat(36), 'es&projectId=evil']) assert.equal(withLocale(url, bad), url, bad);
  assert.equal(withLocale(`${url}&locale=fr`, 'es'), `${url}&locale=fr`, 'a locale the core set is kept');
  // What the element passes, the frame reads.
  assert.equal(f.frameParams(new URL(withLocale(url, 'pt-BR')).search).locale, 'pt-BR');
  assert.equal(f.frameParams(new URL(withLocale(url, 'pt-BR')).search).chainId, 1);
});

test('a tag resolves as the views resolve it: the exact tag, else its language, zh* Simplified Chinese, else English', () => {
  const cases = { es: 'es', 'es-MX': 'es', 'pt-BR': 'pt', 'PT-pt': 'pt', 'zh-CN': 'zh-CN', 'zh-cn': 'zh-CN', zh: 'zh-CN', 'zh-Hant-TW': 'zh-CN', 'de-AT': 'de', ja: 'ja', 'ko-KR': 'ko', tr: 'tr', 'ar-EG': 'ar', 'fr-CA': 'fr', en: 'en', 'en-GB': 'en', sw: 'en', xx: 'en', '': 'en' };
  for (const [tag, lang] of Object.entries(cases)) assert.equal(f.resolveLocale(tag), lang, tag);
  assert.equal(f.resolveLocale(null), 'en');
});

test('a catalogue that fails to load, or takes too long, leaves the frame in English; a late one changes nothing', async () => {
  assert.deepEqual(await f.setLanguage('es', { es: () => Promise.reject(new Error('chunk failed')) }), { lang: 'en', dir: 'ltr' });
  assert.equal(f.t('Approve'), 'Approve');
  let late;
  const slow = { es: () => new Promise((resolve) => (late = resolve)) };
  assert.deepEqual(await f.setLanguage('es', slow, 20), { lang: 'en', dir: 'ltr' });
  late({ default: { Approve: 'Aprobar' } });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(f.t('Approve'), 'Approve', 'the language does not change under the visitor');
  assert.deepEqual(await f.setLanguage('de'), { lang: 'de', dir: 'ltr' });
  assert.equal(f.t('Approve'), 'Genehmigen');
  assert.deepEqual(await f.setLanguage(null), { lang: 'en', dir: 'ltr' });
});

test('t(): only a bundled text is translated; a value is filled in once, never read as a key or a placeholder', async () => {
  await f.setLanguage('es');
  assert.equal(f.t('Reject'), 'Rechazar');
  assert.equal(f.t('Not a text of the frame'), 'Not a text of the frame');
  assert.equal(f.t('{n} more waiting', { n: '{n}' }), '{n} más en espera');
  assert.equal(f.t('Unlimited {symbol}', { symbol: 'Approve' }), 'Approve ilimitado');
  assert.equal(f.t('toString'), 'toString', 'no inherited member is a text');
  await f.setLanguage('ar');
  assert.equal(f.t('Send {symbol}', { symbol: 'SOL' }), `إرسال ${FSI}SOL${PDI}`, 'a value isolated in a right-to-left text');
  await f.setLanguage(null);
});

// ----- the approval drawn in a document, the frame driven by messages -----

function memoryStorage() {
  const map = new Map();
  return { map, getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k) };
}

let seq = 0;
/** A frame loaded with `search` (its URL's query), its approval in a document of its own; logged in by email. */
async function frameWith(search, { catalogues, node } = {}) {
  const service = fakeService({ allowedOrigins: [DAPP], rpc: node ?? null });
  const { doc, win } = fakeDocument();
  const posted = [];
  const post = (m) => posted.push(structuredClone(m));
  const params = f.frameParams(search);
  assert.ok(params, search);
  const consent = f.createConsent(doc, win, post, { IntersectionObserver: SilentIntersectionObserver, tracksVisibility: true });
  const storage = memoryStorage();
  const frame = f.createFrame({ params, origin: DAPP, base: FRAME_BASE, fetch: service.fetch, store: f.createStore(() => storage), post, reload() {}, consent, catalogues });
  const send = (event, payload = {}) => {
    const id = `req_${String(++seq).padStart(16, '0')}`;
    frame.receive({ type: `@w3m-app/${event}`, id, payload });
    return id;
  };
  const answer = async (id) => {
    await frame.idle();
    return posted.find((m) => m.id === id);
  };
  assert.equal(await frame.start(), true);
  const email = `visitor${seq}@example.com`;
  await answer(send('CONNECT_EMAIL', { email }));
  service.approveDevice(email, storage.map.get(`wm-frame/device/${DAPP}`), 'demo-project');
  return { frame, doc, posted, send, answer, service, email };
}

async function loggedIn(search, opts) {
  const e = await frameWith(search, opts);
  await e.answer(e.send('CONNECT_DEVICE'));
  const a = await e.answer(e.send('CONNECT_OTP', { otp: e.service.lastCode(e.email) }));
  assert.equal(a.type, '@w3m-frame/CONNECT_OTP_SUCCESS', JSON.stringify(a.payload));
  const user = await e.answer(e.send('GET_USER'));
  return { ...e, address: user.payload.address };
}

/** Resolves once the approval is in the document. */
async function approvalShown(doc) {
  for (let i = 0; i < 200; i++) {
    const main = doc.body.querySelector('main.approval');
    if (main) return main;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no approval shown');
}

/** Each row of the approval: label → value. */
const rowsOf = (main) => Object.fromEntries(main.querySelectorAll('div.row').map((r) => [r.querySelector('dt').textContent, r.querySelector('dd').textContent]));

async function rejectAndAnswer(e, main, id) {
  main.querySelector('button.secondary').click();
  const a = await e.answer(id);
  assert.equal(a.type, '@w3m-frame/RPC_REQUEST_ERROR');
  assert.equal(a.payload.code, 4001);
}

test('locale=es: the approval\'s title, sentence, labels, hint and buttons in Spanish; the origin, address, network name and message as they are', async () => {
  const e = await loggedIn('?projectId=demo-project&chainId=31337&locale=es');
  const id = e.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x417070726f7665', e.address], chainId: 31337, chainNamespace: 'eip155', rpcUrl: RPC_URL, network: { name: 'Reject', symbol: 'ETH', decimals: 18 } });
  const main = await approvalShown(e.doc);
  assert.equal(e.doc.documentElement.lang, 'es');
  assert.equal(e.doc.documentElement.dir, 'ltr');
  assert.equal(main.querySelector('h1').textContent, 'Firmar mensaje');
  assert.equal(main.querySelector('p.who').textContent, `${DAPP} te pide firmar este mensaje.`);
  assert.equal(main.querySelector('[data-field="origin"]').textContent, DAPP);
  assert.equal(main.querySelector('h2').textContent, 'Mensaje');
  assert.equal(main.querySelector('section.details').getAttribute('aria-label'), 'Lo que firmas');
  // The message says "Approve": a value, shown as it is (a page cannot reach a text through it).
  assert.equal(main.querySelector('[data-field="message"]').textContent, 'Approve');
  const rows = rowsOf(main);
  assert.deepEqual(Object.keys(rows), ['Cuenta', 'Red']);
  assert.equal(rows.Cuenta, `${e.email}\n${e.address}`);
  assert.equal(rows.Red, 'Reject (nombre dado por el sitio) · cadena 31337', 'the site\'s name for the network kept, and marked');
  assert.equal(main.querySelector('button.secondary').textContent, 'Rechazar');
  assert.equal(main.querySelector('button.primary').textContent, 'Aprobar');
  assert.equal(main.querySelector('button.primary').disabled, true);
  assert.equal(main.querySelector('p.hint').textContent, 'Podrás aprobar cuando esta ventana haya estado completamente visible durante un momento.');
  await rejectAndAnswer(e, main, id);
});

test('locale=de: a transaction\'s labels, fee and warning in German; the receiver, amounts and token symbol as they are', async () => {
  const SPENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
  const node = fakeRpc({
    eth_getBlockByNumber: () => ({ baseFeePerGas: '0x3b9aca00' }),
    eth_maxPriorityFeePerGas: () => '0x3b9aca00',
    eth_getTransactionCount: () => '0x0',
    eth_estimateGas: () => '0xb411',
    eth_call: ([{ data }]) =>
      data === '0x95d89b41'
        ? '0x000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000045553444300000000000000000000000000000000000000000000000000000000'
        : '0x0000000000000000000000000000000000000000000000000000000000000006',
  });
  const e = await loggedIn('?projectId=demo-project&chainId=1&locale=de-AT', { node });
  // approve(SPENDER, 2^256 - 1) on the token: an unlimited approval.
  const data = `0x095ea7b3${SPENDER.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`;
  const id = e.send('RPC_REQUEST', { method: 'eth_sendTransaction', params: [{ from: e.address, to: TOKEN, data }], chainId: 1, chainNamespace: 'eip155', rpcUrl: RPC_URL });
  const main = await approvalShown(e.doc);
  assert.equal(e.doc.documentElement.lang, 'de');
  assert.equal(main.querySelector('h1').textContent, 'Transaktion senden');
  assert.equal(main.querySelector('p.who').textContent, `${DAPP} bittet dich, diese Transaktion zu senden.`);
  const rows = rowsOf(main);
  assert.equal(rows.An, TOKEN);
  assert.equal(rows.Wert, '0 ETH');
  assert.equal(rows.Funktion, 'approve', 'the function\'s name is the contract\'s');
  assert.equal(rows.Berechtigter, SPENDER);
  assert.equal(rows.Betrag, 'Unbegrenzt USDC');
  assert.equal(rows.Gaslimit, '46097');
  // 46097 gas × (2 × 1 gwei base fee + 1 gwei tip), rounded up to six decimals.
  assert.equal(rows['Netzwerkgebühr (höchstens)'], '0.000139 ETH');
  assert.equal(rows.Netzwerk, 'Ethereum · Chain 1');
  assert.equal(rows.Gesamt, 'höchstens 0.000139 ETH (Netzwerkgebühr)');
  assert.deepEqual(main.querySelectorAll('li.warning').map((w) => w.textContent), [`Unbegrenzte Freigabe: ${SPENDER} kann diesen Token vollständig aus deiner Wallet bewegen, jetzt und später.`]);
  assert.equal(main.querySelector('button.primary').textContent, 'Genehmigen');
  assert.equal(main.querySelector('button.secondary').textContent, 'Ablehnen');
  await rejectAndAnswer(e, main, id);
});

test('locale=ar: the document right to left (dir=rtl, lang=ar), the texts Arabic, each value isolated in its own direction', async () => {
  const e = await loggedIn('?projectId=demo-project&chainId=31337&locale=ar');
  const id = e.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', e.address], chainId: 31337, chainNamespace: 'eip155', rpcUrl: RPC_URL });
  const queued = e.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', e.address], chainId: 31337, chainNamespace: 'eip155', rpcUrl: RPC_URL });
  const main = await approvalShown(e.doc);
  assert.equal(e.doc.documentElement.dir, 'rtl');
  assert.equal(e.doc.documentElement.lang, 'ar');
  assert.equal(main.querySelector('h1').textContent, 'توقيع رسالة');
  // The site where the sentence puts it (not first in Arabic), in its own left-to-right isolate.
  const who = main.querySelector('p.who');
  assert.equal(who.textContent, `يطلب منك ${DAPP} توقيع هذه الرسالة.`);
  assert.equal(who.childNodes[1].getAttribute('dir'), 'ltr');
  const rows = rowsOf(main);
  assert.equal(rows['الحساب'], `${e.email}\n${e.address}`);
  // A chain the frame does not know is "Chain N", translated too.
  assert.equal(rows['الشبكة'], `${FSI}السلسلة ${FSI}31337${PDI}${PDI} · السلسلة ${FSI}31337${PDI}`);
  // Each value in its own direction: the address left to right, the translated network row right to left.
  const dirs = main.querySelectorAll('div.row').map((r) => r.querySelector('dd').children[0].getAttribute('dir'));
  assert.deepEqual(dirs, ['ltr', 'rtl']);
  assert.equal(main.querySelector('[data-field="message"]').getAttribute('dir'), 'auto');
  assert.equal(main.querySelector('p.queued').textContent, `${FSI}1${PDI} أخرى في الانتظار`);
  assert.equal(main.querySelector('button.primary').textContent, 'موافقة');
  assert.equal(main.querySelector('button.secondary').textContent, 'رفض');
  // The visitor leaves: both rejected.
  e.send('RPC_ABORT');
  for (const request of [id, queued]) assert.equal((await e.answer(request)).payload.code, 4001);
});

test('a value\'s direction is its first strong character outside the isolates t() adds', () => {
  assert.equal(f.textDirection('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'), 'ltr');
  assert.equal(f.textDirection('0.5 ETH'), 'ltr');
  assert.equal(f.textDirection('46097'), null);
  assert.equal(f.textDirection('مرحبا hello'), 'rtl');
  assert.equal(f.textDirection(`${FSI}0.000139 ETH${PDI} بحد أقصى (رسوم الشبكة)`), 'rtl');
  assert.equal(f.textDirection(`${FSI}USDC${PDI} غير محدود`), 'rtl');
  assert.equal(f.textDirection(`${FSI}مرحبا${PDI} 12`), null);
});

test('an invalid locale (too long, markup) is dropped: the approval in English', async () => {
  for (const locale of ['es-' + 'abcdefgh-'.repeat(4) + 'x', '<b>es</b>', 'es"><img src=x>']) {
    const e = await loggedIn(`?projectId=demo-project&chainId=31337&locale=${encodeURIComponent(locale)}`);
    const id = e.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', e.address], chainId: 31337, chainNamespace: 'eip155', rpcUrl: RPC_URL });
    const main = await approvalShown(e.doc);
    assert.equal(e.doc.documentElement.lang, 'en', locale);
    assert.equal(e.doc.documentElement.dir, 'ltr');
    assert.equal(main.querySelector('h1').textContent, 'Sign message');
    assert.equal(main.querySelector('button.primary').textContent, 'Approve');
    await rejectAndAnswer(e, main, id);
  }
});

test('an unknown language (sw, xx-YY) shows the approval in English', async () => {
  for (const locale of ['sw', 'xx-YY']) {
    const e = await loggedIn(`?projectId=demo-project&chainId=31337&locale=${locale}`);
    const id = e.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', e.address], chainId: 31337, chainNamespace: 'eip155', rpcUrl: RPC_URL });
    const main = await approvalShown(e.doc);
    assert.equal(e.doc.documentElement.lang, 'en', locale);
    assert.equal(main.querySelector('h1').textContent, 'Sign message');
    assert.equal(main.querySelector('p.who').textContent, `${DAPP} asks you to sign this message.`);
    assert.deepEqual(Object.keys(rowsOf(main)), ['Account', 'Network']);
    await rejectAndAnswer(e, main, id);
  }
});

test('the approval waits for its catalogue (no English first), and one that fails to load leaves it in English', async () => {
  // A catalogue that arrives 300 ms after the request: the first approval drawn is already French.
  const slow = { fr: () => new Promise((r) => setTimeout(() => r(f.CATALOGUES.fr()), 300)) };
  const e = await frameWith('?projectId=demo-project&chainId=31337&locale=fr', { catalogues: slow });
  await e.answer(e.send('CONNECT_DEVICE'));
  await e.answer(e.send('CONNECT_OTP', { otp: e.service.lastCode(e.email) }));
  const address = (await e.answer(e.send('GET_USER'))).payload.address;
  const id = e.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', address], chainId: 31337, chainNamespace: 'eip155', rpcUrl: RPC_URL });
  const main = await approvalShown(e.doc);
  assert.equal(main.querySelector('h1').textContent, 'Signer le message');
  assert.equal(e.doc.documentElement.lang, 'fr');
  await rejectAndAnswer(e, main, id);

  const failing = { fr: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')) };
  const g = await frameWith('?projectId=demo-project&chainId=31337&locale=fr', { catalogues: failing });
  await g.answer(g.send('CONNECT_DEVICE'));
  await g.answer(g.send('CONNECT_OTP', { otp: g.service.lastCode(g.email) }));
  const address2 = (await g.answer(g.send('GET_USER'))).payload.address;
  const id2 = g.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', address2], chainId: 31337, chainNamespace: 'eip155', rpcUrl: RPC_URL });
  const main2 = await approvalShown(g.doc);
  assert.equal(main2.querySelector('h1').textContent, 'Sign message');
  assert.equal(g.doc.documentElement.lang, 'en');
  await rejectAndAnswer(g, main2, id2);
});
