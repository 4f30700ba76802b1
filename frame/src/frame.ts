// The frame without the browser around it: start-up (origin check, state restore, READY), one
// answer per request, and the queue of RPC requests that need the visitor's approval, each shown
// in the frame's own approval (consent/) and signed only once approved there. main.ts wires it to
// window, location, localStorage and the document; tests drive it directly.

import { createApi, ApiError } from './api.ts';
import type { Fetch } from './http.ts';
import { handlers, NO_ANSWER, type FrameState, type HandlerContext } from './handlers.ts';
import { rpcClient } from './jsonrpc.ts';
import { setLanguage, t, type Loaders } from './i18n/i18n.ts';
import { FrameError, initError, parseRequest, ready, replier, signedOut, type AppRequest, type Reply } from './messages.ts';
import { originAllowed } from './origin.ts';
import { handleRpc, parseRpcRequest, permission, type RpcRequest } from './rpc.ts';
import { deviceKey, type Store } from './store.ts';
import type { Consent } from './consent/consent.ts';
import type { ThemePayload } from './consent/theme.ts';
import type { FrameParams } from './validate.ts';
import { Wallet } from './wallet.ts';

export interface FrameEnv {
  params: FrameParams;
  /** The embedding page's origin: the only one the frame answers, and only if the project allows it. */
  origin: string;
  /** The frame's own origin (the wallet service's base URL). */
  base: string;
  fetch: Fetch;
  store: Store;
  /** Posts to the parent with targetOrigin = origin. */
  post: (message: unknown) => void;
  reload: () => void;
  /** The approval shown to the visitor (the document's, in the browser). */
  consent: Consent;
  /** Tells the other frames of this origin (other tabs) that this wallet signed out. */
  broadcastSignOut?: () => void;
  log?: (...args: unknown[]) => void;
  /** The catalogues the frame URL's `locale` chooses from (i18n/i18n.ts's, unless a test gives others). */
  catalogues?: Loaders;
}

// The core reads "origin is not allowed" in it as 'Unverified domain' (core/src/embedded/frame_slice.rs).
export const NOT_ALLOWED_ORIGIN = 'Invalid App Configuration: this origin is not allowed for the project';
const ABORTED = () => new FrameError('Request was aborted', 4001);

interface ApprovalJob {
  req: RpcRequest;
  reply: Reply;
  aborted: boolean;
  /** Ends the approval shown for it. */
  stop: AbortController;
}

/** This embedding origin's device id: each site the frame serves is another device to the service. */
function deviceId(store: Store, origin: string): string {
  const key = deviceKey(origin);
  const known = store.get(key);
  if (known && /^[0-9a-f]{32}$/.test(known)) return known;
  const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  store.set(key, id);
  return id;
}

export interface Frame {
  /** Checks the origin, restores the session, posts READY; false when the frame refused to start. */
  start(): Promise<boolean>;
  /** A message from the parent (source and origin already checked). */
  receive(data: unknown): void;
  /** Settles once every request received so far has been answered (for tests). */
  idle(): Promise<void>;
  /** Another frame of this origin signed this wallet out (another tab): forget it here too. */
  signedOutElsewhere(): void;
}

