import { useState } from 'react';
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

/** "Continue with email": the field is here at once (no wait for the frame); the module checks it. */
function EmailRow({ snapshot, onIntent }: ViewProps) {
  const email = snapshot.embeddedWallet?.email;
  const error = email && email.step === 'idle' ? email.fieldError : null;
  const busy = email?.step === 'sending';
  return (
    <form
      className="wm-method wm-method-email"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const v = new FormData(e.currentTarget).get('email');
        onIntent({ type: 'emailSubmit', email: typeof v === 'string' ? v : '' });
      }}
    >
      <label className="wm-email-field">
        <MailIcon />
        <input
          name="email"
          type="email"
          autoComplete="email"
          placeholder="Email"
          aria-label="Email"
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'wm-email-error' : undefined}
          defaultValue={email?.email ?? ''}
          data-method="email"
        />
        <button type="submit" className="wm-email-submit" aria-label="Continue with email" disabled={busy}>
          <ChevronRightIcon />
        </button>
      </label>
      {error ? (
        <p id="wm-email-error" className="wm-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** Social logins in the config's order: the first three as buttons, the rest behind "Other". */
function SocialRows({ snapshot, onIntent }: ViewProps) {
  const [all, setAll] = useState(false);
  const socials = snapshot.socials;
  if (socials.length === 0) return null;
  const shown = all || socials.length <= 4 ? socials : socials.slice(0, 3);
  const social = snapshot.embeddedWallet?.social;
  return (
    <>
      <ul className="wm-socials" aria-label="Social logins">
        {shown.map((s) => (
          <li key={s}>
            <button
              type="button"
              className="wm-social"
              data-method="social"
              data-social={s}
              onClick={() => onIntent(s === 'farcaster' ? { type: 'farcasterLogin' } : { type: 'socialLogin', provider: s })}
            >
              <span className="wm-social-name">{s}</span>
            </button>
          </li>
        ))}
        {shown.length < socials.length ? (
          <li>
            <button type="button" className="wm-social" data-social="other" aria-expanded="false" onClick={() => setAll(true)}>
              <span className="wm-social-name">Other</span>
            </button>
          </li>
        ) : null}
      </ul>
      {social?.error ? (
        <p className="wm-field-error" role="alert">
          {social.error}
        </p>
      ) : null}
    </>
  );
}

export function Connect({ snapshot, onIntent }: ViewProps) {
  return (
    <div className="wm-view wm-connect">
      {snapshot.connectMethods.map((method) => {
        switch (method) {
          case 'email':
            return <EmailRow key="email" snapshot={snapshot} onIntent={onIntent} />;
          case 'social':
            return <SocialRows key="social" snapshot={snapshot} onIntent={onIntent} />;
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
