import type { RefObject } from 'react';
import { useLazyStyles } from '../shell/dynamic-styles';
import { useNetworkStyles } from '../network/styles';

/** The Account view's rules: avatar, address, copy feedback, balance (and its skeleton), explorer link. */
export const ACCOUNT_CSS = String.raw`
.wm-link {
  display: inline-flex;
  align-items: center;
  gap: 4px;
  color: var(--_accent-text);
  font-size: var(--_fs-small);
  font-weight: 600;
  text-decoration: none;
  border-radius: var(--_r-s);
}
.wm-link:hover { text-decoration: underline; }

.wm-embedded-user { display: flex; flex-wrap: wrap; justify-content: center; align-items: center; gap: 4px 8px; color: var(--_fg2); font-size: var(--_fs-small); }
.wm-edit-email { border: none; background: none; padding: 0; font: inherit; font-weight: 600; cursor: pointer; }
.wm-account-id { display: flex; flex-direction: column; align-items: center; gap: 6px; padding: 4px 0 8px; }
.wm-avatar {
  display: block;
  width: 64px;
  height: 64px;
  border-radius: 50%;
  background:
    radial-gradient(circle at 65% 25%, var(--wm-avatar-1, #fff) 0%, transparent 55%),
    radial-gradient(circle at 25% 70%, var(--wm-avatar-2, #d0d0d0) 0%, transparent 60%),
    radial-gradient(circle at 80% 80%, var(--wm-avatar-3, #b0b0b0) 0%, transparent 55%),
    linear-gradient(135deg, var(--wm-avatar-4, #909090), var(--wm-avatar-5, #707070));
  box-shadow: 0 0 0 6px var(--_bg2);
  margin-bottom: 8px;
}
.wm-account-name { font-size: var(--_fs-large); font-weight: 700; overflow-wrap: anywhere; text-align: center; }
.wm-address-line { display: flex; align-items: center; gap: 4px; }
.wm-address { font-size: var(--_fs-large); font-weight: 600; font-variant-numeric: tabular-nums; }
.wm-copy { font-size: calc(var(--_fs) * 1.6); }
.wm-copied { min-height: 1em; font-size: var(--_fs-small); color: var(--_success-text); font-weight: 600; }
.wm-copied:empty { min-height: 0; }
.wm-balance { font-size: var(--_fs-body); color: var(--_fg2); font-variant-numeric: tabular-nums; }
.wm-skeleton {
  display: block;
  width: 96px;
  height: 1.2em;
  border-radius: var(--_r-s);
  background: linear-gradient(90deg, var(--_bg2) 0%, var(--_bg3) 50%, var(--_bg2) 100%);
  background-size: 200% 100%;
  animation: wm-shimmer 1.2s ease-in-out infinite;
}
.wm-account-actions { display: flex; flex-direction: column; gap: 8px; }

.wm-portfolio-total { font-size: var(--_fs-body); font-weight: 600; font-variant-numeric: tabular-nums; }

.wm-account-buttons { display: flex; gap: 8px; }
.wm-account-buttons .wm-button { flex: 1; }
.wm-send { display: flex; flex-direction: column; gap: 12px; }
.wm-field { display: flex; flex-direction: column; gap: 4px; font-weight: 600; font-size: var(--_fs-small); color: var(--_fg); }
.wm-field-row { display: flex; gap: 8px; }
.wm-field-row input { flex: 1; min-width: 0; }
.wm-field input, .wm-field select {
  box-sizing: border-box; width: 100%; padding: 10px 12px; border: 1px solid var(--_fg2); border-radius: var(--_r-m);
  background: var(--_bg); color: var(--_fg); font: inherit; font-size: var(--_fs-body); font-weight: 400;
}
.wm-field input:focus-visible, .wm-field select:focus-visible { outline: 2px solid var(--_accent-fill); outline-offset: 1px; }
.wm-field-hint { font-weight: 400; color: var(--_fg2); }
.wm-send-preview { display: grid; grid-template-columns: auto 1fr; gap: 8px 12px; margin: 0; }
.wm-send-preview dt { color: var(--_fg2); font-size: var(--_fs-small); }
.wm-send-preview dd { margin: 0; text-align: end; font-weight: 600; font-variant-numeric: tabular-nums; }
.wm-send-address { overflow-wrap: anywhere; font-size: var(--_fs-small); }
.wm-send-fee-detail { display: block; margin-top: 2px; font-weight: 400; color: var(--_fg2); font-size: var(--_fs-small); }
.wm-sent { margin: 0; text-align: center; color: var(--_success-text); font-size: var(--_fs-small); font-weight: 600; }
.wm-receive { display: flex; flex-direction: column; align-items: center; gap: 12px; }
.wm-receive-address { margin: 0; max-width: 100%; overflow-wrap: anywhere; text-align: center; font-size: var(--_fs-small); font-variant-numeric: tabular-nums; color: var(--_fg); }

.wm-portfolio { display: flex; flex-direction: column; gap: 8px; }
.wm-tabs { display: flex; gap: 4px; padding: 4px; border-radius: var(--_r-m); background: var(--_bg2); }
.wm-tab {
  flex: 1;
  padding: 6px 8px;
  border: 0;
  border-radius: var(--_r-s);
  background: transparent;
  color: var(--_fg2);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
}
.wm-tab[aria-selected="true"] { background: var(--_bg); color: var(--_fg); box-shadow: 0 1px 2px rgb(0 0 0 / 0.12); }
.wm-tabpanel { min-height: 120px; }
.wm-token-list, .wm-activity-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; }
.wm-token-row, .wm-activity-row { display: flex; align-items: center; gap: 10px; padding: 8px; border-radius: var(--_r-m); min-height: 36px; }
.wm-token-row .wm-skeleton, .wm-activity-row .wm-skeleton { flex: 1; }
.wm-token-icon { flex: none; width: 36px; height: 36px; border-radius: 50%; object-fit: cover; }
.wm-token-icon > .wm-image { width: 100%; height: 100%; }
.wm-token-initials { display: grid; place-items: center; background: var(--_bg3); color: var(--_fg); font-size: var(--_fs-small); font-weight: 700; }
.wm-token-text, .wm-activity-text { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 2px; }
.wm-token-name, .wm-activity-title { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wm-token-quantity, .wm-activity-meta { color: var(--_fg2); font-size: var(--_fs-small); font-variant-numeric: tabular-nums; }
.wm-token-value, .wm-activity-amount { flex: none; font-weight: 600; font-variant-numeric: tabular-nums; }
.wm-activity-amount { max-width: 45%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wm-activity-meta { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wm-activity-amount.wm-in { color: var(--_success-text); }
.wm-activity-month { margin: 8px 8px 2px; color: var(--_fg2); font-size: var(--_fs-small); font-weight: 600; }
.wm-activity-end { display: flex; justify-content: center; padding: 8px; }
.wm-nft-grid { list-style: none; margin: 0; padding: 4px; display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: 12px; }
.wm-nft { display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.wm-nft-image { display: flex; align-items: center; justify-content: center; width: 100%; height: auto; aspect-ratio: 1; border-radius: var(--_r-m); object-fit: cover; background: var(--_bg2); }
.wm-nft-name { font-weight: 600; font-size: var(--_fs-small); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wm-portfolio-error { display: flex; flex-direction: column; align-items: center; gap: 8px; padding: 12px 0; }

@keyframes wm-shimmer { from { background-position: 200% 0; } to { background-position: -200% 0; } }
@media (prefers-reduced-motion: reduce) {
  .wm-skeleton { animation: none !important; }
}
`;

/** Adopts the shared view rules, the network rules (the network row) and the account rules. */
export function useAccountStyles(ref: RefObject<Element | null>): void {
  useNetworkStyles(ref);
  useLazyStyles(ref, ACCOUNT_CSS);
}
