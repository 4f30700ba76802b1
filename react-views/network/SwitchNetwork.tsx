import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { NetworkList } from './NetworkList';
import { useNetworkStyles } from './styles';
import { ErrorMessage } from '../shell/ErrorMessage';
import { t } from '../shell/i18n';

/** Network switch: the engine marks the active network and reports the switch's progress. */
export function SwitchNetwork({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useNetworkStyles(ref);
  const { switching } = snapshot;
  return (
    <div ref={ref} className="wm-view wm-switch-network">
      <NetworkList networks={snapshot.networks} switching={switching} onIntent={onIntent} label={t('Networks')} />
      {switching?.state === 'pending' ? (
        <p className="wm-note" role="status">
          {t('Approve in wallet to switch to {network}', { network: switching.target.name })}
        </p>
      ) : null}
      {switching?.state === 'error' ? <ErrorMessage error={switching.error} /> : null}
    </div>
  );
}

export default SwitchNetwork;
