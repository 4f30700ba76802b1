import { useRef, useState } from 'react';
import { t, tr } from '../shell/i18n';
import type { ViewProps } from '../shell/types';
import { ChevronRightIcon } from '../shell/icons';
import { MailIcon } from '../shell/view-icons';
import { useLazyStyles } from '../shell/dynamic-styles';

const CSS = `
.wm-socials { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 8px; }
.wm-socials li { flex: 1 1 calc(25% - 8px); }
.wm-social {
  width: 100%;
  min-height: 40px;
  padding: 8px;
  border: none;
  border-radius: var(--_r-l);
  background: var(--_bg2);
  color: inherit;
  font: inherit;
  text-transform: capitalize;
  cursor: pointer;
}
.wm-social:hover { background: var(--_bg3); }
.wm-email-field { display: flex; align-items: center; gap: 8px; padding: 0 4px 0 12px; min-height: 48px; border-radius: var(--_r-l); background: var(--_bg2); border: 1px solid var(--_border); }
.wm-email-field:focus-within { border-color: var(--_accent); }
.wm-email-field input { flex: 1; min-width: 0; border: none; background: none; color: inherit; font: inherit; outline: none; padding: 12px 0; }
.wm-email-submit { display: inline-flex; border: none; background: none; color: var(--_accent-text); padding: 8px; border-radius: var(--_r-s); cursor: pointer; }
.wm-email-submit svg:dir(rtl) { transform: scaleX(-1); }
.wm-field-error { margin: 4px 4px 0; color: var(--_error); font-size: var(--_fs-small); }
`;

/** "Continue with email": the field is here at once (no wait for the frame); the module checks it. */
function EmailRow({ snapshot, onIntent }: ViewProps) {
  const email = snapshot.email;
  const error = email && email.step === 'idle' ? email.fieldError : null;
  const busy = email?.step === 'sending';
  return (
    <form
      className="wm-method wm-method-email"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const v = new FormData(e.currentTarget).get('email');
        onIntent({ type: 'emailSubmit', email: typeof v === 'string' ? v : '' });
      }}
    >
      <label className="wm-email-field">
        <MailIcon />
        <input
          name="email"
          type="email"
          autoComplete="email"
          placeholder={t('Email')}
          aria-label={t('Email')}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'wm-email-error' : undefined}
          defaultValue={email?.email ?? ''}
          data-method="email"
          // The visitor means to log in: the embedded wallet and its secure frame load now (typing
          // an address takes longer than the frame takes to be ready).
          onFocus={() => onIntent({ type: 'loadFrame' })}
        />
        <button type="submit" className="wm-email-submit" aria-label={t('Continue with email')} disabled={busy}>
          <ChevronRightIcon />
        </button>
      </label>
      {error ? (
        <p id="wm-email-error" className="wm-field-error" role="alert">
          {tr(error)}
        </p>
      ) : null}
    </form>
  );
}

/** Social logins in the config's order: the first three as buttons, the rest behind "Other". */
function SocialRows({ snapshot, onIntent }: ViewProps) {
  const [all, setAll] = useState(false);
  const socials = snapshot.socials;
  if (socials.length === 0) return null;
  const shown = all || socials.length <= 4 ? socials : socials.slice(0, 3);
  const social = snapshot.social;
  return (
    <>
      <ul className="wm-socials" aria-label={t('Social logins')}>
        {shown.map((s) => (
          <li key={s}>
            <button
              type="button"
              className="wm-social"
              data-method="social"
              data-social={s}
              onClick={() => onIntent(s === 'farcaster' ? { type: 'farcasterLogin' } : { type: 'socialLogin', provider: s })}
            >
              <span className="wm-social-name">{s}</span>
            </button>
          </li>
        ))}
        {shown.length < socials.length ? (
          <li>
            <button type="button" className="wm-social" data-social="other" aria-expanded="false" onClick={() => setAll(true)}>
              <span className="wm-social-name">{t('Other')}</span>
            </button>
          </li>
        ) : null}
      </ul>
      {social?.error ? (
        <p className="wm-field-error" role="alert">
          {tr(social.error)}
        </p>
      ) : null}
    </>
  );
}

/** The Connect view's email row or social row (the embedded wallet's logins). */
export default function LoginRows({ method, snapshot, onIntent }: ViewProps & { method: 'email' | 'social' }) {
  const ref = useRef<HTMLDivElement>(null);
  useLazyStyles(ref, CSS);
  return <div ref={ref} className="wm-login-rows">{method === 'email' ? <EmailRow snapshot={snapshot} onIntent={onIntent} /> : <SocialRows snapshot={snapshot} onIntent={onIntent} />}</div>;
}
