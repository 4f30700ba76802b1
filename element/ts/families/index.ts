/**
 * The chain families the shell can find wallets of: one file per family (its discovery protocol
 * and its provider), one line in one of these lists. A family without a file here has no wallets to find
 * yet (the core knows its networks; `getProvider()` answers `undefined` for it).
 */
import type { Eip1193Provider } from '../provider';
import { eip155 } from './eip155';
import { solana } from './solana';

/** What a family reads of the engine's state: the host's networks and the active one. */
export interface NetworksState {
  networks: { caipNetworkId: string; namespace: string }[];
  network: { caipNetworkId: string } | null;
}

export interface Announcement {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface WalletFamily {
  /** Its CAIP-2 namespace (the core's family of the same name). */
  namespace: string;
  /** Listens for the family's wallets announcing themselves; returns a stop function. `state`
   * gives the engine's networks and the active one (for wallets that have no current chain). */
  discoverWallets(onWallet: (info: Announcement, provider: Eip1193Provider) => void, onBad?: (info: Announcement) => void, state?: () => NetworksState | null): () => void;
  /** The family's one global provider of old (`window.ethereum`), if the page has one. */
  legacyProvider?(): Eip1193Provider | null;
  /** What `getProvider()` gives the host for a wallet of the family, when it is not the wallet's
   * request interface itself (a wallet-standard wallet object). */
  hostProvider?(provider: Eip1193Provider): unknown;
}

export const FAMILIES: readonly WalletFamily[] = [eip155, solana];

/**
 * The families whose code loads only when the host configures a network of a family not in
 * `FAMILIES` (outside the initial load: their wallets are listed as they are found, as any wallet
 * announcing itself): `more.ts` lists them.
 */
export const loadMoreFamilies = (): Promise<readonly WalletFamily[]> => import('./more').then((m) => m.MORE);
