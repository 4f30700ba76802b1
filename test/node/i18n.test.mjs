// The modal's catalogues: the English one (react-views/i18n/en.json) is what the sources show —
// every t('…') text of the views and the core's titles, error messages and marked texts — and every
// language has each of its keys, with the same placeholders, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { extract, extractWhere } from '../../scripts/i18n-extract.mjs';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../react-views/i18n');
const LANGUAGES = ['es', 'fr', 'de', 'pt', 'ja', 'ko', 'zh-CN', 'tr', 'ar'];
const en = JSON.parse(readFileSync(path.join(dir, 'en.json'), 'utf8'));
// A language may say a value once where English says it twice: the same names, not the same count.
const placeholders = (s) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();

/** A module's exports (the .ts compiled as esbuild does for the build). */
function compile(file) {
  const { code } = transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'cjs' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', code)(module, module.exports, () => ({}));
  return module.exports;
}

/** A catalogue module's default export. */
function load(tag) {
  return compile(path.join(dir, `${tag}.ts`)).default;
}

const { lookupIn, numbersIn } = compile(path.join(dir, '../shell/locales.ts'));

test('the English catalogue is what the sources show (node scripts/i18n-extract.mjs writes it)', () => {
  assert.deepEqual(en, extract());
  assert.ok(Object.keys(en).length > 100);
  for (const text of ['Connect Wallet', 'Close', 'Preview send', 'User rejected the request', 'Bitcoin address']) {
    assert.ok(text in en, `${text} is in the English catalogue`);
  }
});

for (const tag of LANGUAGES) {
  test(`${tag}: every English key translated, with the same placeholders, and no other key`, () => {
    const catalogue = load(tag);
    const missing = Object.keys(en).filter((k) => typeof catalogue[k] !== 'string' || !catalogue[k].trim());
    assert.deepEqual(missing, [], `${tag} lacks ${missing.length} key(s)`);
    assert.deepEqual(Object.keys(catalogue).filter((k) => !(k in en)), [], `${tag} has keys English does not`);
    for (const k of Object.keys(en)) assert.deepEqual(placeholders(catalogue[k]), placeholders(k), `${tag}: the placeholders of "${k}"`);
    // A character written as an escape the catalogue's source doubled shows as `\u00a0` on screen.
    const escaped = Object.keys(en).filter((k) => /\\u[0-9a-f]{4}|\\n/i.test(catalogue[k]));
    assert.deepEqual(escaped, [], `${tag}: translations showing an escape sequence`);
    // Translated, not copied: most texts differ from English (names such as "NFTs" may not).
    const same = Object.keys(en).filter((k) => catalogue[k] === k);
    assert.ok(same.length < Object.keys(en).length * 0.1, `${tag}: ${same.length} texts left in English: ${same.slice(0, 10).join(' | ')}`);
  });
}

test('a text the core composed with values is translated by its template, the values kept', () => {
  const es = lookupIn({
    'Not enough {symbol} to pay the network fee': 'No hay suficiente {symbol} para pagar la comisión de red',
    'Send {amount} {symbol} to {address}?': '¿Enviar {amount} {symbol} a {address}?',
    'Send {what}?': '¿Enviar {what}?',
    'To {address}': 'A {address}',
    Close: 'Cerrar',
  });
  assert.equal(es('Close'), 'Cerrar');
  assert.equal(es('Not enough ETH to pay the network fee'), 'No hay suficiente ETH para pagar la comisión de red');
  assert.equal(es('Not enough Wrapped Ether (WETH) to pay the network fee'), 'No hay suficiente Wrapped Ether (WETH) para pagar la comisión de red');
  assert.equal(es('Send 0.25 ETH to 0xabc…def?'), '¿Enviar 0.25 ETH a 0xabc…def?', 'the template with the most fixed text wins over a looser one');
  assert.equal(es('A text no template has'), undefined);
  assert.equal(es('To continue, switch network'), undefined, 'a template with too little fixed text matches nothing');
  assert.equal(es('To {address}'), 'A {address}', 'its own key still translates');
  assert.equal(es('Not enough  to pay'), undefined, 'a template matches the whole text only');
  // Only the catalogue's own texts: names of Object's prototype are not translations.
  assert.equal(es('constructor'), undefined);
  assert.equal(es('toString'), undefined);
  // A value that is a text of the catalogue is translated in turn; others stay as sent.
  const nested = lookupIn({
    'includes {amount} {symbol} for {what}': 'incluye {amount} {symbol} por {what}',
    "the receiver's new token account": 'la nueva cuenta de tokens del destinatario',
  });
  assert.equal(nested("includes 0.002 SOL for the receiver's new token account"), 'incluye 0.002 SOL por la nueva cuenta de tokens del destinatario');
  assert.equal(nested('includes 0.002 SOL for rent'), 'incluye 0.002 SOL por rent');
  // Regular-expression characters in a template are literal.
  const fr = lookupIn({ 'Fee 1–2% (max {amount})': 'Frais 1–2 % (max {amount})' });
  assert.equal(fr('Fee 1–2% (max 5 USD)'), 'Frais 1–2 % (max 5 USD)');
  assert.equal(fr('Fee 1x2% (max 5 USD)'), undefined);
});

test('every template of the core has enough fixed text to be matched by, and no two placeholders side by side', () => {
  const core = Object.entries(extractWhere()).filter(([k, where]) => /\{\w+\}/.test(k) && where.startsWith('core/'));
  for (const [k, where] of core) {
    assert.ok(k.replace(/\{\w+\}/g, '').trim().length >= 8, `"${k}" (${where}) has 8 characters of fixed text`);
    assert.ok(!/\}\{/.test(k), `"${k}" (${where}) has no two placeholders side by side`);
  }
});

test('with number-format="locale" amounts take the page\'s separators, the digits unchanged; en-US stays as it is', () => {
  const de = numbersIn('de-DE');
  assert.equal(de('10,000.000 ETH'), '10.000,000 ETH');
  assert.equal(de('$1,234,567.50'), '$1.234.567,50');
  assert.equal(de('0.000021 ETH'), '0,000021 ETH');
  assert.equal(de('5 USDC'), '5 USDC', 'a whole number has nothing to change');
  const fr = numbersIn('fr');
  assert.match(fr('1,234.5 SOL'), /^1\s234,5 SOL$/u, 'French groups with a (narrow) no-break space');
  assert.equal(numbersIn('en-US')('1,234.5'), '1,234.5');
  assert.equal(numbersIn('not a tag!')('1,234.5'), '1,234.5', 'a tag the browser does not know: en-US');
});
