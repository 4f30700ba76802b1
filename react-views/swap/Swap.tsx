import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { WalletImage } from '../connect/WalletImage';
import type { Intent, SwapPart, SwapTokenView } from '../shell/types';
// The shell's styles and icons, like every lazy view (esbuild groups modules by the entry points
// that reach them: a view that reached fewer would split the initial chunk in two).
import { useLazyStyles } from '../shell/dynamic-styles';
import { Svg } from '../shell/icons';
import { SWAP_CSS } from './styles';
import { n, t, tr } from '../shell/i18n';

function ChevronDownIcon() {
  return (
    <Svg className="wm-swap-chevron">
      <path d="M6 9l6 6 6-6" />
    </Svg>
  );
}

function FlipIcon() {
  return (
    <Svg>
      <path d="M8 4v14M4 14l4 4 4-4M16 20V6M12 10l4-4 4 4" />
    </Svg>
  );
}

/** The token's logo, preloaded (shown once loaded within 2,000 ms; only http(s) and `data:image/`
 * URLs are loaded), else its initials. */
function TokenIcon({ token }: { token: SwapTokenView }) {
  return (
    <span className="wm-swap-icon">
      <WalletImage src={token.logoUri} name={token.symbol} size="sm" round />
    </span>
  );
}

/** A token button that opens a searchable list; Escape closes it and focus returns to the button. */
function TokenPicker({ label, token, tokens, onPick }: { label: string; token: SwapTokenView | null; tokens: SwapTokenView[]; onPick: (address: string) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const trigger = useRef<HTMLButtonElement>(null);
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    setQuery('');
    trigger.current?.focus();
  };
  const q = query.trim().toLowerCase();
  const shown = tokens.filter((t) => !q || t.symbol.toLowerCase().includes(q) || t.name.toLowerCase().includes(q) || t.address === q);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };
  return (
    <div className="wm-swap-picker" onKeyDown={onKeyDown}>
      <button
        ref={trigger}
        type="button"
        className="wm-swap-token"
        part="swap-token"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-label={`${label}: ${token ? token.symbol : t('choose a token')}`}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {token ? <TokenIcon token={token} /> : null}
        <span>{token ? token.symbol : t('Select')}</span>
        <ChevronDownIcon />
      </button>
      {open ? (
        <div className="wm-swap-list" id={`${id}-list`} part="swap-token-list">
          <label className="wm-field" htmlFor={`${id}-search`}>
            <span>{t('Search tokens')}</span>
            <input ref={search} id={`${id}-search`} type="search" autoComplete="off" placeholder={t('Name, symbol or address')} value={query} onChange={(e) => setQuery(e.target.value)} />
          </label>
          <ul aria-label={label}>
            {shown.map((t) => (
              <li key={t.address}>
                <button
                  type="button"
                  className="wm-swap-option"
                  aria-current={token?.address === t.address}
                  onClick={() => {
                    onPick(t.address);
                    close();
                  }}
                >
                  <TokenIcon token={t} />
                  <span className="wm-token-text">
                    <span className="wm-token-name">{t.symbol}</span>
                    <span className="wm-token-quantity">{t.name}</span>
                  </span>
                  <span className="wm-token-quantity">{t.balance ?? ''}</span>
                </button>
              </li>
            ))}
            {shown.length === 0 ? <li className="wm-note">{t('No token matches “{query}”.', { query })}</li> : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

const BUTTON: Record<SwapPart['action'], (s: SwapPart) => string> = {
  none: (s) => (s.quoting ? t('Getting a quote…') : s.amount ? t('Swap') : t('Enter an amount')),
  approve: (s) => t('Approve {symbol}', { symbol: s.from?.symbol ?? '' }).trim(),
  swap: () => t('Swap'),
  wallet: () => t('Approve in your wallet'),
  approving: (s) => t('Approving {symbol}…', { symbol: s.from?.symbol ?? '' }),
  swapping: () => t('Swapping…'),
};

/** The Swap screen: every rule (quotes, allowance, slippage, messages) is the module's. */
export default function Swap({ swap, onIntent }: { swap: SwapPart; onIntent: (i: Intent) => void }) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useLazyStyles(ref, SWAP_CSS);
  const [amount, setAmount] = useState(swap.amount);
  useEffect(() => setAmount(swap.amount), [swap.amount]);
  if (!swap.supported) {
    return (
      <div ref={ref} className="wm-swap" part="swap">
        <p className="wm-error" role="alert">
          {tr(swap.error)}
        </p>
        <p className="wm-note">{t('Switch to a network where swaps are offered to swap tokens.')}</p>
      </div>
    );
  }
  const act = swap.action === 'approve' ? 'swapApprove' : 'swapConfirm';
  const enabled = swap.action === 'approve' || swap.action === 'swap';
  return (
    <form
      ref={ref as never}
      className="wm-swap"
      part="swap"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (enabled) onIntent({ type: act });
      }}
    >
      <div className="wm-swap-side">
        <label className="wm-swap-label" htmlFor={`${id}-pay`}>
          {t('You pay')}
        </label>
        <div className="wm-swap-row">
          <input
            id={`${id}-pay`}
            className="wm-swap-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              onIntent({ type: 'swapSetAmount', amount: e.target.value });
            }}
          />
          <TokenPicker label={t('Token to pay')} token={swap.from} tokens={swap.tokens} onPick={(address) => onIntent({ type: 'swapSetFrom', address })} />
        </div>
        <div className="wm-swap-balance">
          <span>{t('Balance: {amount}', { amount: n(swap.from?.balance) || '0' })}</span>
          <button type="button" className="wm-button wm-button-secondary wm-swap-max" disabled={!swap.from?.balance} onClick={() => onIntent({ type: 'swapMax' })}>
            {t('Max')}
          </button>
        </div>
      </div>
      <button type="button" className="wm-swap-flip" part="swap-flip" aria-label={t('Switch pay and receive tokens')} onClick={() => onIntent({ type: 'swapFlip' })}>
        <FlipIcon />
      </button>
      <div className="wm-swap-side">
        <span className="wm-swap-label" id={`${id}-receive-label`}>
          {t('You receive')}
        </span>
        <div className="wm-swap-row">
          <output className="wm-swap-amount" part="swap-receive" aria-labelledby={`${id}-receive-label`} aria-busy={swap.quoting}>
            {swap.receive ? n(swap.receive) : (swap.quoting ? <span className="wm-skeleton" aria-label={t('Getting a quote')} /> : '0')}
          </output>
          <TokenPicker label={t('Token to receive')} token={swap.to} tokens={swap.tokens} onPick={(address) => onIntent({ type: 'swapSetTo', address })} />
        </div>
        <div className="wm-swap-balance">
          <span>{t('Balance: {amount}', { amount: n(swap.to?.balance) || '0' })}</span>
        </div>
      </div>
      {swap.receive ? (
        <dl className="wm-send-preview" part="swap-details">
          <dt>{t('Rate')}</dt>
          <dd>{n(swap.rate)}</dd>
          <dt>{t('Price impact')}</dt>
          <dd>{swap.priceImpact ?? '—'}</dd>
          <dt>{t('Network fee')}</dt>
          <dd>{swap.fee ? n(swap.fee) : (swap.feeError ? <span className="wm-error">{tr(swap.feeError)}</span> : '—')}</dd>
          <dt>{t('Slippage')}</dt>
          <dd>{swap.slippage}</dd>
          <dt>{t('Minimum received')}</dt>
          <dd>{n(swap.minimumReceived)}</dd>
        </dl>
      ) : null}
      {swap.tokensFailed ? (
        <p className="wm-error" role="alert">
          {t('The tokens to swap could not be loaded.')}
        </p>
      ) : null}
      {swap.error ? (
        <p className="wm-error" role="alert" part="swap-error">
          {tr(swap.error)}
        </p>
      ) : null}
      {swap.done ? (
        <p className="wm-sent" role="status" part="swap-done">
          {t('Swapped. Your balances are updated.')}
        </p>
      ) : null}
      <button type="submit" className="wm-button wm-button-primary" part="swap-submit" disabled={!enabled}>
        {BUTTON[swap.action](swap)}
      </button>
    </form>
  );
}
