import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { NetworkImage } from './NetworkImage';
import { useNetworkStyles } from './styles';
import { t } from '../shell/i18n';

const FAMILIES: Record<string, string> = { eip155: 'EVM', solana: 'Solana', bip122: 'Bitcoin', polkadot: 'Polkadot', cosmos: 'Cosmos' };

/** SwitchActiveChain: the network picked is of a family with no wallet connected yet. */
export function SwitchActiveChain({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useNetworkStyles(ref);
  const network = snapshot.switchActiveChain;
  if (!network) return <div ref={ref} className="wm-view" />;
  const family = FAMILIES[network.namespace] ?? network.namespace;
  return (
    <div ref={ref} className="wm-view wm-switch-active" part="switch-active-chain" style={{ alignItems: 'center', textAlign: 'center' }}>
      <NetworkImage network={network} />
      <p className="wm-text">
        {t('{network} is a {family} network. Connect a {family} wallet to use it; your connected wallet stays connected.', { network: network.name, family })}
      </p>
      <button type="button" part="connect-family" className="wm-button wm-button-primary" onClick={() => onIntent({ type: 'switchActiveChain' })}>
        {t('Connect a {family} wallet', { family })}
      </button>
    </div>
  );
}

export default SwitchActiveChain;
