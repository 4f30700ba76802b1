// The Demo Bitcoin wallets (bundled by demo/wallet/build.mjs into /demo/wallet/dist/bitcoin-wallet.js):
// one key, a P2WPKH payment address and a taproot ordinals address on mainnet, testnet and regtest,
// signed with @scure/btc-signer. Two discovery paths, as real wallets have them:
// - `kind: 'standard'`: a wallet-standard wallet (`bitcoin:connect`, `bitcoin:signMessage`,
//   `bitcoin:signTransaction`, `standard:connect`/`disconnect`/`events`), its accounts one per
//   network (each with its chain);
// - `kind: 'sats'`: a sats-connect provider listed in `window.btc_providers`, answering JSON-RPC from
//   `request(method, params)`: wallet_connect, getAddresses, wallet_getAccount, wallet_getNetwork,
//   wallet_changeNetwork, signMessage (BIP-322 or ECDSA), signPsbt, wallet_disconnect, addListener.
//
//   import { installBitcoinWallet } from '/demo/wallet/dist/bitcoin-wallet.js';
//   const w = installBitcoinWallet({ kind: 'sats', network: 'testnet', autoResponse: 'approve' });
//
// Options: `seed` (32 bytes hex), `name`, `network` ('mainnet' | 'testnet' | 'regtest': the sats
// wallet's current one; the standard wallet lists all three), `autoResponse` ('approve' | 'reject' |
// null: then each prompt waits for `w.respond('approve' | 'reject')`), `wrongNetwork` (answer
// another network's addresses: bad input for the modal).
import * as btc from '@scure/btc-signer';
import { secp256k1, schnorr } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha256';

const pubECDSA = (priv, compressed) => secp256k1.getPublicKey(priv, compressed);
const pubSchnorr = (priv) => schnorr.getPublicKey(priv);

export const BITCOIN_DEMO_SEED = '1b2839465b6d7e8f909a0b1c2d3e4f5061728394a5b6c7d8e9fa0b1c2d3e4f50';
const NETWORKS = {
  mainnet: btc.NETWORK,
  testnet: btc.TEST_NETWORK,
  regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
};
const SATS_NAMES = { mainnet: 'Mainnet', testnet: 'Testnet', regtest: 'Regtest' };
/** The wallet-standard chain of each network: the local regtest chain (litecoind's genesis) has no
 * name wallets know, so it is named by its CAIP-2 id. */
export const LOCAL_REGTEST = 'bip122:530827f38f93b43ed12af0b3ad25a288';
const STANDARD_CHAINS = { mainnet: 'bitcoin:mainnet', testnet: 'bitcoin:testnet', regtest: LOCAL_REGTEST };
const ICON =
  'data:image/svg+xml;base64,' +
  btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="#c2410c"/><text x="48" y="66" font-size="52" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="700">B</text></svg>');

const hexToBytes = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
const utf8 = (s) => new TextEncoder().encode(s);
const b64 = (bytes) => btoa(String.fromCharCode(...bytes));
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};
const varint = (n) => (n < 0xfd ? [n] : [0xfd, n & 0xff, n >> 8]);

/** The wallet's addresses on a network: payment (P2WPKH) and ordinals (taproot). */
export function bitcoinAddresses(seed = BITCOIN_DEMO_SEED, network = 'mainnet') {
  const priv = hexToBytes(seed);
  const net = NETWORKS[network];
  const payment = btc.p2wpkh(pubECDSA(priv, true), net);
  const ordinals = btc.p2tr(pubSchnorr(priv), undefined, net);
  return { payment, ordinals };
}

/** A BIP-322 "simple" signature (base64 witness) of `message` by `priv` for `payment`. */
export function signBip322(priv, payment, message) {
  const tag = sha256(utf8('BIP0322-signed-message'));
  const hash = sha256(concat(tag, tag, typeof message === 'string' ? utf8(message) : message));
  const toSpend = new btc.Transaction({ version: 0, allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true });
  toSpend.addOutput({ script: payment.script, amount: 0n });
  toSpend.addInput({ txid: new Uint8Array(32), index: 0xffffffff, sequence: 0, finalScriptSig: concat(new Uint8Array([0x00, 0x20]), hash) });
  const toSign = new btc.Transaction({ version: 0, allowUnknownOutputs: true });
  toSign.addInput({ txid: toSpend.id, index: 0, sequence: 0, witnessUtxo: { script: payment.script, amount: 0n }, ...(payment.tapInternalKey ? { tapInternalKey: payment.tapInternalKey } : {}) });
  toSign.addOutput({ script: new Uint8Array([0x6a]), amount: 0n });
  toSign.sign(priv, undefined, new Uint8Array(32));
  toSign.finalizeIdx(0);
  const witness = toSign.getInput(0).finalScriptWitness;
  return b64(new Uint8Array([witness.length, ...witness.flatMap((w) => [...varint(w.length), ...w])]));
}

