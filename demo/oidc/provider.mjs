#!/usr/bin/env node
// The demo's OpenID Connect provider: one real OIDC provider (npm `oidc-provider`, authorization code
// flow with PKCE, signed id_tokens, discovery, JWKS, token and userinfo endpoints) standing in for the
// six social logins of the embedded wallet (google, github, apple, facebook, x, discord): one client
// per provider name. Any login name signs in: there are no passwords.
//
//   node demo/oidc/provider.mjs --port P [--issuer-host 127.0.0.1] --redirect URL [--redirect URL ...]
//
//   --port P          TCP port (0 = any free port)
//   --issuer-host H   127.0.0.1 (default) or localhost: the issuer is http://H:P; it listens on
//                     127.0.0.1 only
//   --redirect URL    the redirect URI registered for every client (the wallet service's
//                     http://127.0.0.1:F/w/v1/social/callback); loopback http:// URLs only; repeatable
//   --alg A           how id_tokens are signed: EdDSA (default, Ed25519) or RS256 (a 2,048-bit RSA
//                     key: what Google, Keycloak, Auth0 and Dex use)
//
// Environment: WM_OIDC_CLIENT_SECRET (required, 32-256 characters): the secret of every client
// (client_secret_basic or client_secret_post at the token endpoint); the scripts draw one per run.
//
// Prints exactly one line on stdout once it accepts connections: `oidc on http://H:P`. Notices go
// to stderr. Stops on SIGTERM and SIGINT.
//
// Every sign-in asks for the login name and then for consent (the provider keeps no login and no
// grant from one sign-in to the next), so each popup looks the same. See server/README.md (Social login).

import { createServer } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

const PROVIDERS = {
  google: 'Google',
  github: 'GitHub',
  apple: 'Apple',
  facebook: 'Facebook',
  x: 'X',
  discord: 'Discord',
};

function fail(message) {
  process.stderr.write(`error: ${message}\nusage: node demo/oidc/provider.mjs --port P [--issuer-host 127.0.0.1|localhost] --redirect URL [--redirect URL ...] [--alg EdDSA|RS256] (env WM_OIDC_CLIENT_SECRET)\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string' },
      'issuer-host': { type: 'string', default: '127.0.0.1' },
      redirect: { type: 'string', multiple: true },
      alg: { type: 'string', default: 'EdDSA' },
    },
    strict: true,
  }).values;
} catch (e) {
  fail(e.message);
}

const port = Number(args.port);
if (args.port === undefined || !/^\d{1,5}$/.test(args.port) || port > 65535) fail('--port must be 0..65535');
const issuerHost = args['issuer-host'];
if (issuerHost !== '127.0.0.1' && issuerHost !== 'localhost') fail('--issuer-host must be 127.0.0.1 or localhost (loopback only)');
const redirects = args.redirect ?? [];
if (redirects.length === 0) fail('at least one --redirect URL is required');
for (const r of redirects) {
  let u;
  try {
    u = new URL(r);
  } catch {
    fail(`--redirect ${JSON.stringify(r)} is not a URL`);
  }
  if (u.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) || u.hash || u.username) {
    fail(`--redirect ${JSON.stringify(r)} must be an http:// URL on a loopback host`);
  }
}
const secret = process.env.WM_OIDC_CLIENT_SECRET ?? '';
if (secret.length < 32 || secret.length > 256) fail('WM_OIDC_CLIENT_SECRET must be set (32-256 characters)');

// Loaded after the checks: the library prints its notices when imported.
const { default: Provider, interactionPolicy } = await import('oidc-provider');

// ---------------------------------------------------------------------------------------------------------
// Accounts: the login name is the subject.

/** Lowercase letters, digits and . _ + - (1-64), or an email address (at most 254). */
const LOGIN = /^[a-z0-9._+-]{1,64}$/;
const EMAIL = /^[a-z0-9._+-]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** The subject for what was typed, or null. */
function subjectOf(typed) {
  const s = String(typed ?? '').trim().toLowerCase();
  if (s.length > 254) return null;
  return LOGIN.test(s) || EMAIL.test(s) ? s : null;
}

