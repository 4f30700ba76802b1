// What the frame does for each app event of docs/embedded-wallet.md §1 (RPC_REQUEST and RPC_ABORT,
// which need the approval queue, are in frame.ts). A handler returns the success payload or throws
// a FrameError whose message (and code) the app is told.

import { ApiError, type Api, type Login } from './api.ts';
import { FrameError, jsonBytes } from './messages.ts';
import { chainId as parseChainId, email as parseEmail, httpUrl, must, otp as parseOtp, solanaRef, text } from './validate.ts';
import type { Wallet } from './wallet.ts';

/** What the frame remembers between events (never secrets: those are in Wallet). */
export interface FrameState {
  projectId: string;
  deviceId: string;
  /** The embedding page's origin. */
  origin: string;
  chainId: number | null;
  rpcUrl: string | null;
  /** The email of the login in progress (CONNECT_EMAIL → CONNECT_DEVICE / CONNECT_OTP). */
  loginEmail: string | null;
  /** The provider of the last GET_SOCIAL_REDIRECT_URI. */
  socialProvider: string | null;
  /** The Farcaster channel of the last GET_FARCASTER_URI. */
  farcasterChannel: string | null;
  theme: { themeMode: 'light' | 'dark' | null; themeVariables: Record<string, unknown> };
  dappData: { metadata: Record<string, unknown> | null; sdkVersion: string | null; sdkType: string | null };
}

export interface HandlerContext {
  api: Api;
  wallet: Wallet;
  state: FrameState;
  reload: () => void;
  /** Long-polls running per kind ('device', 'farcaster'): a newer one replaces the older. */
  polls: Map<string, AbortController>;
  /** SYNC_THEME: the approval takes the modal's theme. */
  theme: (t: { themeMode: 'light' | 'dark' | null; themeVariables: Record<string, unknown> }) => void;
  /** This wallet signed out here: the approvals end and the other tabs hear it. */
  signedOut: () => void;
}

type Payload = Record<string, unknown>;
export type Handler = (ctx: HandlerContext, payload: Payload) => Promise<unknown>;

/** No answer is posted (RELOAD: the page goes away). */
export const NO_ANSWER = Symbol('no answer');

export const LONG_POLL_TOTAL_MS = 120_000;
const RETRY_PAUSE_MS = 500;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Retries `once` while the service answers 408 (still waiting), for at most 120 s in all. */
export async function longPoll<T>(ctx: HandlerContext, kind: string, once: (signal: AbortSignal) => Promise<T>, totalMs = LONG_POLL_TOTAL_MS): Promise<T> {
  ctx.polls.get(kind)?.abort();
  const controller = new AbortController();
  ctx.polls.set(kind, controller);
  const timer = setTimeout(() => controller.abort(), totalMs);
  try {
    for (;;) {
      try {
        return await once(controller.signal);
      } catch (e) {
        if (controller.signal.aborted) throw new FrameError('Timed out waiting for approval');
        if (!(e instanceof ApiError && e.status === 408)) throw e;
      }
      await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
      if (controller.signal.aborted) throw new FrameError('Timed out waiting for approval');
    }
  } finally {
    clearTimeout(timer);
    if (ctx.polls.get(kind) === controller) ctx.polls.delete(kind);
  }
}

/** The Login user of §1; the address EIP-55 (as viem's account gives it). */
export function loginUser(ctx: HandlerContext, chainId: number | null) {
  const { keys, profile } = ctx.wallet;
  if (!keys || !profile || !ctx.wallet.connected) throw new FrameError('Not connected to email or social', 4100);
  const user: Record<string, unknown> = {
    email: profile.email,
    address: keys.address,
    chainId: chainId ?? ctx.state.chainId,
    // The same key's account in each family: EVM, and Solana where WebCrypto has Ed25519.
    accounts: [{ address: keys.address, type: 'eoa' }, ...(keys.solanaAddress ? [{ address: keys.solanaAddress, type: 'eoa', namespace: 'solana' }] : [])],
    preferredAccountType: 'eoa',
    smartAccountDeployed: false,
  };
  if (profile.userName !== null) user.userName = profile.userName;
  if (profile.socialProvider !== null) user.socialProvider = profile.socialProvider;
  return user;
}

