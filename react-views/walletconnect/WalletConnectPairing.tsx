import { useRef } from 'react';
import { useCopied } from '../shell/useCopied';
import type { ViewProps } from '../shell/types';
import type { PairingWalletView } from '../../element/ts/protocol';
import { QrCode } from './QrCode';
import { usePairingStyles } from './styles';
import { t } from '../shell/i18n';
import { ErrorMessage } from '../shell/ErrorMessage';
import { WalletImage } from '../connect/WalletImage';
import { Spinner } from '../shell/icons';
import { CheckIcon, CopyIcon, ExternalLinkIcon, RetryIcon } from '../shell/view-icons';

/** The wallet's deep links the engine offers here (it builds them with the URI and drops unsafe ones). */
function walletLinks(wallet: PairingWalletView) {
  const links = [
    { kind: 'mobile', label: t('Open {name}', { name: wallet.name }), href: wallet.mobileLink },
    { kind: 'desktop', label: t('Open {name} desktop app', { name: wallet.name }), href: wallet.desktopLink },
    { kind: 'webapp', label: t('Open {name} web app', { name: wallet.name }), href: wallet.webappLink },
  ];
  return links.filter((l): l is { kind: string; label: string; href: string } => Boolean(l.href));
}

/**
 * The pairing shown by both WalletConnect views: the QR code of the URI (a spinner until there is
 * one), the copy-link button, the chosen wallet's deep links, and 'Connection rejected' with retry.
 */
export function WalletConnectPairing({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  usePairingStyles(ref);
  const [copied, markCopied] = useCopied();

  const pairing = snapshot.walletConnect ?? null;
  const wallet = pairing?.wallet ?? null;
  const uri = pairing?.uri ?? null;
  const c = snapshot.connecting;
  const failed = c?.connectorId === 'walletConnect' && c.state === 'error';
  const name = wallet?.name ?? t('your wallet');

  if (failed) {
    return (
      <div ref={ref} className="wm-pairing wm-failed" data-state="error">
        {wallet ? <WalletImage src={wallet.imageUrl} name={wallet.name} size="lg" /> : null}
        <ErrorMessage error={c.error} />
        <button type="button" className="wm-button wm-button-primary wm-retry" onClick={() => onIntent({ type: 'retry' })}>
          <RetryIcon />
          <span>{t('Try again')}</span>
        </button>
      </div>
    );
  }

  return (
    <div ref={ref} className="wm-pairing" data-state={uri ? 'ready' : 'waiting'}>
      {uri ? (
        <QrCode value={uri} label={t('WalletConnect QR code: scan it with {name} to connect', { name })} />
      ) : (
        <div className="wm-qr" part="qr-code" data-state="loading">
          <Spinner label={t('Preparing the WalletConnect link')} />
        </div>
      )}
      <p className="wm-note">{t('Scan this code with {name} (any WalletConnect wallet works), or copy the link.', { name })}</p>
      <div className="wm-pairing-actions">
        {uri && wallet
          ? walletLinks(wallet).map((l) => (
              <a
                key={l.kind}
                className="wm-button wm-button-secondary wm-deep-link"
                data-link={l.kind}
                href={l.href}
                {...(l.href.startsWith('https:') ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
              >
                <ExternalLinkIcon />
                <span>{l.label}</span>
              </a>
            ))
          : null}
        <button
          type="button"
          className="wm-button wm-button-secondary wm-copy-uri"
          disabled={!uri}
          onClick={() => {
            onIntent({ type: 'copyUri' });
            markCopied();
          }}
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
          <span>{copied ? t('Link copied') : t('Copy link')}</span>
        </button>
      </div>
      <span className="wm-visually-hidden" role="status" aria-live="polite">
        {copied ? t('Link copied') : ''}
      </span>
    </div>
  );
}
