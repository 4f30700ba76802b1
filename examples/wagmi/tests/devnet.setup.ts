import { build, preview } from 'vite';
import { startDevnet } from 'wallet-modal-devnet';

/**
 * Starts the devnet (chains, backend, test wallets…), builds this app against it (the modal's API,
 * the chains' RPC addresses) and serves the build; the tests read both from the environment.
 * Returns the teardown: the server closed, the devnet stopped.
 */
export default async function setup() {
  const devnet = await startDevnet();
  const { apiUrl, evm } = devnet.description;
  Object.assign(process.env, { VITE_WM_API_URL: apiUrl, VITE_RPC_A: evm.chains[0].rpcUrl, VITE_RPC_B: evm.chains[1].rpcUrl });
  await build({ logLevel: 'warn' });
  const server = await preview({ preview: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' });
  process.env.APP_URL = server.resolvedUrls!.local[0];
  process.env.DEVNET = JSON.stringify(devnet.description);
  return async () => {
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    await devnet.stop();
  };
}
