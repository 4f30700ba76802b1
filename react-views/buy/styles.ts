/** The Buy screen's rules (adopted when it first shows; the Account view's field rules apply too). */
export const BUY_CSS = String.raw`
.wm-buy { display: flex; flex-direction: column; gap: 12px; }
.wm-buy > .wm-skeleton { height: 120px; }
.wm-buy-pay { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.wm-buy-currency { display: flex; align-items: center; gap: 8px; }
.wm-buy-currency > select { flex: 1; min-width: 0; }
.wm-buy-quotes ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.wm-buy-quote {
  display: flex;
  align-items: center;
  gap: 10px;
  width: 100%;
  min-height: 48px;
  padding: 8px 12px;
  font: inherit;
  color: var(--_fg);
  text-align: start;
  background: var(--_bg2);
  border: 0;
  border-radius: var(--_r-m);
  cursor: pointer;
}
.wm-buy-quote .wm-skeleton { flex: 1; }
button.wm-buy-quote:hover { background: var(--_bg3); }
button.wm-buy-quote:focus-visible, .wm-buy-checkout:focus-visible { outline: 2px solid var(--_accent-fill); outline-offset: 2px; }
.wm-buy-receive { flex: none; display: flex; flex-direction: column; align-items: flex-end; font-weight: 700; font-variant-numeric: tabular-nums; }
.wm-buy-estimate { font-size: var(--_fs-small); font-weight: 600; color: var(--_fg2); }
.wm-buy-order { display: flex; flex-direction: column; gap: 12px; }
.wm-buy-checkout { display: inline-flex; align-items: center; justify-content: center; gap: 6px; text-decoration: none; }
.wm-buy-purchases ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.wm-buy-purchase { display: flex; align-items: center; gap: 10px; min-height: 48px; padding: 8px 12px; background: var(--_bg2); border-radius: var(--_r-m); }
.wm-buy-purchase .wm-token-text { flex: 1; min-width: 0; }
.wm-buy-status-completed { color: var(--_success-text); background: color-mix(in srgb, var(--_success) 14%, transparent); }
.wm-buy-status-pending { color: var(--_fg2); background: var(--_bg3); }
.wm-buy-status-failed { color: var(--_error); background: color-mix(in srgb, var(--_error) 14%, transparent); }
`;
