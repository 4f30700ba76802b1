import { lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { useCopied } from '../shell/useCopied';
import { useDynamicStyle } from '../shell/dynamic-styles';
import type { ViewProps } from '../shell/types';
import { NetworkImage } from '../network/NetworkImage';
import { ChevronRightIcon } from '../shell/icons';
import { CheckIcon, CopyIcon, DisconnectIcon, ExternalLinkIcon, NetworkIcon } from '../shell/view-icons';
import { useAccountStyles } from './styles';
import { Portfolio } from './Portfolio';
import { Receive } from './Receive';
import { Send } from './Send';

/** The Swap screen is its own chunk: nothing of it loads before the visitor presses Swap. */
const Swap = lazy(() => import('../swap/Swap'));
/** The Buy screen too: its own chunk, loaded when the visitor presses Buy. */
const Buy = lazy(() => import('../buy/Buy'));

/** The Account view's buttons, by wallet feature (walletFeaturesOrder comes from the core). */
const FEATURE_BUTTONS = {
  onramp: { label: 'Buy', part: 'buy-button', intent: 'openBuy' },
  swaps: { label: 'Swap', part: 'swap-button', intent: 'openSwap' },
  receive: { label: 'Receive', part: 'receive-button', intent: 'openReceive' },
  send: { label: 'Send', part: 'send-button', intent: 'openSend' },
} as const;

/**
 * A circle filled with a gradient of the five address colours. The colours can't be known in
 * advance, so they are written as custom properties into the element's dynamic CSSOM rule
 * (see dynamic-styles.ts) — no style attribute, so a strict CSP is satisfied.
 */
export function Avatar({ colors, className }: { colors: string[]; className?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const { token, set } = useDynamicStyle(ref);
  const key = colors.join('|');
  useLayoutEffect(() => {
    for (let i = 0; i < 5; i++) {
      const c = colors[i];
      const valid = typeof c === 'string' && (typeof CSS === 'undefined' || CSS.supports('color', c));
      set(`--wm-avatar-${i + 1}`, valid ? c : null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, set]);
  return (
    <span
      ref={ref}
      part="avatar"
      className={className ? `wm-avatar ${className}` : 'wm-avatar'}
      data-wm-dyn={token}
      aria-hidden="true"
    />
  );
}

function isHttpUrl(url: string | null): url is string {
  return !!url && /^https?:\/\//i.test(url);
}

export function Account({ snapshot, onIntent }: ViewProps) {
  const account = snapshot.account;
  const [copied, markCopied] = useCopied();
  const ref = useRef<HTMLDivElement>(null);
  useAccountStyles(ref);

  if (!account) return <div ref={ref} className="wm-view wm-account" />;
  const network = snapshot.network;
  const part = snapshot.portfolio;
  if (part?.screen === 'send' && part.send) {
    return (
      <div ref={ref} className="wm-view wm-account" part="account">
        <Send send={part.send} from={account.address} onIntent={onIntent} />
      </div>
    );
  }
  const trade = snapshot.trade;
  if (trade?.screen === 'swap' && trade.swap) {
    return (
      <div ref={ref} className="wm-view wm-account" part="account">
        <Suspense fallback={<p className="wm-note" role="status">Loading…</p>}>
          <Swap swap={trade.swap} onIntent={onIntent} />
        </Suspense>
      </div>
    );
  }
  if (trade?.screen === 'buy' && trade.buy) {
    return (
      <div ref={ref} className="wm-view wm-account" part="account">
        <Suspense fallback={<p className="wm-note" role="status">Loading…</p>}>
          <Buy buy={trade.buy} onIntent={onIntent} />
        </Suspense>
      </div>
    );
  }
  if (part?.screen === 'receive' && part.receive) {
    return (
      <div ref={ref} className="wm-view wm-account" part="account">
        <Receive receive={part.receive} onIntent={onIntent} />
      </div>
    );
  }

  return (
    <div ref={ref} className="wm-view wm-account" part="account">
      <div className="wm-account-id">
        <Avatar colors={account.avatar} />
        {part?.name ? (
          <span part="account-name" className="wm-account-name">
            {part.name}
          </span>
        ) : null}
        <div className="wm-address-line">
          <span part="address" className="wm-address" title={account.address}>
            {account.shortAddress}
          </span>
          <button
            type="button"
            className="wm-icon-button wm-copy"
            aria-label={copied ? 'Address copied' : 'Copy address'}
            onClick={() => {
              onIntent({ type: 'copyAddress' });
              markCopied();
            }}
          >
            {copied ? <CheckIcon /> : <CopyIcon />}
          </button>
        </div>
        <span className="wm-copied" role="status" aria-live="polite">
          {copied ? 'Copied' : ''}
        </span>
        {account.connectorId === 'embedded' && snapshot.embeddedWallet?.user ? (
          <span className="wm-embedded-user" part="embedded-user">
            {snapshot.embeddedWallet.user.email ?? snapshot.embeddedWallet.user.userName ?? ''}
            {snapshot.embeddedWallet.user.email ? (
              <button type="button" className="wm-link wm-edit-email" onClick={() => onIntent({ type: 'openUpdateEmail' })}>
                Edit email
              </button>
            ) : null}
          </span>
        ) : null}
        {account.balance === null ? (
          <span part="balance" className="wm-balance wm-skeleton" role="status" aria-busy="true" aria-label="Loading balance" />
        ) : (
          <span part="balance" className="wm-balance">
            {account.balance} {account.balanceSymbol}
          </span>
        )}
        {snapshot.portfolio?.tokens.totalUsd ? (
          <span part="portfolio-total" className="wm-portfolio-total">
            {snapshot.portfolio.tokens.totalUsd}
          </span>
        ) : null}
        {isHttpUrl(account.explorerUrl) ? (
          <a className="wm-link" href={account.explorerUrl} target="_blank" rel="noopener noreferrer">
            <span>Block Explorer</span>
            <ExternalLinkIcon />
          </a>
        ) : null}
      </div>
      {part?.sent ? (
        <p className="wm-sent" role="status" part="sent">
          Transaction sent.{' '}
          {part.sent.explorerUrl && isHttpUrl(part.sent.explorerUrl) ? (
            <a className="wm-link" href={part.sent.explorerUrl} target="_blank" rel="noopener noreferrer">
              View on the explorer
            </a>
          ) : null}
        </p>
      ) : null}
      {part ? (
        <div className="wm-account-buttons">
          {(snapshot.walletFeatures ?? ['receive', 'send']).map((f) => {
            const b = FEATURE_BUTTONS[f];
            return b ? (
              <button key={f} type="button" part={b.part} className="wm-button wm-button-secondary" onClick={() => onIntent({ type: b.intent })}>
                {b.label}
              </button>
            ) : null;
          })}
        </div>
      ) : null}
      <div className="wm-account-actions">
        <button
          type="button"
          part="network-button"
          className="wm-row wm-network-button"
          onClick={() => onIntent({ type: 'navigate', view: 'SwitchNetwork' })}
        >
          {network ? (
            <NetworkImage network={network} />
          ) : (
            <span className="wm-image wm-image-sm wm-image-icon" aria-hidden="true">
              <NetworkIcon />
            </span>
          )}
          <span className="wm-row-text">
            <span className="wm-row-name">{network ? network.name : 'Network'}</span>
          </span>
          <ChevronRightIcon className="wm-row-end" />
        </button>
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
            <span className="wm-row-name">Disconnect</span>
          </span>
        </button>
      </div>
      {snapshot.portfolio ? <Portfolio part={snapshot.portfolio} onIntent={onIntent} /> : null}
    </div>
  );
}

export default Account;
