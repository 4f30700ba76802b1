// The Demo Keplr wallet (bundled by demo/wallet/build.mjs into /demo/wallet/dist/keplr-wallet.js):
// `window.keplr` with Keplr's API shape — enable, getKey, signArbitrary (ADR-036, as Keplr's
// `makeADR36AminoSignDoc` builds it), signAmino, getOfflineSigner, experimentalSuggestChain,
// disable, and the `keplr_keystorechange` window event — on `@cosmjs/amino`'s Secp256k1Wallet.
//
//   import { installKeplrWallet } from '/demo/wallet/dist/keplr-wallet.js';
//   const k = installKeplrWallet({ autoResponse: 'approve' });
//
// Options: `seed` (32 bytes hex), `chains` ({chainId: bech32 prefix}: the chains it knows),
// `confirm` (with autoResponse null: a confirm() dialog answers each prompt), `autoResponse` ('approve' | 'reject' | null: prompts wait for `k.respond(...)`), `wrongPrefix`
// (answer another chain's address: bad input for the modal).
import { Secp256k1Wallet } from '@cosmjs/amino';

export const KEPLR_DEMO_SEED = '2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819';
const hexToBytes = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
const b64 = (bytes) => btoa(String.fromCharCode(...bytes));

/** The ADR-036 sign document of `data` by `signer` (what @keplr-wallet/cosmos makes). */
export function adr36Doc(signer, data) {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return {
    chain_id: '',
    account_number: '0',
    sequence: '0',
    fee: { gas: '0', amount: [] },
    msgs: [{ type: 'sign/MsgSignData', value: { signer, data: b64(bytes) } }],
    memo: '',
  };
}

export function installKeplrWallet(opts = {}) {
  let seed = opts.seed ?? KEPLR_DEMO_SEED;
  const chains = { 'cosmoshub-4': 'cosmos', 'osmosis-1': 'osmo', ...(opts.chains ?? {}) };
  let autoResponse = opts.autoResponse === undefined ? 'approve' : opts.autoResponse;
  const enabled = new Set();
  const pending = [];
  const calls = [];
  const prompt = (what) =>
    new Promise((resolve, reject) => {
      const answer = (r) => (r === 'approve' ? resolve() : reject(new Error('Request rejected')));
      if (autoResponse) answer(autoResponse);
      // The demo page: the visitor answers in a dialog, as in a wallet's own window.
      else if (opts.confirm) answer(confirm(`Demo Keplr: ${what}?`) ? 'approve' : 'reject');
      else pending.push({ what, answer });
    });
  const signer = async (chainId) => {
    const prefix = chains[chainId];
    if (!prefix) throw new Error(`There is no chain info for ${chainId}`);
    const p = opts.wrongPrefix ? (prefix === 'cosmos' ? 'osmo' : 'cosmos') : prefix;
    return Secp256k1Wallet.fromKey(hexToBytes(seed), p);
  };
  const mustEnable = (chainId) => {
    if (!enabled.has(chainId)) throw new Error(`${chainId} is not enabled`);
  };

  const keplr = {
    version: '0.12.200',
    mode: 'extension',
    async enable(chainIds) {
      const ids = Array.isArray(chainIds) ? chainIds : [chainIds];
      calls.push(['enable', ids]);
      for (const id of ids) if (!chains[id]) throw new Error(`There is no chain info for ${id}`);
      if (ids.some((id) => !enabled.has(id))) await prompt('enable');
      ids.forEach((id) => enabled.add(id));
    },
    async disable(chainIds) {
      calls.push(['disable', chainIds]);
      (chainIds ? [].concat(chainIds) : [...enabled]).forEach((id) => enabled.delete(id));
    },
    async getKey(chainId) {
      calls.push(['getKey', chainId]);
      mustEnable(chainId);
      const [account] = await (await signer(chainId)).getAccounts();
      return { name: 'Demo', algo: 'secp256k1', pubKey: account.pubkey, address: new Uint8Array(20), bech32Address: account.address, isNanoLedger: false, isKeystone: false };
    },
    async signArbitrary(chainId, signerAddress, data) {
      calls.push(['signArbitrary', chainId]);
      mustEnable(chainId);
      await prompt('signArbitrary');
      const s = await signer(chainId);
      const [account] = await s.getAccounts();
      if (account.address !== signerAddress) throw new Error('Signer mismatched');
      return (await s.signAmino(signerAddress, adr36Doc(signerAddress, data))).signature;
    },
    async signAmino(chainId, signerAddress, doc) {
      mustEnable(chainId);
      await prompt('signAmino');
      return (await signer(chainId)).signAmino(signerAddress, doc);
    },
    getOfflineSigner(chainId) {
      return {
        getAccounts: async () => (mustEnable(chainId), (await signer(chainId)).getAccounts()),
        signAmino: (address, doc) => keplr.signAmino(chainId, address, doc),
      };
    },
    async experimentalSuggestChain(info) {
      calls.push(['experimentalSuggestChain', info?.chainId]);
      await prompt('suggestChain');
      chains[info.chainId] = info.bech32Config?.bech32PrefixAccAddr ?? 'cosmos';
    },
  };
  window.keplr = keplr;

  const hook = {
    keplr,
    calls,
    setAutoResponse: (r) => (autoResponse = r),
    respond: (r) => pending.shift()?.answer(r),
    pending: () => pending.map((p) => p.what),
    address: async (chainId) => (await (await signer(chainId)).getAccounts())[0].address,
    /** The visitor picks another key in the wallet: Keplr tells the page. */
    switchKey(newSeed) {
      seed = newSeed;
      window.dispatchEvent(new Event('keplr_keystorechange'));
    },
  };
  if (opts.global !== null) window[opts.global ?? 'demoKeplrWallet'] = hook;
  return hook;
}
