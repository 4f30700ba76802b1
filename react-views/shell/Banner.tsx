import { useRef } from 'react';
import { t, tr } from './i18n';
import type { ViewProps } from './types';
import { useLazyStyles } from './dynamic-styles';
import { AlertIcon, CloseIcon, Spinner } from './icons';
import { CheckIcon } from './view-icons';

/** The notices' own rules (this chunk loads only when there is something to say). */
const NOTICE_CSS = `
.wm-notice {
  display: flex; align-items: center; gap: 8px; margin: 0 16px 8px; padding-block: 8px; padding-inline: 12px 8px;
  border-radius: var(--_r-m, 12px); font-size: var(--_fs-small); font-weight: 500; color: var(--_fg);
  background: var(--_bg2); border: 1px solid var(--_border);
}
.wm-notice .wm-spinner { font-size: 16px; flex: none; }
.wm-notice svg { flex: none; }
.wm-notice-detail { color: var(--_fg2); font-weight: 400; }
.wm-banner[data-variant='error'] { border-color: color-mix(in srgb, var(--_error) 45%, transparent); }
.wm-banner[data-variant='error'] > svg { color: var(--_error); }
.wm-banner[data-variant='success'] > svg { color: var(--_success); }
.wm-banner-text { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.wm-banner-close { flex: none; width: 28px; height: 28px; }
`;

/**
 * The notification banner (spec: variants loading, success, error) and the notice shown while a
 * request the host made through `getProvider()` waits for the visitor in the wallet. An error is
 * announced at once (role=alert); the others politely (role=status).
 */
export function Notices({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLazyStyles(ref, NOTICE_CSS);
  const banner = snapshot.banner;
  return (
    <div ref={ref} className="wm-notices">
      {snapshot.walletRequest && snapshot.connection ? (
        <div className="wm-notice wm-wallet-request" part="wallet-request" role="status">
          <Spinner />
          <span>
            {t('Approve in your wallet')}
            <span className="wm-notice-detail">{snapshot.connection.connectorName ? ` (${snapshot.connection.connectorName})` : ''}</span>
          </span>
        </div>
      ) : null}
      {banner ? (
        <div
          className="wm-notice wm-banner"
          part="banner"
          data-variant={banner.variant}
          role={banner.variant === 'error' ? 'alert' : 'status'}
        >
          {banner.variant === 'error' ? <AlertIcon /> : banner.variant === 'success' ? <CheckIcon /> : <Spinner />}
          <span className="wm-banner-text">{tr(banner.message)}</span>
          <button type="button" className="wm-icon-button wm-banner-close" aria-label={t('Dismiss')} onClick={() => onIntent({ type: 'dismissBanner' })}>
            <CloseIcon />
          </button>
        </div>
      ) : null}
    </div>
  );
}

export default Notices;
