/**
 * The `eip155` family (EVM) in the shell: finding injected wallets — EIP-6963 announcements and the
 * legacy `window.ethereum`. Everything a page script announces is hostile: only well-formed
 * announcements with a callable `request` are kept, the first per uuid and per rdns, and the engine
 * validates the info again. (Its WalletConnect side is `eip155.walletconnect.ts`, in the
 * WalletConnect chunk.)
 */
import { isProvider, readField, type Eip1193Provider } from '../provider';
import type { Announcement, WalletFamily } from './index';

/** The family's CAIP-2 namespace. */
export const NAMESPACE = 'eip155';

const str = (v: unknown, max = 4096): string => (typeof v === 'string' ? v.slice(0, max) : '');

/** The fields of an announcement, each read once; null when it is not even an object. */
function readAnnouncement(event: Event): { info: Announcement; provider: unknown } | null {
  const detail = readField(event, 'detail');
  const info = readField(detail, 'info');
  if (typeof info !== 'object' || info === null) return null;
  return {
    info: {
      uuid: str(readField(info, 'uuid'), 256),
      name: str(readField(info, 'name'), 256),
      // A data URI image; the engine keeps only safe ones.
      icon: str(readField(info, 'icon'), 200_000),
      rdns: str(readField(info, 'rdns'), 256),
    },
    provider: readField(detail, 'provider'),
  };
}

/**
 * Listens for announcements and asks wallets to announce. Returns a stop function.
 * `onWallet` gets each new wallet once, keyed by its rdns (the engine's connector id); `onBad`
 * gets an announcement that could not be read or has no usable provider (the engine alerts it in
 * debug mode). Nothing a page script announces can throw into the host page from here.
 */
export function discoverWallets(
  onWallet: (info: Announcement, provider: Eip1193Provider) => void,
  onBad: (info: Announcement) => void = () => {},
): () => void {
  const seen = new Set<string>();
  const listener = (event: Event) => {
    const read = readAnnouncement(event);
    if (!read) return onBad({ uuid: '', name: '', icon: '', rdns: '' });
    const { info, provider } = read;
    // (`global.safe` is a Safe app's own Safe, found only by families/eip155.safe.ts.)
    if (!info.uuid || !info.rdns || info.rdns === 'global.safe' || !isProvider(provider)) return onBad(info);
    if (seen.has(`u:${info.uuid}`) || seen.has(`r:${info.rdns}`)) return;
    seen.add(`u:${info.uuid}`);
    seen.add(`r:${info.rdns}`);
    onWallet(info, provider);
  };
  window.addEventListener('eip6963:announceProvider', listener);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  return () => window.removeEventListener('eip6963:announceProvider', listener);
}

/** The legacy injected provider, if any. */
export function legacyProvider(): Eip1193Provider | null {
  const eth = readField(window, 'ethereum');
  return isProvider(eth) ? eth : null;
}

/** The family as the element uses it (see `families/index.ts`). */
export const eip155: WalletFamily = { namespace: NAMESPACE, discoverWallets, legacyProvider };
