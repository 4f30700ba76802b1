import type {
  AccountParts,
  ActivityPart,
  AccountView,
  ActivityRowView,
  ConnectorView,
  ErrorInfo,
  NetworkView,
  BuyPart,
  NftsPart,
  SendPart,
  SwapPart,
  TokensPart,
  SwapTokenView,
  TokenRowView,
  ViewIntent as Intent,
  ViewName,
  ViewSnapshot as Snapshot,
  WalletListingView,
} from '../../element/ts/protocol';

/** The views see the engine's snapshot merged with every loaded module's parts, and send any module's intents. */
export type {
  AccountParts,
  ActivityPart,
  BuyPart,
  AccountView,
  ActivityRowView,
  ConnectorView,
  ErrorInfo,
  Intent,
  NetworkView,
  NftsPart,
  SendPart,
  Snapshot,
  SwapPart,
  SwapTokenView,
  TokenRowView,
  TokensPart,
  ViewName,
  WalletListingView,
};

/** Every view gets the whole snapshot and a way to send intents back. Views decide nothing. */
export interface ViewProps {
  snapshot: Snapshot;
  onIntent: (intent: Intent) => void;
}
