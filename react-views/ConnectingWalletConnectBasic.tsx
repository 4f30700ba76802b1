import type { ViewProps } from './types';
import { WalletGrid } from './WalletGrid';
import { ErrorMessage } from './ErrorMessage';
import { Spinner } from './icons';

/** Simplified WalletConnect connecting (shown when there are no wallet adapters). */
export function ConnectingWalletConnectBasic({ snapshot, onIntent }: ViewProps) {
  const { items, loading, error } = snapshot.allWallets;
  return (
    <div className="wm-view wm-walletconnect wm-walletconnect-basic">
      {items.length > 0 ? <WalletGrid items={items} onIntent={onIntent} label="Wallets" /> : null}
      {loading ? <Spinner className="wm-list-spinner" label="Loading wallets" /> : null}
      <ErrorMessage error={error} />
      <p className="wm-note">Connect with WalletConnect. QR code pairing is coming soon.</p>
    </div>
  );
}

export default ConnectingWalletConnectBasic;