export function createFrame(env: FrameEnv): Frame {
  const log = env.params.enableLogger ? (env.log ?? (() => {})) : () => {};
  const api = createApi(env.fetch, env.base);
  const wallet = new Wallet(api, env.store, env.origin, env.params.projectId);
  const state: FrameState = {
    projectId: env.params.projectId,
    deviceId: '',
    origin: env.origin,
    chainId: env.params.chainId,
    rpcUrl: env.params.rpcUrl,
    loginEmail: null,
    socialProvider: null,
    farcasterChannel: null,
    theme: { themeMode: null, themeVariables: {} },
    dappData: { metadata: null, sdkVersion: null, sdkType: null },
  };
  const ctx: HandlerContext = {
    api,
    wallet,
    state,
    reload: env.reload,
    polls: new Map(),
    theme: (t: ThemePayload) => env.consent.theme(t),
    signedOut: () => {
      abortApprovals();
      env.broadcastSignOut?.();
    },
  };
  // The frame URL's language, for the life of this document: its catalogue loads while the frame
  // starts, and no approval is drawn before it is ready (or has failed: English).
  const languageReady = setLanguage(env.params.locale, env.catalogues);
  const inFlight = new Set<string>();
  const running = new Set<Promise<void>>();
  const waiting = new Set<ApprovalJob>();
  let queue: Promise<void> = Promise.resolve();
  let current: ApprovalJob | null = null;

  let started: Promise<boolean> | null = null;

  async function checkOrigin(): Promise<string | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        const allowed = await api.origins(env.params.projectId);
        return originAllowed(env.origin, allowed) ? null : NOT_ALLOWED_ORIGIN;
      } catch (e) {
        const transient = e instanceof ApiError && (e.status === 0 || e.status === 408 || e.status >= 500);
        if (!transient) return e instanceof ApiError ? `Invalid App Configuration: ${e.message}` : NOT_ALLOWED_ORIGIN;
        if (attempt >= 1) return 'Unable to load the project configuration';
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }

  async function doStart(): Promise<boolean> {
    const refusal = await checkOrigin();
    if (refusal) {
      log('[frame] refused', env.origin, refusal);
      env.post(initError(refusal));
      return false;
    }
    state.deviceId = deviceId(env.store, env.origin);
    await wallet.restore();
    env.post(ready());
    log('[frame] ready', { connected: wallet.connected });
    return true;
  }

  /** Approval-needing requests run one at a time, in order of arrival. */
  function enqueueApproval(job: ApprovalJob): Promise<void> {
    waiting.add(job);
    env.consent.setQueued(waiting.size);
    const turn = queue.then(async () => {
      if (!waiting.delete(job)) return; // aborted while waiting: already answered
      current = job;
      try {
        await runApproval(job);
      } finally {
        current = null;
        env.consent.close();
      }
    });
    queue = turn;
    return turn;
  }

  /**
   * One request that signs: prepared, shown in the frame's approval, and signed only once the
   * visitor approved it there; the session is checked at the service right before the signature
   * (a sign-out in another tab ends it).
   */
  async function runApproval(job: ApprovalJob): Promise<void> {
    const checkAborted = () => {
      if (job.aborted) throw ABORTED();
    };
    try {
      await languageReady;
      await wallet.ensure();
      const result = await handleRpc(job.req, {
        keys: wallet.keys,
        call: rpcClient(env.fetch, job.req.rpcUrl),
        checkAborted,
        consent: async (prepared, network) => {
          const keys = wallet.keys;
          if (!keys) return false;
          const approved = await env.consent.ask(
            prepared.review,
            {
              origin: env.origin,
              email: wallet.profile?.email ?? null,
              address: job.req.solana ? (keys.solanaAddress ?? '') : keys.address,
              network,
              method: prepared.method,
              queued: waiting.size,
            },
            job.stop.signal,
          );
          checkAborted();
          if (approved) env.consent.busy(/^(eth_sendTransaction|wallet_sendCalls|solana_signAndSendTransaction)$/.test(prepared.method) ? t('Sending…') : t('Signing…'));
          return approved;
        },
        beforeSign: () => wallet.verifySession(),
      });
      job.reply.ok(result ?? null);
    } catch (e) {
      job.reply.fail(e);
    }
  }

  async function runRpc(req: RpcRequest, reply: Reply): Promise<void> {
    try {
      await wallet.ensure();
      const result = await handleRpc(req, {
        keys: wallet.keys,
        call: rpcClient(env.fetch, req.rpcUrl),
        checkAborted: () => {},
        consent: async () => false,
      });
      reply.ok(result ?? null);
    } catch (e) {
      reply.fail(e);
    }
  }

  function abortApprovals(): void {
    for (const job of waiting) job.reply.fail(ABORTED());
    waiting.clear();
    env.consent.setQueued(0);
    // The one being worked on stops before it signs; once signed, its answer stands.
    if (current) {
      current.aborted = true;
      current.stop.abort();
    }
  }

  async function handle(req: AppRequest, reply: Reply): Promise<void> {
    if (req.event === 'RPC_ABORT') {
      abortApprovals();
      return;
    }
    if (req.event === 'RPC_REQUEST') {
      let rpc: RpcRequest;
      try {
        rpc = parseRpcRequest(req.payload, (chainId) => (chainId === state.chainId ? state.rpcUrl : null));
      } catch (e) {
        reply.fail(e);
        return;
      }
      if (permission(rpc.method) !== 'approval') return runRpc(rpc, reply);
      return enqueueApproval({ req: rpc, reply, aborted: false, stop: new AbortController() });
    }
    const handler = Object.hasOwn(handlers, req.event) ? handlers[req.event] : null;
    if (!handler) {
      reply.fail(new FrameError(`Unsupported request ${req.event}`));
      return;
    }
    try {
      const payload = await handler(ctx, req.payload);
      if (payload !== NO_ANSWER) reply.ok(payload);
    } catch (e) {
      reply.fail(e);
    }
  }

  return {
    start() {
      started ??= doStart();
      return started;
    },
    receive(data) {
      const req = parseRequest(data);
      if (!req || inFlight.has(req.id)) return;
      inFlight.add(req.id);
      log('[frame] ←', req.event, req.id);
      const reply = replier(req, (message) => {
        log('[frame] →', (message as { type: string }).type, req.id);
        env.post(message);
      });
      const task = (async () => {
        if (!(await (started ?? Promise.resolve(false)))) return;
        await handle(req, reply);
      })()
        .catch((e) => reply.fail(e))
        .finally(() => {
          inFlight.delete(req.id);
          running.delete(task);
        });
      running.add(task);
    },
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
    signedOutElsewhere() {
      if (!wallet.connected && !wallet.profile) return;
      log('[frame] signed out in another tab');
      abortApprovals();
      wallet.forget();
      env.post(signedOut());
    },
  };
}
