/**
 * The views' initial stylesheet, adopted into the shadow root as a constructable `CSSStyleSheet`
 * (no `<style>` element, no style attributes — works under a strict CSP). It holds what can show
 * before any lazy chunk: the frame, the Connect view (rendered ahead, so no flash on open) and
 * ConfigError. Rules only lazily loaded views use live in their capability's `styles.ts` (and the
 * shared ones in `view-styles.ts`), adopted with their chunk (`useLazyStyles`), after this sheet.
 *
 * Host-page theme variables (all optional; read through `var()` fallbacks so they work whether
 * they are set on the <wallet-modal> element or inherited from an ancestor):
 *   --wm-accent                 accent colour (default #3396ff)
 *   --wm-font-family            font stack
 *   --wm-font-size-master       base unit for every font size (default 10px)
 *   --wm-border-radius-master   base unit for every radius (default 4px)
 *   --wm-color-mix              colour mixed into the backgrounds …
 *   --wm-color-mix-strength     … by this unitless percentage (0–100, default 0)
 *   --wm-z-index                overlay z-index (default 999)
 *   --wm-qr-color               QR code colour
 *
 * Contrast (WCAG AA, checked by axe in the browser tests): text in the accent or success colour uses
 * --_accent-text / --_success-text (darkened in light, lightened in dark), primary buttons put white
 * on --_accent-fill (a host's --wm-accent as given, else the default accent darkened to #2671bf),
 * and initials placeholders mix their tint toward black
 * (light) or white (dark), so all text stays at >= 4.5:1 with the default accent.
 */
