import type { ViewProps } from './types';
import { WalletGrid } from './WalletGrid';
import { ErrorMessage } from './ErrorMessage';
import { Spinner } from './icons';
import { WalletConnectPairing } from './WalletConnectPairing';

/**
 * WalletConnect connecting: the pairing (QR code, copy link, the chosen wallet's deep links,
 * 'Connection rejected' with retry), then the catalogue wallets to pick another one.
 */
export function ConnectingWalletConnect({ snapshot, onIntent }: ViewProps) {
  const { items, loading, error } = snapshot.allWallets;
  return (
    <div className="wm-view wm-walletconnect">
      <WalletConnectPairing snapshot={snapshot} onIntent={onIntent} />
      {items.length > 0 ? <WalletGrid items={items} onIntent={onIntent} label="WalletConnect wallets" /> : null}
      {loading ? <Spinner className="wm-list-spinner" label="Loading wallets" /> : null}
      <ErrorMessage error={error} />
    </div>
  );
}

export default ConnectingWalletConnect;
