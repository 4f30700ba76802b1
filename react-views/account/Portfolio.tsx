import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { n, t, tr } from '../shell/i18n';
import { WalletImage } from '../connect/WalletImage';
import type { ActivityPart, ActivityRowView, AccountParts, Intent, NftsPart, TokenRowView, TokensPart } from '../shell/types';

const TABS = [
  ['tokens', 'Tokens'], // i18n
  ['nfts', 'NFTs'], // i18n
  ['activity', 'Activity'], // i18n
] as const;
type Tab = (typeof TABS)[number][0];

const TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

function isImageUrl(url: string | null): url is string {
  return !!url && /^(https?:\/\/|data:image\/)/i.test(url);
}

/** A token's (or a row's) icon (`/public/getTokenImage/{id}` and the like): preloaded, shown once
 * loaded within the preload timeout (2,000 ms), else its initials; WalletImage loads only
 * http(s) and `data:image/` URLs. */
function Icon({ src, name }: { src: string | null; name: string }) {
  return (
    <span className="wm-token-icon">
      <WalletImage src={src} name={name} size="md" round />
    </span>
  );
}

function TokenIcon({ token }: { token: TokenRowView }) {
  return <Icon src={token.iconUrl} name={token.symbol} />;
}

function Tokens({ part, onIntent }: { part: TokensPart; onIntent: (i: Intent) => void }) {
  if (part.unavailable) return <p className="wm-note">{tr(part.unavailable)}</p>;
  if (part.error) {
    return (
      <div className="wm-portfolio-error" role="alert">
        <p className="wm-error">{tr(part.error.message)}</p>
        <button type="button" className="wm-button wm-button-secondary" onClick={() => onIntent({ type: 'refreshTokens' })}>
          {t('Try again')}
        </button>
      </div>
    );
  }
  if (part.loading) {
    return (
      <ul className="wm-token-list" aria-busy="true" aria-label={t('Loading tokens')}>
        {[0, 1, 2].map((i) => (
          <li key={i} className="wm-token-row">
            <span className="wm-token-icon wm-skeleton" />
            <span className="wm-skeleton" />
          </li>
        ))}
      </ul>
    );
  }
  if (part.tokens.length === 0) return <p className="wm-note">{t('No tokens on this network yet.')}</p>;
  return (
    <ul className="wm-token-list" part="tokens">
      {part.tokens.map((tk) => (
        <li key={tk.address ?? tk.symbol} className="wm-token-row" part="token">
          <TokenIcon token={tk} />
          <span className="wm-token-text">
            <span className="wm-token-name">{tk.name}</span>
            <span className="wm-token-quantity" dir="ltr">
              {n(tk.quantity)} {tk.symbol}
            </span>
          </span>
          <span className="wm-token-value">{tk.value ? n(tk.value) : '—'}</span>
        </li>
      ))}
    </ul>
  );
}

function ActivityRow({ row }: { row: ActivityRowView }) {
  const negative = row.amount?.startsWith('-');
  return (
    <li className="wm-activity-row" part="activity-row">
      <Icon src={row.iconUrl} name={row.title} />
      <span className="wm-activity-text">
        <span className="wm-activity-title">{tr(row.title)}</span>
        <span className="wm-activity-meta">
          {row.swap ?? (row.counterparty ? (row.title === 'Received' ? t('From {address}', { address: row.counterparty }) : t('To {address}', { address: row.counterparty })) : null)}
          {(row.swap || row.counterparty) && row.minedAt !== null ? ' · ' : null}
          {row.minedAt !== null ? <time dateTime={new Date(row.minedAt).toISOString()}>{TIME.format(row.minedAt)}</time> : null}
        </span>
      </span>
      {row.amount ? (
        <span className={negative ? 'wm-activity-amount' : 'wm-activity-amount wm-in'} dir="ltr" title={row.amount}>
          {n(row.amount)}
        </span>
      ) : null}
    </li>
  );
}

/** Infinite scroll: `more` when the returned element comes into view. */
function useLoadMore(hasMore: boolean, loading: boolean, more: () => void) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = end.current;
    if (!el || !hasMore || loading || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, loading, more]);
  return end;
}

