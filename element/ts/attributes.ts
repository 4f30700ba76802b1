/** `<wallet-modal>`'s attributes as a template writes them, for the framework typings (react.ts, vue.ts). */
import type { ThemeMode, WalletModalElement } from './index';

/** The element's attributes, as a template writes them (see the README's table). */
export interface WalletModalAttributes {
  'project-id'?: string;
  'theme-mode'?: ThemeMode;
  /** The modal's language (BCP 47: 'es', 'pt-BR', 'ar'…); default the browser's. */
  locale?: string;
  /** 'locale': amounts in the modal's language's format (`1.234,5` in German); default the spec's en-US. */
  'number-format'?: 'en-US' | 'locale';
  'default-network'?: string;
  debug?: boolean | '' | 'true' | 'false';
  reconnect?: '' | 'true' | 'false';
  'enable-eip6963'?: '' | 'true' | 'false';
  'enable-network-switch'?: '' | 'true' | 'false';
  basic?: boolean | '';
  embedded?: boolean | '';
  /** 'false': the dialog stays inside the element (its own stacking) instead of an overlay on the body. */
  'append-to-body'?: '' | 'true' | 'false';
  /** Watch the host's own transactions until mined (off by default), every `pending-transactions-interval` ms (30,000). */
  'pending-transactions'?: boolean | '' | 'true' | 'false';
  'pending-transactions-interval'?: string | number;
  'api-url'?: string;
  'analytics-url'?: string;
  'rpc-url'?: string;
  'relay-url'?: string;
  'frame-url'?: string;
  siwx?: string;
  /** A property (React 19 sets it as one): CAIP-2 ids of built-in networks or network objects. */
  networks?: WalletModalElement['networks'];
  /** A property: `{featured?, include?, exclude?, certified?}`. */
  wallets?: WalletModalElement['wallets'];
}
