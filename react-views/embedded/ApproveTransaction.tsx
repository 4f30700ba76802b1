import { useLayoutEffect, useRef, type CSSProperties } from 'react';
import { useDynamicStyle } from '../shell/dynamic-styles';
import type { ViewProps } from '../shell/types';
import { Spinner } from '../shell/icons';
import { t } from '../shell/i18n';

const SLOT: CSSProperties = { display: 'block', width: '100%', minHeight: 120, maxHeight: 'min(62vh, 640px)', outline: 'none' };
const WAITING: CSSProperties = { display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 10, minHeight: 120 };

/**
 * ApproveTransaction: the place of the secure frame's approval. The visitor reads and approves
 * what is signed inside the frame, on the wallet's own origin; this page cannot draw it, change it
 * or click it. The shell lays the frame over the slot (sized by the frame) and moves focus into it;
 * the slot itself is the tab stop that hands focus to the frame. Its chunk is fetched as soon as the
 * embedded wallet's module loads (App.tsx), with its few styles inline, so that it shows the moment
 * the frame asks.
 */
export default function ApproveTransaction({ snapshot }: ViewProps) {
  const a = snapshot.approval;
  // The slot's height (the frame's) in the views' dynamic sheet, as the shell's own heights: no
  // style attribute written.
  const slot = useRef<HTMLDivElement>(null);
  const { token, set } = useDynamicStyle(slot);
  const height = a?.open ? `${Math.max(120, a.height)}px` : null;
  useLayoutEffect(() => set('height', height), [set, height]);
  return (
    <div className="wm-view wm-approve">
      {a?.open ? (
        <div
          className="wm-approve-slot"
          data-wm-frame-slot=""
          tabIndex={0}
          role="group"
          aria-label={t('Secure approval from your wallet')}
          ref={slot}
          data-wm-dyn={token}
          style={SLOT}
        />
      ) : (
        <div className="wm-approve-waiting" role="status" style={WAITING}>
          <Spinner label={t('Preparing')} />
          <span>{t('Preparing the request in your wallet’s secure frame…')}</span>
        </div>
      )}
    </div>
  );
}
