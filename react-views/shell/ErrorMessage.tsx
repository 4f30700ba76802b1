import type { ErrorInfo } from './types';
import { t, tr } from './i18n';
import { AlertIcon } from './icons';

/** The catalogue message of an engine error, announced to assistive technology. */
export function ErrorMessage({ error }: { error: ErrorInfo | null | undefined }) {
  if (!error) return null;
  return (
    <p className="wm-error" part="error" role="alert" data-error-key={error.key} data-error-code={error.code}>
      <AlertIcon />
      <span>{tr(error.message)}</span>
    </p>
  );
}
