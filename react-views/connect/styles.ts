import type { RefObject } from 'react';
import { useViewStyles } from '../shell/view-styles';

/**
 * The lazily loaded connect views' rules: AllWallets (search, scrolling list), the wallet grid (also
 * shown by the WalletConnect views) and ConnectingExternal. The Connect view itself is rendered
 * ahead at start-up, so its rules stay in the initial stylesheet (shell/styles.ts): no flash.
 */
export const CONNECT_CSS = String.raw`
.wm-empty { margin: 0; padding: 32px 0; text-align: center; color: var(--_fg2); }

.wm-search {
  position: relative;
  display: flex;
  align-items: center;
}
.wm-search-icon { position: absolute; inset-inline-start: 12px; color: var(--_fg3); font-size: calc(var(--_fs) * 1.6); pointer-events: none; }
.wm-search-input {
  width: 100%;
  height: 40px;
  padding-block: 0;
  padding-inline: 36px 12px;
  border: 1px solid var(--_border);
  border-radius: var(--_r-m);
  background: var(--_bg2);
  color: var(--_fg);
  font: inherit;
}
.wm-search-input::placeholder { color: var(--_fg2); }
.wm-search-input:focus { border-color: var(--_accent); }

.wm-scroll {
  max-height: min(420px, 60dvh);
  overflow-y: auto;
  overscroll-behavior: contain;
  display: flex;
  flex-direction: column;
  gap: 12px;
  padding: 2px;
}

.wm-wallet-grid {
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(4, minmax(0, 1fr));
  gap: 8px;
}
.wm-wallet {
  position: relative;
  width: 100%;
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 6px;
  padding: 10px 4px 8px;
  border: none;
  border-radius: var(--_r-l);
  background: var(--_bg2);
  cursor: pointer;
}
.wm-wallet:hover { background: var(--_bg3); }
.wm-wallet-name {
  max-width: 100%;
  font-size: var(--_fs-small);
  line-height: 1.25;
  min-height: 2.5em;
  text-align: center;
  overflow: hidden;
  overflow-wrap: anywhere;
  display: -webkit-box;
  -webkit-box-orient: vertical;
  -webkit-line-clamp: 2;
  line-clamp: 2;
}
.wm-badge-dot {
  position: absolute;
  top: 6px;
  inset-inline-end: 6px;
  width: 8px;
  height: 8px;
  padding: 0;
  overflow: hidden;
  color: transparent;
  background: var(--_success);
  border: 2px solid var(--_bg2);
  box-sizing: content-box;
}
.wm-sentinel { height: 1px; flex: none; }

.wm-connecting { align-items: center; text-align: center; padding: 12px 0 4px; }
.wm-connecting-logo { position: relative; display: inline-flex; align-items: center; justify-content: center; width: 80px; height: 80px; }
.wm-connecting-spinner { position: absolute; inset: 0; font-size: 80px; }
.wm-connecting-title { margin: 0; font-size: var(--_fs-title); font-weight: 600; }
.wm-connecting-sub { margin: 0; color: var(--_fg2); font-size: var(--_fs-small); }
@media (forced-colors: active) {
  .wm-wallet, .wm-search-input { border: 1px solid CanvasText; }
  .wm-badge-dot { forced-color-adjust: none; }
}
`;

/** Adopts the shared view rules and the connect rules into the shadow root holding `ref`. */
export function useConnectStyles(ref: RefObject<Element | null>): void {
  useViewStyles(ref, CONNECT_CSS);
}
