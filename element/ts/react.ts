/**
 * `wallet-modal/react`: types only, for React 19's JSX to know `<wallet-modal>` and its attributes
 * (one line in the app: `import type {} from 'wallet-modal/react'`):
 * `<wallet-modal ref={ref} project-id="…" theme-mode={mode} />`, `ref` typed as the element.
 */
import type * as React from 'react';
import type { WalletModalElement } from './index';
import type { WalletModalAttributes } from './attributes';

export type { WalletModalAttributes } from './attributes';

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
