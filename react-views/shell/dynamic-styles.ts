import { createContext, useCallback, useContext, useId, useLayoutEffect, useRef } from 'react';
import type { RefObject } from 'react';

/**
 * Values that can't be known in advance (avatar colours, measured body height) are written into
 * a per-mount constructable stylesheet through the CSSOM: one `[data-wm-dyn="…"] {}` rule per
 * element. No style attributes ever appear in the markup, so a strict CSP (no 'unsafe-inline'
 * style-src) is satisfied. `mountViews` creates the sheet, adopts it and provides it here.
 */
export const DynamicSheetContext = createContext<CSSStyleSheet | null>(null);

export interface DynamicStyle {
  /** Put this on the element as `data-wm-dyn`. */
  token: string;
  /** Set (or with null remove) one property of the element's rule. */
  set(prop: string, value: string | null): void;
}

export function useDynamicStyle<E extends HTMLElement>(elRef: RefObject<E | null>): DynamicStyle {
  const sheet = useContext(DynamicSheetContext);
  const token = 'wm' + useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const ruleRef = useRef<CSSStyleRule | null>(null);

  useLayoutEffect(() => {
    if (!sheet) return;
    const index = sheet.insertRule(`[data-wm-dyn="${token}"] {}`, sheet.cssRules.length);
    const rule = sheet.cssRules[index] as CSSStyleRule;
    ruleRef.current = rule;
    return () => {
      ruleRef.current = null;
      const i = Array.prototype.indexOf.call(sheet.cssRules, rule);
      if (i >= 0) sheet.deleteRule(i);
    };
  }, [sheet, token]);

  const set = useCallback(
    (prop: string, value: string | null) => {
      // Without a provided sheet (a view rendered outside mountViews) fall back to the element's
      // CSSOM style, which CSP also allows.
      const style = ruleRef.current?.style ?? elRef.current?.style;
      if (!style) return;
      if (value === null) style.removeProperty(prop);
      else style.setProperty(prop, value);
    },
    [elRef],
  );

  return { token, set };
}

const lazySheets = new Map<string, CSSStyleSheet>();

/** Whether `sheet` is one of the sheets useLazyStyles adopts (mountViews' unmount removes them too). */
export const isLazySheet = (sheet: CSSStyleSheet): boolean => [...lazySheets.values()].includes(sheet);

/**
 * Adopts `css` (a lazily loaded view's own rules, kept out of the initial stylesheet) into the
 * shadow root holding `ref`'s element, once per root: a constructable stylesheet, so it works
 * under a strict CSP.
 */
export function useLazyStyles(ref: RefObject<Element | null>, css: string): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof CSSStyleSheet === 'undefined') return;
    const root = el.getRootNode() as ShadowRoot | Document;
    if (!('adoptedStyleSheets' in root)) return;
    let sheet = lazySheets.get(css);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      lazySheets.set(css, sheet);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }, [ref, css]);
}
