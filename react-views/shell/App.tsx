import { lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, type ComponentType } from 'react';
import { t, tr } from './i18n';
import type { PointerEvent as ReactPointerEvent, MouseEvent as ReactMouseEvent, RefObject } from 'react';
import type { Snapshot, ViewProps } from './types';
import { createFocusTrap, type FocusTrap } from './focus-trap';
import { ImageTimeoutContext } from '../connect/WalletImage';
import { useDynamicStyle } from './dynamic-styles';
import { BackIcon, CloseIcon, Spinner } from './icons';
import { Connect } from '../connect/Connect';
import { ConfigError } from './ConfigError';

const AllWallets = lazy(() => import('../connect/AllWallets'));
// Only when there is something to say (kept out of the initial load).
const Notices = lazy(() => import('./Banner'));
const Account = lazy(() => import('../account/Account'));
// The Account view's screens: in its chunk (Swap and Buy each load their own with their view).
const WalletSend = lazy(() => import('../account/Account').then((m) => ({ default: m.WalletSend })));
const WalletReceive = lazy(() => import('../account/Account').then((m) => ({ default: m.WalletReceive })));
const SwapView = lazy(() => import('../account/Account').then((m) => ({ default: m.SwapView })));
const BuyView = lazy(() => import('../account/Account').then((m) => ({ default: m.BuyView })));
const SwitchNetwork = lazy(() => import('../network/SwitchNetwork'));
const UnsupportedChain = lazy(() => import('../network/UnsupportedChain'));
const SwitchActiveChain = lazy(() => import('../network/SwitchActiveChain'));
const ConnectingExternal = lazy(() => import('../connect/ConnectingExternal'));
const ConnectingWalletConnect = lazy(() => import('../walletconnect/ConnectingWalletConnect'));
const ConnectingWalletConnectBasic = lazy(() => import('../walletconnect/ConnectingWalletConnectBasic'));
const EmailLogin = lazy(() => import('../embedded/EmailLogin'));
const UpdateEmailWallet = lazy(() => import('../embedded/UpdateEmailWallet'));
const ConnectingFarcaster = lazy(() => import('../embedded/ConnectingFarcaster'));
// Sign-in's view is fetched as soon as the page asks for sign-in, and then drawn at once (a lazy
// view waits for React's Suspense reveal, 300 ms, right after the wallet connected).
const loadSiwx = () => import('../auth/SiwxSignMessage');
const SiwxLazy = lazy(loadSiwx);
let SiwxView: ComponentType<ViewProps> | null = null;
// The secure frame's approval must show at once (a lazy view waits for React's Suspense reveal,
// 300 ms): its chunk is fetched as soon as the embedded wallet's module is here (the frame can only
// ask once it is), and then drawn at once; it is only the frame's place.
const loadApproval = () => import('../embedded/ApproveTransaction');
const ApprovalLazy = lazy(loadApproval);
let ApprovalView: ComponentType<ViewProps> | null = null;
const ProfileWallets = lazy(() => import('../account/Account').then((m) => ({ default: m.ProfileWallets })));

/** Each view's component, by the view's name (the sign-in view is drawn apart: CurrentView). */
const VIEWS: Record<string, ComponentType<ViewProps>> = {
  Connect,
  AllWallets,
  Account,
  SwitchNetwork,
  UnsupportedChain,
  SwitchActiveChain,
  ConnectingExternal,
  ConnectingWalletConnect,
  ConnectingWalletConnectBasic,
  ConfigError,
  EmailLogin,
  UpdateEmailWallet,
  ConnectingFarcaster,
  ProfileWallets,
  WalletSend,
  WalletSendPreview: WalletSend,
  WalletReceive,
  Swap: SwapView,
  OnRampProviders: BuyView,
};

function CurrentView({ snapshot, onIntent }: ViewProps) {
  const view = snapshot.view;
  const View = snapshot.configError ? ConfigError : view === 'SIWXSignMessage' ? (SiwxView ?? SiwxLazy) : view === 'ApproveTransaction' ? (ApprovalView ?? ApprovalLazy) : VIEWS[view];
  return View ? <View snapshot={snapshot} onIntent={onIntent} /> : null;
}

function ViewFallback() {
  return (
    <div className="wm-suspense">
      <Spinner label={t('Loading')} />
    </div>
  );
}

/**
 * Animates the body's height (150 ms) by measuring the content with a ResizeObserver and writing
 * the height into the body's dynamic CSSOM rule (no style attribute: fine under a strict CSP).
 * The first measurement goes from `auto` to pixels, which CSS doesn't interpolate, so it doesn't
 * animate; later changes do.
 */
function useAnimatedHeight(bodyRef: RefObject<HTMLDivElement | null>, innerRef: RefObject<HTMLDivElement | null>) {
  const dyn = useDynamicStyle(bodyRef);
  const { set } = dyn;
  useLayoutEffect(() => {
    const inner = innerRef.current;
    if (!inner || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      set('height', `${Math.ceil(inner.getBoundingClientRect().height)}px`);
    });
    ro.observe(inner);
    return () => {
      ro.disconnect();
      set('height', null);
    };
  }, [innerRef, set]);
  return dyn.token;
}

