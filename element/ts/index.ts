/**
 * wallet-modal: importing this module registers `<wallet-modal>`.
 *
 *   <script type="module" src="wallet-modal.js"></script>
 *   <wallet-modal project-id="…"></wallet-modal>
 */
import { WalletModalElement } from './wallet-modal';

export const TAG = 'wallet-modal';

if (!customElements.get(TAG)) customElements.define(TAG, WalletModalElement);

export { WalletModalElement, THEME_VARIABLES } from './wallet-modal';
export type { OpenOptions, StandardWallet, ThemeMode, ThemeVariables, WalletModalEventMap, WalletsOption } from './wallet-modal';
export type { Eip1193Provider } from './provider';
export type * from './protocol';

declare global {
  interface HTMLElementTagNameMap {
    'wallet-modal': WalletModalElement;
  }
}
