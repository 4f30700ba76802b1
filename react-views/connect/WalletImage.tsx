import { createContext, useContext, useEffect, useState } from 'react';

/** Milliseconds an image may take to load before the placeholder is kept (snapshot.imagePreloadTimeoutMs). */
export const ImageTimeoutContext = createContext<number>(2000);

/** Only `data:image/` URIs and http(s) URLs are ever loaded; anything else keeps the placeholder. */
export function isAllowedImageUrl(src: string | null | undefined): src is string {
  if (!src) return false;
  return /^data:image\//i.test(src) || /^https?:\/\//i.test(src);
}

const TINTS = 6;

function tintFor(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return h % TINTS;
}

function initialsFor(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const chars = words.length === 1 ? Array.from(words[0]).slice(0, 2) : [Array.from(words[0])[0], Array.from(words[1])[0]];
  return chars.join('').toUpperCase();
}

type LoadState = 'placeholder' | 'loaded';

/**
 * Preloads `src` with `new Image()`; shows it only once it has loaded within the timeout.
 * On error, timeout or a disallowed URL the placeholder (initials on a tinted square) stays.
 */
export function WalletImage({
  src,
  name,
  size = 'md',
  round = false,
}: {
  src: string | null | undefined;
  name: string;
  size?: 'sm' | 'md' | 'lg';
  round?: boolean;
}) {
  const timeoutMs = useContext(ImageTimeoutContext);
  const [state, setState] = useState<{ src: string | null | undefined; value: LoadState }>({ src, value: 'placeholder' });
  const current: LoadState = state.src === src ? state.value : 'placeholder';

  useEffect(() => {
    setState({ src, value: 'placeholder' });
    if (!isAllowedImageUrl(src)) return;
    let settled = false;
    const img = new Image();
    img.decoding = 'async';
    const timer = setTimeout(() => {
      settled = true;
    }, Math.max(0, timeoutMs));
    img.onload = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      setState({ src, value: 'loaded' });
    };
    img.onerror = () => {
      settled = true;
      clearTimeout(timer);
    };
    img.src = src;
    return () => {
      settled = true;
      clearTimeout(timer);
      img.onload = null;
      img.onerror = null;
    };
  }, [src, timeoutMs]);

  const cls = `wm-image wm-image-${size}${round ? ' wm-image-round' : ''}`;
  if (current === 'loaded' && isAllowedImageUrl(src)) {
    return (
      <span className={cls} data-image-state="loaded">
        <img src={src} alt="" draggable={false} />
      </span>
    );
  }
  return (
    <span className={`${cls} wm-image-placeholder wm-tint-${tintFor(name)}`} data-image-state="placeholder" aria-hidden="true">
      {initialsFor(name)}
    </span>
  );
}
