import { useEffect, useRef, useState } from 'react';
import { t, tr } from '../shell/i18n';
import type { ViewProps } from '../shell/types';
import { WalletGrid } from './WalletGrid';
import { ErrorMessage } from '../shell/ErrorMessage';
import { Spinner } from '../shell/icons';
import { SearchIcon } from '../shell/view-icons';
import { useConnectStyles } from './styles';

/**
 * Catalogue listing. Every keystroke is sent as `searchWallets` (the engine debounces); the
 * sentinel at the end of the grid asks for the next page when it scrolls into view.
 */
export function AllWallets({ snapshot, onIntent }: ViewProps) {
  const { items, loading, hasMore, error, query } = snapshot.allWallets;
  const [text, setText] = useState(query);
  const viewRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const requestedAt = useRef<number | null>(null);
  const onIntentRef = useRef(onIntent);
  onIntentRef.current = onIntent;
  useConnectStyles(viewRef);

  // A fresh observer whenever the list or its state changes: its first callback reports whether
  // the sentinel is visible right now, so a short page that doesn't fill the view keeps loading.
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !hasMore || loading || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        if (requestedAt.current === items.length) return; // already asked for this page
        requestedAt.current = items.length;
        onIntentRef.current({ type: 'loadMoreWallets' });
      },
      { root: scrollRef.current, rootMargin: '0px 0px 120px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [items.length, hasMore, loading]);

  // A new query starts a new list.
  useEffect(() => {
    requestedAt.current = null;
  }, [query]);

  const empty = items.length === 0 && !loading && !error;

  return (
    <div ref={viewRef} className="wm-view wm-all-wallets-view">
      <label className="wm-search">
        <SearchIcon className="wm-search-icon" />
        <span className="wm-visually-hidden">{t('Search wallet')}</span>
        <input
          part="search"
          type="search"
          className="wm-search-input"
          placeholder={t('Search wallet')}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            onIntent({ type: 'searchWallets', query: e.currentTarget.value });
          }}
        />
      </label>
      <div className="wm-scroll" ref={scrollRef} aria-busy={loading ? 'true' : undefined}>
        {items.length > 0 ? <WalletGrid items={items} onIntent={onIntent} label={t('All wallets')} /> : null}
        {empty ? (
          <p className="wm-empty" role="status">
            {t('No wallet found')}
          </p>
        ) : null}
        {loading ? <Spinner className="wm-list-spinner" label={t('Loading wallets')} /> : null}
        <ErrorMessage error={error} />
        {error && hasMore && !loading ? (
          <button
            type="button"
            className="wm-button wm-button-secondary wm-retry"
            onClick={() => {
              requestedAt.current = items.length;
              onIntent({ type: 'loadMoreWallets' });
            }}
          >
            {t('Try again')}
          </button>
        ) : null}
        <div ref={sentinelRef} className="wm-sentinel" aria-hidden="true" />
      </div>
    </div>
  );
}

export default AllWallets;
