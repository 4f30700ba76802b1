import { useId } from 'react';
import { t, tr } from '../shell/i18n';

/**
 * A translated text with its `{email}` placeholder left in (t() without params), the email shown emphasised.
 */
export function WithEmail({ text, email }: { text: string; email: string }) {
  const [before, after = ''] = text.split('{email}');
  return (
    <>
      {before}
      <strong>{email}</strong>
      {after}
    </>
  );
}

/** A 6-digit code field with its error; `onCode` gets what was typed. */
export function CodeForm({ label, error, busy, onCode }: { label: string; error: string | null; busy: boolean; onCode(code: string): void }) {
  const errorId = useId();
  return (
    <form
      className="wm-code-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const v = new FormData(e.currentTarget).get('code');
        onCode(typeof v === 'string' ? v : '');
      }}
    >
      <input
        className="wm-code-input"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        aria-label={label}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? errorId : undefined}
        autoFocus
        disabled={busy}
      />
      {error ? (
        <p id={errorId} className="wm-embedded-error" role="alert">
          {tr(error)}
        </p>
      ) : null}
      <button type="submit" className="wm-button wm-button-primary" disabled={busy}>
        {busy ? t('Checking…') : t('Continue')}
      </button>
    </form>
  );
}
