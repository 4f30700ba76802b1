/**
 * The contract between the Rust hosts (core/src/host: the engine and each lazily loaded module,
 * core/src/modules.rs) and the shell and views.
 *
 * The hosts own every rule. Each answers an event with effects for the shell to carry out, the
 * notes its slices raised (the shell forwards them to the other hosts) and its snapshot, each of
 * its slices writing its keys; the views render the merged snapshot and send intents back.
 * Nothing in a view decides what happens next. `test/node/protocol.test.mjs` checks every type
 * here against what the hosts really send and read.
 */

export type Namespace = 'eip155' | 'solana' | 'bip122' | 'polkadot' | 'cosmos';

import type { ViewName } from './routes.gen';
/** Every view of the modal: the core's list (`routes.gen.ts`, written from `ui::router::View`). */
export type { ViewName };

export type Status = 'disconnected' | 'connecting' | 'reconnecting' | 'connected';

export interface ErrorInfo {
  /** Numeric code from the error catalogue (4001, 5000, -32603, …). */
  code: number;
  /** Stable key, e.g. CONNECTION_REJECTED. */
  key: string;
  /** Exact text from the error catalogue, e.g. 'Connection rejected'. */
  message: string;
}

export interface ConnectorView {
  id: string;
  name: string;
  /** A `data:image/` URI (EIP-6963 icon) or an http(s) image URL from the catalogue; null → placeholder. */
  icon: string | null;
  /** Where it comes from; also decides the badge shown. */
  kind: 'safe' | 'walletConnect' | 'recent' | 'injected' | 'featured' | 'custom' | 'external' | 'recommended';
  /** True when the wallet is present in this browser (EIP-6963 or window.ethereum). */
  installed: boolean;
}

export interface WalletListingView {
  id: string;
  name: string;
  imageUrl: string | null;
  installed: boolean;
}

export interface NetworkView {
  caipNetworkId: string;
  name: string;
  namespace: Namespace;
  symbol: string;
  testnet: boolean;
  active: boolean;
  imageUrl: string | null;
}

/** The connected account of the active namespace, as the engine knows it. */
export interface ConnectionView {
  namespace: Namespace;
  address: string;
  caipNetworkId: string;
  connectorId: string;
  connectorName: string;
}

/** The Account view's account (the account module's), with its native balance. */
export interface AccountView {
  namespace: Namespace;
  address: string;
  caipAddress: string;
  /** 4 + '...' + 6 characters. */
  shortAddress: string;
  /** 5 CSS colours derived from the address. */
  avatar: string[];
  /** Floored to 3 decimals ('0.000' until known); null while loading the first time. */
  balance: string | null;
  balanceSymbol: string;
  /** Why no balance is shown, for a family whose node the modal does not read (Polkadot, Cosmos). */
  balanceNote: string | null;
  /** Whether the account's family can send from the modal (no Send button where it cannot). */
  /** In a restricted time zone (spec §5): neither Swap nor Buy is offered. */
  restricted?: boolean;
  canSend: boolean;
  connectorId: string;
  explorerUrl: string | null;
}

/**
 * The catalogue wallet chosen for a WalletConnect pairing, with its deep links ready to open: each
 * carries the pairing URI (`scheme://wc?uri=…` or `https://…/wc?uri=…`), and is null until there is
 * a URI, when the catalogue has no safe link of that kind, or when it is not offered here (the
 * mobile app only on mobile, the desktop app only elsewhere).
 */
export interface PairingWalletView {
  id: string;
  name: string;
  imageUrl: string | null;
  mobileLink: string | null;
  desktopLink: string | null;
  webappLink: string | null;
}

/** A WalletConnect pairing in progress. */
export interface WalletConnectView {
  /** The pairing URI (QR code, copy link); null until the WalletConnect module made one. */
  uri: string | null;
  expiresAtMs: number | null;
  wallet: PairingWalletView | null;
}

