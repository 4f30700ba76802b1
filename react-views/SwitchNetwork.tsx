import type { ViewProps } from './types';
import { NetworkList } from './NetworkList';
import { ErrorMessage } from './ErrorMessage';

/** Network switch: the engine marks the active network and reports the switch's progress. */
export function SwitchNetwork({ snapshot, onIntent }: ViewProps) {
  const { switching } = snapshot;
  return (
    <div className="wm-view wm-switch-network">
      <NetworkList networks={snapshot.networks} switching={switching} onIntent={onIntent} label="Networks" />
      {switching?.state === 'pending' ? (
        <p className="wm-note" role="status">
          Approve in wallet to switch to {switching.target.name}
        </p>
      ) : null}
      {switching?.state === 'error' ? <ErrorMessage error={switching.error} /> : null}
    </div>
  );
}

export default SwitchNetwork;
