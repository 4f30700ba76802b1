import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { WalletImage } from '../connect/WalletImage';
import { useViewStyles } from '../shell/view-styles';
import { useNetworkStyles } from '../network/styles';
import { DisconnectIcon, PlusIcon } from '../shell/view-icons';
import { n, t } from '../shell/i18n';

/** ProfileWallets' own rules: one card per connection, its actions on the right. */
const PROFILE_CSS = String.raw`
.wm-profile-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.wm-profile { display: flex; align-items: center; gap: 12px; padding: 10px 12px; border-radius: var(--_r-m, 12px); background: var(--_bg2); }
.wm-profile[data-state="active"] { box-shadow: inset 0 0 0 1px color-mix(in srgb, var(--_accent) 50%, transparent); }
.wm-profile-text { display: flex; flex-direction: column; min-width: 0; flex: 1; }
.wm-profile-name { font-weight: 600; }
.wm-profile-sub { font-size: var(--_fs-small); color: var(--_fg2); overflow-wrap: anywhere; }
.wm-profile-badge { font-size: var(--_fs-small); font-weight: 600; color: var(--_accent-text); }
.wm-profile-actions { display: flex; gap: 6px; }
.wm-profile-actions .wm-button { padding: 6px 10px; font-size: var(--_fs-small); }
`;

const FAMILIES: Record<string, string> = { eip155: 'EVM', solana: 'Solana', bip122: 'Bitcoin', polkadot: 'Polkadot', cosmos: 'Cosmos' };
const FIXED: Record<string, string> = { walletConnect: 'WalletConnect', embedded: 'Embedded Wallet' }; // i18n

/** ProfileWallets: every connected wallet, which one is active, switch, end one, add another. */
export function ProfileWallets({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useViewStyles(ref, PROFILE_CSS);
  useNetworkStyles(ref);
  const part = snapshot.profileWallets;
  const wallets = part?.wallets ?? [];
  return (
    <div ref={ref} className="wm-view" part="profile-wallets">
      <ul className="wm-profile-list" aria-label={t('Connected wallets')}>
        {wallets.map((w) => {
          const connector = snapshot.connectors.find((c) => c.id === w.connectorId);
          const name = connector?.name ?? (FIXED[w.connectorId] && t(FIXED[w.connectorId])) ?? w.connectorId;
          const short = w.address.length > 14 ? `${w.address.slice(0, 6)}…${w.address.slice(-4)}` : w.address;
          return (
            <li key={`${w.namespace}:${w.connectorId}`} className="wm-profile" part="profile-wallet" data-state={w.state} data-connector-id={w.connectorId}>
              <WalletImage src={connector?.icon ?? null} name={name} size="md" />
              <span className="wm-profile-text">
                <span className="wm-profile-name">
                  {name} <span className="wm-profile-sub">· {FAMILIES[w.namespace] ?? w.namespace}</span>
                </span>
                <span className="wm-profile-sub" title={w.address}>
                  {short} · {w.network}
                  {w.balance !== null ? ` · ${n(w.balance)} ${w.symbol ?? ''}` : ''}
                </span>
                {w.state === 'active' ? <span className="wm-profile-badge">{t('Active')}</span> : null}
              </span>
              <span className="wm-profile-actions">
                {w.state !== 'active' ? (
                  <button type="button" part="switch-wallet" className="wm-button wm-button-secondary" aria-label={t('Use {name}', { name })} onClick={() => onIntent({ type: 'switchConnection', namespace: w.namespace, connectorId: w.connectorId })}>
                    {t('Use')}
                  </button>
                ) : null}
                <button type="button" part="disconnect-wallet" className="wm-button wm-button-secondary" aria-label={t('Disconnect {name}', { name })} onClick={() => onIntent({ type: 'disconnectConnection', namespace: w.namespace, connectorId: w.connectorId })}>
                  <DisconnectIcon />
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <button type="button" part="add-wallet" className="wm-button wm-button-primary" onClick={() => onIntent({ type: 'navigate', view: 'Connect' })}>
        <PlusIcon />
        <span>{t('Add wallet')}</span>
      </button>
    </div>
  );
}

export default ProfileWallets;
