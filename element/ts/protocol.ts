/**
 * The contract between the Rust engine (core/src/engine) and the views.
 *
 * The engine owns every rule; it serialises a `Snapshot` after each event. Views render the
 * snapshot and send `Intent`s back. Nothing in a view decides what happens next.
 */

export type Namespace = 'eip155' | 'solana' | 'bip122' | 'polkadot' | 'cosmos';

export type ViewName =
  | 'Connect'
  | 'ConnectingExternal'
  | 'ConnectingWalletConnect'
  | 'ConnectingWalletConnectBasic'
  | 'AllWallets'
  | 'Account'
  | 'SwitchNetwork'
  | 'UnsupportedChain'
  | 'EmailLogin'
  | 'UpdateEmailWallet'
  | 'ApproveTransaction'
  | 'ConnectingFarcaster'
  | 'ConfigError';

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
  kind: 'walletConnect' | 'recent' | 'injected' | 'featured' | 'custom' | 'external' | 'recommended';
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
  connectorId: string;
  connectorName: string;
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
  account: AccountView | null;
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
  /** Method of the newest host request through getProvider() waiting for approval in the wallet. */
  walletRequest: string | null;
  /** The Account view's buttons in the spec's walletFeaturesOrder, each only when its feature is on
   * and the connected family supports it. */
  walletFeatures: Array<'onramp' | 'swaps' | 'receive' | 'send'>;
  /** The project's own swap networks (CAIP-2) besides the spec's list (its config's `swapNetworks`),
   * for the Swap screen. */
  swapNetworks: string[];
}

/** What a view may ask for. */
export type Intent =
  | { type: 'close' }
  | { type: 'back' }
  | { type: 'navigate'; view: ViewName }
  | { type: 'selectConnector'; id: string }
  | { type: 'selectWallet'; id: string }
  | { type: 'retry' }
  | { type: 'searchWallets'; query: string }
  | { type: 'loadMoreWallets' }
  | { type: 'switchNetwork'; caipNetworkId: string }
  | { type: 'disconnect'; namespace?: Namespace }
  | { type: 'copyAddress' }
  | { type: 'copyUri' }
  | { type: 'dismissBanner' };

// ----- the account module (lazy slices in their own wasm: core/src/account/module.rs) -----

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

/** The account module's part of the snapshot: the Account view's tabs and their lists. */
export interface AccountPart {
  /** The portfolio, or one of the module's own screens (left with the header's back button). */
  screen: 'main' | 'receive' | 'send';
  /** The header title while a screen of the module shows. */
  title: string | null;
  /** The account's name from the identity service ('alice.eth'), if it has one. */
  name: string | null;
  /** The Receive screen: the address, its QR code (SVG from the core encoder), the networks it can receive on. */
  receive: { address: string; qr: string | null; networks: string[] } | null;
  /** The Send screen: the form, its error, and the preview with the estimated fee. */
  send: {
    stage: 'editing' | 'preview' | 'sending';
    tokens: Array<{ symbol: string; name: string; balance: string }>;
    /** Index of the chosen token in `tokens`. */
    token: number | null;
    amount: string;
    receiver: string;
    /** Why the form cannot be sent ('An amount and receiver address are required', …). */
    error: string | null;
    preview: { to: string; amount: string; fee: string | null; feeError: string | null } | null;
  } | null;
  /** What the account holds, with USD prices, for the trade modules (Swap, Buy). */
  held: Array<{ address: string | null; balance: string; price: number | null }>;
  /** The transaction last sent from the Send screen, until it is mined. */
  sent: { hash: string; explorerUrl: string | null } | null;
  tab: 'tokens' | 'nfts' | 'activity';
  tokens: {
    tokens: TokenRowView[];
    /** Total in USD (`$1,234.57`); null until the first answer. */
    totalUsd: string | null;
    loading: boolean;
    /** 'Token Balance Unavailable' after a failed read (retried after 30 s). */
    error: ErrorInfo | null;
  };
  /** The NFTs tab (null while another tab shows): the items held on the connected chain, the most recently received first. */
  nfts: null | {
    items: Array<{ id: string; name: string; collection: string | null; imageUrl: string | null }>;
    loading: boolean;
    empty: boolean;
    hasMore: boolean;
    /** 'Failed to fetch NFTs'. */
    error: string | null;
  };
  /** The Activity tab (null while another tab shows). */
  activity: null | {
    /** Months newest first ('November 2026'), rows newest first. */
    groups: Array<{ label: string; items: ActivityRowView[] }>;
    loading: boolean;
    empty: boolean;
    hasMore: boolean;
    /** 'Failed to fetch transactions'. */
    error: ErrorInfo | null;
  };
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
}

