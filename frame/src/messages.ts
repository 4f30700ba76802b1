// The posted-message envelope (docs/embedded-wallet.md §1): what the frame accepts from the app and
// how it answers. Anything that is not a well-formed, bounded request is dropped without a word: a
// reply would tell a probing page that the frame is there.

export const APP_PREFIX = '@w3m-app/';
export const FRAME_PREFIX = '@w3m-frame/';
export const MAX_TYPE = 64;
export const MAX_PAYLOAD_BYTES = 256 * 1024;
const ID = /^[A-Za-z0-9_-]{16,64}$/;
const EVENT = /^[A-Z][A-Z0-9_]*$/;

/** A request from the app: `event` without its prefix, e.g. `CONNECT_EMAIL`. */
export interface AppRequest {
  event: string;
  id: string;
  payload: Record<string, unknown>;
}

/** An error answer's payload. */
export interface Failure {
  message: string;
  code?: number;
}

/** An error with the message (and code) the app is told. */
export class FrameError extends Error {
  readonly code?: number;
  constructor(message: string, code?: number) {
    super(message);
    this.code = code;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The UTF-8 length of `value`'s JSON, or null when it has none (a cycle, a BigInt, a function). */
export function jsonBytes(value: unknown): number | null {
  try {
    const s = JSON.stringify(value);
    if (s === undefined) return null;
    // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes.
    if (s.length * 3 <= MAX_PAYLOAD_BYTES) return s.length;
    return new TextEncoder().encode(s).length;
  } catch {
    return null;
  }
}

/**
 * The request in `data`, or null when it is not one: `type` a string of at most 64 characters
 * starting with `@w3m-app/`, `id` 16–64 characters of `[A-Za-z0-9_-]`, `payload` an object (or
 * absent / null, read as `{}`) whose JSON is at most 256 KiB.
 */
export function parseRequest(data: unknown): AppRequest | null {
  if (!isRecord(data)) return null;
  const { type, id } = data;
  if (typeof type !== 'string' || type.length > MAX_TYPE || !type.startsWith(APP_PREFIX)) return null;
  const event = type.slice(APP_PREFIX.length);
  if (!EVENT.test(event)) return null;
  if (typeof id !== 'string' || !ID.test(id)) return null;
  const payload = data.payload ?? {};
  if (!isRecord(payload)) return null;
  const size = jsonBytes(payload);
  if (size === null || size > MAX_PAYLOAD_BYTES) return null;
  return { event, id, payload };
}

/** The answer to `req`: `@w3m-frame/<EVENT>_SUCCESS` with `payload`. */
export function success(req: AppRequest, payload: unknown) {
  return { type: `${FRAME_PREFIX}${req.event}_SUCCESS`, id: req.id, payload };
}

/** The answer to `req`: `@w3m-frame/<EVENT>_ERROR` with `{message, code?}`. */
export function failure(req: AppRequest, error: unknown) {
  return { type: `${FRAME_PREFIX}${req.event}_ERROR`, id: req.id, payload: toFailure(error) };
}

/** `{message, code?}` for any thrown value; unexpected errors do not leak their text. */
export function toFailure(error: unknown): Failure {
  if (error instanceof FrameError) {
    return error.code === undefined ? { message: error.message } : { message: error.message, code: error.code };
  }
  return { message: 'Something went wrong' };
}

export const ready = () => ({ type: `${FRAME_PREFIX}READY`, payload: {} });
export const initError = (message: string) => ({ type: `${FRAME_PREFIX}INIT_ERROR`, payload: { message } });
/** Unsolicited: the wallet was signed out by another frame of this origin (another tab). */
export const signedOut = () => ({ type: `${FRAME_PREFIX}SIGNED_OUT`, payload: {} });

/** Answers a request exactly once: later calls are no-ops. */
export interface Reply {
  ok(payload: unknown): void;
  fail(error: unknown): void;
  readonly done: boolean;
}

export function replier(req: AppRequest, post: (message: unknown) => void): Reply {
  let done = false;
  return {
    ok(payload) {
      if (done) return;
      done = true;
      post(success(req, payload));
    },
    fail(error) {
      if (done) return;
      done = true;
      post(failure(req, error));
    },
    get done() {
      return done;
    },
  };
}