/** `email`: the login when it is an email, else `<login>@example.com`; `name`: its local part, capitalised. */
function claimsOf(sub) {
  const email = sub.includes('@') ? sub : `${sub}@example.com`;
  const local = email.slice(0, email.indexOf('@'));
  return { sub, email, email_verified: true, name: local.charAt(0).toUpperCase() + local.slice(1) };
}

// ---------------------------------------------------------------------------------------------------------
// Pages (no script, no inline style, nothing fetched from elsewhere)

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const CSS = `body{font:16px/1.4 system-ui,sans-serif;background:#f4f4f5;color:#18181b;margin:0}
main{max-width:22rem;margin:3rem auto;background:#fff;border-radius:12px;padding:1.5rem 1.75rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:0 0 .75rem}p{margin:.5rem 0}.note{color:#52525b;font-size:.9rem}.error{color:#b91c1c}
label{display:block;margin:1rem 0 .25rem;font-weight:600}input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;border:1px solid #a1a1aa;border-radius:6px}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #a1a1aa;background:#fff;cursor:pointer;margin-top:1rem}
button[type=submit].primary{background:#2563eb;border-color:#2563eb;color:#fff}.row{display:flex;gap:.5rem}ul{padding-left:1.25rem}`;

const redirectOrigins = [...new Set(redirects.map((r) => new URL(r).origin))];
// form-action also covers the redirects that follow a form (to the wallet service's callback).
const PAGE_CSP = `default-src 'none'; style-src 'self'; form-action 'self' ${redirectOrigins.join(' ')}; frame-ancestors 'none'; base-uri 'none'`;

function send(res, status, html) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('content-security-policy', PAGE_CSP);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'no-referrer');
  res.end(html);
}

function layout(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><link rel="stylesheet" href="/demo-oidc.css"></head><body><main>${body}</main></body></html>`;
}

const cancelForm = (uid) => `<form method="post" action="/interaction/${esc(uid)}/abort"><button type="submit" name="cancel">Cancel</button></form>`;

function loginPage(uid, clientName, error, typed) {
  return layout(`Sign in to ${clientName}`, `<h1>Sign in to ${esc(clientName)}</h1>
<p class="note">The wallet-modal demo's stand-in for ${esc(clientName.replace(' (demo)', ''))}: any login name signs in, no password.</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}/login">
<label for="login">Login name</label>
<input id="login" name="login" required maxlength="254" autocomplete="username" autofocus value="${esc(typed ?? '')}" placeholder="alice">
<p class="note">Letters, digits, . _ + - (or an email address).</p>
<div class="row"><button type="submit" class="primary">Sign in</button></div>
</form>${cancelForm(uid)}`);
}

function consentPage(uid, clientName, sub) {
  const c = claimsOf(sub);
  return layout(`${clientName}: allow access`, `<h1>Allow access?</h1>
<p>Signed in to ${esc(clientName)} as <strong id="account">${esc(sub)}</strong>.</p>
<p>The wallet-modal demo asks for:</p>
<ul><li>your account id (${esc(sub)})</li><li>your email address (${esc(c.email)})</li><li>your name (${esc(c.name)})</li></ul>
<form method="post" action="/interaction/${esc(uid)}/confirm"><div class="row"><button type="submit" class="primary">Allow</button></div></form>
${cancelForm(uid)}`);
}

function errorPage(res, status, message) {
  send(res, status, layout('Sign-in error', `<h1>Sign-in error</h1><p class="error">${esc(message)}</p>`));
}

// ---------------------------------------------------------------------------------------------------------
// The provider

const alg = args.alg;
if (alg !== 'EdDSA' && alg !== 'RS256') fail('--alg must be EdDSA or RS256');
const { privateKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: `demo-${randomBytes(6).toString('hex')}`, use: 'sig', alg };

// Login always prompts unless this very interaction just did it (no login is remembered).
const policy = interactionPolicy.base();
policy.get('login').checks.add(new interactionPolicy.Check(
  'every_sign_in',
  'every sign-in asks for the login name',
  (ctx) => (ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT),
));

const server = createServer();
try {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
} catch (e) {
  process.stderr.write(`error: cannot listen on 127.0.0.1:${port}: ${e.message}\n`);
  process.exit(1);
}
server.removeAllListeners('error');
server.on('error', (e) => process.stderr.write(`oidc: ${e.message}\n`));
const issuer = `http://${issuerHost}:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: Object.entries(PROVIDERS).map(([id, label]) => ({
    client_id: id,
    client_secret: secret,
    client_name: `${label} (demo)`,
    redirect_uris: redirects,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: alg,
  })),
  clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
  jwks: { keys: [signingKey] },
  enabledJWA: { idTokenSigningAlgValues: [alg], userinfoSigningAlgValues: [alg] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  scopes: ['openid', 'email', 'profile'],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  // The granted claims go into the id_token itself (as Google's do), not only to userinfo.
  conformIdTokenClaims: false,
  async findAccount(ctx, sub) {
    if (subjectOf(sub) !== sub) return undefined;
    return { accountId: sub, claims: async () => claimsOf(sub) };
  },
  // Only the grant of this very interaction: every sign-in asks for consent again.
  async loadExistingGrant(ctx) {
    const id = ctx.oidc.result?.consent?.grantId;
    return id ? ctx.oidc.provider.Grant.find(id) : undefined;
  },
  interactions: {
    policy,
    url: (ctx, interaction) => `/interaction/${interaction.uid}`,
  },
  features: {
    devInteractions: { enabled: false },
    rpInitiatedLogout: { enabled: false },
    userinfo: { enabled: true },
  },
  pkce: { methods: ['S256'], required: () => true },
  ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  clientBasedCORS: () => false,
  async renderError(ctx, out) {
    ctx.type = 'html';
    ctx.set('content-security-policy', PAGE_CSP);
    ctx.body = layout('Sign-in error', `<h1>Sign-in error</h1><p class="error">${esc(out.error)}: ${esc(out.error_description ?? '')}</p>`);
  },
});

