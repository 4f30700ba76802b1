/**
 * The rules of the families loaded lazily (Bitcoin, Polkadot, Cosmos; and a Safe app's Safe),
 * compiled from their folders of core/src/chain/ (element/families): what a wallet answers is checked and written for
 * the network here, before the engine hears of it. Loaded once, with the first of these families.
 */
import initWasm, { accountsOn, bitcoinNetworkName, chainOf, safeAccount, safeAncestorAllowed } from '../../pkg/families/wallet_modal_families.js';

export interface FamilyRules {
  accountsOn: typeof accountsOn;
  chainOf: typeof chainOf;
  bitcoinNetworkName: typeof bitcoinNetworkName;
  safeAncestorAllowed: typeof safeAncestorAllowed;
  safeAccount: typeof safeAccount;
}

let loading: Promise<FamilyRules> | null = null;

export function loadRules(): Promise<FamilyRules> {
  // A literal URL: the build writes the hashed file beside this chunk, and bundlers follow it.
  loading ??= initWasm({ module_or_path: new URL('./wallet_modal_families_bg.wasm', import.meta.url) }).then(
    () => ({ accountsOn, chainOf, bitcoinNetworkName, safeAncestorAllowed, safeAccount }),
    (err: unknown) => {
      loading = null;
      throw new Error(`wallet-modal could not load its chain family rules: ${String(err)}`);
    },
  );
  return loading;
}