export interface Snapshot {
  open: boolean;
  embedded: boolean;
  loading: boolean;
  /** True for 500 ms after a shake request. */
  shake: boolean;
  view: ViewName;
  /** Header title of the current view. */
  title: string;
  canGoBack: boolean;
  /** False on views where the spec blocks closing. */
  canClose: boolean;
  themeMode: 'light' | 'dark';
  /** Connect view rows in display order (the spec's method order, filtered by features). */
  connectMethods: Array<'email' | 'social' | 'wallet'>;
  socials: string[];
  connectors: ConnectorView[];
  status: Partial<Record<Namespace, Status>>;
  /** The active namespace's connected account (what `getProvider()` serves), or null. */
  connection: ConnectionView | null;
  network: NetworkView | null;
  networks: NetworkView[];
  /** ConnectingExternal / SwitchNetwork progress. */
  connecting: {
    connectorId: string;
    name: string;
    icon: string | null;
    state: 'pending' | 'error';
    error: ErrorInfo | null;
  } | null;
  /** ConnectingWalletConnect / ConnectingWalletConnectBasic: the pairing shown. */
  walletConnect: WalletConnectView | null;
  switching: {
    target: NetworkView;
    state: 'pending' | 'error';
    error: ErrorInfo | null;
  } | null;
  /** SwitchActiveChain: the network picked, of a family with no wallet connected yet. */
  switchActiveChain: NetworkView | null;
  allWallets: {
    items: WalletListingView[];
    count: number;
    query: string;
    loading: boolean;
    hasMore: boolean;
    error: ErrorInfo | null;
  };
  /** Configuration problem shown instead of the views (e.g. project id missing). */
  configError: ErrorInfo | null;
  /** Milliseconds an image may take before the placeholder is kept (spec: 2000). */
  imagePreloadTimeoutMs: number;
  /** The notification banner showing (spec: variants loading, success, error). */
  banner: { variant: 'loading' | 'success' | 'error'; message: string } | null;
  /** The Account view's buttons in the spec's walletFeaturesOrder, each only when its feature is on
   * and the connected family supports it. */
  walletFeatures: Array<'onramp' | 'swaps' | 'receive' | 'send'>;
  /** The footer's "UX by wallet-modal" line (the project's `reownBranding` feature). */
  branding: boolean;
}

/** What a view may ask the engine for. */
export type Intent =
  | { type: 'close' }
  /** The visitor's close (Escape, the backdrop, the close button): refused while sign-in is required (the modal shakes). */
  | { type: 'dismiss' }
  | { type: 'back' }
  | { type: 'navigate'; view: ViewName; reset?: boolean }
  | { type: 'selectConnector'; id: string }
  | { type: 'selectWallet'; id: string }
  | { type: 'retry' }
  | { type: 'searchWallets'; query: string }
  | { type: 'loadMoreWallets' }
  | { type: 'switchNetwork'; caipNetworkId: string }
  /** SwitchActiveChain: go on to connect a wallet of that network's family. */
  | { type: 'switchActiveChain' }
  /** With `connectorId`: that one connection only (multi-wallet). */
  | { type: 'disconnect'; namespace?: Namespace; connectorId?: string }
  | { type: 'copyUri' }
  | { type: 'dismissBanner' };

// ----- the account module (core/src/modules.rs `Account`: loaded with its views) -----

/** A row of the Tokens tab: quantity floored to 3 decimals, value in USD (null without a price). */
export interface TokenRowView {
  name: string;
  symbol: string;
  /** CAIP-10 address of the contract; null for the native currency. */
  address: string | null;
  quantity: string;
  /** `$1,234.57`, or null when the token has no price. */
  value: string | null;
  iconUrl: string | null;
}

/** A row of the Activity tab. */
export interface ActivityRowView {
  id: string;
  /** What happened: 'Sent', 'Received', 'Minted', 'Approved', … */
  title: string;
  /** Signed amount with its symbol ('-12.500 USDC'), or null when no amount moved. */
  amount: string | null;
  /** A swap: what went out for what came in ('0.500 ETH → 1,494.010 USDC'). */
  swap: string | null;
  /** The other side, 4…6 characters. */
  counterparty: string | null;
  /** Unix milliseconds when mined (null when the service gave no readable time). */
  minedAt: number | null;
  /** The token's icon or the NFT's preview (http(s)), if any. */
  iconUrl: string | null;
  hash: string;
  status: string;
}

