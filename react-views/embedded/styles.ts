import type { RefObject } from 'react';
import { useViewStyles } from '../shell/view-styles';

/** The embedded wallet's views: code field, the Farcaster QR code. */
export const EMBEDDED_CSS = `
.wm-code-form { display: flex; flex-direction: column; gap: 10px; }
.wm-code-input { box-sizing: border-box; width: 100%; padding: 12px; border-radius: var(--_r-l); border: 1px solid var(--_border);
  background: var(--_bg2); color: inherit; font: inherit; font-size: 24px; letter-spacing: 8px; text-align: center; }
.wm-code-input:focus { outline: 2px solid var(--_accent); outline-offset: 1px; }
.wm-embedded-error { margin: 0; color: var(--_error); text-align: center; font-size: var(--_fs-small); }
.wm-text-input { box-sizing: border-box; width: 100%; padding: 12px; border-radius: var(--_r-l); border: 1px solid var(--_border);
  background: var(--_bg2); color: inherit; font: inherit; }
.wm-text-input:focus { outline: 2px solid var(--_accent); outline-offset: 1px; }
.wm-link-button { border: none; background: none; padding: 0; color: var(--_accent-text); font: inherit; font-weight: 600; cursor: pointer; text-decoration: underline; }
.wm-embedded-title { margin: 0; font-size: var(--_fs-small); color: var(--_fg2); }
.wm-qr { box-sizing: border-box; display: flex; align-items: center; justify-content: center; align-self: center;
  width: min(100%, 272px); aspect-ratio: 1; padding: 12px; border-radius: var(--_r-l, 16px); background: #fff; color: #141414; }
.wm-qr svg { display: block; width: 100%; height: 100%; }
.wm-farcaster .wm-button { text-decoration: none; color: var(--_fg); }
`;

export function useEmbeddedStyles(ref: RefObject<Element | null>): void {
  useViewStyles(ref, EMBEDDED_CSS);
}
