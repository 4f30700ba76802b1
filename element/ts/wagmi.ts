/**
 * `wallet-modal/wagmi`: the modal as a wagmi connector, made with wagmi's `createConnector`.
 * `connect()` opens the modal (on the EVM namespace) and resolves once the visitor connected a
 * wallet there — injected, WalletConnect or the embedded wallet, whichever they chose — so that
 * `useAccount`, `useBalance`, `useSendTransaction`, `useSignMessage`, `useSwitchChain` work with the
 * modal's connection. Requests go to the modal's provider of the moment (`getProvider('eip155')`:
 * it follows the wallet the visitor makes current), and what the visitor does in the modal itself
 * (connect, switch network, change account, disconnect) reaches wagmi as the connector's events.
 *
 *   import { createConfig, http } from '@wagmi/core';
 *   import { walletModal } from 'wallet-modal/wagmi';
 *   const config = createConfig({ chains: [mainnet], connectors: [walletModal()], transports: { [mainnet.id]: http() } });
 *
 * `@wagmi/core` (2.x) and `viem` are the app's own (peer dependencies, not bundled here).
 */
import { createConnector } from '@wagmi/core';
import { getAddress, ProviderDisconnectedError, SwitchChainError, UserRejectedRequestError, type Address, type EIP1193Provider } from 'viem';
import type { WalletModalElement } from './wallet-modal';

const NAMESPACE = 'eip155';
/** How long the connector waits for the element's engine to start, or a reconnection to end. */
const READY_MS = 15_000;
/** How long a network switch may wait for the visitor in their wallet. */
const SWITCH_MS = 5 * 60_000;

export interface WalletModalParameters {
  /** The `<wallet-modal>` element, or a function finding it; by default the page's first one. */
  element?: WalletModalElement | (() => WalletModalElement | null | undefined);
}

type EventDetail = { namespace?: unknown; address?: unknown; caipNetworkId?: unknown; connected?: unknown };

