import type { RefObject } from 'react';
import { useViewStyles } from '../shell/view-styles';

/** The embedded wallet's views: code field, approval rows, the Farcaster QR code. */
export const EMBEDDED_CSS = `
.wm-code-form { display: flex; flex-direction: column; gap: 10px; }
.wm-code-input { box-sizing: border-box; width: 100%; padding: 12px; border-radius: var(--_r-l); border: 1px solid var(--_border);
  background: var(--_bg2); color: inherit; font: inherit; font-size: 24px; letter-spacing: 8px; text-align: center; }
.wm-code-input:focus { outline: 2px solid var(--_accent); outline-offset: 1px; }
.wm-embedded-error { margin: 0; color: var(--_error); text-align: center; font-size: var(--_fs-small); }
.wm-approve { display: flex; flex-direction: column; gap: 10px; }
.wm-approve-block { margin: 0; padding: 12px; border-radius: var(--_r-l); background: var(--_bg2); overflow-wrap: anywhere;
  white-space: pre-wrap; max-height: 220px; overflow: auto; font-size: var(--_fs-small); }
.wm-approve-rows { margin: 0; padding: 10px 12px; display: flex; flex-direction: column; gap: 6px; border-radius: var(--_r-l); background: var(--_bg2); font-size: var(--_fs-small); }
.wm-approve-row { display: grid; grid-template-columns: minmax(5em, 32%) 1fr; gap: 12px; }
.wm-approve-rows dt { color: var(--_fg2); }
.wm-approve-rows dd { margin: 0; color: var(--_fg); overflow-wrap: anywhere; }
.wm-approve-tx { display: flex; flex-direction: column; gap: 8px; }
.wm-text-input { box-sizing: border-box; width: 100%; padding: 12px; border-radius: var(--_r-l); border: 1px solid var(--_border);
  background: var(--_bg2); color: inherit; font: inherit; }
.wm-text-input:focus { outline: 2px solid var(--_accent); outline-offset: 1px; }
.wm-approve-warning { margin: 0; padding: 10px 12px; border-radius: var(--_r-l); border: 1px solid var(--_error); color: var(--_error); font-weight: 600; font-size: var(--_fs-small); }
.wm-approve-actions { display: flex; gap: 8px; }
.wm-approve-actions .wm-button { flex: 1; }
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
