import { useRef } from 'react';
import { t, tr } from '../shell/i18n';
import { parseQrSvg } from '../walletconnect/QrCode';
import { usePairingStyles } from '../walletconnect/styles';
import { useCopied } from '../shell/useCopied';
import { CheckIcon, CopyIcon } from '../shell/view-icons';
import type { AccountParts, Intent } from '../shell/types';

/** The address as a QR code (from the core encoder, rebuilt as SVG: no markup injected), a copy button, and the networks it can receive on. */
export function Receive({ receive, onIntent }: { receive: NonNullable<AccountParts['receive']>; onIntent: (i: Intent) => void }) {
  const [copied, markCopied] = useCopied();
  const ref = useRef<HTMLDivElement>(null);
  usePairingStyles(ref);
  const path = receive.qr ? parseQrSvg(receive.qr) : null;
  return (
    <div ref={ref} className="wm-receive" part="receive">
      <div className="wm-qr wm-receive-qr" part="qr-code">
        {path ? (
          <svg xmlns="http://www.w3.org/2000/svg" viewBox={path.viewBox} shapeRendering="crispEdges" role="img" aria-label={t('QR code of {address}', { address: receive.address })}>
            <path fill="currentColor" d={path.d} />
          </svg>
        ) : (
          <p className="wm-note">{t('The QR code could not be drawn; copy the address instead.')}</p>
        )}
      </div>
      <p className="wm-receive-address" part="address">
        {receive.address}
      </p>
      <button
        type="button"
        className="wm-button wm-button-secondary"
        onClick={() => {
          onIntent({ type: 'copyAddress' });
          markCopied();
        }}
      >
        {copied ? <CheckIcon /> : <CopyIcon />}
        <span>{copied ? t('Address copied') : t('Copy address')}</span>
      </button>
      {receive.networks.length > 0 ? (
        <p className="wm-note">{t('Receive on {networks}. Only send assets on these networks to this address.', { networks: receive.networks.join(', ') })}</p>
      ) : null}
    </div>
  );
}
