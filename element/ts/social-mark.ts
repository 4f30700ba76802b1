/**
 * The mark a tab keeps while a social login it started is under way (`sessionStorage`: this tab
 * only). A Telegram mini-app login comes back to the page with `result_uri` in its address; that
 * result is taken only when this tab started a login in the last 15 minutes, so that a link
 * carrying someone else's result (login CSRF) is dropped.
 */
const KEY = 'wm-social-started';
const FOR_MS = 15 * 60_000;

/** This tab starts a social login now. */
export function markSocialStarted(now = Date.now()): void {
  try {
    sessionStorage.setItem(KEY, String(now));
  } catch {
    // Storage blocked: a return through the address is then not heard (the popup's result still is).
  }
}

/** Whether this tab started a social login recently; the mark is used up. */
export function takeSocialStarted(now = Date.now()): boolean {
  try {
    const started = Number(sessionStorage.getItem(KEY));
    sessionStorage.removeItem(KEY);
    return now - started <= FOR_MS && now >= started;
  } catch {
    return false;
  }
}