/** A legacy (BIP-137) signature: compact recoverable, header 39+ for a P2WPKH address. */
export function signLegacy(priv, message) {
  const m = typeof message === 'string' ? utf8(message) : message;
  const prefix = utf8('Bitcoin Signed Message:\n');
  const data = concat(new Uint8Array(varint(prefix.length)), prefix, new Uint8Array(varint(m.length)), m);
  const hash = sha256(sha256(data));
  const sig = secp256k1.sign(hash, priv);
  return b64(concat(new Uint8Array([39 + sig.recovery]), sig.toCompactRawBytes()));
}

/**
 * Signs the inputs `indexes` of a PSBT (bytes) with `priv` (not finalized: the dapp puts the
 * witnesses in); `tamper` first pays the receiver one satoshi less (a wallet that signs something
 * else than asked: bad input for the modal). Returns the signed PSBT's bytes.
 */
export function signPsbt(priv, bytes, indexes, tamper = false) {
  let tx = btc.Transaction.fromPSBT(bytes);
  if (tamper) {
    const out = tx.getOutput(0);
    tx.updateOutput(0, { amount: out.amount - 1n });
  }
  for (const i of indexes) tx.signIdx(priv, i);
  return tx.toPSBT();
}

/** What a PSBT pays, for the wallet's prompt: `0.01 BTC to bcrt1q…` per output. */
function describePsbt(bytes, net) {
  const tx = btc.Transaction.fromPSBT(bytes);
  const outs = [];
  for (let i = 0; i < tx.outputsLength; i++) {
    const o = tx.getOutput(i);
    outs.push(`${Number(o.amount) / 1e8} BTC to ${btc.Address(NETWORKS[net]).encode(btc.OutScript.decode(o.script))}`);
  }
  return outs.join(', ');
}

const fromB64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

