import { useEffect, useId, useRef, useState } from 'react';
import type { BuyPart, Intent } from '../shell/types';
// The shell's styles and icons, like every lazy view (esbuild groups modules by the entry points
// that reach them: a view that reached fewer would split the initial chunk in two).
import { useLazyStyles } from '../shell/dynamic-styles';
import { Svg } from '../shell/icons';
import { WalletImage } from '../connect/WalletImage';
import { BUY_CSS } from './styles';
import { n, t, tr } from '../shell/i18n';

const METHODS = [
  ['card', 'Card'], // i18n
  ['bank_account', 'Bank account'], // i18n
] as const;

function ExternalIcon() {
  return (
    <Svg>
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </Svg>
  );
}

function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** The order once a provider is chosen: its checkout link, then what it paid out. */
function OrderView({ buy, onIntent }: { buy: BuyPart; onIntent: (i: Intent) => void }) {
  const order = buy.order!;
  if (order.stage === 'preparing') {
    return (
      <p className="wm-note" role="status" part="buy-order">
        {t('Preparing the checkout at {provider}…', { provider: order.provider })}
      </p>
    );
  }
  if (order.stage === 'failed') {
    return (
      <div className="wm-buy-order" part="buy-order">
        <p className="wm-error" role="alert">
          {tr(order.message)}
        </p>
        <button type="button" className="wm-button wm-button-secondary" onClick={() => onIntent({ type: 'buyReset' })}>
          {t('Try again')}
        </button>
      </div>
    );
  }
  if (order.stage === 'completed') {
    return (
      <div className="wm-buy-order" part="buy-order">
        <p className="wm-sent" role="status" part="buy-done">
          {t('Bought {amount} {symbol} through {provider}.', { amount: order.amount, symbol: order.symbol, provider: order.provider })}
        </p>
        {buy.balance ? (
          <p className="wm-note">
            {t('Your balance: {amount} {symbol}', { amount: n(buy.balance), symbol: order.symbol })}
          </p>
        ) : null}
        <button type="button" className="wm-button wm-button-secondary" onClick={() => onIntent({ type: 'buyReset' })}>
          {t('Buy more')}
        </button>
      </div>
    );
  }
  return (
    <div className="wm-buy-order" part="buy-order">
      <p className="wm-note">{t('Pay in the {provider} window. This modal follows your order and shows when it is paid out.', { provider: order.provider })}</p>
      {isHttpUrl(order.url) ? (
        <a className="wm-button wm-button-primary wm-buy-checkout" part="buy-checkout" href={order.url} target="_blank" rel="noopener noreferrer">
          <span>{t('Continue to {provider}', { provider: order.provider })}</span>
          <ExternalIcon />
        </a>
      ) : null}
      <p className="wm-note" role="status" part="buy-status">
        {order.status === 'PROCESSING' ? t('Payment received: sending your tokens…') : t('Waiting for your payment…')}
      </p>
      <button type="button" className="wm-button wm-button-secondary" onClick={() => onIntent({ type: 'buyReset' })}>
        {t('Choose another provider')}
      </button>
    </div>
  );
}

const TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const PURCHASE_STATUS = {
  completed: 'Completed', // i18n
  pending: 'In progress', // i18n
  failed: 'Failed', // i18n
} as const;

