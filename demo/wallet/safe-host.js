// Test Safe: the parent side of the Safe Apps postMessage protocol, for a Safe app (a page with
// <wallet-modal>) running in an iframe of this page — what Safe{Wallet} does for its apps.
//
// - Answers the SDK's requests `{id, method, params, env: {sdkVersion}}` from that iframe only with
//   `{id, success, data | error, version}`: getSafeInfo, rpcCall (forwarded to the chain's node),
//   sendTransactions, getTxBySafeTxHash, signMessage, signTypedMessage.
// - Backed by anvil: the Safe is an account anvil impersonates (funded here), with one owner and
//   threshold 1, so a proposed transaction is executed at once (as a 1/1 Safe does) and
//   getTxBySafeTxHash gives its on-chain hash.
// - `approve: false` refuses every transaction and signature (the owner said no in the Safe).
//
// Plain ES module, no dependencies, no build step.

const SDK_PROTOCOL_VERSION = '9.1.0';

async function rpc(url, method, params = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return '0x' + Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Serves the Safe Apps protocol to `frame` (an <iframe>). Returns `{log, executed, stop}`: every
 * request heard (`{method, params, env}`), the transactions executed (`{safeTxHash, txHash}`), and
 * a function that stops answering.
 */
export function serveSafe(frame, { rpcUrl, chainId, safeAddress, owner, approve = true, balanceWei = 10n ** 19n }) {
  const log = [];
  const executed = [];
  let nonce = 0;
  const ready = (async () => {
    await rpc(rpcUrl, 'anvil_impersonateAccount', [safeAddress]);
    await rpc(rpcUrl, 'anvil_setBalance', [safeAddress, '0x' + balanceWei.toString(16)]);
  })();

  const handlers = {
    getSafeInfo: async () => ({ safeAddress, chainId, threshold: 1, owners: [owner], isReadOnly: false }),
    rpcCall: async ({ call, params }) => rpc(rpcUrl, call, params),
    sendTransactions: async ({ txs }) => {
      if (!approve) throw new Error('Transaction was rejected');
      await ready;
      const safeTxHash = await sha256Hex(JSON.stringify({ safeAddress, chainId, nonce: nonce++, txs }));
      for (const tx of txs) {
        const txHash = await rpc(rpcUrl, 'eth_sendTransaction', [{ from: safeAddress, to: tx.to, value: '0x' + BigInt(tx.value).toString(16), data: tx.data }]);
        executed.push({ safeTxHash, txHash });
      }
      return { safeTxHash };
    },
    getTxBySafeTxHash: async ({ safeTxHash }) => {
      const done = executed.find((e) => e.safeTxHash === safeTxHash);
      if (!done) throw new Error('No such Safe transaction');
      return { safeTxHash, txHash: done.txHash, txStatus: 'SUCCESS' };
    },
    signMessage: async ({ message }) => {
      if (!approve) throw new Error('Signature was rejected');
      return { messageHash: await sha256Hex(String(message)) };
    },
    signTypedMessage: async ({ typedData }) => {
      if (!approve) throw new Error('Signature was rejected');
      return { messageHash: await sha256Hex(JSON.stringify(typedData)) };
    },
  };

  const listener = async (event) => {
    if (event.source !== frame.contentWindow) return;
    const { id, method, params, env } = event.data ?? {};
    if (typeof id !== 'string' || typeof method !== 'string') return;
    log.push({ method, params, env });
    const reply = (m) => event.source.postMessage({ id, version: SDK_PROTOCOL_VERSION, ...m }, event.origin);
    const handler = handlers[method];
    if (!handler) return reply({ success: false, error: `Method ${method} is not supported` });
    try {
      reply({ success: true, data: await handler(params ?? {}) });
    } catch (e) {
      reply({ success: false, error: e instanceof Error ? e.message : String(e) });
    }
  };
  window.addEventListener('message', listener);
  return { log, executed, ready, stop: () => window.removeEventListener('message', listener) };
}
