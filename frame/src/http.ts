// fetch with a time-out and a bounded response body: shared by the wallet-service client (api.ts)
// and the JSON-RPC client (jsonrpc.ts).

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export class HttpFailure extends Error {
  /** 'timeout' (no answer in time), 'network' (no answer at all) or 'too-large' (body over the bound). */
  readonly kind: 'timeout' | 'network' | 'too-large';
  constructor(kind: 'timeout' | 'network' | 'too-large') {
    super(kind);
    this.kind = kind;
  }
}

/** The status and text of a response whose body is at most `maxBytes`, within `timeoutMs`. */
export async function fetchText(
  fetchFn: Fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  maxBytes: number,
): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const outer = init.signal;
  const onOuterAbort = () => controller.abort();
  if (outer?.aborted) controller.abort();
  outer?.addEventListener('abort', onOuterAbort);
  try {
    let res: Response;
    try {
      res = await fetchFn(url, { ...init, signal: controller.signal });
    } catch {
      throw new HttpFailure(controller.signal.aborted ? 'timeout' : 'network');
    }
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.body?.cancel().catch(() => {});
      throw new HttpFailure('too-large');
    }
    const text = await readBounded(res, maxBytes, controller.signal);
    return { status: res.status, text };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

async function readBounded(res: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        throw new HttpFailure('too-large');
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof HttpFailure) throw e;
    throw new HttpFailure(signal.aborted ? 'timeout' : 'network');
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}
