import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { CodeForm } from './CodeForm';
import { Spinner } from '../shell/icons';
import { useEmbeddedStyles } from './styles';
import { t, tr } from '../shell/i18n';

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
          <p className="wm-note">{t('Your email is {email}. Enter the new one.', { email: current })}</p>
          <input className="wm-text-input" name="email" type="email" autoComplete="email" aria-label={t('New email')} autoFocus />
          {update?.error ? <p className="wm-embedded-error" role="alert">{tr(update.error)}</p> : null}
          <button type="submit" className="wm-button wm-button-primary" disabled={update?.busy}>
            {update?.busy ? <Spinner /> : null}
            {t('Save')}
          </button>
        </form>
      ) : update.step === 'done' ? (
        <p className="wm-note" role="status">{t('Your email is now {email}.', { email: update.newEmail ?? '' })}</p>
      ) : (
        <>
          <p className="wm-note">
            {update.step === 'primaryOtp' ? t('Enter the code we sent to {email} to confirm the change.', { email: current }) : t('Enter the code we sent to {email}.', { email: update.newEmail ?? '' })}
          </p>
          <CodeForm
            key={update.step}
            label={update.step === 'primaryOtp' ? t('Code sent to your current email') : t('Code sent to your new email')}
            error={update.error}
            busy={update.busy}
            onCode={(otp) => onIntent({ type: 'updateEmailOtp', otp })}
          />
        </>
      )}
    </div>
  );
}
