import type {
  AccountView,
  ConnectorView,
  ErrorInfo,
  Intent,
  NetworkView,
  Snapshot,
  ViewName,
  WalletListingView,
} from '../../element/ts/protocol';

export type { AccountView, ConnectorView, ErrorInfo, Intent, NetworkView, Snapshot, ViewName, WalletListingView };

/** Every view gets the whole snapshot and a way to send intents back. Views decide nothing. */
export interface ViewProps {
  snapshot: Snapshot;
  onIntent: (intent: Intent) => void;
}
