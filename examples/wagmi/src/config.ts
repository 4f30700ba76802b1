import { createConfig, http } from 'wagmi';
import { defineChain } from 'viem';
import { walletModal } from 'wallet-modal/wagmi';

// The devnet's two anvil chains (`npx wallet-modal-devnet` prints their addresses); a real dapp
// lists its production chains here (wagmi/chains) and drops the env lookups.
const env = import.meta.env;
const anvil = (id: number, name: string, rpcUrl: string) =>
  defineChain({ id, name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });

export const anvilA = anvil(31337, 'Anvil A', env.VITE_RPC_A ?? 'http://127.0.0.1:8545');
export const anvilB = anvil(31338, 'Anvil B', env.VITE_RPC_B ?? 'http://127.0.0.1:8546');

/** The same networks for the modal (CAIP-2 objects; its `networks` property). */
export const modalNetworks = [anvilA, anvilB].map((c) => ({
  id: c.id,
  caipNetworkId: `eip155:${c.id}`,
  chainNamespace: 'eip155',
  name: c.name,
  nativeCurrency: c.nativeCurrency,
  rpcUrls: c.rpcUrls,
}));

export const config = createConfig({
  chains: [anvilA, anvilB],
  // The modal is wagmi's only connector: useConnect's connect() opens it.
  connectors: [walletModal()],
  transports: { [anvilA.id]: http(), [anvilB.id]: http() },
});

declare module 'wagmi' {
  interface Register {
    config: typeof config;
  }
}