/** The Tokens tab: the rows, the total in USD, loading, and 'Token Balance Unavailable'. */
export interface TokensPart {
  tokens: TokenRowView[];
  /** Total in USD (`$1,234.57`); null until the first answer. */
  totalUsd: string | null;
  loading: boolean;
  /** 'Token Balance Unavailable' after a failed read (retried after 30 s). */
  error: ErrorInfo | null;
  /** 'Tokens are not available for accounts on …': a family the blockchain API has no balances of. */
  unavailable: string | null;
}

/** The NFTs tab: the items held on the connected chain, the most recently received first. */
export interface NftsPart {
  items: Array<{ id: string; name: string; collection: string | null; imageUrl: string | null }>;
  loading: boolean;
  empty: boolean;
  hasMore: boolean;
  /** 'Failed to fetch NFTs'. */
  error: string | null;
}

/** The Activity tab. */
export interface ActivityPart {
  /** Months newest first ('November 2026'), rows newest first. */
  groups: Array<{ label: string; items: ActivityRowView[] }>;
  loading: boolean;
  empty: boolean;
  hasMore: boolean;
  /** 'Failed to fetch transactions'. */
  error: ErrorInfo | null;
  /** Why there is no history to show on this network (its family has none: spec §8), or null. */
  unavailable: string | null;
}

/** The WalletSend form and the WalletSendPreview: the form, its error, the preview with its fee. */
export interface SendPart {
  stage: 'editing' | 'preview' | 'sending';
  tokens: Array<{ symbol: string; name: string; balance: string }>;
  /** Index of the chosen token in `tokens`. */
  token: number | null;
  amount: string;
  receiver: string;
  /** What the receiver field suggests: the family's address form ('0x…', 'Bitcoin address', …). */
  receiverHint: string;
  /** Why the form cannot be sent ('An amount and receiver address are required', …). */
  error: string | null;
  /** `feeDetail`: what the fee includes beside the network's own ("includes 0.00203928 SOL for the receiver's new token account"). */
  preview: { to: string; amount: string; fee: string | null; feeDetail: string | null; feeError: string | null } | null;
}

/** The account module's parts of the snapshot (`core/src/modules.rs` Account), once it is loaded. */
export interface AccountParts {
  /** The connected account as the Account view shows it. */
  account: AccountView | null;
  /** ProfileWallets: every connection (multi-wallet), the active one of each namespace first. */
  profileWallets: {
    /** The multiWallet feature: without it switching and ending connections only says so. */
    enabled: boolean;
    wallets: Array<{
      namespace: Namespace;
      connectorId: string;
      address: string;
      caipNetworkId: string;
      network: string;
      symbol: string | null;
      state: 'active' | 'connected';
      /** The native balance on its network, once read. */
      balance: string | null;
    }>;
  };
  /** Method of the newest host request through getProvider() waiting for approval in the wallet
   * (or of the modal's own send or swap). */
  walletRequest: string | null;
  /** The Tokens tab. */
  tokens: TokensPart;
  /** The account's name from the identity service ('alice.eth'), if it has one. */
  accountName: string | null;
  /** The Account view's tabs: Activity only while the project's `activity` feature is on. */
  tabs: Array<'tokens' | 'nfts' | 'activity'>;
  tab: 'tokens' | 'nfts' | 'activity';
  /** The NFTs tab (null while another tab shows). */
  nfts: NftsPart | null;
  /** The Activity tab (null while another tab shows). */
  activity: ActivityPart | null;
  /** The Send form (null while closed). */
  send: SendPart | null;
  /** The transaction last sent from the Send form, until it is mined. */
  sent: { hash: string; explorerUrl: string | null } | null;
  /** WalletReceive: the address, its QR code (SVG from the core encoder), the networks it can receive on. */
  receive: { address: string; qr: string | null; networks: string[] } | null;
  /** The Swap view (null while closed). */
  swap: SwapPart | null;
  /** The OnRampProviders view (null while closed). */
  buy: BuyPart | null;
}

