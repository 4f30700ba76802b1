import { useEffect, useState } from 'react';

/** How long a copy button says "Copied". */
const COPIED_FEEDBACK_MS = 1500;

/** `[copied, markCopied]`: `copied` turns true on `markCopied()` and back to false 1.5 s later. */
export function useCopied(): [boolean, () => void] {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(t);
  }, [copied]);
  return [copied, () => setCopied(true)];
}
