import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { WalletImage } from '../connect/WalletImage';
import { Spinner } from '../shell/icons';
import { useViewStyles } from '../shell/view-styles';
import { t, tr } from '../shell/i18n';

/** The sign-in view's own rules: the app's icon, the account line and the two buttons side by side. */
const SIWX_CSS = String.raw`
.wm-siwx { align-items: center; text-align: center; gap: 12px; }
.wm-siwx-title { font-size: var(--_fs-title); font-weight: 600; margin: 0; }
.wm-siwx-text { color: var(--_fg2); margin: 0; overflow-wrap: anywhere; }
.wm-siwx-account { font-size: var(--_fs-small); color: var(--_fg2); margin: 0; overflow-wrap: anywhere; }
.wm-siwx-actions { display: flex; gap: 8px; width: 100%; }
.wm-siwx-actions .wm-button { flex: 1; }
.wm-siwx-wait { display: flex; align-items: center; gap: 8px; color: var(--_fg2); margin: 0; }
`;

/** SIWXSignMessage: the app asks the visitor to sign in with the connected account. */
export function SiwxSignMessage({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useViewStyles(ref, SIWX_CSS);
  const siwx = snapshot.siwx;
  const r = siwx?.request;
  if (!siwx || !r) {
    return (
      <div ref={ref} className="wm-view wm-siwx" part="siwx">
        <Spinner label={t('Preparing sign-in')} />
      </div>
    );
  }
  const busy = r.state === 'preparing' || r.state === 'signing';
  const short = r.address.length > 16 ? `${r.address.slice(0, 6)}…${r.address.slice(-6)}` : r.address;
  return (
    <div ref={ref} className="wm-view wm-siwx" part="siwx" data-state={r.state}>
      <WalletImage src={siwx.appIcon} name={siwx.appName} size="lg" />
      <h3 className="wm-siwx-title">{t('{app} needs to connect to your wallet', { app: siwx.appName })}</h3>
      <p className="wm-siwx-text">{r.statement}</p>
      <p className="wm-siwx-account" title={r.address}>
        {t('Sign in as {account} on {network}', { account: short, network: r.network })}
      </p>
      {r.state === 'signing' ? (
        <p className="wm-siwx-wait" role="status">
          <Spinner label={t('Waiting for the wallet')} />
          <span>{t('Approve in your wallet')}</span>
        </p>
      ) : null}
      {r.error ? (
        <p className="wm-error" part="error" role="alert">
          {tr(r.error)}
        </p>
      ) : null}
      <div className="wm-siwx-actions">
        <button type="button" part="siwx-cancel" className="wm-button wm-button-secondary" onClick={() => onIntent({ type: 'siwxCancel' })}>
          {siwx.required ? t('Disconnect') : t('Cancel')}
        </button>
        <button type="button" part="siwx-sign" className="wm-button wm-button-primary" disabled={busy} onClick={() => onIntent({ type: 'siwxSign' })}>
          {busy ? t('Signing…') : t('Sign')}
        </button>
      </div>
    </div>
  );
}

export default SiwxSignMessage;
