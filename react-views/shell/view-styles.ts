import type { RefObject } from 'react';
import { useLazyStyles } from './dynamic-styles';

/**
 * Rules that several lazily loaded views share (buttons, notes, errors, visually hidden text, the
 * large wallet image, list spinners) and that the initial view (Connect, pre-rendered at start-up)
 * does not use: kept out of the initial stylesheet (styles.ts), adopted with the first lazy view.
 */
export const VIEW_CSS = String.raw`
.wm-button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  min-height: 40px;
  padding: 8px 16px;
  border: none;
  border-radius: var(--_r-pill);
  font-weight: 600;
  cursor: pointer;
}
.wm-button-primary { background: var(--_accent-fill); color: #fff; }
.wm-app .wm-button-primary { color: #fff; }
.wm-button-primary:hover { background: color-mix(in srgb, var(--_accent-fill) 88%, #000); }
.wm-button-secondary { background: var(--_bg2); }
.wm-button-secondary:hover { background: var(--_bg3); }

.wm-note { margin: 0; color: var(--_fg2); text-align: center; font-size: var(--_fs-small); }

.wm-error {
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 6px;
  margin: 0;
  color: var(--_error);
  font-size: var(--_fs-small);
  font-weight: 500;
}

.wm-visually-hidden {
  position: absolute !important;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}

.wm-image-lg { width: 56px; height: 56px; font-size: var(--_fs-body); border-radius: var(--_r-l); }

.wm-list-spinner { align-self: center; font-size: 24px; }
.wm-retry { align-self: center; }
@media (forced-colors: active) {
  .wm-button { border: 1px solid CanvasText; }
}
`;

/**
 * Adopts the shared view rules, then a capability's own `css`, into the shadow root holding `ref`'s
 * element (before the first paint: a layout effect). The shared sheet always comes first, so the
 * capability sheets that follow cascade after it, as they did in one stylesheet.
 */
export function useViewStyles(ref: RefObject<Element | null>, css: string): void {
  useLazyStyles(ref, VIEW_CSS);
  useLazyStyles(ref, css);
}
