import type { ViewProps } from './types';
import { WalletGrid } from './WalletGrid';
import { ErrorMessage } from './ErrorMessage';
import { Spinner } from './icons';

/** WalletConnect connecting. Pairing (QR code / deep link) arrives in a later issue. */
export function ConnectingWalletConnect({ snapshot, onIntent }: ViewProps) {
  const { items, loading, error } = snapshot.allWallets;
  return (
    <div className="wm-view wm-walletconnect">
      <p className="wm-note">Pick a wallet to connect with WalletConnect. QR code pairing is coming soon.</p>
      {items.length > 0 ? <WalletGrid items={items} onIntent={onIntent} label="WalletConnect wallets" /> : null}
      {loading ? <Spinner className="wm-list-spinner" label="Loading wallets" /> : null}
      <ErrorMessage error={error} />
    </div>
  );
}

export default ConnectingWalletConnect;
