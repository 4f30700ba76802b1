import type { ViewProps } from './types';
import { WalletGrid } from './WalletGrid';
import { ErrorMessage } from './ErrorMessage';
import { Spinner } from './icons';
import { WalletConnectPairing } from './WalletConnectPairing';

/** Simplified WalletConnect connecting (no wallet adapters): the QR code and the wallet list. */
export function ConnectingWalletConnectBasic({ snapshot, onIntent }: ViewProps) {
  const { items, loading, error } = snapshot.allWallets;
  return (
    <div className="wm-view wm-walletconnect wm-walletconnect-basic">
      <WalletConnectPairing snapshot={snapshot} onIntent={onIntent} />
      {items.length > 0 ? <WalletGrid items={items} onIntent={onIntent} label="Wallets" /> : null}
      {loading ? <Spinner className="wm-list-spinner" label="Loading wallets" /> : null}
      <ErrorMessage error={error} />
    </div>
  );
}

export default ConnectingWalletConnectBasic;
