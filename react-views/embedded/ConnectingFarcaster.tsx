import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { parseQrSvg } from '../walletconnect/QrCode';
import { useEmbeddedStyles } from './styles';
import { t, tr } from '../shell/i18n';

/** ConnectingFarcaster: the Sign In With Farcaster link as a QR code and a link, until approved. */
export default function ConnectingFarcaster({ snapshot }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEmbeddedStyles(ref);
  const f = snapshot.farcaster;
  const path = f?.qr ? parseQrSvg(f.qr) : null;
  return (
    <div ref={ref} className="wm-view wm-farcaster">
      {f?.error ? (
        <p className="wm-embedded-error" role="alert">{tr(f.error)}</p>
      ) : (
        <>
          <div className="wm-qr" part="qr-code">
            {path ? (
              <svg xmlns="http://www.w3.org/2000/svg" viewBox={path.viewBox} shapeRendering="crispEdges" role="img" aria-label={t('QR code to sign in with Farcaster')}>
                <path fill="currentColor" d={path.d} />
              </svg>
            ) : (
              <p className="wm-note">{t('Loading…')}</p>
            )}
          </div>
          <p className="wm-note">{t('Scan with your phone\'s camera, or open the link in your Farcaster app, and approve.')}</p>
          {f?.url ? (
            <a className="wm-button wm-button-secondary" href={f.url} target="_blank" rel="noopener noreferrer" data-field="farcaster-link">
              {t('Open in Farcaster')}
            </a>
          ) : null}
        </>
      )}
    </div>
  );
}
