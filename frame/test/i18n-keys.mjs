// The frame's English texts, the keys every catalogue (frame/src/i18n/<tag>.ts) must translate:
// each `t('…')` literal of frame/src (single-quoted, `{name}` placeholders), found in the sources
// themselves so that the list cannot go stale. `node frame/test/i18n-keys.mjs` prints them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const src = path.join(root, 'frame/src');

/** frame/src's TypeScript files but the catalogues (frame/src/i18n/<tag>.ts). */
export function sources(dir = src) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    if (!e.name.endsWith('.ts')) return [];
    if (path.relative(src, p).startsWith(`i18n${path.sep}`) && e.name !== 'i18n.ts') return [];
    return [p];
  });
}

/** A call of the frame's `t` (not `.t(`, `set(`…). */
const CALL = /(?<![\w.$])t\(/g;
const LITERAL = /^\s*'((?:[^'\\\n]|\\.)*)'/;

/** Every English text and where it is first found: text → file; `dynamic` lists t() calls without a literal. */
export function extractWhere() {
  const texts = new Map();
  const dynamic = [];
  for (const file of sources()) {
    const rel = path.relative(root, file);
    const code = readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.replace(/^\s*(\/\/|\*|\/\*\*).*$/, ''))
      .join('\n');
    for (const m of code.matchAll(CALL)) {
      const rest = code.slice(m.index + 2);
      const lit = LITERAL.exec(rest);
      // The definition `function t(english: …` and calls with a variable.
      if (!lit) {
        if (!/^english\b/.test(rest)) dynamic.push(`${rel}: t(${rest.slice(0, 30)}`);
        continue;
      }
      const text = lit[1].replace(/\\(.)/g, '$1');
      if (!texts.has(text)) texts.set(text, rel);
    }
  }
  return { texts: new Map([...texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), dynamic };
}

/** The English texts, sorted. */
export function englishKeys() {
  return [...extractWhere().texts.keys()];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { texts, dynamic } = extractWhere();
  for (const [k, where] of texts) console.log(`${JSON.stringify(k)}\t${where}`);
  if (dynamic.length) console.error('t() without a literal:', dynamic);
  console.error(`${texts.size} texts`);
}
