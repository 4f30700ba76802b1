/**
 * The families loaded when the host configures one of their networks (families/index.ts): one
 * line each. Their rules (core/src/chain/<namespace>/) come with them (`rules.ts`).
 */
import type { WalletFamily } from './index';
import { bip122 } from './bip122';
import { cosmos } from './cosmos';
import { polkadot } from './polkadot';

export const MORE: readonly WalletFamily[] = [bip122, polkadot, cosmos];