function Dialog({ snapshot, onIntent, active = true }: ViewProps & { active?: boolean }) {
  const titleId = useId();
  const cardRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const trapRef = useRef<FocusTrap | null>(null);
  const pressStartedOnOverlay = useRef(false);
  // Closing is refused while sign-in is required and the account has none (the sign-in module
  // says so): no close button; Escape and the backdrop ask, and the engine shakes the modal.
  const locked = !!snapshot.siwx?.locked;
  const canClose = snapshot.canClose && !locked;
  const onIntentRef = useRef(onIntent);
  onIntentRef.current = onIntent;

  const modal = !snapshot.embedded;
  const viewKey = snapshot.configError ? 'ConfigError' : snapshot.view;

  useEffect(() => {
    const card = cardRef.current;
    if (!modal || !card || !active) return;
    const trap = createFocusTrap(card, { onEscape: () => onIntentRef.current({ type: 'dismiss' }) });
    trap.activate();
    trapRef.current = trap;
    return () => {
      trap.deactivate();
      trapRef.current = null;
    };
  }, [modal, active]);

  // When the focused element disappears with the old view, keep focus inside the dialog.
  useEffect(() => {
    trapRef.current?.ensureFocus();
  }, [viewKey]);

  const bodyStyleToken = useAnimatedHeight(bodyRef, innerRef);

  const card = (
    <div
      ref={cardRef}
      part="modal"
      className={`wm-card${snapshot.shake ? ' wm-shake' : ''}${modal ? '' : ' wm-embedded'}`}
      role="dialog"
      aria-modal={modal ? 'true' : undefined}
      aria-labelledby={titleId}
      tabIndex={-1}
      data-view={viewKey}
    >
      {/* A div, not <header>: inside the dialog a <header> would be a second page banner landmark. */}
      <div part="header" className="wm-header">
        {snapshot.canGoBack ? (
          <button
            type="button"
            part="back-button"
            className="wm-icon-button wm-back"
            aria-label={t('Back')}
            onClick={() => onIntent({ type: 'back' })}
          >
            <BackIcon />
          </button>
        ) : (
          <span className="wm-header-spacer" />
        )}
        <h2 id={titleId} part="title" className="wm-title">
          <span key={snapshot.title} className="wm-title-text">
            {tr(snapshot.title)}
          </span>
        </h2>
        {canClose ? (
          <button
            type="button"
            part="close-button"
            className="wm-icon-button wm-close"
            aria-label={t('Close')}
            onClick={() => onIntent({ type: 'dismiss' })}
          >
            <CloseIcon />
          </button>
        ) : (
          <span className="wm-header-spacer" />
        )}
        {snapshot.loading ? <span className="wm-loading-bar" role="progressbar" aria-label={t('Loading')} /> : null}
      </div>
      {snapshot.banner || snapshot.walletRequest ? (
        <Suspense fallback={null}>
          <Notices snapshot={snapshot} onIntent={onIntent} />
        </Suspense>
      ) : null}
      <div ref={bodyRef} part="body" className="wm-body wm-body-animated" data-wm-dyn={bodyStyleToken}>
        <div ref={innerRef} className="wm-body-inner">
          <div key={viewKey} className="wm-view-transition">
            <Suspense fallback={<ViewFallback />}>
              <CurrentView snapshot={snapshot} onIntent={onIntent} />
            </Suspense>
          </div>
        </div>
      </div>
      {snapshot.branding ? (
        <div part="footer" className="wm-footer">
          UX by wallet-modal
        </div>
      ) : null}
    </div>
  );

  if (!modal) return card;

  return (
    <div
      part="overlay"
      className="wm-overlay"
      onPointerDown={(e: ReactPointerEvent<HTMLDivElement>) => {
        pressStartedOnOverlay.current = e.target === e.currentTarget;
      }}
      onClick={(e: ReactMouseEvent<HTMLDivElement>) => {
        // Only a press that both starts and ends on the backdrop closes (not a drag out of the card).
        // A click without a preceding pointerdown (keyboard/synthetic) counts when it targets the backdrop.
        const started = pressStartedOnOverlay.current || e.detail === 0;
        pressStartedOnOverlay.current = false;
        if (e.target === e.currentTarget && started) onIntentRef.current({ type: 'dismiss' });
      }}
    >
      {card}
    </div>
  );
}

/**
 * The snapshot rendered, hidden and inert, while the modal is closed on Connect: React, styles and
 * layout are done before `open()`, which then only shows it (the first wallet option appears in
 * the frame of the call). Remote images are left out of it: nothing is requested before open().
 */
function prepared(snapshot: Snapshot): Snapshot | null {
  if (snapshot.view !== 'Connect' || snapshot.configError) return null;
  const local = (icon: string | null) => (icon?.startsWith('data:') ? icon : null);
  return { ...snapshot, connectors: snapshot.connectors.map((c) => ({ ...c, icon: local(c.icon) })), banner: null, walletRequest: null };
}

export function App({ snapshot, onIntent }: { snapshot: Snapshot; onIntent: ViewProps['onIntent'] }) {
  const visible = snapshot.open || snapshot.embedded;
  const signIn = !!snapshot.siwx;
  useEffect(() => {
    if (signIn && !SiwxView) loadSiwx().then((m) => void (SiwxView = m.default), () => {});
  }, [signIn]);
  const embedded = snapshot.approval !== undefined;
  useEffect(() => {
    if (embedded && !ApprovalView) loadApproval().then((m) => void (ApprovalView = m.default), () => {});
  }, [embedded]);
  const hidden = visible ? null : prepared(snapshot);
  return (
    <ImageTimeoutContext value={snapshot.imagePreloadTimeoutMs}>
      <div
        className="wm-app"
        data-theme={snapshot.themeMode === 'dark' ? 'dark' : 'light'}
        data-open={visible ? 'true' : 'false'}
        inert={!visible}
        aria-hidden={visible ? undefined : 'true'}
      >
        {visible ? <Dialog snapshot={snapshot} onIntent={onIntent} /> : hidden ? <Dialog snapshot={hidden} onIntent={onIntent} active={false} /> : null}
      </div>
    </ImageTimeoutContext>
  );
}
