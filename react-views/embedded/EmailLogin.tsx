import { useRef } from 'react';
import type { ViewProps } from '../shell/types';
import { Spinner } from '../shell/icons';
import { CodeForm } from './CodeForm';
import { useEmbeddedStyles } from './styles';

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
          <Spinner /> {step === 'connecting' ? 'Opening your wallet…' : `Sending a code to ${email?.email ?? 'your email'}…`}
        </p>
      ) : step === 'device' ? (
        <p className="wm-note" role="status">
          This is a new device for <strong>{email.email}</strong>. We sent you an email: approve this device from the link in it, then come back here.
        </p>
      ) : step === 'idle' ? (
        <p className="wm-embedded-error" role="alert">
          {email.fieldError ?? 'Enter your email on the previous screen.'}
        </p>
      ) : (
        <>
          <p className="wm-note">
            Enter the code we sent to <strong>{email.email}</strong>
          </p>
          <CodeForm label="Code from the email" error={email.codeError} busy={step === 'verifying'} onCode={(otp) => onIntent({ type: 'emailOtp', otp })} />
          <p className="wm-note">
            {email.resent ? 'A new code is on its way. ' : "Didn't get it? "}
            <button type="button" className="wm-link-button" onClick={() => onIntent({ type: 'emailResend' })}>
              Resend code
            </button>
          </p>
        </>
      )}
    </div>
  );
}
