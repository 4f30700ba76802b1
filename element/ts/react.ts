/**
 * `wallet-modal/react`: types only, for React 19's JSX to know `<wallet-modal>` and its attributes
 * (one line in the app: `import type {} from 'wallet-modal/react'`):
 * `<wallet-modal ref={ref} project-id="…" theme-mode={mode} />`, `ref` typed as the element.
 */
import type * as React from 'react';
import type { ThemeMode, WalletModalElement } from './index';

/** The element's attributes, as a template writes them (see the README's table). */
export interface WalletModalAttributes {
  'project-id'?: string;
  'theme-mode'?: ThemeMode;
  'default-network'?: string;
  debug?: boolean | '' | 'true' | 'false';
  reconnect?: '' | 'true' | 'false';
  'enable-eip6963'?: '' | 'true' | 'false';
  'enable-network-switch'?: '' | 'true' | 'false';
  basic?: boolean | '';
  embedded?: boolean | '';
  'api-url'?: string;
  'analytics-url'?: string;
  'rpc-url'?: string;
  'relay-url'?: string;
  'frame-url'?: string;
  siwx?: string;
  /** A property (React 19 sets it as one): CAIP-2 ids of built-in networks or network objects. */
  networks?: WalletModalElement['networks'];
}

/** What JSX takes on `<wallet-modal>`: an HTML element's props (`ref` as the element) and its attributes. */
export type WalletModalJsxProps = React.DetailedHTMLProps<React.HTMLAttributes<WalletModalElement>, WalletModalElement> & WalletModalAttributes;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'wallet-modal': WalletModalJsxProps;
    }
  }
}
