/** The Swap screen's rules (adopted when it first shows; the Account view's field rules apply too). */
export const SWAP_CSS = String.raw`
.wm-swap { display: flex; flex-direction: column; gap: 8px; }
.wm-swap-side { display: flex; flex-direction: column; gap: 6px; padding: 12px; border-radius: var(--_r-m); background: var(--_bg2); }
.wm-swap-label { font-size: var(--_fs-small); font-weight: 600; color: var(--_fg2); }
.wm-swap-row { display: flex; align-items: center; gap: 8px; }
.wm-swap-amount {
  flex: 1;
  min-width: 0;
  font: inherit;
  font-size: var(--_fs-large);
  font-weight: 600;
  font-variant-numeric: tabular-nums;
  color: var(--_fg);
  background: transparent;
  border: 0;
  padding: 4px 0;
  overflow: hidden;
  text-overflow: ellipsis;
}
input.wm-swap-amount:focus-visible { outline: 2px solid var(--_accent-fill); outline-offset: 2px; border-radius: var(--_r-s); }
.wm-swap-amount .wm-skeleton { display: block; width: 60%; height: 1.2em; }
.wm-swap-balance { display: flex; align-items: center; justify-content: space-between; gap: 8px; font-size: var(--_fs-small); color: var(--_fg2); }
.wm-swap-max { padding: 2px 10px; min-height: 0; }
.wm-swap-picker { position: relative; flex: none; }
.wm-swap-token, .wm-swap-option {
  display: flex;
  align-items: center;
  gap: 6px;
  font: inherit;
  font-weight: 600;
  color: var(--_fg);
  background: var(--_bg);
  border: 1px solid var(--_border, transparent);
  border-radius: 999px;
  padding: 4px 10px 4px 4px;
  cursor: pointer;
}
.wm-swap-token:focus-visible, .wm-swap-option:focus-visible, .wm-swap-flip:focus-visible { outline: 2px solid var(--_accent-fill); outline-offset: 2px; }
.wm-swap-icon { flex: none; width: 24px; height: 24px; border-radius: 50%; font-size: 10px; }
.wm-swap-icon > .wm-image { width: 100%; height: 100%; font-size: 10px; }
.wm-swap-list {
  position: absolute;
  inset-inline-end: 0;
  top: calc(100% + 4px);
  z-index: 2;
  width: 260px;
  max-height: 280px;
  overflow: auto;
  padding: 8px;
  display: flex;
  flex-direction: column;
  gap: 6px;
  background: var(--_bg);
  border-radius: var(--_r-m);
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.25);
}
.wm-swap-list ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; }
.wm-swap-option { width: 100%; border-radius: var(--_r-s); padding: 6px; background: transparent; text-align: start; }
.wm-swap-option:hover, .wm-swap-option[aria-current="true"] { background: var(--_bg2); }
.wm-swap-flip {
  align-self: center;
  margin: -14px 0;
  z-index: 1;
  width: 32px;
  height: 32px;
  border-radius: 50%;
  border: 3px solid var(--_bg);
  background: var(--_bg2);
  color: var(--_fg);
  font-size: 16px;
  cursor: pointer;
}
`;