function Nfts({ part, onIntent }: { part: NftsPart; onIntent: (i: Intent) => void }) {
  const { hasMore, loading } = part;
  const more = useCallback(() => onIntent({ type: 'loadMoreNfts' }), [onIntent]);
  const end = useLoadMore(hasMore, loading, more);
  if (part.error) {
    return (
      <p className="wm-error" role="alert">
        {tr(part.error)}
      </p>
    );
  }
  if (part.empty) return <p className="wm-note">{t('No NFTs on this network yet. Collectibles this account holds show here.')}</p>;
  return (
    <div className="wm-nfts">
      <ul className="wm-nft-grid" part="nfts" aria-busy={loading}>
        {part.items.map((n) => (
          <li key={n.id} className="wm-nft" part="nft">
            {isImageUrl(n.imageUrl) ? (
              <img className="wm-nft-image" src={n.imageUrl} alt="" width={120} height={120} loading="lazy" />
            ) : (
              <span className="wm-nft-image wm-token-initials" aria-hidden="true">
                NFT
              </span>
            )}
            <span className="wm-nft-name" title={n.name}>
              {n.name}
            </span>
          </li>
        ))}
        {loading
          ? [0, 1].map((i) => (
              <li key={`s${i}`} className="wm-nft" aria-label={t('Loading NFTs')}>
                <span className="wm-nft-image wm-skeleton" />
              </li>
            ))
          : null}
      </ul>
      {hasMore && !loading ? (
        <div ref={end} className="wm-activity-end">
          <button type="button" className="wm-button wm-button-secondary" onClick={more}>
            {t('Load more')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

function Activity({ part, onIntent }: { part: ActivityPart; onIntent: (i: Intent) => void }) {
  const { hasMore, loading } = part;
  const more = useCallback(() => onIntent({ type: 'loadMoreActivity' }), [onIntent]);
  const end = useLoadMore(hasMore, loading, more);

  if (part.error) {
    return (
      <p className="wm-error" role="alert">
        {tr(part.error.message)}
      </p>
    );
  }
  if (part.unavailable) return <p className="wm-note">{tr(part.unavailable)}</p>;
  if (part.empty) return <p className="wm-note">{t('No activity yet.')}</p>;
  return (
    <div className="wm-activity" part="activity">
      {part.groups.map((g) => (
        <section key={g.label} aria-label={tr(g.label)}>
          <h3 className="wm-activity-month">{tr(g.label)}</h3>
          <ul className="wm-activity-list">
            {g.items.map((row) => (
              <ActivityRow key={row.id} row={row} />
            ))}
          </ul>
        </section>
      ))}
      {loading ? (
        <ul className="wm-activity-list" aria-busy="true" aria-label={t('Loading activity')}>
          {[0, 1, 2].map((i) => (
            <li key={i} className="wm-activity-row">
              <span className="wm-skeleton" />
            </li>
          ))}
        </ul>
      ) : null}
      {hasMore && !loading ? (
        <div ref={end} className="wm-activity-end">
          <button type="button" className="wm-button wm-button-secondary" onClick={more}>
            {t('Load more')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The Account view's tabs (a real tablist: arrow keys, Home and End move between tabs). */
export function Portfolio({ part, onIntent }: { part: Pick<AccountParts, 'tokens' | 'tabs' | 'tab' | 'nfts' | 'activity'>; onIntent: (i: Intent) => void }) {
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  // The tabs the project has (Activity follows its feature).
  const shown = TABS.filter(([id]) => part.tabs.includes(id));
  const current = shown.findIndex(([id]) => id === part.tab);
  const select = (i: number) => {
    const [id] = shown[(i + shown.length) % shown.length];
    onIntent({ type: 'selectAccountTab', tab: id as Tab });
    tabs.current[(i + shown.length) % shown.length]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: shown.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      select(moves[e.key]);
    }
  };
  return (
    <div className="wm-portfolio">
      <div role="tablist" aria-label={t('Portfolio')} className="wm-tabs" onKeyDown={onKeyDown}>
        {shown.map(([id, label], i) => (
          <button
            key={id}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`wm-tab-${id}`}
            aria-selected={part.tab === id}
            aria-controls={`wm-panel-${id}`}
            tabIndex={part.tab === id ? 0 : -1}
            className="wm-tab"
            onClick={() => select(i)}
          >
            {t(label)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`wm-panel-${part.tab}`} aria-labelledby={`wm-tab-${part.tab}`} className="wm-tabpanel">
        {part.tab === 'activity' && part.activity ? (
          <Activity part={part.activity} onIntent={onIntent} />
        ) : part.tab === 'nfts' && part.nfts ? (
          <Nfts part={part.nfts} onIntent={onIntent} />
        ) : (
          <Tokens part={part.tokens} onIntent={onIntent} />
        )}
      </div>
    </div>
  );
}
