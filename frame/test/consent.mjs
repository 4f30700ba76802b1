// For the Node tests of frame/src/frame.ts: the visitor's side of the approval as a script. The
// real approval (frame/src/consent/, drawn in the frame's document, approved only by a trusted
// click) is tested in Chromium (test/browser/element/consent.test.ts); here `decide(review,
// header, signal)` answers for the visitor, and every approval shown is recorded.
export function scriptedConsent(decide = async () => true) {
  const asked = [];
  const state = { theme: null, closed: 0, queued: 0, busy: [] };
  const consent = {
    async ask(review, header, signal) {
      asked.push({ review, header });
      if (signal.aborted) return false;
      return Promise.race([decide(review, header, signal), new Promise((r) => signal.addEventListener('abort', () => r(false), { once: true }))]);
    },
    busy(text) {
      state.busy.push(text);
    },
    close() {
      state.closed++;
    },
    setQueued(n) {
      state.queued = n;
    },
    theme(t) {
      state.theme = t;
    },
  };
  return { consent, asked, state };
}