/** A trade module's part (the Swap or the Buy screen's own module): its screen while it shows. */
export interface TradePart {
  screen: 'swap' | 'buy' | null;
  title: string | null;
  swap?: SwapPart | null;
  buy?: BuyPart | null;
}

/** What the account module reads from the views. */
export type AccountIntent =
  | { type: 'openReceive' }
  | { type: 'openSend' }
  | { type: 'sendSetToken'; index: number }
  | { type: 'sendSetAmount'; amount: string }
  | { type: 'sendSetReceiver'; receiver: string }
  | { type: 'sendMax' }
  | { type: 'sendPreview' }
  | { type: 'sendConfirm' }
  | { type: 'selectAccountTab'; tab: 'tokens' | 'nfts' | 'activity' }
  | { type: 'refreshTokens' }
  | { type: 'loadMoreActivity' }
  | { type: 'loadMoreNfts' };

/** What the trade modules read from the views (each loaded when its open intent first comes). */
export type TradeIntent =
  | { type: 'openSwap' }
  | { type: 'swapSetFrom'; address: string }
  | { type: 'swapSetTo'; address: string }
  | { type: 'swapSetAmount'; amount: string }
  | { type: 'swapMax' }
  | { type: 'swapFlip' }
  | { type: 'swapApprove' }
  | { type: 'swapConfirm' }
  | { type: 'openBuy' }
  | { type: 'buySetPurchase'; symbol: string }
  | { type: 'buySetPayment'; currency: string }
  | { type: 'buySetMethod'; method: 'card' | 'bank_account' }
  | { type: 'buySetAmount'; amount: string }
  | { type: 'buyChoose'; provider: string }
  | { type: 'buyReset' };

/** A row of ApproveTransaction's transaction list (`eth_sendTransaction`, `wallet_sendCalls`). */
export interface ApprovalTransaction {
  to: string | null;
  /** '1.5 ETH' */
  value: string;
  data: string | null;
  dataBytes: number;
  /** The called function when its selector is known: name, [argument, value] rows, unlimited approve. */
  function: { name: string; args: Array<[string, string]>; unlimited: boolean } | null;
}

/** The embedded-wallet module's part (email, social and Farcaster logins, ApproveTransaction). */
export interface EmbeddedPart {
  frame: 'idle' | 'loading' | 'ready' | 'failed';
  email: {
    step: 'idle' | 'sending' | 'device' | 'otp' | 'verifying' | 'connecting';
    email: string;
    fieldError: string | null;
    codeError: string | null;
    resent: boolean;
    resendIn: number;
  };
  update: { step: 'email' | 'primaryOtp' | 'secondaryOtp' | 'done'; newEmail: string | null; error: string | null; busy: boolean };
  user: { address: string; email: string | null; userName: string | null; socialProvider: string | null } | null;
  approval:
    | ({ method: string; network: string; sending: boolean; queued: number; fee?: string | null } & (
        | { kind: 'message'; text?: string; hex?: string }
        | { kind: 'typedData'; primaryType: string; domain: Array<[string, string]>; fields: Array<[string, string]>; more: number }
        | { kind: 'transaction'; transactions: ApprovalTransaction[] }
      ))
    | null;
  social: { provider: string; busy: boolean; error: string | null } | null;
  farcaster: { url: string | null; qr: string | null; error: string | null } | null;
  notice: string | null;
}

/** What the embedded-wallet module reads from the views. */
export type EmbeddedIntent =
  | { type: 'emailSubmit'; email: string }
  | { type: 'emailOtp'; otp: string }
  | { type: 'emailResend' }
  | { type: 'openUpdateEmail' }
  | { type: 'updateEmailSubmit'; email: string }
  | { type: 'updateEmailOtp'; otp: string }
  | { type: 'socialLogin'; provider: string }
  | { type: 'farcasterLogin' }
  | { type: 'approve' }
  | { type: 'reject' };

/** What the views render: the engine's snapshot, plus the account module's part once loaded. */
export interface ViewSnapshot extends Snapshot {
  portfolio?: AccountPart | null;
  /** The trade module whose screen shows (Swap or Buy), if any. */
  trade?: TradePart | null;
  /** The embedded-wallet module's part, once loaded. */
  embeddedWallet?: EmbeddedPart | null;
}

/** What the views send: the engine's intents and the lazily loaded modules'. */
export type ViewIntent = Intent | AccountIntent | TradeIntent | EmbeddedIntent;
