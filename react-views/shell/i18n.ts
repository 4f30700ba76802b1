/**
 * The modal's languages. Every text the views show — their own and the core's (view titles, error
 * and status texts, which reach the views in English) — goes through `t(english, params)`: the
 * English text is the key (as gettext's msgid), looked up in the current language's catalogue
 * (`react-views/i18n/<tag>.ts`, a chunk of its own loaded when the language is chosen: locales.ts);
 * English needs no catalogue, and no chunk. `{name}` placeholders are filled from `params`; a text
 * the core composed with values in it is found by its template (locales.ts). The
 * English catalogue, the list every language must cover, is `react-views/i18n/en.json`, extracted
 * from the sources by scripts/i18n-extract.mjs (test/node/i18n.test.mjs fails when it is stale or
 * a language lacks a key).
 */
export type Catalogue = Readonly<Record<string, string>>;

/** A text's translation in the current language, if its catalogue has one (locales.ts). */
export type Lookup = (english: string) => string | undefined;

let lookup: Lookup | null = null;

/** `english` in the current language (English when the catalogue lacks it), `{x}` filled from `params`. */
export function t(english: string, params?: Record<string, string | number>): string {
  const text = lookup?.(english) ?? english;
  return params ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m)) : text;
}

/** A view text the core sent: translated when the catalogue has it, shown as sent otherwise. */
export const tr = (text: string | null | undefined): string => (text ? t(text) : '');

/** Makes `next` the views' language (null: English). */
export function setCatalogue(next: Lookup | null): void {
  lookup = next;
}

let numbers: ((text: string) => string) | null = null;

/** An amount as the spec writes it (en-US: `1,234.5`), in the page's format when it opted in. */
export const n = (text: string | null | undefined): string => (text ? (numbers ? numbers(text) : text) : '');

/** How amounts are written (null: en-US, as the core sends them). */
export function setNumbers(next: ((text: string) => string) | null): void {
  numbers = next;
}
