/**
 * The account module's glue, with one platform input its rules read that the engine does not: the
 * visitor's IANA time zone (`Intl`), added to the options it is handed (spec §5: Swap and Buy are
 * not offered in mainland China, Hong Kong and Macau; the core decides). Loaded with the module,
 * so the initial load carries none of it.
 */
import init, { WasmHost as Host } from '../pkg/account/wallet_modal_account.js';

function withTimeZone(optionsJson: string): string {
  let zone = '';
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    // No Intl time zone: none is restricted.
  }
  const options = JSON.parse(optionsJson) as Record<string, unknown>;
  return JSON.stringify({ ...options, timeZone: zone });
}

export default init;

export class WasmHost extends Host {
  constructor(optionsJson: string) {
    super(withTimeZone(optionsJson));
  }

  override setOptions(optionsJson: string, nowMs: number): string {
    return super.setOptions(withTimeZone(optionsJson), nowMs);
  }
}
