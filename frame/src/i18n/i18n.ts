// The frame's own page in the modal's language. The element passes its language in the frame URL
// (`locale`, checked by validate.ts); the frame resolves it to one of its languages with the views'
// rules (react-views/shell/locales.ts, written again here: the frame imports nothing of the
// views) and keeps it for the life of its document. Every text the approval shows goes through
// `t(english, params)`: the English text is the key, looked up in the language's catalogue
// (`./<tag>.ts`, bundled with the frame, each one a chunk of its own loaded only for its
// language; English loads none). Only a bundled catalogue can provide a text: the tag only
// chooses among them, and nothing the page posts reaches a key or a translation. Values (an
// address, an amount, an origin) go in through `{name}` placeholders and are never translated; in
// a right-to-left language each is isolated (FSI … PDI) so that it keeps its own direction.
// test/node/frame-i18n.test.mjs fails when a catalogue lacks a `t('…')` text of frame/src, has one
// the sources no longer show, or changes a placeholder.

/** A language's texts: English text → translation (same `{name}` placeholders, plain text). */
export type Catalogue = Readonly<Record<string, string>>;
export type Loaders = Readonly<Record<string, () => Promise<{ default: Catalogue }>>>;

export interface Language {
  /** The BCP 47 tag of the language shown (`en` without a catalogue). */
  lang: string;
  dir: 'ltr' | 'rtl';
}

/** The languages besides English, each its own chunk (scripts/build.mjs splits the frame's bundle). */
export const CATALOGUES: Loaders = {
  es: () => import('./es.ts'),
  fr: () => import('./fr.ts'),
  de: () => import('./de.ts'),
  pt: () => import('./pt.ts'),
  ja: () => import('./ja.ts'),
  ko: () => import('./ko.ts'),
  'zh-CN': () => import('./zh-CN.ts'),
  tr: () => import('./tr.ts'),
  ar: () => import('./ar.ts'),
};

/** Languages written right to left. */
const RTL: ReadonlySet<string> = new Set(['ar']);
/** A catalogue not loaded by then leaves the approval in English (it never waits longer). */
export const LANGUAGE_WAIT_MS = 3_000;
const FSI = '\u2068';
const PDI = '\u2069';
const ENGLISH: Language = { lang: 'en', dir: 'ltr' };

let catalogue: Catalogue | null = null;
let current: Language = ENGLISH;
/** Each setLanguage call's number: a load that ends after a later call changes nothing. */
let generation = 0;

/**
 * The supported language for a BCP 47 tag: the exact tag, else its language (`pt-BR` → `pt`,
 * `zh-Hant-TW` → `zh-CN`), else English. The views' `resolveLocale`, over the same languages.
 */
export function resolveLocale(tag: string | null | undefined, loaders: Loaders = CATALOGUES): string {
  const wanted = (tag ?? '').trim().toLowerCase();
  const exact = Object.keys(loaders).find((k) => k.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split(/[-_]/)[0];
  if (language === 'zh' && Object.hasOwn(loaders, 'zh-CN')) return 'zh-CN';
  return Object.hasOwn(loaders, language) ? language : 'en';
}

/**
 * Makes the language `tag` asks for (validate.ts's `locale`; null: English) the frame's: resolves
 * once its catalogue is loaded, or in English when it fails to load or takes longer than `waitMs`
 * (a catalogue arriving later is not used: the language does not change under the visitor).
 */
export async function setLanguage(tag: string | null | undefined, loaders: Loaders = CATALOGUES, waitMs = LANGUAGE_WAIT_MS): Promise<Language> {
  const mine = ++generation;
  const lang = resolveLocale(tag, loaders);
  let next: Catalogue | null = null;
  if (lang !== 'en') {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const loaded = await Promise.race([
        loaders[lang]().then((m) => m.default),
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), waitMs);
        }),
      ]);
      next = loaded && typeof loaded === 'object' ? loaded : null;
    } catch {
      next = null;
    } finally {
      clearTimeout(timer);
    }
  }
  if (mine === generation) {
    catalogue = next;
    current = next ? { lang, dir: RTL.has(lang) ? 'rtl' : 'ltr' } : ENGLISH;
  }
  return current;
}

/** The language the frame shows. */
export function language(): Language {
  return current;
}

/** `english` in the frame's language (English when its catalogue lacks it), `{name}` filled from `params`. */
export function t(english: string, params?: Readonly<Record<string, string | number | bigint>>): string {
  const text = catalogue !== null && Object.hasOwn(catalogue, english) && typeof catalogue[english] === 'string' ? catalogue[english] : english;
  if (!params) return text;
  const rtl = current.dir === 'rtl';
  // One pass over the template: a value that holds `{x}` is not filled in again.
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (Object.hasOwn(params, k) ? (rtl ? `${FSI}${String(params[k])}${PDI}` : String(params[k])) : m));
}
