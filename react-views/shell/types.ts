import type {
  AccountPart,
  AccountView,
  ActivityRowView,
  ConnectorView,
  ErrorInfo,
  NetworkView,
  BuyPart,
  SwapPart,
  SwapTokenView,
  TokenRowView,
  ViewIntent as Intent,
  ViewName,
  ViewSnapshot as Snapshot,
  WalletListingView,
} from '../../element/ts/protocol';

/** The views see the engine's snapshot with the account module's part, and send either's intents. */
export type { AccountPart, BuyPart, AccountView, ActivityRowView, ConnectorView, ErrorInfo, Intent, NetworkView, Snapshot, SwapPart, SwapTokenView, TokenRowView, ViewName, WalletListingView };

/** Every view gets the whole snapshot and a way to send intents back. Views decide nothing. */
export interface ViewProps {
  snapshot: Snapshot;
  onIntent: (intent: Intent) => void;
}