export function installBitcoinWallet(opts = {}) {
  const kind = opts.kind ?? 'standard';
  const seed = opts.seed ?? BITCOIN_DEMO_SEED;
  const priv = hexToBytes(seed);
  let autoResponse = opts.autoResponse === undefined ? 'approve' : opts.autoResponse;
  let network = opts.network ?? 'mainnet';
  let connected = false;
  let tamper = false;
  const pending = [];
  const listeners = { change: new Set(), accountChange: new Set(), networkChange: new Set(), disconnect: new Set() };
  const fire = (event, data) => listeners[event].forEach((cb) => cb(data));
  const calls = [];

  const prompt = (what) =>
    new Promise((resolve, reject) => {
      const answer = (r) => (r === 'approve' ? resolve() : reject(Object.assign(new Error('User rejected the request'), { code: 4001 })));
      if (autoResponse) answer(autoResponse);
      // The demo page: the visitor answers in a dialog, as in a wallet's own window.
      else if (opts.confirm) answer(confirm(`Demo Bitcoin: ${what}?`) ? 'approve' : 'reject');
      else pending.push({ what, answer });
    });

  const addressesOn = (net) => {
    const { payment, ordinals } = bitcoinAddresses(seed, opts.wrongNetwork ? (net === 'mainnet' ? 'testnet' : 'mainnet') : net);
    return [
      { address: payment.address, publicKey: b64(pubECDSA(priv, true)), purpose: 'payment', addressType: 'p2wpkh', chains: [STANDARD_CHAINS[net]] },
      { address: ordinals.address, publicKey: b64(pubSchnorr(priv)), purpose: 'ordinals', addressType: 'p2tr', chains: [STANDARD_CHAINS[net]] },
    ];
  };
  const sign = (address, message, protocol) => {
    for (const net of Object.keys(NETWORKS)) {
      const { payment, ordinals } = bitcoinAddresses(seed, net);
      const p = [payment, ordinals].find((x) => x.address === address);
      if (p) return protocol === 'ECDSA' ? signLegacy(priv, message) : signBip322(priv, p, message);
    }
    throw Object.assign(new Error('Unknown address'), { code: -32602 });
  };

  const hook = {
    kind,
    get network() {
      return network;
    },
    calls,
    setAutoResponse: (r) => (autoResponse = r),
    /** Sign another transaction than the one asked (one satoshi less to the receiver). */
    setTamper: (t) => (tamper = t),
    respond: (r) => pending.shift()?.answer(r),
    pending: () => pending.map((p) => p.what),
    addresses: (net = network) => bitcoinAddresses(seed, net),
    /** The wallet's own network change (the visitor's, in the wallet). */
    changeNetwork(net) {
      network = net;
      fire('networkChange', { bitcoin: { name: SATS_NAMES[net] } });
    },
  };

  if (kind === 'standard') {
    const wallet = {
      version: '1.0.0',
      name: opts.name ?? 'Demo Bitcoin',
      icon: ICON,
      chains: Object.values(STANDARD_CHAINS),
      get accounts() {
        return connected ? Object.keys(NETWORKS).flatMap(addressesOn) : [];
      },
      features: {
        'standard:connect': {
          version: '1.0.0',
          connect: async ({ silent } = {}) => {
            calls.push('standard:connect');
            if (!connected && silent) return { accounts: [] };
            if (!connected) await prompt('connect');
            connected = true;
            return { accounts: wallet.accounts };
          },
        },
        'bitcoin:connect': {
          version: '1.0.0',
          connect: async ({ purposes } = {}) => {
            calls.push('bitcoin:connect');
            await prompt('connect');
            connected = true;
            fire('change', { accounts: wallet.accounts });
            return { accounts: wallet.accounts.filter((a) => !purposes || purposes.includes(a.purpose)) };
          },
        },
        'standard:disconnect': { version: '1.0.0', disconnect: async () => ((connected = false), calls.push('standard:disconnect')) },
        'standard:events': {
          version: '1.0.0',
          on: (event, cb) => (listeners[event]?.add(cb), () => listeners[event]?.delete(cb)),
        },
        'bitcoin:signTransaction': {
          version: '1.0.0',
          signTransaction: async (...inputs) => {
            calls.push('bitcoin:signTransaction');
            const net = Object.keys(STANDARD_CHAINS).find((n) => STANDARD_CHAINS[n] === inputs[0]?.chain) ?? network;
            await prompt(`sign a transfer of ${describePsbt(inputs[0].psbt, net)}`);
            return inputs.map(({ psbt, inputsToSign }) => {
              const mine = inputsToSign.every(({ account }) => Object.keys(NETWORKS).some((n) => Object.values(bitcoinAddresses(seed, n)).some((a) => a.address === account.address)));
              if (!mine) throw Object.assign(new Error('Unknown account'), { code: -32602 });
              return { signedPsbt: signPsbt(priv, psbt, inputsToSign.flatMap((i) => i.signingIndexes), tamper) };
            });
          },
        },
        'bitcoin:signMessage': {
          version: '1.0.0',
          signMessage: async (...inputs) => {
            calls.push('bitcoin:signMessage');
            await prompt('signMessage');
            return inputs.map(({ account, message }) => ({ signedMessage: message, signature: utf8(sign(account.address, message, 'BIP322')) }));
          },
        },
      },
    };
    hook.wallet = wallet;
    const register = ({ register }) => register(wallet);
    window.addEventListener('wallet-standard:app-ready', (e) => register(e.detail));
    try {
      window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
    } catch {
      // No app listening yet: it will say app-ready.
    }
  } else {
    const id = opts.providerId ?? 'DemoSatsProvider';
    let rpcId = 0;
    const ok = (result) => ({ jsonrpc: '2.0', id: ++rpcId, result });
    const fail = (code, message) => ({ jsonrpc: '2.0', id: ++rpcId, error: { code, message } });
    const provider = {
      async request(method, params) {
        calls.push(method);
        try {
          switch (method) {
            case 'wallet_connect':
            case 'getAddresses':
              await prompt('connect');
              connected = true;
              return ok({ addresses: addressesOn(network), network: { bitcoin: { name: SATS_NAMES[network] } } });
            case 'wallet_getAccount':
              return connected ? ok({ addresses: addressesOn(network) }) : fail(-32002, 'Access denied');
            case 'wallet_getNetwork':
              return ok({ bitcoin: { name: SATS_NAMES[network] }, stacks: { name: SATS_NAMES[network] } });
            case 'wallet_changeNetwork': {
              const net = Object.keys(SATS_NAMES).find((n) => SATS_NAMES[n] === params?.name);
              if (!net) return fail(-32602, `Unknown network ${params?.name}`);
              await prompt('changeNetwork');
              network = net;
              return ok(true);
            }
            case 'signMessage': {
              if (!connected) return fail(-32002, 'Access denied');
              await prompt('signMessage');
              const signature = sign(params.address, params.message, params.protocol);
              return ok({ signature, address: params.address, protocol: params.protocol ?? 'BIP322' });
            }
            case 'signPsbt': {
              if (!connected) return fail(-32002, 'Access denied');
              const bytes = fromB64(params.psbt);
              await prompt(`sign a transfer of ${describePsbt(bytes, network)}`);
              const signed = signPsbt(priv, bytes, Object.values(params.signInputs ?? {}).flat(), tamper);
              return ok({ psbt: b64(signed) });
            }
            case 'wallet_disconnect':
              connected = false;
              return ok(null);
            default:
              return fail(-32601, `Method not found: ${method}`);
          }
        } catch (e) {
          return fail(e.code ?? -32603, e.message);
        }
      },
      addListener(event, cb) {
        listeners[event]?.add(cb);
        return () => listeners[event]?.delete(cb);
      },
    };
    window[id] = provider;
    window.btc_providers = [...(window.btc_providers ?? []), { id, name: opts.name ?? 'Demo Sats', icon: ICON, webUrl: location.origin }];
    hook.provider = provider;
  }
  if (opts.global !== null) window[opts.global ?? (kind === 'standard' ? 'demoBitcoinWallet' : 'demoSatsWallet')] = hook;
  return hook;
}
