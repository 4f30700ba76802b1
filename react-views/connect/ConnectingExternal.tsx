import { useRef } from 'react';
import { t, tr } from '../shell/i18n';
import type { ViewProps } from '../shell/types';
import { WalletImage } from './WalletImage';
import { ErrorMessage } from '../shell/ErrorMessage';
import { Spinner } from '../shell/icons';
import { RetryIcon } from '../shell/view-icons';
import { useConnectStyles } from './styles';

/** Waiting for an injected wallet to approve the connection. */
export function ConnectingExternal({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useConnectStyles(ref);
  const c = snapshot.connecting;
  if (!c) return <div ref={ref} className="wm-view wm-connecting" />;
  const failed = c.state === 'error';
  return (
    <div ref={ref} className={`wm-view wm-connecting${failed ? ' wm-failed' : ''}`} data-state={c.state}>
      <div className="wm-connecting-logo">
        <WalletImage src={c.icon} name={c.name} size="lg" />
        {failed ? null : <Spinner className="wm-connecting-spinner" label={t('Connecting to {name}', { name: c.name })} />}
      </div>
      <p className="wm-connecting-title">{t('Continue in {name}', { name: c.name })}</p>
      {failed ? (
        <>
          <ErrorMessage error={c.error} />
          <button type="button" className="wm-button wm-button-primary wm-retry" onClick={() => onIntent({ type: 'retry' })}>
            <RetryIcon />
            <span>{t('Try again')}</span>
          </button>
        </>
      ) : (
        <p className="wm-connecting-sub">{t('Accept the connection request in the wallet')}</p>
      )}
    </div>
  );
}

export default ConnectingExternal;