/** The EVM chain id of a CAIP-2 network id (`eip155:31337` → 31337), or null. */
function evmChain(caipNetworkId: unknown): number | null {
  if (typeof caipNetworkId !== 'string' || !caipNetworkId.startsWith(`${NAMESPACE}:`)) return null;
  const id = Number(caipNetworkId.slice(NAMESPACE.length + 1));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Emitter = Parameters<Parameters<typeof createConnector>[0]>[0]['emitter'];
interface Handlers {
  getChainId(): Promise<number>;
  onAccountsChanged(accounts: string[]): void;
  onChainChanged(chainId: string): void;
  onDisconnect(error?: Error): void;
}

/** Listens to `el`'s events as the connector's own; returns how to stop. */
function attach(el: WalletModalElement, emitter: Emitter, connector: Handlers): () => void {
  const on = (name: string, handle: (d: EventDetail) => void) => {
    const listener = (e: Event) => handle(((e as CustomEvent).detail ?? {}) as EventDetail);
    el.addEventListener(name, listener);
    return () => el.removeEventListener(name, listener);
  };
  const offs = [
    // Connected in the modal by the visitor (its own Connect button, a reconnection).
    on('connect', async (d) => {
      if (d.namespace !== NAMESPACE || typeof d.address !== 'string') return;
      const chainId = evmChain(d.caipNetworkId) ?? (await connector.getChainId().catch(() => null));
      if (chainId) emitter.emit('connect', { accounts: [getAddress(d.address)], chainId });
    }),
    on('accountschange', (d) => {
      if (d.namespace === NAMESPACE && typeof d.address === 'string') connector.onAccountsChanged([d.address]);
    }),
    on('networkchange', (d) => {
      const id = evmChain(d.caipNetworkId);
      if (id) connector.onChainChanged(String(id));
    }),
    on('disconnect', (d) => {
      if (d.namespace === NAMESPACE) connector.onDisconnect();
    }),
  ];
  return () => offs.forEach((off) => off());
}

export function walletModal(parameters: WalletModalParameters = {}) {
  /** The element whose events reach wagmi, and how to stop listening to it. */
  let listening: { el: WalletModalElement; off: () => void } | null = null;
  /** Listens to the page's element once there is one (re-attached when the app renders a new one). */
  let listen: () => void = () => {};

  function found(): WalletModalElement | null {
    const e = typeof parameters.element === 'function' ? parameters.element() : (parameters.element ?? document.querySelector('wallet-modal'));
    return (e as WalletModalElement | null | undefined) ?? null;
  }

  function element(): WalletModalElement {
    const e = found();
    if (!e) throw new Error('wallet-modal/wagmi: no <wallet-modal> element on the page');
    listen();
    return e;
  }

  /** The element once its engine runs and no reconnection is under way on the EVM namespace. */
  async function settled(): Promise<WalletModalElement> {
    const el = element();
    for (const start = Date.now(); Date.now() - start < READY_MS; await sleep(50)) {
      const state = el.getState();
      if (state && state.status[NAMESPACE] !== 'reconnecting') return el;
    }
    throw new Error('wallet-modal/wagmi: the modal did not start');
  }

  /** What wagmi talks to: the modal's EVM provider at the time of each request. */
  const provider = {
    request(args: { method: string; params?: unknown }) {
      const p = element().getProvider(NAMESPACE) as EIP1193Provider | undefined;
      if (!p) throw new ProviderDisconnectedError(new Error('No wallet is connected in the modal'));
      return p.request(args as never);
    },
    on() {},
    removeListener() {},
  } as unknown as EIP1193Provider;

  return createConnector<EIP1193Provider>((config) => ({
    id: 'walletModal',
    name: 'Wallet Modal',
    type: 'walletModal',

    async setup() {
      // wagmi calls setup when the app creates its config, usually before the app has rendered
      // <wallet-modal>: the element's events are listened to from the first call that finds it.
      const connector = this;
      listen = () => {
        const el = found();
        if (!el || listening?.el === el) return;
        listening?.off();
        listening = { el, off: attach(el, config.emitter, connector) };
      };
      listen();
    },

    async connect({ chainId, isReconnecting } = {}) {
      const el = await settled();
      let accounts = await this.getAccounts();
      if (!accounts.length) {
        if (isReconnecting) throw new ProviderDisconnectedError(new Error('No wallet is connected in the modal'));
        accounts = await new Promise<readonly Address[]>((resolve, reject) => {
          const done = () => {
            el.removeEventListener('connect', onConnect);
            el.removeEventListener('close', onClose);
          };
          const onConnect = (e: Event) => {
            const d = ((e as CustomEvent).detail ?? {}) as EventDetail;
            if (d.namespace !== NAMESPACE || typeof d.address !== 'string') return;
            done();
            resolve([getAddress(d.address)]);
          };
          // Closed without an EVM wallet connected: the visitor said no.
          const onClose = () => {
            if (el.getState()?.status[NAMESPACE] === 'connected') return;
            done();
            reject(new UserRejectedRequestError(new Error('The modal was closed without connecting a wallet')));
          };
          el.addEventListener('connect', onConnect);
          el.addEventListener('close', onClose);
          el.open({ namespace: NAMESPACE }).catch((e: unknown) => {
            done();
            reject(e);
          });
        });
      }
      let current = await this.getChainId();
      if (chainId && chainId !== current) current = (await this.switchChain!({ chainId })).id;
      return { accounts, chainId: current } as never;
    },

    async disconnect() {
      await element().disconnect(NAMESPACE);
    },

    async getAccounts() {
      const p = element().getProvider(NAMESPACE) as EIP1193Provider | undefined;
      if (!p) return [];
      const list = (await p.request({ method: 'eth_accounts' })) as unknown;
      return Array.isArray(list) ? list.filter((a): a is string => typeof a === 'string').map((a) => getAddress(a)) : [];
    },

    async getChainId() {
      return Number(await provider.request({ method: 'eth_chainId' }));
    },

    async getProvider() {
      return provider;
    },

    async isAuthorized() {
      try {
        await settled();
        return (await this.getAccounts()).length > 0;
      } catch {
        return false;
      }
    },

    async switchChain({ chainId }) {
      const chain = config.chains.find((c) => c.id === chainId);
      if (!chain) throw new SwitchChainError(new Error(`Chain ${chainId} is not one of the wagmi config's chains`));
      if ((await this.getChainId()) !== chainId) {
        // The modal asks the wallet: done when the network changed to it and the wallet is there;
        // failed when the modal says why (the wallet refused: `error`), or after the prompt's time.
        const el = element();
        const target = `${NAMESPACE}:${chainId}`;
        await new Promise<void>((resolve, reject) => {
          const done = (why?: Error) => {
            clearTimeout(timer);
            el.removeEventListener('networkchange', onNetwork);
            el.removeEventListener('error', onError);
            if (why) reject(new SwitchChainError(why));
            else resolve();
          };
          const timer = setTimeout(() => done(new Error(`The wallet did not switch to chain ${chainId} in time`)), SWITCH_MS);
          const onNetwork = (e: Event) => {
            if (((e as CustomEvent).detail as EventDetail | null)?.caipNetworkId !== target) return;
            void this.getChainId().then((id) => id === chainId && done(), () => {});
          };
          const onError = (e: Event) => {
            const message = ((e as CustomEvent).detail as { message?: unknown } | null)?.message;
            done(new Error(typeof message === 'string' ? message : `The wallet did not switch to chain ${chainId}`));
          };
          el.addEventListener('networkchange', onNetwork);
          el.addEventListener('error', onError);
          el.switchNetwork(target).catch((e: unknown) => done(e instanceof Error ? e : new Error(String(e))));
        });
      }
      config.emitter.emit('change', { chainId });
      return chain;
    },

    onAccountsChanged(accounts) {
      if (!accounts.length) this.onDisconnect();
      else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) });
    },

    onChainChanged(chain) {
      config.emitter.emit('change', { chainId: Number(chain) });
    },

    onDisconnect() {
      config.emitter.emit('disconnect');
    },
  }));
}
