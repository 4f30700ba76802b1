// The modal's catalogues: the English one (react-views/i18n/en.json) is what the sources show —
// every t('…') text of the views and the core's titles, error messages and marked texts — and every
// language has each of its keys, with the same placeholders, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { extract } from '../../scripts/i18n-extract.mjs';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../react-views/i18n');
const LANGUAGES = ['es', 'fr', 'de', 'pt', 'ja', 'ko', 'zh-CN', 'tr', 'ar'];
const en = JSON.parse(readFileSync(path.join(dir, 'en.json'), 'utf8'));
const placeholders = (s) => (s.match(/\{\w+\}/g) ?? []).sort();

/** A catalogue module's default export (the .ts compiled as esbuild does for the build). */
function load(tag) {
  const { code } = transformSync(readFileSync(path.join(dir, `${tag}.ts`), 'utf8'), { loader: 'ts', format: 'cjs' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', code)(module, module.exports, () => ({}));
  return module.exports.default;
}

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
    // Translated, not copied: most texts differ from English (names such as "NFTs" may not).
    const same = Object.keys(en).filter((k) => catalogue[k] === k);
    assert.ok(same.length < Object.keys(en).length * 0.1, `${tag}: ${same.length} texts left in English: ${same.slice(0, 10).join(' | ')}`);
  });
}
