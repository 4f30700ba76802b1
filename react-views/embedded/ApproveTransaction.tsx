import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { useEmbeddedStyles } from './styles';
import { Spinner } from '../shell/icons';

/**
 * ApproveTransaction: the place of the secure frame's approval. The visitor reads and approves
 * what is signed inside the frame, on the wallet's own origin; this page cannot draw it, change it
 * or click it. The shell lays the frame over the slot (sized by the frame) and moves focus into it;
 * the slot itself is the tab stop that hands focus to the frame.
 */
export default function ApproveTransaction({ snapshot }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEmbeddedStyles(ref);
  const a = snapshot.approval;
  return (
    <div ref={ref} className="wm-view wm-approve">
      {a?.open ? (
        <div
          className="wm-approve-slot"
          data-wm-frame-slot=""
          tabIndex={0}
          role="group"
          aria-label="Secure approval from your wallet"
          style={{ height: `${Math.max(120, a.height)}px` }}
        />
      ) : (
        <div className="wm-approve-waiting" role="status">
          <Spinner label="Preparing" />
          <span>Preparing the request in your wallet’s secure frame…</span>
        </div>
      )}
      <p className="wm-note">Approve or reject in the secure frame above: only it can sign for your wallet.</p>
    </div>
  );
}
