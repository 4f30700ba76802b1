import type { ErrorInfo, ViewProps } from './types';
import { t, tr } from './i18n';
import { AlertIcon } from './icons';

/** Guidance for configuration problems the host page can fix. Copy only; the engine found the problem. */
const GUIDANCE: Record<string, string> = {
  PROJECT_ID_NOT_CONFIGURED: 'Add a project-id attribute to <wallet-modal>.',  // i18n
  INVALID_APP_CONFIGURATION: 'Check that this origin is allowed and the project id is valid.',  // i18n
  UNVERIFIED_DOMAIN: 'Verify this domain in the project settings.',  // i18n
};

/** A `detail` on the error (proposed protocol addition) takes precedence over the built-in guidance. */
type ConfigErrorInfo = ErrorInfo & { detail?: string };

export function ConfigError({ snapshot }: ViewProps) {
  const err = snapshot.configError as ConfigErrorInfo | null;
  if (!err) return <div className="wm-view wm-config-error" />;
  const guidance = err.detail ?? GUIDANCE[err.key] ?? (err.key.startsWith('PROJECT_ID') ? GUIDANCE.PROJECT_ID_NOT_CONFIGURED : null);
  return (
    <div className="wm-view wm-config-error" part="error" role="alert" data-error-key={err.key}>
      <span className="wm-config-error-icon" aria-hidden="true">
        <AlertIcon />
      </span>
      <h3 className="wm-config-error-title">{tr(err.message)}</h3>
      {guidance ? <p className="wm-text">{tr(guidance)}</p> : null}
    </div>
  );
}

export default ConfigError;
