/**
 * The chain families the shell can find wallets of: one file per family (its discovery protocol
 * and its provider), one line in this list. A family without a file here has no wallets to find
 * yet (the core knows its networks; `getProvider()` answers `undefined` for it).
 */
import type { Eip1193Provider } from '../provider';
import { eip155 } from './eip155';
import { solana } from './solana';

export interface Announcement {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface WalletFamily {
  /** Its CAIP-2 namespace (the core's family of the same name). */
  namespace: string;
  /** Listens for the family's wallets announcing themselves; returns a stop function. */
  discoverWallets(onWallet: (info: Announcement, provider: Eip1193Provider) => void, onBad?: (info: Announcement) => void): () => void;
  /** The family's one global provider of old (`window.ethereum`), if the page has one. */
  legacyProvider(): Eip1193Provider | null;
  /** What `getProvider()` gives the host for a wallet of the family, when it is not the wallet's
   * request interface itself (a wallet-standard wallet object). */
  hostProvider?(provider: Eip1193Provider): unknown;
}

export const FAMILIES: readonly WalletFamily[] = [eip155, solana];