/** A token of the Swap screen, with the balance held (null when none). */
export interface SwapTokenView {
  address: string;
  symbol: string;
  name: string;
  logoUri: string | null;
  balance: string | null;
}

/** The Swap screen: both sides, the quote and what it costs, and the next step. */
export interface SwapPart {
  /** False outside the swap networks ('Network not supported for Swaps' in `error`). */
  supported: boolean;
  tokens: SwapTokenView[];
  tokensFailed: boolean;
  from: SwapTokenView | null;
  to: SwapTokenView | null;
  amount: string;
  /** What the quote gives ('5,940'), null until quoted. */
  receive: string | null;
  quoting: boolean;
  rate: string | null;
  priceImpact: string | null;
  fee: string | null;
  /** 'Network not supported for Gas Price'. */
  feeError: string | null;
  slippage: string;
  minimumReceived: string | null;
  /** The button: none (nothing to do yet), approve ('Approve USDC'), swap, wallet (it prompts),
   * approving / swapping (mining). */
  action: 'none' | 'approve' | 'swap' | 'wallet' | 'approving' | 'swapping';
  error: string | null;
  /** The hash of the swap that just mined. */
  done: string | null;
}

/** The Buy screen: what to buy with what, a quote per provider, and the order once one is chosen. */
export interface BuyPart {
  /** The options are still being read. */
  loading: boolean;
  /** The options are the built-in ones (the service's failed, spec §8). */
  fallback: boolean;
  /** The tokens offered on the connected network. */
  tokens: Array<{ id: string; symbol: string; name: string }>;
  purchase: string | null;
  /** What the account holds of the chosen token ('1,000.000'). */
  balance: string | null;
  currencies: Array<{ id: string; symbol: string; name: string }>;
  payment: string | null;
  /** The payment currency's image (`/public/getCurrencyImage/{id}`). */
  paymentImageUrl?: string | null;
  method: 'card' | 'bank_account';
  /** The payment currency's limits per method. */
  limits: Array<{ id: string; min: string; max: string }> | null;
  amount: string;
  /** 'The minimum by card is 10.00 USD', … */
  error: string | null;
  quoting: boolean;
  quotes: Array<{ provider: string; name: string; receive: string; fee: string | null; feePercent: string | null; estimate: boolean }>;
  order:
    | { stage: 'preparing'; provider: string }
    | { stage: 'open'; provider: string; url: string; status: string }
    | { stage: 'completed'; provider: string; amount: string; symbol: string; tx: string | null }
    | { stage: 'failed'; message: string }
    | null;
  /** The account's purchases at the providers (the history call's `onramp`), newest first, ≤ 10. */
  purchases?: Array<{ id: string; provider: string; amount: string | null; status: 'completed' | 'pending' | 'failed'; minedAt: number | null; hash: string }>;
}

/** What the account module reads from the views. */
export type AccountIntent =
  /** ProfileWallets: make another connection current, or end one (multi-wallet). */
  | { type: 'switchConnection'; namespace: Namespace; connectorId: string }
  | { type: 'disconnectConnection'; namespace: Namespace; connectorId: string }
  | { type: 'copyAddress' }
  | { type: 'sendSetToken'; index: number }
  | { type: 'sendSetAmount'; amount: string }
  | { type: 'sendSetReceiver'; receiver: string }
  | { type: 'sendMax' }
  | { type: 'sendPreview' }
  | { type: 'sendConfirm' }
  | { type: 'selectAccountTab'; tab: 'tokens' | 'nfts' | 'activity' }
  | { type: 'refreshTokens' }
  | { type: 'loadMoreActivity' }
  | { type: 'loadMoreNfts' }
  | { type: 'swapSetFrom'; address: string }
  | { type: 'swapSetTo'; address: string }
  | { type: 'swapSetAmount'; amount: string }
  | { type: 'swapMax' }
  | { type: 'swapFlip' }
  | { type: 'swapApprove' }
  | { type: 'swapConfirm' }
  | { type: 'buySetPurchase'; symbol: string }
  | { type: 'buySetPayment'; currency: string }
  | { type: 'buySetMethod'; method: 'card' | 'bank_account' }
  | { type: 'buySetAmount'; amount: string }
  | { type: 'buyChoose'; provider: string }
  | { type: 'buyReset' };

