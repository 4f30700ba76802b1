// The secure frame page's script (served as /frame/frame.js by the wallet service's GET /frame):
// wires the frame to the browser. It runs only inside an iframe whose embedding origin it can
// tell; it answers only that origin's page, and only its parent window. The approval is drawn in
// this document (consent/); a sign-out reaches every frame of this origin (BroadcastChannel, and
// the storage event as a second path).

import { createConsent } from './consent/consent.ts';
import { createFrame } from './frame.ts';
import { initError } from './messages.ts';
import { embeddingOrigin } from './origin.ts';
import { createStore, sessionKey } from './store.ts';
import { frameParams } from './validate.ts';

const SIGN_OUT_CHANNEL = 'wm-frame/sign-out';

function main(): void {
  if (window.parent === window) return;
  const origin = embeddingOrigin(location.ancestorOrigins, document.referrer);
  if (!origin) return;
  const parent = window.parent;
  const post = (message: unknown) => parent.postMessage(message, origin);
  const params = frameParams(location.search);
  if (!params) {
    post(initError('Invalid App Configuration: the frame URL has no valid projectId'));
    return;
  }
  const scope = sessionKey(origin, params.projectId);
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(SIGN_OUT_CHANNEL) : null;
  const frame = createFrame({
    params,
    origin,
    base: location.origin,
    fetch: (input, init) => fetch(input, init),
    store: createStore(() => window.localStorage),
    post,
    reload: () => location.reload(),
    consent: createConsent(document, window, post),
    broadcastSignOut: () => channel?.postMessage({ scope }),
    log: (...args) => console.debug(...args),
  });
  channel?.addEventListener('message', (e: MessageEvent) => {
    if ((e.data as { scope?: unknown } | null)?.scope === scope) frame.signedOutElsewhere();
  });
  window.addEventListener('storage', (e: StorageEvent) => {
    if (e.key === scope && e.newValue === null) frame.signedOutElsewhere();
  });
  const onMessage = (event: MessageEvent) => {
    if (event.source !== parent || event.origin !== origin) return;
    frame.receive(event.data);
  };
  window.addEventListener('message', onMessage);
  void frame.start().then((ok) => {
    if (!ok) window.removeEventListener('message', onMessage);
  });
}

main();