// ---------------------------------------------------------------------------------------------------------
// Requests: the interaction pages here, everything else (discovery, /auth, /token, /jwks, /me) to the
// provider.

const MAX_FORM = 4096;

function readForm(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks = [];
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_FORM) {
        reject(new Error('form too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

async function interaction(req, res, uid, action) {
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    return errorPage(res, 400, 'This sign-in has expired or is not valid: start again from the app.');
  }
  if (details.uid !== uid) return errorPage(res, 400, 'This sign-in page does not match your session: start again from the app.');
  const { prompt, params, session } = details;
  const client = await provider.Client.find(params.client_id);
  const clientName = client?.clientName ?? String(params.client_id);
  if (req.method === 'GET' && action === '') {
    if (prompt.name === 'login') return send(res, 200, loginPage(uid, clientName));
    if (prompt.name === 'consent') return send(res, 200, consentPage(uid, clientName, session?.accountId ?? ''));
    return errorPage(res, 501, `Unsupported prompt ${prompt.name}`);
  }
  if (req.method !== 'POST') return errorPage(res, 405, 'Method not allowed');
  const form = await readForm(req);
  if (action === 'abort') {
    return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false });
  }
  if (action === 'login' && prompt.name === 'login') {
    const sub = subjectOf(form.get('login'));
    if (!sub) return send(res, 400, loginPage(uid, clientName, 'Use letters, digits, . _ + - (or an email address).', form.get('login')));
    return provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
  }
  if (action === 'confirm' && prompt.name === 'consent') {
    const grant = new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const { details: d } = prompt;
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    if (d.missingResourceScopes) {
      for (const [indicator, scope] of Object.entries(d.missingResourceScopes)) grant.addResourceScope(indicator, scope.join(' '));
    }
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  return errorPage(res, 400, 'This step does not match the sign-in: start again from the app.');
}

const handle = provider.callback();
const INTERACTION = /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(login|confirm|abort))?$/;

server.on('request', (req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/demo-oidc.css') {
    res.setHeader('content-type', 'text/css; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.end(CSS);
    return;
  }
  const m = INTERACTION.exec(path);
  if (m) {
    interaction(req, res, m[1], m[2] ?? '').catch((e) => {
      process.stderr.write(`oidc: interaction: ${e.message}\n`);
      if (!res.headersSent) errorPage(res, 500, 'The sign-in failed: start again from the app.');
      else res.end();
    });
    return;
  }
  handle(req, res);
});

provider.on('server_error', (ctx, e) => process.stderr.write(`oidc: server error: ${e.message}\n`));

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

process.stdout.write(`oidc on ${issuer}\n`);
