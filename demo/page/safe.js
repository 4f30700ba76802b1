// The demo dapp as a Safe app: this page plays Safe{Wallet} (a 1/1 Safe on the first anvil chain,
// demo/wallet/safe-host.js) around the demo page in an iframe, where the modal lists "Safe" first.
import { serveSafe } from '/demo/wallet/safe-host.js';

const SAFE = '0x5afe00000000000000000000000000000000beef';
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const status = document.getElementById('safe-status');
const frame = document.getElementById('app');
try {
  const res = await fetch('/demo-config.json', { cache: 'no-store' });
  const config = await res.json();
  const chain = config.chains[0];
  const safe = serveSafe(frame, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, safeAddress: SAFE, owner: OWNER });
  frame.src = '/';
  await safe.ready;
  status.textContent = `Safe ${SAFE} on ${chain.name ?? `chain ${chain.chainId}`} (owner ${OWNER}, threshold 1)`;
} catch (e) {
  status.textContent = `Could not start: ${e instanceof Error ? e.message : String(e)}`;
}
