// Text from outside (a dapp's message, a token's symbol, typed-data fields) made safe to show: no
// control characters, no bidirectional overrides or isolates (U+202E would show "gpj.exe" as
// "exe.jpg"), no zero-width characters that hide others, and a bounded length.

// eslint-disable-next-line no-control-regex
const CONTROLS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f';
const BIDI_AND_ZERO_WIDTH = '\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2069\\ufeff';
const MULTI_LINE = new RegExp(`[${CONTROLS}${BIDI_AND_ZERO_WIDTH}]`, 'g');
const ONE_LINE = new RegExp(`[\\t\\n${CONTROLS}${BIDI_AND_ZERO_WIDTH}]`, 'g');

/** `s` without hidden characters, cut at `max` characters (with an ellipsis). `lines` keeps tabs and newlines. */
export function shown(s: string, max: number, lines = false): string {
  const clean = s.replace(lines ? MULTI_LINE : ONE_LINE, '');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Whether `shown` would remove characters from `s` (text that tries to hide part of itself). */
export function hasHidden(s: string, lines = false): boolean {
  return s.replace(lines ? MULTI_LINE : ONE_LINE, '').length !== s.length;
}
