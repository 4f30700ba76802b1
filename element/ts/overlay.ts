/**
 * `<wallet-modal-overlay>`: the host of the modal's shadow root when it is appended to the page
 * body (not in embedded mode), so the dialog escapes the page's stacking contexts. Style its parts
 * with `wallet-modal-overlay::part(modal)`.
 */
export const OVERLAY_TAG = 'wallet-modal-overlay';

export class WalletModalOverlay extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }
}

export function ensureOverlayDefined(): void {
  if (!customElements.get(OVERLAY_TAG)) customElements.define(OVERLAY_TAG, WalletModalOverlay);
}
