/**
 * The languages with a catalogue and how each loads (one chunk per language), and which one a tag
 * asks for. Loaded only when the modal's language is not English (index.tsx).
 */
import type { Catalogue, Lookup } from './i18n';

const CATALOGUES: Record<string, () => Promise<{ default: Catalogue }>> = {
  es: () => import('../i18n/es'),
  fr: () => import('../i18n/fr'),
  de: () => import('../i18n/de'),
  pt: () => import('../i18n/pt'),
  ja: () => import('../i18n/ja'),
  ko: () => import('../i18n/ko'),
  'zh-CN': () => import('../i18n/zh-CN'),
  tr: () => import('../i18n/tr'),
  ar: () => import('../i18n/ar'),
};

/** Languages written right to left. */
const RTL = new Set(['ar']);

/**
 * The supported language for a BCP 47 tag (the `locale` attribute, else the browser's language):
 * the exact tag, else its language (`pt-BR` → `pt`, `zh-Hans-CN` → `zh-CN`), else English.
 */
export function resolveLocale(tag: string): string {
  const wanted = tag.trim().toLowerCase();
  const exact = Object.keys(CATALOGUES).find((k) => k.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split(/[-_]/)[0];
  if (language === 'zh') return 'zh-CN';
  return language in CATALOGUES ? language : 'en';
}

/** How much of a template is not placeholders (`To {address}`: 2, too little to match texts by). */
const fixed = (template: string): number => template.replace(/\{\w+\}/g, '').trim().length;

/**
 * How a catalogue translates: a text it has (its own keys only), else a text the core composed
 * with values — `Not enough ETH to pay the network fee` — by the first template that matches it
 * (`Not enough {symbol} to pay the network fee`: each `{name}` any run of characters, the one with
 * the most fixed text first; templates with less than 8 characters of it, such as the views' own
 * `To {address}`, match nothing), its translation filled with the values the text carried (each
 * translated in turn when it is a text of the catalogue).
 */
export function lookupIn(catalogue: Catalogue): Lookup {
  const templates = Object.keys(catalogue)
    .filter((k) => /\{\w+\}/.test(k) && fixed(k) >= 8)
    .sort((a, b) => fixed(b) - fixed(a))
    .map((k) => {
      const names: string[] = [];
      const pattern = k
        .split(/\{(\w+)\}/)
        .map((part, i) => (i % 2 ? (names.push(part), '(.+?)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return { re: new RegExp(`^${pattern}$`, 's'), names, text: catalogue[k] };
    });
  const lookup: Lookup = (english) => {
    if (Object.hasOwn(catalogue, english)) return catalogue[english];
    for (const { re, names, text } of templates) {
      const m = re.exec(english);
      // A value that is itself a text of the catalogue (`includes … for the receiver's new token
      // account`) is translated too; any other value (amounts, names, a wallet's words) stays.
      if (m) return text.replace(/\{(\w+)\}/g, (p, name: string) => (names.includes(name) ? fill(m[names.indexOf(name) + 1]) : p));
    }
    return undefined;
  };
  const fill = (value: string): string => lookup(value) ?? value;
  return lookup;
}

/** The language `tag` resolves to, its direction and how its catalogue translates (its chunk loaded). */
export async function loadLocale(tag: string): Promise<{ lang: string; dir: 'ltr' | 'rtl'; catalogue: Lookup | null }> {
  const lang = resolveLocale(tag);
  const load = CATALOGUES[lang];
  return { lang, dir: RTL.has(lang) ? 'rtl' : 'ltr', catalogue: load ? lookupIn((await load()).default) : null };
}

/**
 * Rewrites the en-US numbers in an amount (`1,234.567 ETH`, `$1,000.00`) with `lang`'s separators
 * (`1.234,567 ETH` in German): only the group and decimal marks change, never the digits, so
 * nothing is rounded again.
 */
export function numbersIn(lang: string): (text: string) => string {
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(lang).formatToParts(12345.6);
  } catch {
    return (text) => text; // not a language tag the browser knows: en-US
  }
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  if (group === ',' && decimal === '.') return (text) => text;
  return (text) => text.replace(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+/g, (num) => num.replace(/[,.]/g, (c) => (c === ',' ? group : decimal)));
}
