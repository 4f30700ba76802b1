// Which page embeds the frame, and whether the project allows it: the same pattern rules as the
// core's allowed-origins check (core/src/service/origins.rs), so a pattern means the same thing
// to the modal and to the frame.
//
// Pattern syntax: `[scheme://]host[:port]`, where
// * the scheme, when given, must match exactly (case-insensitive); without one, any scheme matches;
// * the host is compared case-insensitively; `*` matches one or more characters other than `.`
//   (`https://*.example.com` matches `https://app.example.com`, neither `https://example.com` nor
//   `https://a.b.example.com`);
// * the port, when given, must match (`*` matches any port, the default one too); without one, the
//   origin must use the scheme's default port;
// * a trailing path is ignored.

interface Parts {
  scheme: string | null;
  host: string;
  port: string | null;
}

const MAX_ORIGIN = 2048;

function split(input: string): Parts | null {
  const s = input.trim();
  if (!s || s.length > MAX_ORIGIN) return null;
  let scheme: string | null = null;
  let rest = s;
  const i = s.indexOf('://');
  if (i >= 0) {
    const sc = s.slice(0, i);
    if (!/^[A-Za-z0-9+.-]+$/.test(sc)) return null;
    scheme = sc.toLowerCase();
    rest = s.slice(i + 3);
  }
  const authority = rest.split(/[/?#]/, 1)[0];
  if (!authority || authority.includes('@')) return null;
  let host: string;
  let port: string | null = null;
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    if (end < 0) return null;
    host = authority.slice(0, end + 1);
    const after = authority.slice(end + 1);
    if (after.startsWith(':')) port = after.slice(1);
    else if (after) return null;
  } else {
    const c = authority.lastIndexOf(':');
    if (c >= 0) {
      host = authority.slice(0, c);
      port = authority.slice(c + 1);
    } else {
      host = authority;
    }
  }
  if (!host) return null;
  if (port !== null && !(port === '*' || /^[0-9]+$/.test(port))) return null;
  return { scheme, host: host.toLowerCase(), port };
}

function defaultPort(scheme: string): string | null {
  if (scheme === 'http' || scheme === 'ws') return '80';
  if (scheme === 'https' || scheme === 'wss') return '443';
  return null;
}

const normalizePort = (p: string): string => p.replace(/^0+/, '') || '0';

/** `*` matches one or more characters other than `.`; everything else literally. */
function hostMatches(pattern: string, host: string): boolean {
  // reach[i]: the pattern prefix read so far matches host[0..i).
  let reach: boolean[] = new Array(host.length + 1).fill(false);
  reach[0] = true;
  for (let k = 0; k < pattern.length; k++) {
    const pc = pattern[k];
    const next: boolean[] = new Array(host.length + 1).fill(false);
    if (pc === '*') {
      let run = false;
      for (let j = 1; j <= host.length; j++) {
        run = (reach[j - 1] || run) && host[j - 1] !== '.';
        next[j] = run;
      }
    } else {
      for (let i = 0; i < host.length; i++) if (reach[i] && host[i] === pc) next[i + 1] = true;
    }
    reach = next;
  }
  return reach[host.length];
}

/** Whether `origin` (e.g. `https://app.example.com:8443`) is allowed by any of `patterns`. */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
  const o = split(origin);
  if (!o || !o.scheme || o.host.includes('*') || o.port === '*') return false;
  const oScheme = o.scheme;
  const oPort = o.port !== null ? normalizePort(o.port) : defaultPort(oScheme);
  return patterns.some((pattern) => {
    if (typeof pattern !== 'string') return false;
    const p = split(pattern);
    if (!p) return false;
    if (p.scheme && p.scheme !== oScheme) return false;
    if (!hostMatches(p.host, o.host)) return false;
    if (p.port === '*') return true;
    if (p.port !== null) return oPort === normalizePort(p.port);
    const d = defaultPort(p.scheme ?? oScheme);
    if (d !== null && oPort !== null) return d === oPort;
    if (d === null && oPort === null) return true;
    return o.port === null;
  });
}

/** A serialized origin as browsers write it: `scheme://host[:port]`, nothing else. */
export function isSerializedOrigin(s: unknown): s is string {
  if (typeof s !== 'string' || s.length > MAX_ORIGIN || s === 'null') return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
  } catch {
    return false;
  }
}

/**
 * The embedding page's origin: `location.ancestorOrigins[0]` where the browser has it (Chromium,
 * Safari), else the referrer's origin (Firefox); null when neither gives an http(s) origin.
 */
export function embeddingOrigin(ancestorOrigins: ArrayLike<string> | undefined, referrer: string): string | null {
  const first = ancestorOrigins && ancestorOrigins.length > 0 ? ancestorOrigins[0] : undefined;
  if (first !== undefined) return isSerializedOrigin(first) ? first : null;
  if (!referrer) return null;
  try {
    const o = new URL(referrer).origin;
    return isSerializedOrigin(o) ? o : null;
  } catch {
    return null;
  }
}
