import { useRef } from 'react';
import type { Intent, WalletListingView } from '../shell/types';
import { WalletImage } from './WalletImage';
import { useConnectStyles } from './styles';
import { t } from '../shell/i18n';

/** Catalogue wallets as a grid of buttons (AllWallets and the WalletConnect views, hence its own styles). */
export function WalletGrid({
  items,
  onIntent,
  label,
}: {
  items: WalletListingView[];
  onIntent: (intent: Intent) => void;
  label: string;
}) {
  const ref = useRef<HTMLUListElement>(null);
  useConnectStyles(ref);
  return (
    <ul ref={ref} className="wm-wallet-grid" part="wallet-grid" aria-label={label}>
      {items.map((w) => (
        <li key={w.id}>
          <button
            type="button"
            part="wallet"
            className="wm-wallet"
            data-wallet-id={w.id}
            title={w.name}
            onClick={() => onIntent({ type: 'selectWallet', id: w.id })}
          >
            <WalletImage src={w.imageUrl} name={w.name} size="lg" />
            {/* Up to two lines, then an ellipsis: the full name stays the accessible name (the text is
                whole in the DOM) and shows as the tooltip. */}
            <span className="wm-wallet-name">{w.name}</span>
            {w.installed ? (
              <>
                <span className="wm-badge wm-badge-installed wm-badge-dot" aria-hidden="true" />
                <span className="wm-visually-hidden"> ({t('installed')})</span>
              </>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
