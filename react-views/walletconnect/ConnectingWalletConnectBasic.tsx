import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { WalletGrid } from '../connect/WalletGrid';
import { ErrorMessage } from '../shell/ErrorMessage';
import { Spinner } from '../shell/icons';
import { WalletConnectPairing } from './WalletConnectPairing';
import { usePairingStyles } from './styles';
import { t } from '../shell/i18n';

/** Simplified WalletConnect connecting (no wallet adapters): the QR code and the wallet list. */
export function ConnectingWalletConnectBasic({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  usePairingStyles(ref);
  const { items, loading, error } = snapshot.allWallets;
  return (
    <div ref={ref} className="wm-view wm-walletconnect wm-walletconnect-basic">
      <WalletConnectPairing snapshot={snapshot} onIntent={onIntent} />
      {items.length > 0 ? <WalletGrid items={items} onIntent={onIntent} label={t('Wallets')} /> : null}
      {loading ? <Spinner className="wm-list-spinner" label={t('Loading wallets')} /> : null}
      <ErrorMessage error={error} />
    </div>
  );
}

export default ConnectingWalletConnectBasic;
