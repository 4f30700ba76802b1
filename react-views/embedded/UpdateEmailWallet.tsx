import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { CodeForm } from './CodeForm';
import { Spinner } from '../shell/icons';
import { useEmbeddedStyles } from './styles';

/** UpdateEmailWallet: the new email, then a code sent to the current email, then one sent to the new one. */
export default function UpdateEmailWallet({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEmbeddedStyles(ref);
  const update = snapshot.emailUpdate;
  const current = snapshot.embeddedUser?.email ?? '';
  return (
    <div ref={ref} className="wm-view wm-update-email" data-step={update?.step ?? 'email'}>
      {!update || update.step === 'email' ? (
        <form
          className="wm-code-form"
          noValidate
          onSubmit={(ev) => {
            ev.preventDefault();
            const v = new FormData(ev.currentTarget).get('email');
            onIntent({ type: 'updateEmailSubmit', email: typeof v === 'string' ? v : '' });
          }}
        >
          <p className="wm-note">Your email is {current}. Enter the new one.</p>
          <input className="wm-text-input" name="email" type="email" autoComplete="email" aria-label="New email" autoFocus />
          {update?.error ? <p className="wm-embedded-error" role="alert">{update.error}</p> : null}
          <button type="submit" className="wm-button wm-button-primary" disabled={update?.busy}>
            {update?.busy ? <Spinner /> : null}
            Save
          </button>
        </form>
      ) : update.step === 'done' ? (
        <p className="wm-note" role="status">Your email is now {update.newEmail}.</p>
      ) : (
        <>
          <p className="wm-note">
            {update.step === 'primaryOtp' ? `Enter the code we sent to ${current} to confirm the change.` : `Enter the code we sent to ${update.newEmail}.`}
          </p>
          <CodeForm
            key={update.step}
            label={update.step === 'primaryOtp' ? 'Code sent to your current email' : 'Code sent to your new email'}
            error={update.error}
            busy={update.busy}
            onCode={(otp) => onIntent({ type: 'updateEmailOtp', otp })}
          />
        </>
      )}
    </div>
  );
}
