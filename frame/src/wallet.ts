// The logged-in state of one embedding origin and project: its session token (kept in the frame
// origin's storage), the account's profile and its keys (memory only). Logging in, restoring on
// load, checking the session before a signature and signing out all go through here.

import type { Api, Login, SessionInfo } from './api.ts';
import { ApiError } from './api.ts';
import { deriveKeys, newRootSecret, openRoot, sealRoot, type Keys } from './keys.ts';
import { FrameError } from './messages.ts';
import { sessionKey, type Store } from './store.ts';

export interface Profile {
  userId: string;
  email: string | null;
  userName: string | null;
  socialProvider: string | null;
}

export const SIGN_OUT_WAIT_MS = 3_000;

export class Wallet {
  private token: string | null = null;
  keys: Keys | null = null;
  profile: Profile | null = null;
  /** Bumped by every login and sign-out: work started under an older generation is dropped. */
  private generation = 0;
  private restoring: Promise<void> | null = null;
  /** A stored session was refused (401) and not yet reported. */
  private expired = false;

  private readonly key: string;

  constructor(
    private readonly api: Api,
    private readonly store: Store,
    origin: string,
    private readonly projectId: string,
  ) {
    this.key = sessionKey(origin, projectId);
  }

  get connected(): boolean {
    return this.keys !== null && this.token !== null;
  }

  /** The session token, or FrameError 'Not connected to email or social'. */
  session(): string {
    if (!this.token) throw new FrameError('Not connected to email or social', 4100);
    return this.token;
  }

  /** Runs an authenticated call; a 401 forgets the session (its message, 'Session Expired', is passed on). */
  async authed<T>(fn: (token: string) => Promise<T>): Promise<T> {
    const token = this.session();
    try {
      return await fn(token);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && this.token === token) this.forget();
      throw e;
    }
  }

  /**
   * The stored session of this origin, if any, read back from the service and its key decrypted.
   * A 401 forgets it; any other failure leaves it stored (tried again by `ensure`).
   */
  restore(): Promise<void> {
    this.restoring ??= (async () => {
      const token = this.store.get(this.key);
      if (!token || this.keys) return;
      const gen = this.generation;
      this.token = token;
      try {
        const info = await this.api.session(token);
        if (gen !== this.generation) return;
        await this.adoptSession(token, info, gen);
      } catch (e) {
        if (gen !== this.generation) return;
        if (e instanceof ApiError && e.status === 401) {
          this.forget();
          this.expired = true;
        } else if (e instanceof FrameError && !(e instanceof ApiError)) this.forget();
      }
    })().finally(() => {
      this.restoring = null;
    });
    return this.restoring;
  }

  /** Whether a stored session was refused since the last call (then reset). */
  takeExpired(): boolean {
    const e = this.expired;
    this.expired = false;
    return e;
  }

  /**
   * Right before a signature: the session is still live at the service and still this account's
   * (signed out in another tab, expired or revoked: the keys are dropped and nothing is signed).
   */
  async verifySession(): Promise<void> {
    const token = this.token;
    const profile = this.profile;
    if (!token || !profile || !this.keys) throw new FrameError('Not connected to email or social', 4100);
    if (this.store.get(this.key) !== token) {
      this.forget();
      throw new FrameError('Session Expired', 4100);
    }
    let info: SessionInfo;
    try {
      info = await this.api.session(token);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        if (this.token === token) this.forget();
        throw new FrameError('Session Expired', 4100);
      }
      throw new FrameError('Unable to check the session with the wallet service: nothing was signed', 4100);
    }
    if (this.token !== token || info.userId !== profile.userId || (info.projectId !== null && info.projectId !== this.projectId)) {
      throw new FrameError('Session Expired', 4100);
    }
  }

  /** Restores again when a session is stored but its keys are not loaded (an earlier try failed). */
  async ensure(): Promise<void> {
    if (!this.keys && this.store.get(this.key)) await this.restore();
  }

  /**
   * A fresh login (email code, social or Farcaster): the session is stored, then the key is
   * decrypted, or, for a new account, drawn, sealed and uploaded. On failure nothing is kept.
   */
  async login(login: Login): Promise<void> {
    const gen = ++this.generation;
    this.expired = false;
    this.keys = null;
    this.profile = null;
    this.token = login.session;
    this.store.set(this.key, login.session);
    try {
      const keys =
        login.keyCiphertext === null
          ? await this.createKey(login)
          : await deriveKeys(await openRoot(login.keyCiphertext, login.kek, login.userId));
      if (gen !== this.generation) throw new FrameError('Signed out meanwhile');
      this.keys = keys;
      this.profile = {
        userId: login.userId,
        email: login.email,
        userName: login.userName,
        socialProvider: login.socialProvider,
      };
    } catch (e) {
      if (gen === this.generation) this.forget();
      throw e;
    }
  }

  /** Fills the profile's userName / socialProvider from `GET /w/v1/session` when the login did not carry them. */
  async completeProfile(): Promise<void> {
    const p = this.profile;
    if (!p || (p.userName !== null && p.socialProvider !== null)) return;
    try {
      const info = await this.authed((t) => this.api.session(t));
      if (this.profile !== p) return;
      p.userName ??= info.userName;
      p.socialProvider ??= info.socialProvider;
      p.email ??= info.email;
    } catch {
      // best effort: the login itself stands
    }
  }

  /** Forgets the session and the keys here at once, then tells the service, waiting at most 3 s for it. */
  async signOut(): Promise<void> {
    const token = this.token;
    this.forget();
    this.expired = false;
    if (!token) return;
    await Promise.race([
      this.api.signout(token, SIGN_OUT_WAIT_MS).catch(() => {}),
      new Promise((r) => setTimeout(r, SIGN_OUT_WAIT_MS)),
    ]);
  }

  /** Drops the session token (memory and storage), the profile and the keys. */
  forget(): void {
    this.generation++;
    this.token = null;
    this.keys = null;
    this.profile = null;
    this.store.remove(this.key);
  }

  private async adoptSession(token: string, info: SessionInfo, gen: number): Promise<void> {
    if (info.projectId !== null && info.projectId !== this.projectId) throw new FrameError('The stored session belongs to another project');
    const keys =
      info.keyCiphertext === null
        ? await this.createKey({ session: token, ...info })
        : await deriveKeys(await openRoot(info.keyCiphertext, info.kek, info.userId));
    if (info.address && info.address.toLowerCase() !== keys.address.toLowerCase()) {
      throw new FrameError('The wallet key does not match the account');
    }
    if (gen !== this.generation) return;
    this.keys = keys;
    this.profile = { userId: info.userId, email: info.email, userName: info.userName, socialProvider: info.socialProvider };
  }

  /** A new account's key: R drawn here, sealed, uploaded with its address; on 409 (stored meanwhile, e.g. by another tab) the stored one. */
  private async createKey(l: { session: string; userId: string; kek: string }): Promise<Keys> {
    const root = newRootSecret();
    const sealed = await sealRoot(root, l.kek, l.userId);
    const keys = await deriveKeys(root);
    try {
      await this.api.putKey(l.session, sealed, keys.address);
      return keys;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) throw e;
    }
    const info = await this.api.session(l.session);
    if (info.keyCiphertext === null) throw new FrameError('The wallet key could not be stored');
    return deriveKeys(await openRoot(info.keyCiphertext, info.kek, info.userId));
  }
}
