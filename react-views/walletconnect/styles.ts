import type { RefObject } from 'react';
import { useViewStyles } from '../shell/view-styles';

/**
 * The WalletConnect pairing's rules (the QR code, its actions), adopted by the shadow root it renders
 * in (a constructable stylesheet: no style attribute, fine under a strict CSP). The QR modules are
 * `currentColor`, i.e. `--wm-qr-color`.
 */
export const PAIRING_CSS = `
.wm-qr { box-sizing: border-box; display: flex; align-items: center; justify-content: center; align-self: center;
  width: min(100%, 272px); aspect-ratio: 1; padding: 12px; border-radius: var(--_r-l, 16px);
  background: #fff; color: var(--_qr, var(--wm-qr-color, #141414)); border: 1px solid var(--_border, transparent); }
.wm-qr svg { display: block; width: 100%; height: 100%; }
.wm-qr .wm-spinner { font-size: 40px; }
.wm-qr .wm-note { color: #4a4f4f; }
.wm-pairing { display: flex; flex-direction: column; align-items: center; gap: 12px; }
.wm-pairing-actions { display: flex; flex-wrap: wrap; justify-content: center; gap: 8px; }
.wm-pairing-actions .wm-button { text-decoration: none; color: var(--_fg); }
`;

/** Adopts the shared view rules and the pairing rules into the shadow root holding `ref`. */
export function usePairingStyles(ref: RefObject<Element | null>): void {
  useViewStyles(ref, PAIRING_CSS);
}
