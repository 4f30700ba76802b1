import { useEffect, useId, useState } from 'react';
import { n, t, tr } from '../shell/i18n';
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
          <dt>{t('Amount')}</dt>
          <dd>
            <bdi>{n(p.amount)}</bdi>
          </dd>
          <dt>{t('From')}</dt>
          <dd className="wm-send-address">
            <bdi>{from}</bdi>
          </dd>
          <dt>{t('To')}</dt>
          <dd className="wm-send-address">
            <bdi>{p.to}</bdi>
          </dd>
          <dt>{t('Network fee')}</dt>
          <dd>
            {p.fee ? n(p.fee) : (p.feeError ? <span className="wm-error">{tr(p.feeError)}</span> : <span className="wm-skeleton" aria-label={t('Estimating the fee')} />)}
            {p.fee && p.feeDetail ? <span className="wm-send-fee-detail">{tr(p.feeDetail)}</span> : null}
          </dd>
        </dl>
        {send.error ? (
          <p className="wm-error" role="alert">
            {tr(send.error)}
          </p>
        ) : null}
        <button type="button" className="wm-button wm-button-primary" disabled={send.stage === 'sending'} onClick={() => onIntent({ type: 'sendConfirm' })}>
          {send.stage === 'sending' ? t('Approve in your wallet') : t('Send')}
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
        <span>{t('Token')}</span>
        <select id={`${id}-token`} value={send.token ?? ''} onChange={(e) => onIntent({ type: 'sendSetToken', index: Number(e.target.value) })}>
          {send.tokens.length === 0 ? <option value="">{t('No tokens')}</option> : null}
          {send.tokens.map((tk, i) => (
            <option key={`${tk.symbol}-${i}`} value={i}>
              {tk.symbol} · {tk.balance}
            </option>
          ))}
        </select>
      </label>
      <div className="wm-field">
        <label htmlFor={`${id}-amount`}>{t('Amount')}</label>
        <div className="wm-field-row">
          <input
            id={`${id}-amount`}
            dir="ltr"
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
            {t('Max')}
          </button>
        </div>
        {token ? <span className="wm-field-hint">{t('Balance: {amount}', { amount: `\u2066${token.balance} ${token.symbol}\u2069` })}</span> : null}
      </div>
      <label className="wm-field" htmlFor={`${id}-receiver`}>
        <span>{t('Receiver address')}</span>
        <input
          id={`${id}-receiver`}
          dir="ltr"
          autoComplete="off"
          spellCheck={false}
          placeholder={tr(send.receiverHint)}
          value={receiver}
          onChange={(e) => {
            setReceiver(e.target.value);
            onIntent({ type: 'sendSetReceiver', receiver: e.target.value });
          }}
        />
      </label>
      {send.error ? (
        <p className="wm-error" role="alert">
          {tr(send.error)}
        </p>
      ) : null}
      <button type="submit" className="wm-button wm-button-primary">
        {t('Preview send')}
      </button>
    </form>
  );
}
