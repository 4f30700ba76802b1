import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { WalletGrid } from '../connect/WalletGrid';
import { ErrorMessage } from '../shell/ErrorMessage';
import { Spinner } from '../shell/icons';
import { WalletConnectPairing } from './WalletConnectPairing';
import { usePairingStyles } from './styles';
import { t } from '../shell/i18n';

/**
 * WalletConnect connecting: the pairing (QR code, copy link, the chosen wallet's deep links,
 * 'Connection rejected' with retry), then the catalogue wallets to pick another one.
 */
export function ConnectingWalletConnect({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  usePairingStyles(ref);
  const { items, loading, error } = snapshot.allWallets;
  return (
    <div ref={ref} className="wm-view wm-walletconnect">
      <WalletConnectPairing snapshot={snapshot} onIntent={onIntent} />
      {items.length > 0 ? <WalletGrid items={items} onIntent={onIntent} label={t('WalletConnect wallets')} /> : null}
      {loading ? <Spinner className="wm-list-spinner" label={t('Loading wallets')} /> : null}
      <ErrorMessage error={error} />
    </div>
  );
}

export default ConnectingWalletConnect;
