// The wallet service (docs/embedded-wallet.md §2), on the frame's own origin: one call per route,
// each with a time-out, a request body of at most 16 KiB and an answer of at most 64 KiB. A
// non-2xx answer becomes an ApiError carrying the service's `{"error": "…"}` text, which is
// written for people ('Invalid code', 'Please try again after 12 seconds').

import { FrameError } from './messages.ts';
import { fetchText, HttpFailure, type Fetch } from './http.ts';

export const MAX_REQUEST_BYTES = 16 * 1024;
export const MAX_ANSWER_BYTES = 64 * 1024;
export const TIMEOUT_MS = 15_000;
/** The service holds a long-poll (device approval, Farcaster) for up to 100 s. */
export const LONG_POLL_TIMEOUT_MS = 110_000;

export class ApiError extends FrameError {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** What a login answers (email verify, social connect, Farcaster connect). */
export interface Login {
  session: string;
  userId: string;
  email: string | null;
  kek: string;
  keyCiphertext: string | null;
  userName: string | null;
  socialProvider: string | null;
}

/** `GET /w/v1/session`. */
export interface SessionInfo {
  userId: string;
  email: string | null;
  kek: string;
  keyCiphertext: string | null;
  address: string | null;
  userName: string | null;
  socialProvider: string | null;
  /** The project the session's account belongs to (a wallet is scoped per project). */
  projectId: string | null;
}

type Json = Record<string, unknown>;

interface CallOptions {
  token?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const str = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length <= max ? v : null);

function need(v: string | null): string {
  if (v === null) throw new ApiError(502, 'The wallet service sent an unexpected answer');
  return v;
}

function parseLogin(j: Json): Login {
  return {
    session: need(str(j.session, 512)),
    userId: need(str(j.userId, 256)),
    email: str(j.email, 320),
    kek: need(str(j.kek, 128)),
    keyCiphertext: str(j.keyCiphertext, 1024),
    userName: str(j.userName, 256),
    socialProvider: str(j.socialProvider, 64),
  };
}

function parseSession(j: Json): SessionInfo {
  return {
    userId: need(str(j.userId, 256)),
    email: str(j.email, 320),
    kek: need(str(j.kek, 128)),
    keyCiphertext: str(j.keyCiphertext, 1024),
    address: str(j.address, 64),
    userName: str(j.userName, 256),
    socialProvider: str(j.socialProvider, 64),
    projectId: str(j.projectId, 128),
  };
}

export type Api = ReturnType<typeof createApi>;

/** The client; `base` is the frame's origin (`location.origin`). */
export function createApi(fetchFn: Fetch, base: string) {
  async function call(method: 'GET' | 'POST', path: string, body: unknown, opts: CallOptions = {}): Promise<Json> {
    const headers: Record<string, string> = { accept: 'application/json' };
    let data: string | undefined;
    if (method === 'POST') {
      data = JSON.stringify(body ?? {});
      if (new TextEncoder().encode(data).length > MAX_REQUEST_BYTES) throw new FrameError('Request too large');
      headers['content-type'] = 'application/json';
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let res: { status: number; text: string };
    try {
      res = await fetchText(
        fetchFn,
        base + path,
        { method, headers, body: data, credentials: 'omit', cache: 'no-store', signal: opts.signal },
        opts.timeoutMs ?? TIMEOUT_MS,
        MAX_ANSWER_BYTES,
      );
    } catch (e) {
      if (e instanceof HttpFailure && e.kind === 'timeout') throw new ApiError(408, 'The wallet service did not answer in time');
      throw new ApiError(0, 'Unable to reach the wallet service');
    }
    let json: unknown = null;
    try {
      json = res.text ? JSON.parse(res.text) : null;
    } catch {
      // not JSON: handled below
    }
    const obj = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Json) : null;
    if (res.status < 200 || res.status > 299) {
      const text = obj && str(obj.error, 300);
      throw new ApiError(res.status, text || (res.status === 401 ? 'Session Expired' : 'Something went wrong'));
    }
    if (!obj) throw new ApiError(502, 'The wallet service sent an unexpected answer');
    return obj;
  }
  const post = (path: string, body: unknown, opts?: CallOptions) => call('POST', path, body, opts);
  const get = (path: string, opts?: CallOptions) => call('GET', path, undefined, opts);
  const q = encodeURIComponent;
  const long = (signal?: AbortSignal): CallOptions => ({ timeoutMs: LONG_POLL_TIMEOUT_MS, signal });

  return {
    async origins(projectId: string): Promise<string[]> {
      const j = await get(`/w/v1/origins?projectId=${q(projectId)}`);
      const list = Array.isArray(j.allowedOrigins) ? j.allowedOrigins : [];
      return list.filter((o): o is string => typeof o === 'string' && o.length <= 512).slice(0, 1000);
    },
    async emailStart(email: string, deviceId: string, projectId: string): Promise<'VERIFY_OTP' | 'VERIFY_DEVICE'> {
      const j = await post('/w/v1/email/start', { email, deviceId, projectId });
      if (j.action === 'VERIFY_OTP' || j.action === 'VERIFY_DEVICE') return j.action;
      throw new ApiError(502, 'The wallet service sent an unexpected answer');
    },
    /** One long-poll: resolves once approved; ApiError 408 when the service stopped waiting. */
    async deviceWait(email: string, deviceId: string, projectId: string, signal?: AbortSignal): Promise<void> {
      const j = await post('/w/v1/device/wait', { email, deviceId, projectId }, long(signal));
      if (j.approved !== true) throw new ApiError(408, 'Device not approved yet');
    },
    async emailVerify(email: string, deviceId: string, otp: string, projectId: string): Promise<Login> {
      return parseLogin(await post('/w/v1/email/verify', { email, deviceId, otp, projectId }));
    },
    async putKey(token: string, keyCiphertext: string, address: string): Promise<void> {
      await post('/w/v1/key', { keyCiphertext, address }, { token });
    },
    async session(token: string): Promise<SessionInfo> {
      return parseSession(await get('/w/v1/session', { token }));
    },
    async signout(token: string, timeoutMs: number): Promise<void> {
      await post('/w/v1/signout', {}, { token, timeoutMs });
    },
    async emailUpdate(token: string, email: string): Promise<void> {
      await post('/w/v1/email/update', { email }, { token });
    },
    async emailUpdatePrimary(token: string, otp: string): Promise<void> {
      await post('/w/v1/email/update/primary', { otp }, { token });
    },
    async emailUpdateSecondary(token: string, otp: string): Promise<string> {
      return need(str((await post('/w/v1/email/update/secondary', { otp }, { token })).email, 320));
    },
    async socialUri(provider: string, origin: string, projectId: string, deviceId: string): Promise<string> {
      return need(str((await get(`/w/v1/social/uri?provider=${q(provider)}&origin=${q(origin)}&projectId=${q(projectId)}&deviceId=${q(deviceId)}`)).uri, 4096));
    },
    async socialConnect(resultUri: string, deviceId: string): Promise<Login> {
      return parseLogin(await post('/w/v1/social/connect', { resultUri, deviceId }));
    },
    async farcasterChannel(origin: string, projectId: string, deviceId: string): Promise<{ url: string; channelToken: string }> {
      const j = await post('/w/v1/farcaster/channel', { origin, projectId, deviceId });
      return { url: need(str(j.url, 4096)), channelToken: need(str(j.channelToken, 512)) };
    },
    /** One long-poll: the login once the Farcaster client approved; ApiError 408 meanwhile. */
    async farcasterConnect(channelToken: string, deviceId: string, signal?: AbortSignal): Promise<Login> {
      return parseLogin(await post('/w/v1/farcaster/connect', { channelToken, deviceId }, long(signal)));
    },
  };
}
