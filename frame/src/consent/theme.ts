// The modal's theme (SYNC_THEME) applied to the approval, without letting a page make it
// illegible: light or dark, the accent only when white or black text on it keeps 4.5:1 contrast,
// the font stack and corner radius within bounds. Values are set through the CSSOM (allowed by
// the frame's CSP), so nothing here can add a rule.

export interface ThemePayload {
  themeMode: 'light' | 'dark' | null;
  themeVariables: Record<string, unknown>;
}

/** An sRGB colour `#rgb`, `#rrggbb` or `rgb(r, g, b)` as [r, g, b] (0–255), else null. */
export function parseColor(v: unknown): [number, number, number] | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const s = v.trim().toLowerCase();
  let m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(s);
  if (m) return [m[1], m[2], m[3]].map((h) => parseInt(h + h, 16)) as [number, number, number];
  m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(s);
  if (m) return [m[1], m[2], m[3]].map((h) => parseInt(h, 16)) as [number, number, number];
  m = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(s);
  if (m) {
    const c = [m[1], m[2], m[3]].map(Number);
    return c.every((x) => x <= 255) ? (c as [number, number, number]) : null;
  }
  return null;
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const x = c / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours. */
export function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The accent and the text colour on it, or null when neither white nor black text reaches 4.5:1. */
export function accentPair(v: unknown): { fill: string; text: string } | null {
  const c = parseColor(v);
  if (!c) return null;
  const white = contrast(c, [255, 255, 255]);
  const black = contrast(c, [0, 0, 0]);
  if (Math.max(white, black) < 4.5) return null;
  return { fill: `rgb(${c.join(', ')})`, text: white >= black ? '#ffffff' : '#000000' };
}

const FONT = /^[A-Za-z0-9 ,'"_-]{1,200}$/;
const RADIUS = /^(?:[0-9]|1[0-6])px$/;

/** Applies `t` to the frame's document element. */
export function applyTheme(root: HTMLElement, t: ThemePayload): void {
  root.dataset.theme = t.themeMode === 'dark' ? 'dark' : 'light';
  const v = t.themeVariables;
  const accent = accentPair(v['--wm-accent']);
  const set = (name: string, value: string | null) => (value === null ? root.style.removeProperty(name) : root.style.setProperty(name, value));
  set('--accent-fill', accent?.fill ?? null);
  set('--accent-on', accent?.text ?? null);
  const font = v['--wm-font-family'];
  set('--font', typeof font === 'string' && FONT.test(font) ? font : null);
  const radius = v['--wm-border-radius-master'];
  set('--r', typeof radius === 'string' && RADIUS.test(radius.trim()) ? radius.trim() : null);
}
