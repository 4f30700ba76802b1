import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { NetworkList } from './NetworkList';
import { useNetworkStyles } from './styles';
import { ErrorMessage } from '../shell/ErrorMessage';
import { DisconnectIcon } from '../shell/view-icons';
import { t } from '../shell/i18n';

/** The wallet is on a network the app doesn't support. */
export function UnsupportedChain({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useNetworkStyles(ref);
  const { switching } = snapshot;
  return (
    <div ref={ref} className="wm-view wm-unsupported">
      <p className="wm-text">
        {t('This app doesn\'t support your current network. Switch to an available option to continue.')}
      </p>
      <NetworkList networks={snapshot.networks} switching={switching} onIntent={onIntent} label={t('Available networks')} />
      {switching?.state === 'error' ? <ErrorMessage error={switching.error} /> : null}
      <button
        type="button"
        part="disconnect-button"
        className="wm-row wm-disconnect"
        onClick={() => onIntent({ type: 'disconnect' })}
      >
        <span className="wm-image wm-image-sm wm-image-icon" aria-hidden="true">
          <DisconnectIcon />
        </span>
        <span className="wm-row-text">
          <span className="wm-row-name">{t('Disconnect')}</span>
        </span>
      </button>
    </div>
  );
}

export default UnsupportedChain;
