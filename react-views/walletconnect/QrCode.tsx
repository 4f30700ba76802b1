import { useEffect, useRef, useState } from 'react';
import { Spinner, WALLETCONNECT_BLUE, WalletConnectMark } from '../shell/icons';
import { usePairingStyles } from './styles';
import { t } from '../shell/i18n';

interface QrPath {
  viewBox: string;
  d: string;
  /** The light square the encoder left in the centre for a logo, in viewBox units. */
  logo?: { x: number; y: number; side: number };
}

/**
 * viewBox and path of the encoder's SVG (`<svg viewBox="0 0 n n" …><path … d="…"/></svg>`), and
 * its logo area (`data-logo="x y side"`) when it left one.
 */
export function parseQrSvg(svg: string): QrPath | null {
  const viewBox = /viewBox="(0 0 [0-9]{1,4} [0-9]{1,4})"/.exec(svg)?.[1];
  const d = /<path[^>]* d="([MHhVvz0-9 ]*)"/.exec(svg)?.[1];
  if (!viewBox || !d) return null;
  const logo = /^<svg [^>]*data-logo="([0-9]{1,4}) ([0-9]{1,4}) ([0-9]{1,4})"/.exec(svg);
  if (!logo) return { viewBox, d };
  const [x, y, side] = logo.slice(1).map(Number);
  return { viewBox, d, logo: { x, y, side } };
}

/**
 * WalletConnect's logo in the light centre square the encoder left (it encodes at a level that
 * restores what the square hides): a blue rounded tile half a module inside the square.
 */
function QrLogo({ x, y, side }: { x: number; y: number; side: number }) {
  const tile = side - 1;
  const mark = tile * 0.64;
  return (
    <g className="wm-qr-logo" data-qr-logo="walletconnect" shapeRendering="geometricPrecision">
      <rect x={x + 0.5} y={y + 0.5} width={tile} height={tile} rx={tile * 0.28} fill={WALLETCONNECT_BLUE} />
      <svg x={x + (side - mark) / 2} y={y + (side - (mark * 185) / 300) / 2} width={mark} height={(mark * 185) / 300} viewBox="0 0 300 185" overflow="visible">
        <WalletConnectMark />
      </svg>
    </g>
  );
}

/**
 * `value` as a QR code: an SVG image named `label`. The encoder is the WalletConnect wasm module,
 * loaded lazily; a spinner shows meanwhile. The SVG is rebuilt from the encoder's path (no markup
 * is injected).
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [qr, setQr] = useState<{ value: string; path: QrPath | null } | null>(null);
  usePairingStyles(ref);

  useEffect(() => {
    let live = true;
    import('../../element/ts/wc-wasm')
      .then(({ loadWcWasm }) => loadWcWasm())
      .then(
        ({ qrSvg }) => live && setQr({ value, path: parseQrSvg(qrSvg(value)) }),
        () => live && setQr({ value, path: null }),
      );
    return () => {
      live = false;
    };
  }, [value]);

  const path = qr?.value === value ? qr.path : undefined;
  return (
    <div ref={ref} className="wm-qr" part="qr-code" data-state={path ? 'ready' : path === null ? 'error' : 'loading'}>
      {path ? (
        <svg xmlns="http://www.w3.org/2000/svg" viewBox={path.viewBox} shapeRendering="crispEdges" role="img" aria-label={label}>
          <path fill="currentColor" d={path.d} />
          {path.logo ? <QrLogo {...path.logo} /> : null}
        </svg>
      ) : path === null ? (
        <p className="wm-note">{t('The QR code could not be drawn; copy the link instead.')}</p>
      ) : (
        <Spinner label={t('Preparing QR code')} />
      )}
    </div>
  );
}
