import type { RefObject } from 'react';
import { useViewStyles } from '../shell/view-styles';

/**
 * The network views' rules (SwitchNetwork, UnsupportedChain): the network list, the small and round
 * network images and the disconnect row's icon (the Account view shows these too).
 */
export const NETWORK_CSS = String.raw`
.wm-row-sub { font-size: var(--_fs-small); color: var(--_fg2); }
.wm-badge-active { color: var(--_accent-text); font-size: calc(var(--_fs) * 1.8); padding: 0; }

.wm-image-sm { width: 24px; height: 24px; font-size: var(--_fs-micro); border-radius: var(--_r-s); }
.wm-image-round { border-radius: 50%; }
.wm-image-sm.wm-image-icon { font-size: var(--_fs-body); }
.wm-network-icon { box-shadow: 0 0 0 1px var(--_border); }
.wm-disconnect .wm-image-icon { color: var(--_error); background: color-mix(in srgb, var(--_error) 14%, transparent); }
.wm-network.wm-active { border-color: color-mix(in srgb, var(--_accent) 40%, transparent); }
.wm-approve { color: var(--_accent-text); }
`;

/** Adopts the shared view rules and the network rules into the shadow root holding `ref`. */
export function useNetworkStyles(ref: RefObject<Element | null>): void {
  useViewStyles(ref, NETWORK_CSS);
}