async function afterLogin(ctx: HandlerContext, login: Login, socialProvider: string | null): Promise<void> {
  await ctx.wallet.login(socialProvider && !login.socialProvider ? { ...login, socialProvider } : login);
  ctx.state.loginEmail = null;
  await ctx.wallet.completeProfile();
}

const provider = (v: unknown) => (typeof v === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(v) ? v : null);

function boundedObject(v: unknown, max: number): Record<string, unknown> | null {
  if (!isRecord(v)) return null;
  const n = jsonBytes(v);
  return n !== null && n <= max ? v : null;
}

export const handlers: Record<string, Handler> = {
  async CONNECT_EMAIL(ctx, p) {
    const email = must(parseEmail(p.email), 'Invalid email');
    const action = await ctx.api.emailStart(email, ctx.state.deviceId, ctx.state.projectId);
    ctx.state.loginEmail = email;
    return { action };
  },

  async CONNECT_DEVICE(ctx) {
    const email = must(ctx.state.loginEmail, 'No email login in progress');
    await longPoll(ctx, 'device', (signal) => ctx.api.deviceWait(email, ctx.state.deviceId, ctx.state.projectId, signal));
    return {};
  },

  async CONNECT_OTP(ctx, p) {
    const email = must(ctx.state.loginEmail, 'No email login in progress');
    const otp = must(parseOtp(p.otp), 'Invalid code');
    await afterLogin(ctx, await ctx.api.emailVerify(email, ctx.state.deviceId, otp, ctx.state.projectId), null);
    return {};
  },

  async GET_USER(ctx, p) {
    // (On a Solana network the element names it by its CAIP-2 reference: the user's EVM chain stays.)
    const chainId = p.chainId === undefined || solanaRef(p.chainId) ? null : must(parseChainId(p.chainId), 'Invalid chainId');
    await ctx.wallet.ensure();
    // Nothing is signed here: a sign-in is a personal_sign the visitor approves in the frame.
    return loginUser(ctx, chainId);
  },

  async IS_CONNECTED(ctx) {
    await ctx.wallet.ensure();
    if (ctx.wallet.connected) return { isConnected: true };
    // Once after a stored session was refused (401): the element then says 'Session Expired'.
    return ctx.wallet.takeExpired() ? { isConnected: false, sessionExpired: true } : { isConnected: false };
  },

  async GET_CHAIN_ID(ctx) {
    return { chainId: must(ctx.state.chainId, 'No network selected') };
  },

  async SWITCH_NETWORK(ctx, p) {
    // A Solana network: its requests carry their network and node; the EVM one stays.
    const solana = solanaRef(p.chainId);
    if (solana) return { chainId: solana };
    const chainId = must(parseChainId(p.chainId), 'Invalid chainId');
    const rpcUrl = p.rpcUrl === undefined || p.rpcUrl === null ? null : must(httpUrl(p.rpcUrl), 'Invalid rpcUrl');
    ctx.state.chainId = chainId;
    ctx.state.rpcUrl = rpcUrl;
    return { chainId };
  },

  async SIGN_OUT(ctx) {
    for (const c of ctx.polls.values()) c.abort();
    ctx.state.loginEmail = null;
    ctx.state.farcasterChannel = null;
    const was = ctx.wallet.connected;
    await ctx.wallet.signOut();
    if (was) ctx.signedOut();
    return {};
  },

  async UPDATE_EMAIL(ctx, p) {
    const email = must(parseEmail(p.email), 'Invalid email');
    await ctx.wallet.authed((t) => ctx.api.emailUpdate(t, email));
    return { action: 'VERIFY_PRIMARY_OTP' };
  },

  async UPDATE_EMAIL_PRIMARY_OTP(ctx, p) {
    const otp = must(parseOtp(p.otp), 'Invalid code');
    await ctx.wallet.authed((t) => ctx.api.emailUpdatePrimary(t, otp));
    return { action: 'VERIFY_SECONDARY_OTP' };
  },

  async UPDATE_EMAIL_SECONDARY_OTP(ctx, p) {
    const otp = must(parseOtp(p.otp), 'Invalid code');
    const email = await ctx.wallet.authed((t) => ctx.api.emailUpdateSecondary(t, otp));
    if (ctx.wallet.profile) ctx.wallet.profile.email = email;
    return { email };
  },

  async GET_SOCIAL_REDIRECT_URI(ctx, p) {
    const name = must(provider(p.provider), 'Invalid provider');
    const uri = must(httpUrl(await ctx.api.socialUri(name, ctx.state.origin, ctx.state.projectId, ctx.state.deviceId)), 'The wallet service sent an unexpected answer');
    ctx.state.socialProvider = name;
    return { uri };
  },

  async CONNECT_SOCIAL(ctx, p) {
    const uri = must(text(p.uri, 4096) || null, 'Invalid result URI');
    await afterLogin(ctx, await ctx.api.socialConnect(uri, ctx.state.deviceId), ctx.state.socialProvider);
    return loginUser(ctx, null);
  },

  async GET_FARCASTER_URI(ctx) {
    const { url, channelToken } = await ctx.api.farcasterChannel(ctx.state.origin, ctx.state.projectId, ctx.state.deviceId);
    ctx.state.farcasterChannel = channelToken;
    return { url };
  },

  async CONNECT_FARCASTER(ctx) {
    const channel = must(ctx.state.farcasterChannel, 'No Farcaster sign-in in progress');
    const login = await longPoll(ctx, 'farcaster', (signal) => ctx.api.farcasterConnect(channel, ctx.state.deviceId, signal));
    ctx.state.farcasterChannel = null;
    await afterLogin(ctx, login, 'farcaster');
    // The table's {userName}, inside the whole Login user: the element reads an address from it.
    return loginUser(ctx, null);
  },

  async SYNC_THEME(ctx, p) {
    const mode = p.themeMode;
    if (mode !== undefined && mode !== null && mode !== 'light' && mode !== 'dark') throw new FrameError('Invalid themeMode');
    const vars = p.themeVariables === undefined || p.themeVariables === null ? {} : must(boundedObject(p.themeVariables, 16 * 1024), 'Invalid themeVariables');
    ctx.state.theme = { themeMode: mode ?? null, themeVariables: vars };
    ctx.theme(ctx.state.theme);
    return {};
  },

  async SYNC_DAPP_DATA(ctx, p) {
    if (p.projectId !== undefined && p.projectId !== ctx.state.projectId) throw new FrameError('projectId does not match the frame');
    const metadata = p.metadata === undefined || p.metadata === null ? null : must(boundedObject(p.metadata, 16 * 1024), 'Invalid metadata');
    const version = (v: unknown, name: string) => (v === undefined || v === null ? null : must(text(v, 64), `Invalid ${name}`));
    ctx.state.dappData = { metadata, sdkVersion: version(p.sdkVersion, 'sdkVersion'), sdkType: version(p.sdkType, 'sdkType') };
    return {};
  },

  async GET_SMART_ACCOUNT_ENABLED_NETWORKS() {
    return { smartAccountEnabledNetworks: [] };
  },

  async SET_PREFERRED_ACCOUNT(ctx, p) {
    return eoaOnly(ctx, p);
  },

  async INIT_SMART_ACCOUNT(ctx, p) {
    return eoaOnly(ctx, p);
  },

  async RELOAD(ctx) {
    ctx.reload();
    return NO_ANSWER;
  },
};

function eoaOnly(ctx: HandlerContext, p: Payload) {
  if (p.type !== 'eoa') throw new FrameError('Smart accounts are not available yet');
  return { type: 'eoa', address: ctx.wallet.keys?.address ?? null };
}
