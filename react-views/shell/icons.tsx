/**
 * Inline SVG icons. Decorative: hidden from assistive technology; the buttons carry the labels.
 * The ones only lazily loaded views use live in view-icons.tsx, out of the initial load.
 */
import type { ReactNode } from 'react';
// The texts' module goes with the icons (every view that shows an icon shows text): one shared
// chunk for both instead of a separate ~150 B one in the initial load.
import './i18n';

export interface IconProps {
  className?: string;
}

export function Svg({ className, children, viewBox = '0 0 24 24' }: IconProps & { children: ReactNode; viewBox?: string }) {
  return (
    <svg
      className={className ? `wm-icon ${className}` : 'wm-icon'}
      viewBox={viewBox}
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export function BackIcon(p: IconProps) {
  return (
    <Svg {...p}>
      <path d="M15 18l-6-6 6-6" />
    </Svg>
  );
}

export function CloseIcon(p: IconProps) {
  return (
    <Svg {...p}>
      <path d="M18 6L6 18M6 6l12 12" />
    </Svg>
  );
}

export function ChevronRightIcon(p: IconProps) {
  return (
    <Svg {...p}>
      <path d="M9 18l6-6-6-6" />
    </Svg>
  );
}

export function GridIcon(p: IconProps) {
  return (
    <Svg {...p}>
      <rect x="4" y="4" width="6" height="6" rx="1.5" />
      <rect x="14" y="4" width="6" height="6" rx="1.5" />
      <rect x="4" y="14" width="6" height="6" rx="1.5" />
      <rect x="14" y="14" width="6" height="6" rx="1.5" />
    </Svg>
  );
}

export function AlertIcon(p: IconProps) {
  return (
    <Svg {...p}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v6M12 16.5v.5" />
    </Svg>
  );
}

/**
 * WalletConnect's logo mark (its "wave": an arc over a zigzag), 300 × 185 units, drawn as two
 * strokes that follow the official outline (a few bytes instead of its 1.8 KB path).
 */
export function WalletConnectMark() {
  return <path d="M13 87l75 75 62-62 62 62 75-75M66 57Q150-22 234 57" fill="none" stroke="#fff" strokeWidth="36" strokeLinejoin="round" />;
}
/** WalletConnect's brand blue, behind the white mark. */
export const WALLETCONNECT_BLUE = '#3396ff';

/**
 * WalletConnect's logo as an inline image tile (its white mark on its blue, `.wm-image-walletconnect`;
 * no request), in place of a wallet image wherever the WalletConnect connector is shown.
 */
export function WalletConnectLogo({ size = 'md' }: { size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span className={`wm-image wm-image-${size} wm-image-walletconnect`} data-image-state="logo" aria-hidden="true">
      <svg viewBox="-90 -147.5 480 480" width="100%" height="100%" focusable="false">
        <WalletConnectMark />
      </svg>
    </span>
  );
}

/** Indeterminate spinner. `label` makes it a status for assistive technology. */
export function Spinner({ label, className }: { label?: string; className?: string }) {
  return (
    <span
      className={className ? `wm-spinner ${className}` : 'wm-spinner'}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" focusable="false">
        <circle className="wm-spinner-track" cx="12" cy="12" r="9" fill="none" strokeWidth="3" />
        <path className="wm-spinner-arc" d="M12 3a9 9 0 0 1 9 9" fill="none" strokeWidth="3" strokeLinecap="round" />
      </svg>
    </span>
  );
}
