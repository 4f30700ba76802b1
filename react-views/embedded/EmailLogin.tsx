import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { Spinner } from '../shell/icons';
import { CodeForm, WithEmail } from './CodeForm';
import { useEmbeddedStyles } from './styles';
import { t, tr } from '../shell/i18n';

/** EmailLogin: the code sent to the email (or the device approval first), resend, wrong/expired codes. */
export default function EmailLogin({ snapshot, onIntent }: ViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEmbeddedStyles(ref);
  const email = snapshot.email;
  const step = email?.step ?? 'sending';
  return (
    <div ref={ref} className="wm-view wm-email-login" data-step={step}>
      {step === 'sending' || step === 'connecting' || !email ? (
        <p className="wm-note" role="status">
          <Spinner /> {step === 'connecting' ? t('Opening your wallet…') : email?.email ? t('Sending a code to {email}…', { email: email.email }) : t('Sending a code to your email…')}
        </p>
      ) : step === 'device' ? (
        <p className="wm-note" role="status">
          <WithEmail text={t('This is a new device for {email}. We sent you an email: approve this device from the link in it, then come back here.')} email={email.email} />
        </p>
      ) : step === 'idle' ? (
        <p className="wm-embedded-error" role="alert">
          {email.fieldError ? tr(email.fieldError) : t('Enter your email on the previous screen.')}
        </p>
      ) : (
        <>
          <p className="wm-note">
            <WithEmail text={t('Enter the code we sent to {email}')} email={email.email} />
          </p>
          <CodeForm label={t('Code from the email')} error={email.codeError} busy={step === 'verifying'} onCode={(otp) => onIntent({ type: 'emailOtp', otp })} />
          <p className="wm-note">
            {email.resent ? t('A new code is on its way.') : t('Didn\'t get it?')}{' '}
            <button type="button" className="wm-link-button" onClick={() => onIntent({ type: 'emailResend' })}>
              {t('Resend code')}
            </button>
          </p>
        </>
      )}
    </div>
  );
}