/** What the account bought through the providers (the module reads it per provider). */
function Purchases({ purchases }: { purchases: NonNullable<BuyPart['purchases']> }) {
  return (
    <section className="wm-buy-purchases" aria-label={t('Your purchases')} part="buy-purchases">
      <h3 className="wm-activity-month">{t('Your purchases')}</h3>
      <ul>
        {purchases.map((p) => (
          <li key={p.id} className="wm-buy-purchase" part="buy-purchase">
            <span className="wm-token-text">
              <span className="wm-token-name">{p.amount ?? '—'}</span>
              <span className="wm-token-quantity">
                {p.provider}
                {p.minedAt !== null ? ' · ' : null}
                {p.minedAt !== null ? <time dateTime={new Date(p.minedAt).toISOString()}>{TIME.format(p.minedAt)}</time> : null}
              </span>
            </span>
            <span className={`wm-badge wm-buy-status-${p.status}`}>{t(PURCHASE_STATUS[p.status] ?? 'In progress')}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The Buy screen: every rule (limits, quotes, fallbacks, the order) is the module's. */
export default function Buy({ buy, onIntent }: { buy: BuyPart; onIntent: (i: Intent) => void }) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useLazyStyles(ref, BUY_CSS);
  const [amount, setAmount] = useState(buy.amount);
  useEffect(() => setAmount(buy.amount), [buy.amount]);
  if (buy.loading) {
    return (
      <div ref={ref} className="wm-buy" part="buy" aria-busy="true">
        <span className="wm-skeleton" aria-label={t('Loading what can be bought')} />
      </div>
    );
  }
  if (buy.order) {
    return (
      <div ref={ref} className="wm-buy" part="buy">
        <OrderView buy={buy} onIntent={onIntent} />
      </div>
    );
  }
  const limit = buy.limits?.find((l) => l.id === buy.method);
  return (
    <div ref={ref} className="wm-buy" part="buy">
      {buy.fallback ? (
        <p className="wm-note" role="status" part="buy-fallback">
          {t('Showing the built-in currencies: the providers’ list could not be loaded.')}
        </p>
      ) : null}
      <label className="wm-field" htmlFor={`${id}-token`}>
        <span>{t('Token')}</span>
        <select id={`${id}-token`} value={buy.purchase ?? ''} onChange={(e) => onIntent({ type: 'buySetPurchase', symbol: e.target.value })}>
          {buy.tokens.length === 0 ? <option value="">{t('Nothing to buy on this network')}</option> : null}
          {buy.tokens.map((t) => (
            <option key={t.id} value={t.symbol}>
              {t.symbol} · {t.name}
            </option>
          ))}
        </select>
        {buy.balance ? (
          <span className="wm-field-hint">
            {t('You hold {amount} {symbol}', { amount: n(buy.balance), symbol: buy.purchase ?? '' })}
          </span>
        ) : null}
      </label>
      <div className="wm-buy-pay">
        <label className="wm-field" htmlFor={`${id}-currency`}>
          <span>{t('Pay in')}</span>
          <span className="wm-buy-currency">
            <WalletImage src={buy.paymentImageUrl} name={buy.payment ?? ''} size="sm" round />
            <select id={`${id}-currency`} value={buy.payment ?? ''} onChange={(e) => onIntent({ type: 'buySetPayment', currency: e.target.value })}>
              {buy.currencies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id}
                </option>
              ))}
            </select>
          </span>
        </label>
        <label className="wm-field" htmlFor={`${id}-method`}>
          <span>{t('With')}</span>
          <select id={`${id}-method`} value={buy.method} onChange={(e) => onIntent({ type: 'buySetMethod', method: e.target.value as BuyPart['method'] })}>
            {METHODS.map(([m, label]) => (
              <option key={m} value={m}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="wm-field" htmlFor={`${id}-amount`}>
        <span>{t('Amount')}</span>
        <input
          id={`${id}-amount`}
          inputMode="decimal"
          autoComplete="off"
          placeholder="100"
          aria-describedby={`${id}-limits`}
          value={amount}
          onChange={(e) => {
            setAmount(e.target.value);
            onIntent({ type: 'buySetAmount', amount: e.target.value });
          }}
        />
        {limit ? (
          <span className="wm-field-hint" id={`${id}-limits`}>
            {t('From {min} to {max} {currency}', { min: limit.min, max: limit.max, currency: buy.payment ?? '' })}
          </span>
        ) : null}
      </label>
      {buy.error ? (
        <p className="wm-error" role="alert" part="buy-error">
          {tr(buy.error)}
        </p>
      ) : null}
      {buy.quoting || buy.quotes.length > 0 ? (
        <section className="wm-buy-quotes" aria-label={t('Providers')} aria-busy={buy.quoting}>
          <h3 className="wm-activity-month">{t('Choose a provider')}</h3>
          <ul>
            {buy.quotes.map((q) => (
              <li key={q.provider}>
                <button type="button" className="wm-buy-quote" part="buy-quote" onClick={() => onIntent({ type: 'buyChoose', provider: q.provider })}>
                  <span className="wm-token-text">
                    <span className="wm-token-name">{q.name}</span>
                    <span className="wm-token-quantity">
                      {q.fee ? t('Fee {amount} {currency}', { amount: q.fee, currency: buy.payment ?? '' }) + (q.feePercent ? ` (${q.feePercent}%)` : '') : t('Fee 1–2%')}
                    </span>
                  </span>
                  <span className="wm-buy-receive">
                    {q.estimate ? '≈ ' : ''}
                    {n(q.receive)} {buy.purchase}
                    {q.estimate ? <span className="wm-buy-estimate">{t('Estimate')}</span> : null}
                  </span>
                </button>
              </li>
            ))}
            {buy.quoting ? (
              <li className="wm-buy-quote" aria-label={t('Getting quotes')}>
                <span className="wm-skeleton" />
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}
      {buy.purchases && buy.purchases.length > 0 ? <Purchases purchases={buy.purchases} /> : null}
    </div>
  );
}
