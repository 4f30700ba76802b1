import { useEffect, useId, useState } from 'react';
import type { Intent, SendPart } from '../shell/types';

/** A text field kept locally while typing (the module's answer arrives a moment later) and
 * following the module when it changes the value itself (Max). */
function useField(value: string): [string, (v: string) => void] {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return [text, setText];
}

/** The Send form (token, amount with Max, receiver) and its preview; every rule is the module's. */
export function Send({ send, from, onIntent }: { send: SendPart; from: string; onIntent: (i: Intent) => void }) {
  const id = useId();
  const [amount, setAmount] = useField(send.amount);
  const [receiver, setReceiver] = useField(send.receiver);
  const token = send.token === null ? null : send.tokens[send.token] ?? null;
  if (send.stage !== 'editing' && send.preview) {
    const p = send.preview;
    return (
      <div className="wm-send" part="send-preview">
        <dl className="wm-send-preview">
          <dt>Amount</dt>
          <dd>{p.amount}</dd>
          <dt>From</dt>
          <dd className="wm-send-address">{from}</dd>
          <dt>To</dt>
          <dd className="wm-send-address">{p.to}</dd>
          <dt>Network fee</dt>
          <dd>
            {p.fee ?? (p.feeError ? <span className="wm-error">{p.feeError}</span> : <span className="wm-skeleton" aria-label="Estimating the fee" />)}
            {p.fee && p.feeDetail ? <span className="wm-send-fee-detail">{p.feeDetail}</span> : null}
          </dd>
        </dl>
        {send.error ? (
          <p className="wm-error" role="alert">
            {send.error}
          </p>
        ) : null}
        <button type="button" className="wm-button wm-button-primary" disabled={send.stage === 'sending'} onClick={() => onIntent({ type: 'sendConfirm' })}>
          {send.stage === 'sending' ? 'Approve in your wallet' : 'Send'}
        </button>
      </div>
    );
  }
  return (
    <form
      className="wm-send"
      part="send"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onIntent({ type: 'sendPreview' });
      }}
    >
      <label className="wm-field" htmlFor={`${id}-token`}>
        <span>Token</span>
        <select id={`${id}-token`} value={send.token ?? ''} onChange={(e) => onIntent({ type: 'sendSetToken', index: Number(e.target.value) })}>
          {send.tokens.length === 0 ? <option value="">No tokens</option> : null}
          {send.tokens.map((t, i) => (
            <option key={`${t.symbol}-${i}`} value={i}>
              {t.symbol} · {t.balance}
            </option>
          ))}
        </select>
      </label>
      <div className="wm-field">
        <label htmlFor={`${id}-amount`}>Amount</label>
        <div className="wm-field-row">
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              onIntent({ type: 'sendSetAmount', amount: e.target.value });
            }}
          />
          <button type="button" className="wm-button wm-button-secondary" onClick={() => onIntent({ type: 'sendMax' })} disabled={!token}>
            Max
          </button>
        </div>
        {token ? <span className="wm-field-hint">Balance: {token.balance} {token.symbol}</span> : null}
      </div>
      <label className="wm-field" htmlFor={`${id}-receiver`}>
        <span>Receiver address</span>
        <input
          id={`${id}-receiver`}
          autoComplete="off"
          spellCheck={false}
          placeholder={send.receiverHint}
          value={receiver}
          onChange={(e) => {
            setReceiver(e.target.value);
            onIntent({ type: 'sendSetReceiver', receiver: e.target.value });
          }}
        />
      </label>
      {send.error ? (
        <p className="wm-error" role="alert">
          {send.error}
        </p>
      ) : null}
      <button type="submit" className="wm-button wm-button-primary">
        Preview send
      </button>
    </form>
  );
}
