/**
 * Sign-in's shell side, loaded only when the host asks for sign-in: the host's `siwx` option (or
 * the legacy `siweConfig`) as the sign-in module's configuration (`siwxConfig`: the page's domain
 * and address, the app's name and icon, the stored sessions, random bytes for nonces), and the
 * host's own verifier as the `@siwx` connector the module calls (one method per request). Every
 * decision is the module's (core/src/auth/slice.rs).
 */
import type { Eip1193Provider } from './provider';
import type { registerModule } from './modules';

/** The sessions the built-in verifier keeps (the core's `KEY_SIWX_SESSIONS`). */
const SESSIONS_KEY = '@wallet-modal/siwx_sessions';

/** What a dapp gives as `siwx` (all optional; `getNonce` and `verify` together make it the verifier). */
export interface SiwxOption {
  required?: boolean;
  statement?: string;
  expiresInSeconds?: number;
  getNonce?: () => Promise<string> | string;
  createMessage?: (fields: Record<string, unknown>) => Promise<string> | string;
  verify?: (args: { message: string; signature: string; caipAddress: string }) => Promise<boolean> | boolean;
  getSession?: (account: Record<string, unknown>) => Promise<unknown> | unknown;
  signOut?: (account: { caipAddress: string }) => Promise<unknown> | unknown;
}

/** AppKit's legacy `siweConfig`: the same with `verifyMessage`. */
export interface SiweConfig extends Omit<SiwxOption, 'verify'> {
  verifyMessage?: (args: { message: string; signature: string }) => Promise<boolean> | boolean;
}

const fn = (o: unknown, name: string): ((...a: unknown[]) => unknown) | null => {
  const f = o && typeof o === 'object' ? (o as Record<string, unknown>)[name] : undefined;
  return typeof f === 'function' ? (f as (...a: unknown[]) => unknown).bind(o) : null;
};

/** Why an option cannot be used, or null. */
export function siwxProblem(siwx: unknown, siweConfig: unknown): string | null {
  if (siwx != null && siweConfig != null) return 'Cannot set both siweConfig and siwx options';
  const o = siwx ?? siweConfig;
  if (o == null || typeof o === 'string') return null;
  if (typeof o !== 'object') return 'siwx must be an object or "default"';
  const verify = siwx != null ? fn(o, 'verify') : fn(o, 'verifyMessage');
  if (!!fn(o, 'getNonce') !== !!verify) return 'siwx needs both getNonce and verify to be its own verifier';
  return null;
}

/**
 * Tells the sign-in module the option in force: the element's `siwx` (else its `siwx` attribute:
 * present for the built-in verifier, `"required"` to require it) or the legacy `siweConfig`
 * (read when `siwx` changes and at start); a conflict is an `error` event and no sign-in.
 */
export function syncSiwx(
  el: HTMLElement,
  siwx: unknown,
  providers: Map<string, Eip1193Provider>,
  loaded: boolean,
  run: (event: object) => void,
  error: (detail: object) => void,
  register: typeof registerModule,
): void {
  // The sign-in module's files (named here, not in the initial load): the literal URL is what bundlers follow.
  register('siwx', {
    glue: () => import('../pkg/siwx/wallet_modal_siwx.js') as never,
    wasm: () => new URL('./wallet_modal_siwx_bg.wasm', import.meta.url),
  });
  const attr = el.getAttribute('siwx');
  const own = siwx ?? (attr == null || attr === 'false' ? undefined : attr === 'required' ? 'required' : 'default');
  const legacy = (el as unknown as { siweConfig?: unknown }).siweConfig ?? undefined;
  const problem = siwxProblem(own, legacy);
  if (problem) error({ code: 5000, key: problem.startsWith('Cannot set both') ? 'BOTH_SIWE_AND_SIWX' : 'SIWX_CONFIG', message: problem });
  const option = problem ? undefined : (own ?? legacy);
  providers.delete('@siwx');
  if (option === undefined) {
    if (loaded) run({ type: 'siwxConfig', enabled: false });
    return;
  }
  const { event, verifier } = siwxConfig(option, own === undefined);
  if (verifier) providers.set('@siwx', verifier);
  run(event);
}

/**
 * The module's configuration for an option (`'default'`, `'required'`, an object) that
 * [`siwxProblem`] accepted, and the host's verifier when it has one.
 */
export function siwxConfig(siwx: unknown, legacy: boolean): { event: object; verifier: Eip1193Provider | null } {
  const o = (typeof siwx === 'object' && siwx ? siwx : {}) as SiwxOption & SiweConfig;
  const verify = legacy ? fn(o, 'verifyMessage') : fn(o, 'verify');
  const custom = !!(fn(o, 'getNonce') && verify);
  const random = new Uint8Array(32);
  crypto.getRandomValues(random);
  let stored: string | null = null;
  try {
    stored = custom ? null : localStorage.getItem(SESSIONS_KEY);
  } catch {
    // Storage disabled: sessions last as long as the page.
  }
  const icon = document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href ?? null;
  const event = {
    type: 'siwxConfig',
    custom,
    createsMessage: custom && !!fn(o, 'createMessage'),
    required: siwx === 'required' || o.required === true,
    domain: location.host,
    uri: location.origin,
    appName: (document.title || location.host).slice(0, 128),
    appIcon: icon && icon.length <= 2048 ? icon : null,
    statement: typeof o.statement === 'string' ? o.statement : null,
    expiresInSeconds: typeof o.expiresInSeconds === 'number' ? o.expiresInSeconds : null,
    random: Array.from(random, (b) => b.toString(16).padStart(2, '0')).join(''),
    stored,
  };
  if (!custom) return { event, verifier: null };
  const verifier: Eip1193Provider = {
    async request({ method, params }) {
      const arg = Array.isArray(params) ? params[0] : undefined;
      const call = (name: string, ...a: unknown[]) => {
        const f = fn(o, name);
        return f ? f(...a) : null;
      };
      switch (method) {
        case 'getNonce':
          return call('getNonce');
        case 'createMessage':
          return call('createMessage', arg);
        case 'verify': {
          const { message, signature, caipAddress } = (arg ?? {}) as Record<string, string>;
          const ok = await (legacy ? verify!({ message, signature }) : verify!({ message, signature, caipAddress }));
          return ok === true;
        }
        case 'getSession':
          return (await call('getSession', arg)) ?? null;
        case 'signOut':
          await call('signOut', arg);
          return null;
        default:
          throw Object.assign(new Error(`siwx has no ${String(method).slice(0, 32)}`), { code: 4200 });
      }
    },
  };
  return { event, verifier };
}
