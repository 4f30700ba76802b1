// The Demo Polkadot extension (bundled by demo/wallet/build.mjs into
// /demo/wallet/dist/polkadot-extension.js): what `@polkadot/extension-inject`'s `injectExtension`
// writes — `window.injectedWeb3[name] = {version, enable(origin)}`, `enable` answering the
// extension's `accounts` (`get`, `subscribe`) and `signer` (`signRaw`) — backed by
// `@polkadot/keyring` (sr25519 `//Alice`, ed25519 `//Bob` by default), signing `<Bytes>…</Bytes>`
// as extensions do.
//
//   import { installPolkadotExtension } from '/demo/wallet/dist/polkadot-extension.js';
//   const x = installPolkadotExtension({ autoResponse: 'approve' });
//
// Options: `name` (the injectedWeb3 key, default 'demo-polkadot'), `accounts` ([{uri, type}]),
// `confirm` (with autoResponse null: a confirm() dialog answers each prompt), `autoResponse` ('approve' | 'reject' | null: prompts wait for `x.respond(...)`).
import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { hexToU8a, u8aToHex, u8aWrapBytes, isHex } from '@polkadot/util';

export function installPolkadotExtension(opts = {}) {
  const name = opts.name ?? 'demo-polkadot';
  let autoResponse = opts.autoResponse === undefined ? 'approve' : opts.autoResponse;
  const pending = [];
  const subscribers = new Set();
  const calls = [];
  const ready = cryptoWaitReady().then(() => {
    const specs = opts.accounts ?? [{ uri: '//Alice', type: 'sr25519', name: 'Alice' }, { uri: '//Bob', type: 'ed25519', name: 'Bob' }];
    return specs.map((s) => {
      const pair = new Keyring({ type: s.type, ss58Format: 42 }).addFromUri(s.uri, { name: s.name });
      return { pair, account: { address: pair.address, name: s.name, type: s.type, genesisHash: null } };
    });
  });
  let hidden = new Set();
  const visible = async () => (await ready).filter((a) => !hidden.has(a.account.address)).map((a) => a.account);
  const prompt = (what) =>
    new Promise((resolve, reject) => {
      const answer = (r) => (r === 'approve' ? resolve() : reject(new Error('Cancelled')));
      if (autoResponse) answer(autoResponse);
      // The demo page: the visitor answers in a dialog, as in a wallet's own window.
      else if (opts.confirm) answer(confirm(`Demo Polkadot: ${what}?`) ? 'approve' : 'reject');
      else pending.push({ what, answer });
    });
  let authorized = false;
  let id = 0;

  window.injectedWeb3 = window.injectedWeb3 ?? {};
  window.injectedWeb3[name] = {
    version: '0.63.1',
    enable: async (origin) => {
      calls.push(['enable', origin]);
      if (!authorized) await prompt('enable');
      authorized = true;
      return {
        accounts: {
          get: async () => (calls.push(['accounts.get']), visible()),
          subscribe: (cb) => {
            subscribers.add(cb);
            visible().then(cb);
            return () => subscribers.delete(cb);
          },
        },
        signer: {
          signRaw: async ({ address, data, type }) => {
            calls.push(['signRaw', address, type]);
            const entry = (await ready).find((a) => a.pair.address === new Keyring({ ss58Format: 42 }).encodeAddress(address));
            if (!entry) throw new Error('Unable to find the account');
            await prompt('signRaw');
            const bytes = isHex(data) ? hexToU8a(data) : new TextEncoder().encode(data);
            return { id: ++id, signature: u8aToHex(entry.pair.sign(u8aWrapBytes(bytes))) };
          },
        },
        metadata: { get: async () => [], provide: async () => false },
      };
    },
  };

  const hook = {
    name,
    calls,
    ready,
    setAutoResponse: (r) => (autoResponse = r),
    respond: (r) => pending.shift()?.answer(r),
    pending: () => pending.map((p) => p.what),
    addresses: async () => (await ready).map((a) => a.account.address),
    /** The visitor hides an account from this site (the extension tells subscribers). */
    async hide(address) {
      hidden.add(address);
      const list = await visible();
      subscribers.forEach((cb) => cb(list));
    },
  };
  if (opts.global !== null) window[opts.global ?? 'demoPolkadotExtension'] = hook;
  return hook;
}
