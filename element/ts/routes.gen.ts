// Written by the Rust side (core/src/host/routes.rs) from core/src/modules.rs: which module runs
// which slices, and so which module reads each event, needs loading for each view and answers
// each connector. Do not edit: regenerate with
// `WM_WRITE_ROUTES=1 cargo test -p wallet-modal-core --all-features routes`.

export interface ModuleRoute {
  events: readonly string[];
  views: readonly string[];
  connectors: readonly string[];
}

/** Every view of the modal (the core's `View`). */
export type ViewName =
  | 'Connect'
  | 'ConnectingExternal'
  | 'ConnectingWalletConnect'
  | 'ConnectingWalletConnectBasic'
  | 'ConnectingFarcaster'
  | 'AllWallets'
  | 'EmailLogin'
  | 'UpdateEmailWallet'
  | 'ProfileWallets'
  | 'Account'
  | 'SwitchNetwork'
  | 'SwitchActiveChain'
  | 'UnsupportedChain'
  | 'SIWXSignMessage'
  | 'ApproveTransaction'
  | 'Swap'
  | 'RegisterAccountName'
  | 'RegisterAccountNameSuccess'
  | 'WalletReceive'
  | 'WalletSend'
  | 'WalletSendPreview'
  | 'OnRampProviders'
  | 'ConfigError';

/** The module loaded at start-up: every event no other module reads goes to it. */
export const ENGINE = 'engine';

/** The events the engine's slices (ui, service, connect, network) read. */
export type EngineEventType =
  | 'open'
  | 'close'
  | 'back'
  | 'navigate'
  | 'showBanner'
  | 'theme'
  | 'dismissBanner'
  | 'dismiss'
  | 'lock'
  | 'unlock'
  | 'shake'
  | 'start'
  | 'announce'
  | 'selectConnector'
  | 'selectWallet'
  | 'connectEmbedded'
  | 'embeddedLogin'
  | 'retry'
  | 'searchWallets'
  | 'loadMoreWallets'
  | 'disconnect'
  | 'copyUri'
  | 'walletConnectUri'
  | 'providerEvent'
  | 'useConnection'
  | 'switchNetwork'
  | 'switchActiveChain';

/** The lazily loaded modules, and what loads each one. */
export const ROUTES = {
  // slices: account, portfolio, nfts, activity, send, receive, swap, buy, profile
  account: {
    events: ['copyAddress', 'hostRequest', 'hostRequestDone', 'refreshTokens', 'selectAccountTab', 'loadMoreNfts', 'loadMoreActivity', 'sendSetToken', 'sendSetAmount', 'sendSetReceiver', 'sendMax', 'sendPreview', 'sendConfirm', 'swapSetFrom', 'swapSetTo', 'swapSetAmount', 'swapMax', 'swapFlip', 'swapApprove', 'swapConfirm', 'buySetPurchase', 'buySetPayment', 'buySetMethod', 'buySetAmount', 'buyChoose', 'buyReset', 'switchConnection', 'disconnectConnection'],
    views: ['Account', 'WalletSend', 'WalletSendPreview', 'WalletReceive', 'Swap', 'OnRampProviders', 'ProfileWallets'],
    connectors: [],
  },
  // slices: frame, embeddedWallet, email, social, farcaster, approval
  embedded: {
    events: ['init', 'loadFrame', 'frameMessage', 'frameLoadFailed', 'emailSubmit', 'emailOtp', 'emailResend', 'openUpdateEmail', 'updateEmailSubmit', 'updateEmailOtp', 'socialLogin', 'popupClosed', 'socialResult', 'farcasterLogin', 'frameTheme'],
    views: ['EmailLogin', 'UpdateEmailWallet', 'ConnectingFarcaster', 'ApproveTransaction'],
    connectors: ['frame', 'embedded', 'approval'],
  },
  // slices: siwx
  siwx: {
    events: ['siwxConfig', 'siwxSign', 'siwxCancel'],
    views: ['SIWXSignMessage'],
    connectors: [],
  },
} as const satisfies Record<string, ModuleRoute>;

export type ModuleName = typeof ENGINE | keyof typeof ROUTES;
