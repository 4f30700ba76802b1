// The wallet service of docs/embedded-wallet.md §2 in memory, for the frame's tests: a `fetch` that
// answers the /w/v1 routes (and JSON-RPC at http://rpc.test/ through `rpc`), with knobs to slow a
// route down, fail it, approve a device or a Farcaster channel. It keeps what a real service keeps
// (accounts per project with kek and ciphertext, sessions, codes, approved devices) so tests can
// check what the frame uploaded. The real service is tested in server/tests.
import crypto from 'node:crypto';

export const FRAME_BASE = 'http://frame.test';

export function fakeService({ allowedOrigins = ['http://127.0.0.1:*'], pollMs = 30, rpc = null } = {}) {
  const accounts = new Map(); // userId → account
  const sessions = new Map(); // token → userId
  const codes = new Map(); // email → code
  const approvedDevices = new Set(); // `${email}|${deviceId}`
  const farcaster = new Map(); // channelToken → { approvedAs: userName | null, deviceId, projectId }
  const socialStates = new Map(); // state → { deviceId, projectId }
  const calls = [];
  const mails = [];
  /** Per route (`POST /w/v1/signout`): async (body, req) => Response | undefined, tried before the route itself. */
  const overrides = new Map();
  let nextUser = 1;

  const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const err = (status, error, extra = {}) => json(status, { error, ...extra });
  const sleep = (ms, signal) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });

  function accountByEmail(email, projectId) {
    return [...accounts.values()].find((a) => a.email === email && a.projectId === projectId);
  }
  function newAccount(fields) {
    const a = {
      userId: `user-${nextUser++}`,
      email: null,
      kek: crypto.randomBytes(32).toString('base64'),
      keyCiphertext: null,
      address: null,
      userName: null,
      socialProvider: null,
      pendingEmail: null,
      ...fields,
    };
    accounts.set(a.userId, a);
    return a;
  }
  function login(a, deviceId) {
    if (a.email) approvedDevices.add(`${a.projectId}|${a.email}|${deviceId}`);
    const session = crypto.randomBytes(24).toString('base64url');
    sessions.set(session, a.userId);
    return { session, userId: a.userId, email: a.email, kek: a.kek, keyCiphertext: a.keyCiphertext };
  }
  function mailCode(email, subject = 'Your login code is') {
    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    codes.set(email, code);
    mails.push({ to: email, subject: `${subject} ${code}`, code });
    return code;
  }

  async function route(method, path, query, body, auth, signal) {
    const account = () => {
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : null;
      const id = token && sessions.get(token);
      return id ? accounts.get(id) : null;
    };
    const key = `${method} ${path}`;
    switch (key) {
      case 'GET /w/v1/origins':
        if (!query.get('projectId')) return err(400, 'projectId is required');
        return json(200, { allowedOrigins });
      case 'POST /w/v1/email/start': {
        if (typeof body.email !== 'string' || !body.email.includes('@')) return err(400, 'Invalid email');
        // Every device not yet approved for (project, email) — a new address too — is approved by
        // the link mailed to the address first: the answer says nothing of whether an account exists.
        if (!approvedDevices.has(`${body.projectId}|${body.email}|${body.deviceId}`)) {
          mails.push({ to: body.email, subject: 'Approve your new device', deviceId: body.deviceId, projectId: body.projectId });
          return json(200, { action: 'VERIFY_DEVICE' });
        }
        mailCode(body.email);
        return json(200, { action: 'VERIFY_OTP' });
      }
      case 'POST /w/v1/device/wait': {
        if (!body.projectId) return err(400, 'projectId is required');
        const k = `${body.projectId}|${body.email}|${body.deviceId}`;
        if (!approvedDevices.has(k)) {
          await sleep(pollMs, signal);
          if (!approvedDevices.has(k)) return err(408, 'Not approved yet');
        }
        mailCode(body.email);
        return json(200, { approved: true });
      }
      case 'POST /w/v1/email/verify': {
        if (!body.projectId) return err(400, 'projectId is required');
        if (codes.get(body.email) !== body.otp) return err(400, 'Invalid code');
        if (!approvedDevices.has(`${body.projectId}|${body.email}|${body.deviceId}`)) return err(403, 'This device is not approved: open the link in the email');
        codes.delete(body.email);
        return json(200, login(accountByEmail(body.email, body.projectId) ?? newAccount({ email: body.email, projectId: body.projectId }), body.deviceId));
      }
      case 'POST /w/v1/key': {
        const a = account();
        if (!a) return err(401, 'Session Expired');
        if (a.keyCiphertext) return err(409, 'A key is already stored');
        a.keyCiphertext = body.keyCiphertext;
        a.address = body.address;
        return json(200, {});
      }
      case 'GET /w/v1/session': {
        const a = account();
        if (!a) return err(401, 'Session Expired');
        const { userId, email, kek, keyCiphertext, address, userName, socialProvider, projectId } = a;
        return json(200, { userId, email, kek, keyCiphertext, address, userName, socialProvider, projectId });
      }
      case 'POST /w/v1/signout': {
        const token = auth?.slice(7);
        if (!sessions.delete(token)) return err(401, 'Session Expired');
        return json(200, {});
      }
      case 'POST /w/v1/email/update': {
        const a = account();
        if (!a) return err(401, 'Session Expired');
        if (accountByEmail(body.email, a.projectId)) return err(409, 'That email belongs to another account');
        a.pendingEmail = body.email;
        mailCode(a.email, 'Confirm your email change:');
        return json(200, { action: 'VERIFY_PRIMARY_OTP' });
      }
      case 'POST /w/v1/email/update/primary': {
        const a = account();
        if (!a) return err(401, 'Session Expired');
        if (codes.get(a.email) !== body.otp) return err(400, 'Invalid code');
        mailCode(a.pendingEmail, 'Confirm your email change:');
        return json(200, { action: 'VERIFY_SECONDARY_OTP' });
      }
      case 'POST /w/v1/email/update/secondary': {
        const a = account();
        if (!a) return err(401, 'Session Expired');
        if (codes.get(a.pendingEmail) !== body.otp) return err(400, 'Invalid code');
        a.email = a.pendingEmail;
        a.pendingEmail = null;
        return json(200, { email: a.email });
      }
      case 'POST /w/v1/test/expire-session': {
        const token = auth?.slice(7);
        sessions.delete(token);
        return json(200, {});
      }
      case 'GET /w/v1/social/uri': {
        const provider = query.get('provider');
        const origin = query.get('origin');
        if (!query.get('deviceId')) return err(400, 'deviceId is required');
        const state = crypto.randomBytes(8).toString('hex');
        socialStates.set(state, { deviceId: query.get('deviceId'), projectId: query.get('projectId') });
        return json(200, { uri: `http://idp.test/authorize?provider=${provider}&state=${state}&redirect=${encodeURIComponent(FRAME_BASE + '/social/done')}&origin=${encodeURIComponent(origin)}` });
      }
      case 'POST /w/v1/social/connect': {
        const u = new URL(body.resultUri);
        const sub = u.searchParams.get('sub');
        if (!sub) return err(400, 'Invalid result');
        const started = socialStates.get(u.searchParams.get('state'));
        socialStates.delete(u.searchParams.get('state'));
        if (!started) return err(400, 'Invalid result');
        if (started.deviceId !== body.deviceId) return err(403, 'This sign-in was started on another device');
        const provider = u.searchParams.get('provider') ?? 'google';
        const a =
          [...accounts.values()].find((x) => x.socialProvider === provider && x.userName === sub && x.projectId === started.projectId) ??
          newAccount({ email: `${sub}@${provider}.test`, userName: sub, socialProvider: provider, projectId: started.projectId });
        return json(200, login(a, body.deviceId));
      }
      case 'POST /w/v1/farcaster/channel': {
        const channelToken = crypto.randomBytes(12).toString('hex');
        farcaster.set(channelToken, { approvedAs: null, origin: body.origin, deviceId: body.deviceId, projectId: body.projectId });
        return json(200, { url: `https://farcaster.test/~/siwf?channelToken=${channelToken}`, channelToken });
      }
      case 'POST /w/v1/farcaster/connect': {
        const ch = farcaster.get(body.channelToken);
        if (!ch) return err(400, 'Unknown channel');
        if (ch.deviceId !== body.deviceId) return err(403, 'This sign-in was started on another device');
        if (!ch.approvedAs) {
          await sleep(pollMs, signal);
          if (!ch.approvedAs) return err(408, 'Not approved yet');
        }
        const a =
          [...accounts.values()].find((x) => x.socialProvider === 'farcaster' && x.userName === ch.approvedAs && x.projectId === ch.projectId) ??
          newAccount({ userName: ch.approvedAs, socialProvider: 'farcaster', projectId: ch.projectId });
        return json(200, login(a, body.deviceId));
      }
    }
    return err(404, 'Not found');
  }

  async function fetch(input, init = {}) {
    const url = new URL(input);
    if (rpc && url.origin === 'http://rpc.test') return rpc.fetch(input, init);
    if (url.origin !== FRAME_BASE) throw new TypeError('fetch failed');
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(init.body) : {};
    const auth = init.headers?.authorization;
    calls.push({ method, path: url.pathname, query: url.search, body, auth });
    const override = overrides.get(`${method} ${url.pathname}`);
    if (override) {
      const res = await override(body, { auth, signal: init.signal, sleep });
      if (res) return res;
    }
    return route(method, url.pathname, url.searchParams, body, auth, init.signal);
  }

  return {
    fetch,
    accounts,
    sessions,
    calls,
    mails,
    overrides,
    /** The visitor opened the device link mailed to `email` (for `projectId`) and approved it. */
    approveDevice: (email, deviceId, projectId = 'demo-project') => approvedDevices.add(`${projectId}|${email}|${deviceId}`),
    /** The device id the last device mail to `email` is for. */
    deviceOfLastMail: (email) => [...mails].reverse().find((m) => m.to === email && m.deviceId)?.deviceId,
    approveFarcaster: (channelToken, userName) => {
      farcaster.get(channelToken).approvedAs = userName;
    },
    lastCode: (email) => [...mails].reverse().find((m) => m.to === email && m.code)?.code,
    json,
    err,
  };
}
