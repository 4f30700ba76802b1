/**
 * The languages with a catalogue and how each loads (one chunk per language), and which one a tag
 * asks for. Loaded only when the modal's language is not English (index.tsx).
 */
import type { Catalogue } from './i18n';

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

/** The language `tag` resolves to, its direction and its catalogue (its chunk loaded). */
export async function loadLocale(tag: string): Promise<{ lang: string; dir: 'ltr' | 'rtl'; catalogue: Catalogue | null }> {
  const lang = resolveLocale(tag);
  const load = CATALOGUES[lang];
  return { lang, dir: RTL.has(lang) ? 'rtl' : 'ltr', catalogue: load ? (await load()).default : null };
}
