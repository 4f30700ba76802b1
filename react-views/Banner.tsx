import type { ViewProps } from './types';
import { AlertIcon, CheckIcon, CloseIcon, Spinner } from './icons';

/**
 * The notification banner (spec: variants loading, success, error) and the notice shown while a
 * request the host made through `getProvider()` waits for the visitor in the wallet. An error is
 * announced at once (role=alert); the others politely (role=status).
 */
export function Notices({ snapshot, onIntent }: ViewProps) {
  const banner = snapshot.banner;
  return (
    <>
      {snapshot.walletRequest && snapshot.account ? (
        <div className="wm-notice wm-wallet-request" part="wallet-request" role="status">
          <Spinner />
          <span>
            Approve in your wallet
            <span className="wm-notice-detail">{snapshot.account.connectorName ? ` (${snapshot.account.connectorName})` : ''}</span>
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
          <span className="wm-banner-text">{banner.message}</span>
          <button type="button" className="wm-icon-button wm-banner-close" aria-label="Dismiss" onClick={() => onIntent({ type: 'dismissBanner' })}>
            <CloseIcon />
          </button>
        </div>
      ) : null}
    </>
  );
}

export default Notices;
