import type { Intent, WalletListingView } from './types';
import { WalletImage } from './WalletImage';

/** Catalogue wallets as a grid of buttons (AllWallets and the WalletConnect views). */
export function WalletGrid({
  items,
  onIntent,
  label,
}: {
  items: WalletListingView[];
  onIntent: (intent: Intent) => void;
  label: string;
}) {
  return (
    <ul className="wm-wallet-grid" part="wallet-grid" aria-label={label}>
      {items.map((w) => (
        <li key={w.id}>
          <button
            type="button"
            part="wallet"
            className="wm-wallet"
            data-wallet-id={w.id}
            onClick={() => onIntent({ type: 'selectWallet', id: w.id })}
          >
            <WalletImage src={w.imageUrl} name={w.name} size="lg" />
            <span className="wm-wallet-name">{w.name}</span>
            {w.installed ? <span className="wm-badge wm-badge-installed wm-badge-dot">Installed</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
