import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import type { ApprovalPart } from '../../element/ts/protocol';
import { useEmbeddedStyles } from './styles';
import { AlertIcon } from '../shell/icons';

type Approval = ApprovalPart;

function Rows({ rows }: { rows: Array<[string, string]> }) {
  return (
    <dl className="wm-approve-rows">
      {rows.map(([k, v], i) => (
        <div key={i} className="wm-approve-row">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function What({ a }: { a: Approval }) {
  switch (a.kind) {
    case 'message':
      return (
        <>
          <p className="wm-embedded-title">{a.text !== undefined ? 'Message' : 'Message (not text: its bytes in hex)'}</p>
          <pre className="wm-approve-block" data-field="message">{a.text ?? a.hex}</pre>
        </>
      );
    case 'typedData':
      return (
        <>
          <p className="wm-embedded-title">Domain</p>
          <Rows rows={a.domain} />
          <p className="wm-embedded-title">{a.primaryType}</p>
          <Rows rows={a.fields} />
          {a.more > 0 ? <p className="wm-note">and {a.more} more fields</p> : null}
        </>
      );
    case 'transaction':
      return (
        <>
          {a.transactions.map((t, i) => (
            <div key={i} className="wm-approve-tx">
              {t.function?.unlimited ? (
                <p className="wm-approve-warning" role="alert">
                  <AlertIcon /> Unlimited approval: the spender can move all of this token from your wallet, now and later.
                </p>
              ) : null}
              <Rows
                rows={[
                  ['To', t.to ?? 'New contract'],
                  ['Value', t.value],
                  ...(t.function ? ([['Function', t.function.name], ...t.function.args] as Array<[string, string]>) : t.data ? ([['Data', `${t.dataBytes} bytes`]] as Array<[string, string]>) : []),
                ]}
              />
            </div>
          ))}
          <Rows rows={[['Network fee', a.fee ?? 'Estimating…']]} />
        </>
      );
  }
}

/** ApproveTransaction: exactly what the embedded wallet is asked to sign, with Approve and Reject. */
export default function ApproveTransaction({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEmbeddedStyles(ref);
  const a = snapshot.approval;
  if (!a) return <div ref={ref} className="wm-view" />;
  const verb = a.kind === 'transaction' ? 'send this transaction' : 'sign this';
  return (
    <div ref={ref} className="wm-view wm-approve" data-kind={a.kind}>
      <p className="wm-note">
        {snapshot.embeddedUser?.email ?? 'Your wallet'} on {a.network}: {a.method}. Approve only if you trust this site to {verb}.
      </p>
      <What a={a} />
      {a.queued > 0 ? <p className="wm-note">{a.queued} more waiting</p> : null}
      <div className="wm-approve-actions">
        <button type="button" className="wm-button wm-button-secondary" disabled={a.sending} onClick={() => onIntent({ type: 'reject' })}>
          Reject
        </button>
        <button type="button" className="wm-button wm-button-primary" disabled={a.sending} onClick={() => onIntent({ type: 'approve' })}>
          {a.sending ? 'Signing…' : 'Approve'}
        </button>
      </div>
    </div>
  );
}
