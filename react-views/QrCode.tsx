import { useEffect, useRef, useState, type RefObject } from 'react';
import { Spinner, WALLETCONNECT_BLUE, WalletConnectMark } from './icons';
import { useLazyStyles } from './dynamic-styles';

/**
 * The QR code's own rules, adopted by the shadow root it renders in (a constructable stylesheet:
 * no style attribute, fine under a strict CSP). The modules are `currentColor`, i.e. `--wm-qr-color`.
 */
const QR_CSS = `
.wm-qr { box-sizing: border-box; display: flex; align-items: center; justify-content: center; align-self: center;
  width: min(100%, 272px); aspect-ratio: 1; padding: 12px; border-radius: var(--_r-l, 16px);
  background: #fff; color: var(--_qr, var(--wm-qr-color, #141414)); border: 1px solid var(--_border, transparent); }
.wm-qr svg { display: block; width: 100%; height: 100%; }
.wm-qr .wm-spinner { font-size: 40px; }
.wm-qr .wm-note { color: #4a4f4f; }
.wm-pairing { display: flex; flex-direction: column; align-items: center; gap: 12px; }
.wm-pairing-actions { display: flex; flex-wrap: wrap; justify-content: center; gap: 8px; }
.wm-pairing-actions .wm-button { text-decoration: none; color: var(--_fg); }
`;

/** Adopts the pairing styles for a component rendering `ref`. */
export function usePairingStyles(ref: RefObject<Element | null>): void {
  useLazyStyles(ref, QR_CSS);
}

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
    import('../element/ts/wc-wasm')
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
        <p className="wm-note">The QR code could not be drawn; copy the link instead.</p>
      ) : (
        <Spinner label="Preparing QR code" />
      )}
    </div>
  );
}
