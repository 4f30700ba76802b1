/**
 * `wallet-modal/vue`: types only, for Vue's templates to know `<wallet-modal>` and its attributes
 * (one line in the app: `import type {} from 'wallet-modal/vue'`; and `isCustomElement` for the tag
 * in the Vue plugin's template options, so that Vue leaves the element to the browser).
 */
import type { DefineComponent } from 'vue';
import type { WalletModalAttributes } from './attributes';

declare module 'vue' {
  interface GlobalComponents {
    'wallet-modal': DefineComponent<WalletModalAttributes>;
  }
}
