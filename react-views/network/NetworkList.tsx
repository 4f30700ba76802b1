import type { NetworkView, Snapshot, Intent } from '../shell/types';
import { NetworkImage } from './NetworkImage';
import { Spinner } from '../shell/icons';
import { CheckIcon } from '../shell/view-icons';
import { t } from '../shell/i18n';

/** Networks as buttons; the engine marks the active one and owns what a click does. */
export function NetworkList({
  networks,
  switching,
  onIntent,
  label,
}: {
  networks: NetworkView[];
  switching: Snapshot['switching'];
  onIntent: (intent: Intent) => void;
  label: string;
}) {
  return (
    <ul className="wm-list wm-network-list" aria-label={label}>
      {networks.map((n) => {
        const pending = switching?.state === 'pending' && switching.target.caipNetworkId === n.caipNetworkId;
        return (
          <li key={n.caipNetworkId}>
            <button
              type="button"
              part="network"
              className={`wm-row wm-network${n.active ? ' wm-active' : ''}${pending ? ' wm-pending' : ''}`}
              aria-current={n.active ? 'true' : undefined}
              aria-busy={pending ? 'true' : undefined}
              data-network-id={n.caipNetworkId}
              onClick={() => onIntent({ type: 'switchNetwork', caipNetworkId: n.caipNetworkId })}
            >
              <NetworkImage network={n} />
              <span className="wm-row-text">
                <span className="wm-row-name">{n.name}</span>
                {pending ? <span className="wm-row-sub wm-approve">{t('Approve in wallet')}</span> : null}
              </span>
              {pending ? <Spinner className="wm-row-end" /> : null}
              {n.active && !pending ? (
                <span className="wm-badge wm-badge-active">
                  <CheckIcon />
                  <span className="wm-visually-hidden">{t('Active')}</span>
                </span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
