import type { NetworkView } from '../shell/types';
import { WalletImage } from '../connect/WalletImage';

/**
 * Icons of the built-in networks (core/src/networks.rs), drawn inline: nothing is requested. Simple
 * marks (a brand-coloured disc and a glyph), not the brands' exact logos. Only the views that show
 * networks (Account, SwitchNetwork, UnsupportedChain) import this module, so it stays in a lazily
 * loaded chunk, out of the initial load.
 *
 * A part is `[path, colour]` (filled) or `[path, colour, stroke width]` (stroked).
 */
type Part = [d: string, color: string, strokeWidth?: number];

const ETH_MARK: Part[] = [
  ['M12 3.8 6.9 12.3 12 15.3l5.1-3z', '#fff'],
  ['M12 16.3l-5.1-3L12 20.4l5.1-7.1z', '#fff'],
];
const SOLANA_MARK: Part[] = [
  ['M8.4 6.8h9.4l-1.9 2.3H6.5z', '#14f195'],
  ['M6.5 10.9h9.4l1.9 2.3H8.4z', '#59a5e6'],
  ['M8.4 15h9.4l-1.9 2.3H6.5z', '#9945ff'],
];
const BITCOIN_MARK: Part[] = [
  [
    'M9.6 6.8v10.4M9.6 6.8h3.3a2.3 2.3 0 0 1 0 4.6H9.6m0 0h3.8a2.9 2.9 0 0 1 0 5.8H9.6M11 5.2v1.6m2 -1.6v1.6M11 17.2v1.6m2-1.6v1.6',
    '#fff',
    1.7,
  ],
];

const ICONS: Record<string, [bg: string, parts: Part[]]> = {
  'eip155:1': ['#627eea', ETH_MARK],
  'eip155:10': [
    '#ff0420',
    [
      ['M8.3 8.6a2.6 3.4 0 1 0 .01 0z', '#fff', 1.9],
      ['M13.6 15.6V8.6h2.5a2.1 2.1 0 0 1 0 4.2h-2.5', '#fff', 1.9],
    ],
  ],
  'eip155:42161': [
    '#213147',
    [
      ['M12 4.4l6.6 3.8v7.6L12 19.6l-6.6-3.8V8.2z', '#fff', 1.3],
      ['M9.3 15.6 12 8.6l2.7 7', '#12aaff', 1.9],
    ],
  ],
  'eip155:137': [
    '#8247e5',
    [
      ['M9.8 8.2 6.6 10v3.8l3.2 1.8 3.2-1.8V10z', '#fff', 1.6],
      ['M14.2 8.4 17.4 10.2v3.8l-3.2 1.8', '#fff', 1.6],
    ],
  ],
  'eip155:42220': [
    '#fcff52',
    [
      ['M10 10.2a3.8 3.8 0 1 0 .01 0z', '#000', 1.8],
      ['M14 6.2a3.8 3.8 0 1 0 .01 0z', '#000', 1.8],
    ],
  ],
  'eip155:1313161554': ['#70d44b', [['M12 6.5l5.8 10.3H6.2z', '#fff', 1.9]]],
  'eip155:56': [
    '#f0b90b',
    [
      [
        'M12 9.6l2.4 2.4-2.4 2.4-2.4-2.4zM12 4.8l3.6 3.6-1.2 1.2L12 7.2 9.6 9.6 8.4 8.4zM12 19.2l-3.6-3.6 1.2-1.2 2.4 2.4 2.4-2.4 1.2 1.2zM6 12l1.2-1.2L8.4 12l-1.2 1.2zM18 12l-1.2 1.2-1.2-1.2 1.2-1.2z',
        '#fff',
      ],
    ],
  ],
  'eip155:43114': [
    '#e84142',
    [
      ['M11 6.6 5.6 16.4h4.1l3.3-6.1z', '#fff'],
      ['M14.7 11.4l-2.8 5h5.6z', '#fff'],
    ],
  ],
  'eip155:324': [
    '#1e1e1e',
    [
      ['M4.8 12 9 7.8v2.9h4.8v2.6H9v2.9z', '#fff'],
      ['M19.2 12 15 16.2v-2.9h-4.8v-2.6H15V7.8z', '#8c8dfc'],
    ],
  ],
  'eip155:100': [
    '#04795b',
    [
      ['M12 6.4a5.6 5.6 0 1 0 .01 0z', '#fff', 1.6],
      ['M9.9 11.4h.01M14.1 11.4h.01', '#fff', 2.4],
    ],
  ],
  'eip155:8453': [
    '#0052ff',
    [
      ['M12 5a7 7 0 1 1-6.93 8h8.13v-2H5.07A7 7 0 0 1 12 5z', '#fff'],
    ],
  ],
  'eip155:250': [
    '#1969ff',
    [
      ['M12 4.8l4.2 3.6v7.2L12 19.2l-4.2-3.6V8.4z', '#fff', 1.6],
      ['M7.8 12h8.4', '#fff', 1.6],
    ],
  ],
  'eip155:8217': ['#bff009', [['M8.6 6.8v10.4M8.6 12.6l6.4-5.8M10.9 10.6l4.5 6.6', '#000', 2]]],
  'eip155:11155111': ['#8c8dfc', ETH_MARK],
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': ['#121212', SOLANA_MARK],
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': ['#121212', SOLANA_MARK],
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': ['#121212', SOLANA_MARK],
  'bip122:000000000019d6689c085ae165831e93': ['#f7931a', BITCOIN_MARK],
  'bip122:000000000933ea01ad0ee984209779ba': ['#f7931a', BITCOIN_MARK],
};

/** The CAIP-2 ids that have a built-in icon. */
export const NETWORK_ICON_IDS: readonly string[] = Object.keys(ICONS);

/**
 * A network's image: its own `imageUrl` when it has one (custom networks), else the built-in icon
 * of a built-in network, else the initials placeholder.
 */
export function NetworkImage({ network }: { network: Pick<NetworkView, 'caipNetworkId' | 'name' | 'imageUrl'> }) {
  const icon = network.imageUrl ? undefined : ICONS[network.caipNetworkId];
  if (!icon) return <WalletImage src={network.imageUrl} name={network.name} size="sm" round />;
  const [bg, parts] = icon;
  return (
    <span
      className="wm-image wm-image-sm wm-image-round wm-network-icon"
      data-image-state="icon"
      data-network-icon={network.caipNetworkId}
      aria-hidden="true"
    >
      <svg viewBox="0 0 24 24" width="100%" height="100%" focusable="false">
        <circle cx="12" cy="12" r="12" fill={bg} />
        {parts.map(([d, color, width], i) =>
          width ? (
            <path key={i} d={d} fill="none" stroke={color} strokeWidth={width} strokeLinecap="round" strokeLinejoin="round" />
          ) : (
            <path key={i} d={d} fill={color} />
          ),
        )}
      </svg>
    </span>
  );
}
