// The English catalogue: every text the views can show, the key each language's catalogue must
// translate (react-views/i18n/<tag>.ts). English texts are their own keys (gettext's msgid):
//   - the views' own: each t('…') literal in react-views/ (single-quoted, `{name}` placeholders), and
//     lines marked `// i18n` there and in element/ts/ (the shell's few texts a view shows),
//   - the core's: lines marked `// i18n` in core/src, each view's title (core/src/ui/router.rs) and each error's message
//     (core/src/service/errors.rs), which reach the views in English and are shown through tr().
// `node scripts/i18n-extract.mjs` writes react-views/i18n/en.json; `--check` fails when it is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'react-views/i18n/en.json');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'i18n' ? [] : files(path.join(dir, e.name))) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** Every text the views can show and where it was found first: text -> file. */
export function extractWhere() {
  const texts = new Map(); // text -> where
  const add = (text, where) => texts.has(text) || texts.set(text, where);
  // The views' files, and the element's shell, whose few texts a view shows (a banner) are marked.
  for (const file of [...files(path.join(root, 'react-views')), ...files(path.join(root, 'element/ts'))]) {
    const src = readFileSync(file, 'utf8');
    const rel = path.relative(root, file);
    // t('…') and t('…', {…}).
    for (const m of src.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g)) add(m[1].replace(/\\'/g, "'"), rel);
    // A label defined apart and shown through t(label): its line marked `// i18n`, the label its last literal.
    for (const line of src.split('\n').filter((l) => /\/\/ i18n\b/.test(l))) {
      const last = [...line.replace(/\/\/.*$/, '').matchAll(/'((?:[^'\\]|\\.)*)'/g)].pop();
      if (last) add(last[1], rel);
    }
  }
  // Core texts a view shows as they are, marked `// i18n` on their line (a family's receiver hint…).
  const rust = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? rust(path.join(dir, e.name)) : e.name.endsWith('.rs') ? [path.join(dir, e.name)] : []));
  for (const file of rust(path.join(root, 'core/src'))) {
    for (const line of readFileSync(file, 'utf8').split('\n').filter((l) => /\/\/ i18n\b/.test(l))) {
      for (const lit of line.replace(/\/\/.*$/, '').matchAll(/"((?:[^"\\]|\\.)*)"/g)) add(lit[1], path.relative(root, file));
    }
  }
  const router = readFileSync(path.join(root, 'core/src/ui/router.rs'), 'utf8');
  for (const m of router.matchAll(/^\s+[A-Z]\w+\s+"\w+"\s+"([^"]+)"\s+(?:true|false)/gm)) add(m[1], 'core/src/ui/router.rs');
  const errors = readFileSync(path.join(root, 'core/src/service/errors.rs'), 'utf8');
  const body = errors.slice(errors.indexOf('pub fn message(&self)'));
  for (const m of body.slice(0, body.indexOf('\n    }\n')).matchAll(/=> "([^"]+)"/g)) add(m[1], 'core/src/service/errors.rs');
  return Object.fromEntries([...texts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The English catalogue: every text its own key. */
export function extract() {
  return Object.fromEntries(Object.keys(extractWhere()).map((k) => [k, k]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const json = JSON.stringify(extract(), null, 2) + '\n';
  if (process.argv.includes('--check')) {
    if (readFileSync(out, 'utf8') !== json) {
      console.error('react-views/i18n/en.json is stale: run node scripts/i18n-extract.mjs');
      process.exit(1);
    }
  } else writeFileSync(out, json);
  console.log(`${Object.keys(JSON.parse(json)).length} texts`);
}
