import { lazy, Suspense, useLayoutEffect, useRef, type ReactNode } from 'react';
import { n, t, tr } from '../shell/i18n';
import { useCopied } from '../shell/useCopied';
import { useDynamicStyle } from '../shell/dynamic-styles';
import type { ViewProps } from '../shell/types';
import { NetworkImage } from '../network/NetworkImage';
import { ChevronRightIcon, Spinner } from '../shell/icons';
import { CheckIcon, CopyIcon, DisconnectIcon, ExternalLinkIcon, NetworkIcon, WalletsIcon } from '../shell/view-icons';
import { useAccountStyles } from './styles';
import { Portfolio } from './Portfolio';
import { Receive } from './Receive';
import { Send } from './Send';

/** The Swap screen is its own chunk: nothing of it loads before the visitor presses Swap. */
const Swap = lazy(() => import('../swap/Swap'));
/** The Buy screen too: its own chunk, loaded when the visitor presses Buy. */
const Buy = lazy(() => import('../buy/Buy'));

/** The Account view's buttons, by wallet feature (walletFeaturesOrder comes from the core): each
 * goes to its view (the account module's slices). */
const FEATURE_BUTTONS = {
  onramp: { part: 'buy-button', view: 'OnRampProviders', label: 'Buy' }, // i18n
  swaps: { part: 'swap-button', view: 'Swap', label: 'Swap' }, // i18n
  receive: { part: 'receive-button', view: 'WalletReceive', label: 'Receive' }, // i18n
  send: { part: 'send-button', view: 'WalletSend', label: 'Send' }, // i18n
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

  // The account module is still loading (the Account view loads it): a spinner, not an empty view.
  if (account === undefined)
    return (
      <div ref={ref} className="wm-view wm-account wm-suspense">
        <Spinner label={t('Loading account')} />
      </div>
    );
  if (!account) return <div ref={ref} className="wm-view wm-account" />;
  const network = snapshot.network;
  // The account module's parts, once it loaded (the Account view loads it).
  const loaded = snapshot.tokens !== undefined;

  return (
    <div ref={ref} className="wm-view wm-account" part="account">
      <div className="wm-account-id">
        <Avatar colors={account.avatar} />
        {snapshot.accountName ? (
          <span part="account-name" className="wm-account-name">
            {snapshot.accountName}
          </span>
        ) : null}
        <div className="wm-address-line">
          <span part="address" className="wm-address" dir="ltr" title={account.address}>
            {account.shortAddress}
          </span>
          <button
            type="button"
            className="wm-icon-button wm-copy"
            aria-label={copied ? t('Address copied') : t('Copy address')}
            onClick={() => {
              onIntent({ type: 'copyAddress' });
              markCopied();
            }}
          >
            {copied ? <CheckIcon /> : <CopyIcon />}
          </button>
        </div>
        <span className="wm-copied" role="status" aria-live="polite">
          {copied ? t('Copied') : ''}
        </span>
        {account.connectorId === 'embedded' && snapshot.embeddedUser ? (
          <span className="wm-embedded-user" part="embedded-user">
            {snapshot.embeddedUser.email ?? snapshot.embeddedUser.userName ?? ''}
            {snapshot.embeddedUser.email ? (
              <button type="button" className="wm-link wm-edit-email" onClick={() => onIntent({ type: 'openUpdateEmail' })}>
                {t('Edit email')}
              </button>
            ) : null}
          </span>
        ) : null}
        {account.balanceNote ? (
          <span part="balance-note" className="wm-note">
            {tr(account.balanceNote)}
          </span>
        ) : account.balance === null ? (
          <span part="balance" className="wm-balance wm-skeleton" role="status" aria-busy="true" aria-label={t('Loading balance')} />
        ) : (
          <span part="balance" className="wm-balance" dir="ltr">
            {n(account.balance)} {account.balanceSymbol}
          </span>
        )}
        {snapshot.tokens?.totalUsd ? (
          <span part="portfolio-total" className="wm-portfolio-total">
            {n(snapshot.tokens.totalUsd)}
          </span>
        ) : null}
        {isHttpUrl(account.explorerUrl) ? (
          <a className="wm-link" href={account.explorerUrl} target="_blank" rel="noopener noreferrer">
            <span>{t('Block Explorer')}</span>
            <ExternalLinkIcon />
          </a>
        ) : null}
      </div>
      {snapshot.sent ? (
        <p className="wm-sent" role="status" part="sent">
          {t('Transaction sent.')}{' '}
          {snapshot.sent.explorerUrl && isHttpUrl(snapshot.sent.explorerUrl) ? (
            <a className="wm-link" href={snapshot.sent.explorerUrl} target="_blank" rel="noopener noreferrer">
              {t('View on the explorer')}
            </a>
          ) : null}
        </p>
      ) : null}
      {loaded ? (
        <div className="wm-account-buttons">
          {(snapshot.walletFeatures ?? ['receive', 'send']).map((f) => {
            const off = (f === 'send' && !account.canSend) || (account.restricted && (f === 'swaps' || f === 'onramp'));
            const b = off ? null : FEATURE_BUTTONS[f];
            return b ? (
              <button key={f} type="button" part={b.part} className="wm-button wm-button-secondary" onClick={() => onIntent({ type: 'navigate', view: b.view })}>
                {t(b.label)}
              </button>
            ) : null;
          })}
        </div>
      ) : null}
      {loaded && account.restricted && snapshot.walletFeatures?.some((f) => f === 'swaps' || f === 'onramp') ? (
        <p part="region-note" className="wm-note">
          {t('Swap and Buy are not available in your region')}
        </p>
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
            <span className="wm-row-name">{network ? network.name : t('Network')}</span>
          </span>
          <ChevronRightIcon className="wm-row-end" />
        </button>
        {snapshot.profileWallets?.enabled ? (
          <button
            type="button"
            part="wallets-button"
            className="wm-row"
            onClick={() => onIntent({ type: 'navigate', view: 'ProfileWallets' })}
          >
            <span className="wm-image wm-image-sm wm-image-icon" aria-hidden="true">
              <WalletsIcon />
            </span>
            <span className="wm-row-text">
              <span className="wm-row-name">{t('Wallets')}</span>
              <span className="wm-row-sub">{t('{count} connected', { count: snapshot.profileWallets.wallets.length })}</span>
            </span>
            <ChevronRightIcon className="wm-row-end" />
          </button>
        ) : null}
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
            <span className="wm-row-name">{t('Disconnect')}</span>
          </span>
        </button>
      </div>
      {snapshot.tokens && snapshot.tab ? (
        <Portfolio part={{ tokens: snapshot.tokens, tabs: snapshot.tabs ?? ['tokens', 'nfts', 'activity'], tab: snapshot.tab, nfts: snapshot.nfts ?? null, activity: snapshot.activity ?? null }} onIntent={onIntent} />
      ) : null}
    </div>
  );
}

/** One of the Account view's screens (its own view), in the Account view's frame and styles;
 * "Loading…" until its module's part is here. */
function Screen({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useAccountStyles(ref);
  return (
    <div ref={ref} className="wm-view wm-account" part="account">
      <Suspense fallback={<Loading />}>{children ?? <Loading />}</Suspense>
    </div>
  );
}

function Loading() {
  return (
    <p className="wm-note" role="status">
      {t('Loading…')}
    </p>
  );
}

/** WalletSend and WalletSendPreview: the Send form and its preview. */
export function WalletSend({ snapshot, onIntent }: ViewProps) {
  const from = snapshot.account?.address ?? '';
  return <Screen>{snapshot.send ? <Send send={snapshot.send} from={from} onIntent={onIntent} /> : null}</Screen>;
}

/** WalletReceive: the address as a QR code. */
export function WalletReceive({ snapshot, onIntent }: ViewProps) {
  return <Screen>{snapshot.receive ? <Receive receive={snapshot.receive} onIntent={onIntent} /> : null}</Screen>;
}

/** Swap (its chunk loads with the view). */
export function SwapView({ snapshot, onIntent }: ViewProps) {
  return <Screen>{snapshot.swap ? <Swap swap={snapshot.swap} onIntent={onIntent} /> : null}</Screen>;
}

/** OnRampProviders: Buy (its chunk loads with the view). */
export function BuyView({ snapshot, onIntent }: ViewProps) {
  return <Screen>{snapshot.buy ? <Buy buy={snapshot.buy} onIntent={onIntent} /> : null}</Screen>;
}

export default Account;

// Multi-wallet's view, in this chunk (it is reached from Account).
export { ProfileWallets } from './ProfileWallets';
