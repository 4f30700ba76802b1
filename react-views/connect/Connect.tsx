import type { ConnectorView, ViewProps } from '../shell/types';
import { WalletImage } from './WalletImage';
import { ChevronRightIcon, GridIcon, MailIcon, WalletConnectLogo } from '../shell/icons';

function badgeFor(c: ConnectorView): { text: string; cls: string } | null {
  if (c.kind === 'recent') return { text: 'Recent', cls: 'wm-badge-recent' };
  if (c.installed) return { text: 'Installed', cls: 'wm-badge-installed' };
  return null;
}

function WalletRows({ snapshot, onIntent }: ViewProps) {
  const { connectors, allWallets } = snapshot;
  return (
    <ul className="wm-list" aria-label="Wallets">
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
            <span className="wm-row-name">All Wallets</span>
          </span>
          {allWallets.count > 0 ? (
            <span className="wm-badge wm-badge-count" aria-label={`${allWallets.count} wallets`}>
              {allWallets.count}
            </span>
          ) : null}
          <ChevronRightIcon className="wm-row-end" />
        </button>
      </li>
    </ul>
  );
}

/** Email and social logins arrive in a later issue: listed methods show as disabled placeholders. */
function EmailRow() {
  return (
    <div className="wm-method wm-method-email">
      <button type="button" className="wm-row wm-placeholder-row" disabled data-method="email">
        <span className="wm-image wm-image-md wm-image-icon" aria-hidden="true">
          <MailIcon />
        </span>
        <span className="wm-row-text">
          <span className="wm-row-name">Email</span>
        </span>
      </button>
    </div>
  );
}

function SocialRows({ socials }: { socials: string[] }) {
  if (socials.length === 0) return null;
  return (
    <ul className="wm-socials" aria-label="Social logins">
      {socials.map((s) => (
        <li key={s}>
          <button type="button" className="wm-social wm-placeholder-row" disabled data-method="social" data-social={s}>
            <span className="wm-social-name">{s}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export function Connect({ snapshot, onIntent }: ViewProps) {
  return (
    <div className="wm-view wm-connect">
      {snapshot.connectMethods.map((method) => {
        switch (method) {
          case 'email':
            return <EmailRow key="email" />;
          case 'social':
            return <SocialRows key="social" socials={snapshot.socials} />;
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