/**
 * ApproveTransaction: the secure frame asks the visitor in its own document; the modal makes room
 * for it. `open`: the frame shows its approval (`method`, `height` in CSS pixels); `waiting`: this
 * element's requests with the frame.
 */
export interface ApprovalPart {
  open: boolean;
  method: string | null;
  height: number;
  waiting: number;
}

/** The embedded wallet module's parts of the snapshot (`core/src/modules.rs` Embedded), once loaded. */
export interface EmbeddedParts {
  /** The secure frame. */
  frame: 'idle' | 'loading' | 'ready' | 'failed';
  /** Who is logged in. */
  embeddedUser: {
    address: string;
    /** The same key's account in each family the embedded wallet serves. */
    accounts: Array<{ namespace: Namespace; address: string }>;
    email: string | null;
    userName: string | null;
    socialProvider: string | null;
  } | null;
  /** 'Action not allowed' while the Account view shows. */
  embeddedNotice: string | null;
  email: {
    step: 'idle' | 'sending' | 'device' | 'otp' | 'verifying' | 'connecting';
    email: string;
    fieldError: string | null;
    codeError: string | null;
    resent: boolean;
    resendIn: number;
  };
  emailUpdate: { step: 'email' | 'primaryOtp' | 'secondaryOtp' | 'done'; newEmail: string | null; error: string | null; busy: boolean };
  social: { provider: string; busy: boolean; error: string | null } | null;
  farcaster: { url: string | null; qr: string | null; error: string | null } | null;
  approval: ApprovalPart | null;
}

/** What the embedded wallet module reads from the views. */
export type EmbeddedIntent =
  | { type: 'loadFrame' }
  | { type: 'emailSubmit'; email: string }
  | { type: 'emailOtp'; otp: string }
  | { type: 'emailResend' }
  | { type: 'openUpdateEmail' }
  | { type: 'updateEmailSubmit'; email: string }
  | { type: 'updateEmailOtp'; otp: string }
  | { type: 'socialLogin'; provider: string }
  | { type: 'farcasterLogin' };

/** The sign-in module's part (`core/src/auth/slice.rs`), once loaded: `null` without sign-in. */
export interface SiwxParts {
  siwx: {
    required: boolean;
    /** Closing is blocked: sign-in is required, the account has none, and its view shows. */
    locked: boolean;
    appName: string;
    appIcon: string | null;
    /** The connected account's session, if it has one. */
    session: { caipAddress: string; message: string; signature: string } | null;
    /** The account SIWXSignMessage asks to sign in (`preparing`: nonce and message; `signing`:
     * the wallet is asked; `error`: the wallet refused, try again). */
    request: {
      address: string;
      caipNetworkId: string;
      network: string;
      statement: string;
      state: 'idle' | 'preparing' | 'signing' | 'error';
      error: string | null;
    } | null;
  } | null;
}

/** What the sign-in module reads from the views. */
export type SiwxIntent = { type: 'siwxSign' } | { type: 'siwxCancel' };

/** What the views render: the engine's snapshot merged with the parts of every module loaded. */
export interface ViewSnapshot extends Snapshot, Partial<AccountParts>, Partial<EmbeddedParts>, Partial<SiwxParts> {}

/** Every part of every module, as the views get them once every module is loaded. Which module
 * writes a part is `core/src/modules.rs`'s to say (a slice moves between modules on one line). */
export type AllParts = Snapshot & AccountParts & EmbeddedParts & SiwxParts;

/** What the views send: each module's intents (the shell hands each to the module that reads it). */
export type ViewIntent = Intent | AccountIntent | EmbeddedIntent | SiwxIntent;

// ----- what crosses between the shell and the hosts -----

