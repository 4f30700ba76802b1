// The demo Farcaster client (stands in for Warpcast): reads the channel named by ?channelToken= from
// the demo's auth relay, asks "Sign in to <domain> as @alice?", and on Approve signs the Sign In With
// Farcaster message (EIP-4361, as @farcaster/auth-client's buildSignInMessage writes it) with the
// custody key of fid 1 and posts it to the relay (POST /v1/channel/authenticate, as auth-client's
// authenticate does). Bundled by ../build.mjs into dist/farcaster-client.js.
import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';

const RELAY = '/farcaster-relay/v1';
/** The relay's shared key (only a Farcaster client holds it; public in the demo). */
const AUTH_KEY = 'wallet-modal-demo-farcaster-client';
/**
 * Custody key of fid 1 (@alice): anvil's dev account #5 of the default mnemonic
 * (0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc). Public: never use it for anything real.
 */
const CUSTODY_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const ALICE = { fid: 1, username: 'alice', displayName: 'Alice (demo)' };
const TIMEOUT_MS = 15_000;

const account = privateKeyToAccount(CUSTODY_KEY);
const $ = (id) => document.getElementById(id);

function show(state, text, focus = false) {
  $('fc-app').dataset.state = state;
  const status = $('fc-status');
  status.textContent = text;
  if (focus) status.focus();
}

const text = (v, max) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : null);

async function relay(method, path, token, body) {
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['x-farcaster-auth-relay-key'] = AUTH_KEY;
  }
  const res = await fetch(RELAY + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    credentials: 'omit',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  let json = null;
  try {
    json = await res.json();
  } catch {
    // not JSON: the status says enough
  }
  return { status: res.status, json: json && typeof json === 'object' ? json : {} };
}

/** The SIWF message: what @farcaster/auth-client's build() writes for these parameters. */
function siwfMessage(request) {
  const p = request.signatureParams;
  const date = (s) => (text(s, 64) ? new Date(s) : undefined);
  return createSiweMessage({
    domain: p.domain,
    address: account.address,
    statement: 'Farcaster Auth',
    uri: p.siweUri,
    version: '1',
    chainId: 10,
    nonce: request.nonce,
    issuedAt: new Date(),
    expirationTime: date(p.expirationTime),
    notBefore: date(p.notBefore),
    requestId: text(p.requestId, 256) ?? undefined,
    resources: [`farcaster://fid/${ALICE.fid}`],
  });
}

async function approve(token, request) {
  const buttons = [$('fc-approve'), $('fc-reject')];
  for (const b of buttons) b.disabled = true;
  show('signing', 'Signing…');
  try {
    const message = siwfMessage(request);
    const signature = await account.signMessage({ message });
    const r = await relay('POST', '/channel/authenticate', token, {
      message,
      signature,
      fid: ALICE.fid,
      username: ALICE.username,
      displayName: ALICE.displayName,
      pfpUrl: `${location.origin}/public/getAssetImage/farcaster-alice`,
    });
    if (r.status === 201) {
      $('fc-request').hidden = true;
      show('signed', 'Signed in. You can go back to the site.', true);
      return;
    }
    if (r.status === 401) {
      $('fc-request').hidden = true;
      show('gone', 'This sign-in request has expired or was already answered.', true);
      return;
    }
    throw new Error(text(r.json.message, 300) || text(r.json.error, 300) || `HTTP ${r.status}`);
  } catch (e) {
    for (const b of buttons) b.disabled = false;
    show('error', `Could not sign in: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function reject() {
  $('fc-request').hidden = true;
  show('rejected', 'Sign-in rejected. You can go back to the site.', true);
}

async function main() {
  const token = new URLSearchParams(location.search).get('channelToken') ?? '';
  if (!/^[A-Za-z0-9]{1,128}$/.test(token)) {
    show('error', 'This link has no sign-in request (its channelToken is missing or malformed).');
    return;
  }
  let r;
  try {
    r = await relay('GET', '/channel/status', token);
  } catch {
    show('error', 'Could not reach the Farcaster relay.');
    return;
  }
  if (r.status === 401 || r.status === 200) {
    // 200: completed already (and that read closed the channel, as the official relay does).
    show('gone', 'This sign-in request has expired or was already answered.');
    return;
  }
  const p = r.json.signatureParams;
  if (r.status !== 202 || !p || !text(p.domain, 253) || !text(p.siweUri, 2048) || !text(r.json.nonce, 128)) {
    show('error', `Could not read the sign-in request (HTTP ${r.status}).`);
    return;
  }
  $('fc-domain').textContent = p.domain;
  $('fc-uri').textContent = p.siweUri;
  $('fc-custody').textContent = account.address;
  $('fc-approve').addEventListener('click', () => approve(token, r.json));
  $('fc-reject').addEventListener('click', reject);
  $('fc-request').hidden = false;
  show('pending', 'Waiting for your answer.');
  $('fc-approve').focus();
}

main();
