import { lazy, Suspense } from 'react';
import { t, tr } from '../shell/i18n';
import type { ConnectorView, ViewProps } from '../shell/types';
import { WalletImage } from './WalletImage';
import { ChevronRightIcon, GridIcon, WalletConnectLogo } from '../shell/icons';

// The email field and social buttons: their own chunk (the embedded wallet's), fetched while the
// Connect view is prepared hidden, before open().
const LoginRows = lazy(() => import('./LoginRows'));

function badgeFor(c: ConnectorView): { text: string; cls: string } | null {
  if (c.kind === 'recent') return { text: t('Recent'), cls: 'wm-badge-recent' };
  if (c.installed) return { text: t('Installed'), cls: 'wm-badge-installed' };
  return null;
}

function WalletRows({ snapshot, onIntent }: ViewProps) {
  const { connectors, allWallets } = snapshot;
  return (
    <ul className="wm-list" aria-label={t('Wallets')}>
      {connectors.map((c) => {
        const badge = badgeFor(c);
        return (
          <li key={c.id}>
            <button
              type="button"
              part="connector"
              className="wm-row wm-connector"
              data-connector-id={c.id}
              data-kind={c.kind}
              onClick={() => onIntent({ type: 'selectConnector', id: c.id })}
            >
              {c.kind === 'walletConnect' || c.id === 'walletConnect' ? (
                <WalletConnectLogo />
              ) : (
                <WalletImage src={c.icon} name={c.name} size="md" />
              )}
              <span className="wm-row-text">
                <span className="wm-row-name">{c.name}</span>
              </span>
              {badge ? <span className={`wm-badge ${badge.cls}`}>{badge.text}</span> : null}
            </button>
          </li>
        );
      })}
      <li>
        <button
          type="button"
          part="connector"
          className="wm-row wm-all-wallets"
          data-connector-id="all-wallets"
          onClick={() => onIntent({ type: 'navigate', view: 'AllWallets' })}
        >
          <span className="wm-image wm-image-md wm-image-icon" aria-hidden="true">
            <GridIcon />
          </span>
          <span className="wm-row-text">
            <span className="wm-row-name">{t('All Wallets')}</span>
          </span>
          {allWallets.count > 0 ? (
            <span className="wm-badge wm-badge-count" aria-label={t('{count} wallets', { count: allWallets.count })}>
              {allWallets.count}
            </span>
          ) : null}
          <ChevronRightIcon className="wm-row-end" />
        </button>
      </li>
    </ul>
  );
}

export function Connect({ snapshot, onIntent }: ViewProps) {
  return (
    <div className="wm-view wm-connect">
      {snapshot.connectMethods.map((method) => {
        switch (method) {
          case 'email':
          case 'social':
            return (
              <Suspense key={method} fallback={null}>
                <LoginRows method={method} snapshot={snapshot} onIntent={onIntent} />
              </Suspense>
            );
          case 'wallet':
            return <WalletRows key="wallet" snapshot={snapshot} onIntent={onIntent} />;
          default:
            return null;
        }
      })}
    </div>
  );
}

export default Connect;