/** What the shell itself tells a host (besides the views' intents). */
export type HostEvent =
  | { type: 'start'; storage: Record<string, string>; legacyNamespace?: string; unreadable?: string[] }
  | { type: 'open'; view?: string; namespace?: string }
  | { type: 'theme'; dark: boolean }
  /** An error banner: the shell's (a module could not load) or a module's slice's (dispatched). */
  | { type: 'showBanner'; message: string }
  /** The embedded wallet's visitor logged in: the engine connects its connector (dispatched). */
  | { type: 'connectEmbedded' }
  /** The email login sent its code (`started`: the namespace shows connecting) or was left (dispatched). */
  | { type: 'embeddedLogin'; started: boolean }
  | { type: 'lock' }
  | { type: 'unlock' }
  | { type: 'shake' }
  | { type: 'announce'; uuid: string; name: string; icon: string; rdns: string; namespace: string; usable?: boolean }
  | { type: 'providerEvent'; connectorId: string; name: string; data: unknown }
  | { type: 'walletConnectUri'; uri: string | null; expiresAtMs: number | null }
  | { type: 'hostRequest'; id: number; method: string }
  | { type: 'hostRequestDone'; id: number; result: string | null; failed: boolean }
  | { type: 'providerResult'; id: number; result?: unknown; error?: { code: number | null; message: string } }
  | { type: 'fetchResult'; id: number; status: number; body: string }
  | { type: 'timer'; id: string }
  | { type: 'notes'; notes: Note[] }
  | { type: 'request'; connector: string; key: string; method: string; params: unknown }
  | { type: 'release'; connector: string }
  | { type: 'init'; random: string }
  | { type: 'frameMessage'; data: unknown }
  | { type: 'frameLoadFailed' }
  /** The modal's theme, for the secure frame's approval (SYNC_THEME). */
  | { type: 'frameTheme'; dark: boolean; variables: Record<string, string> }
  | { type: 'popupClosed' }
  | { type: 'socialResult'; uri: string }
  /** ProfileWallets' `switchConnection`, once the multiWallet feature allows it (dispatched). */
  | { type: 'useConnection'; namespace: Namespace; connectorId: string }
  /** Sign-in's configuration (element/ts/siwx.ts), or that there is none. */
  | { type: 'siwxConfig'; enabled?: boolean; custom?: boolean; createsMessage?: boolean; required?: boolean; domain?: string; uri?: string; appName?: string; appIcon?: string | null; statement?: string | null; expiresInSeconds?: number | null; random?: string; stored?: string | null };

/** What one host's slices told the others (opaque to the shell, which forwards it as it is). */
export interface Note {
  note: string;
  [field: string]: unknown;
}

/** What a host asks the shell to carry out. */
export type Effect =
  | { type: 'providerRequest'; id: number; connectorId: string; method: string; params: unknown }
  | { type: 'releaseProvider'; connectorId: string }
  | { type: 'fetch'; id: number; url: string; method: 'GET' | 'POST'; body: string | null; timeoutMs: number }
  | { type: 'persist'; key: string; value: string | null }
  | { type: 'emit'; name: string; detail: unknown }
  | { type: 'startTimer'; id: string; ms: number }
  | { type: 'alert'; key: string; message: string; description: string | null; severity: 'error' | 'warning' | 'info'; delayMs: number }
  | { type: 'copy'; text: string }
  | { type: 'restoreFocus' }
  | { type: 'dispatch'; event: { type: string; [field: string]: unknown } }
  | { type: 'answer'; key: string; result: unknown }
  | { type: 'answer'; key: string; error: { code: number; message: string } }
  | { type: 'frameLoad'; url: string }
  | { type: 'framePost'; message: { type: string; id: string; payload: unknown } }
  /** Show the secure frame's approval in ApproveTransaction (in its `[data-wm-frame-slot]`), or hide it. */
  | { type: 'frameView'; visible: boolean }
  | { type: 'popup'; url: string }
  | { type: 'popupClose' };

/** A host's answer to each call: its effects, its notes for the other hosts, its snapshot. */
export interface HostOutput {
  effects: Effect[];
  notes: Note[];
  snapshot: Record<string, unknown>;
}