export const css = String.raw`
.wm-root { display: contents; }

.wm-app {
  --_accent: var(--wm-accent, #3396ff);
  --_font: var(--wm-font-family, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif);
  --_fs: var(--wm-font-size-master, 10px);
  --_r: var(--wm-border-radius-master, 4px);
  --_mix: var(--wm-color-mix, transparent);
  --_mix-strength: calc(var(--wm-color-mix-strength, 0) * 1%);
  --_z: var(--wm-z-index, 999);
  --_qr: var(--wm-qr-color, #141414);

  --_bg: color-mix(in srgb, var(--_mix) var(--_mix-strength), var(--_bg-base));
  --_bg2: color-mix(in srgb, var(--_mix) var(--_mix-strength), var(--_bg2-base));
  --_bg3: color-mix(in srgb, var(--_mix) var(--_mix-strength), var(--_bg3-base));
  --_accent-soft: color-mix(in srgb, var(--_accent) 14%, transparent);
  --_accent-fill: var(--wm-accent, #2671bf);

  --_fs-micro: calc(var(--_fs) * 1.0);
  --_fs-small: calc(var(--_fs) * 1.2);
  --_fs-body: calc(var(--_fs) * 1.4);
  --_fs-title: calc(var(--_fs) * 1.6);
  --_fs-large: calc(var(--_fs) * 2.0);
  --_r-xs: calc(var(--_r) * 1);
  --_r-s: calc(var(--_r) * 2);
  --_r-m: calc(var(--_r) * 3);
  --_r-l: calc(var(--_r) * 4);
  --_r-card: calc(var(--_r) * 9);
  --_r-pill: calc(var(--_r) * 25);

  font-family: var(--_font);
  font-size: var(--_fs-body);
  line-height: 1.4;
  color: var(--_fg);
  -webkit-font-smoothing: antialiased;
}

.wm-app[data-theme='light'] {
  color-scheme: light;
  --_bg-base: #ffffff;
  --_bg2-base: #f1f3f3;
  --_bg3-base: #e4e7e7;
  --_fg: #141414;
  --_fg2: #5f6464;
  --_fg3: #9a9f9f;
  --_border: rgba(0, 0, 0, 0.08);
  --_overlay-bg: rgba(0, 0, 0, 0.3);
  --_error: #c2301f;
  --_success: #1f9d55;
  --_accent-text: color-mix(in srgb, var(--_accent) 65%, #000);
  --_success-text: #12703a;
  --_shadow: 0 8px 32px rgba(0, 0, 0, 0.12);
}

.wm-app[data-theme='dark'] {
  color-scheme: dark;
  --_bg-base: #191a1a;
  --_bg2-base: #242626;
  --_bg3-base: #2f3232;
  --_fg: #e4e7e7;
  --_fg2: #949e9e;
  --_fg3: #6e7777;
  --_border: rgba(255, 255, 255, 0.08);
  --_overlay-bg: rgba(0, 0, 0, 0.55);
  --_error: #f26b5b;
  --_success: #3cc97a;
  --_accent-text: color-mix(in srgb, var(--_accent) 80%, #fff);
  --_success-text: var(--_success);
  --_shadow: 0 8px 32px rgba(0, 0, 0, 0.4);
}

.wm-app *, .wm-app *::before, .wm-app *::after { box-sizing: border-box; }

/* ---- frame ---- */

.wm-overlay {
  position: fixed;
  inset: 0;
  z-index: var(--_z);
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
  background: var(--_overlay-bg);
  animation: wm-fade-in 150ms ease;
}

.wm-card {
  position: relative;
  display: flex;
  flex-direction: column;
  width: min(360px, 100%);
  max-height: calc(100dvh - 32px);
  background: var(--_bg);
  color: var(--_fg);
  border: 1px solid var(--_border);
  border-radius: var(--_r-card);
  box-shadow: var(--_shadow);
  outline: none;
  overflow: hidden;
  animation: wm-card-in 150ms ease;
}

.wm-card.wm-embedded {
  max-height: none;
  box-shadow: none;
  animation: none;
}

.wm-shake { animation: wm-shake 500ms cubic-bezier(0.36, 0.07, 0.19, 0.97) both; }

.wm-header {
  position: relative;
  display: grid;
  grid-template-columns: calc(var(--_fs) * 3.6) 1fr calc(var(--_fs) * 3.6);
  align-items: center;
  gap: 8px;
  padding: 14px 14px 10px;
}

.wm-header-spacer { display: block; width: calc(var(--_fs) * 3.6); }

.wm-title {
  margin: 0;
  min-width: 0;
  text-align: center;
  font-size: var(--_fs-title);
  font-weight: 600;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
}

.wm-title-text { display: inline-block; animation: wm-fade-in 120ms ease; }

.wm-loading-bar {
  position: absolute;
  left: 0;
  right: 0;
  bottom: 0;
  height: 2px;
  background: linear-gradient(90deg, transparent, var(--_accent), transparent);
  background-size: 50% 100%;
  background-repeat: no-repeat;
  animation: wm-loading 1s linear infinite;
}

.wm-body {
  overflow-x: hidden;
  overflow-y: auto;
  overscroll-behavior: contain;
}

.wm-body.wm-body-animated { transition: height 150ms ease; }

.wm-body-inner { padding: 4px 14px 16px; }
.wm-footer { padding: 8px; text-align: center; font-size: var(--_fs-small); color: var(--_fg2); }

.wm-view-transition { animation: wm-view-in 150ms ease; }

.wm-view { display: flex; flex-direction: column; gap: 12px; }

.wm-suspense { display: flex; justify-content: center; padding: 32px 0; font-size: 24px; }

/* ---- controls ---- */

.wm-app button {
  font: inherit;
  color: inherit;
  margin: 0;
  -webkit-tap-highlight-color: transparent;
}

.wm-app button:focus-visible,
.wm-app a:focus-visible,
.wm-app input:focus-visible,
.wm-card:focus-visible {
  outline: 2px solid var(--_accent);
  outline-offset: 2px;
}

.wm-icon { flex: none; width: 1em; height: 1em; }

.wm-icon-button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: calc(var(--_fs) * 3.6);
  height: calc(var(--_fs) * 3.6);
  padding: 0;
  border: none;
  border-radius: var(--_r-m);
  background: transparent;
  color: var(--_fg2);
  font-size: calc(var(--_fs) * 2);
  cursor: pointer;
}
.wm-icon-button:hover { background: var(--_bg2); color: var(--_fg); }

.wm-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }

.wm-row {
  display: flex;
  align-items: center;
  gap: 12px;
  width: 100%;
  min-height: 56px;
  padding: 8px;
  padding-inline-end: 14px;
  border: 1px solid transparent;
  border-radius: var(--_r-l);
  background: var(--_bg2);
  text-align: start;
  cursor: pointer;
  transition: background-color 120ms ease;
}
.wm-row:hover:not(:disabled) { background: var(--_bg3); }
.wm-row:disabled { cursor: not-allowed; opacity: 0.55; }

.wm-row-text { flex: 1; min-width: 0; display: flex; flex-direction: column; }
.wm-row-name { font-weight: 500; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wm-row-end { flex: none; color: var(--_fg3); font-size: calc(var(--_fs) * 1.8); }
/* Right to left: arrows that say "back" and "next" point the other way. */
.wm-back svg:dir(rtl), .wm-row-end:dir(rtl) { transform: scaleX(-1); }

.wm-badge {
  flex: none;
  display: inline-flex;
  align-items: center;
  gap: 4px;
  padding: 2px 8px;
  border-radius: var(--_r-pill);
  font-size: var(--_fs-small);
  font-weight: 600;
  white-space: nowrap;
}
.wm-badge-installed { color: var(--_success-text); background: color-mix(in srgb, var(--_success) 14%, transparent); }
.wm-badge-recent { color: var(--_accent-text); background: var(--_accent-soft); }
.wm-badge-count { color: var(--_fg2); background: var(--_bg3); }



.wm-text { margin: 0; color: var(--_fg2); text-align: center; }




/* ---- images ---- */

.wm-image {
  position: relative;
  flex: none;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  overflow: hidden;
  border-radius: var(--_r-m);
  background: var(--_bg3);
  color: var(--_fg2);
  font-weight: 700;
  user-select: none;
}
.wm-image img { width: 100%; height: 100%; object-fit: cover; display: block; }
.wm-image-md { width: 40px; height: 40px; font-size: var(--_fs-small); }
.wm-image-icon { font-size: calc(var(--_fs) * 2); color: var(--_accent); background: var(--_accent-soft); }
.wm-image svg { display: block; }
.wm-image-walletconnect { background: #3396ff; }

.wm-tint-0 { --_tint: #3396ff; }
.wm-tint-1 { --_tint: #9d5cf5; }
.wm-tint-2 { --_tint: #26b562; }
.wm-tint-3 { --_tint: #f5a623; }
.wm-tint-4 { --_tint: #e8496b; }
.wm-tint-5 { --_tint: #1fb8c2; }
.wm-image-placeholder {
  background: color-mix(in srgb, var(--_tint, #3396ff) 22%, var(--_bg2));
  color: color-mix(in srgb, var(--_tint, #3396ff) 50%, #000);
}
.wm-app[data-theme='dark'] .wm-image-placeholder { color: color-mix(in srgb, var(--_tint, #3396ff) 45%, #fff); }

/* ---- connect ---- */

/* ---- config error ---- */

.wm-config-error { align-items: center; text-align: center; padding: 12px 0 4px; gap: 8px; }
.wm-config-error-icon { font-size: 40px; color: var(--_error); display: inline-flex; }
.wm-config-error-title { margin: 0; font-size: var(--_fs-title); font-weight: 600; }

/* ---- spinner ---- */

.wm-spinner { display: inline-flex; color: var(--_accent); }
.wm-spinner svg { width: 1em; height: 1em; animation: wm-spin 0.8s linear infinite; }
.wm-spinner-track { stroke: var(--_border); }
.wm-spinner-arc { stroke: currentColor; }

/* ---- mobile: bottom sheet ---- */

@media (max-width: 430px) {
  .wm-overlay { align-items: flex-end; padding: 0; }
  .wm-overlay > .wm-card {
    width: 100%;
    max-height: calc(100dvh - 24px);
    border-bottom: none;
    border-radius: var(--_r-card) var(--_r-card) 0 0;
    padding-bottom: env(safe-area-inset-bottom, 0px);
    animation: wm-sheet-in 150ms ease;
  }
  .wm-overlay > .wm-card.wm-shake { animation: wm-shake 500ms cubic-bezier(0.36, 0.07, 0.19, 0.97) both; }
}

/* ---- motion ---- */

@keyframes wm-fade-in { from { opacity: 0; } to { opacity: 1; } }
@keyframes wm-card-in { from { opacity: 0; transform: translateY(8px) scale(0.98); } to { opacity: 1; transform: none; } }
@keyframes wm-sheet-in { from { transform: translateY(100%); } to { transform: none; } }
@keyframes wm-view-in { from { opacity: 0; transform: translateY(4px); } to { opacity: 1; transform: none; } }
@keyframes wm-spin { to { transform: rotate(360deg); } }
@keyframes wm-loading { from { background-position: -100% 0; } to { background-position: 200% 0; } }
@keyframes wm-shake {
  10%, 90% { transform: translateX(-1px); }
  20%, 80% { transform: translateX(2px); }
  30%, 50%, 70% { transform: translateX(-4px); }
  40%, 60% { transform: translateX(4px); }
}

@media (prefers-reduced-motion: reduce) {
  .wm-overlay,
  .wm-card,
  .wm-overlay > .wm-card,
  .wm-shake,
  .wm-overlay > .wm-card.wm-shake,
  .wm-title-text,
  .wm-view-transition,
  .wm-loading-bar { animation: none !important; }
  .wm-body.wm-body-animated,
  .wm-row { transition: none !important; }
  .wm-spinner svg { animation-duration: 2.4s; }
}

@media (forced-colors: active) {
  .wm-card, .wm-row { border: 1px solid CanvasText; }
}

/* ---- closed: the Connect view is rendered ahead, hidden and inert, without running its animations ---- */
.wm-app[data-open='false'] .wm-overlay { visibility: hidden; pointer-events: none; }
.wm-app[data-open='false'] .wm-overlay, .wm-app[data-open='false'] .wm-overlay * { animation: none !important; transition: none !important; }
`;

export default css;
