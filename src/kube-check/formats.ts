// The string formats of the CRD schemas, checked the way the API server checks them. Its `uri`
// is not RFC 3986's: it is whatever Go's url.ParseRequestURI takes, which admits an absolute path
// without a scheme (`/docs`) and an opaque URI (`mailto:x@example.com`), and refuses a relative
// reference (`docs/x`), a host with a character outside the URL alphabet, a non-numeric port and
// a bad percent escape.
import addFormats from 'ajv-formats';

const isAlpha = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** Percent escapes are `%` and two hex digits; in a host, also no byte below 0x80 outside the URL alphabet. */
function unescapes(s: string, host: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      if (!isHex(s[i + 1]) || !isHex(s[i + 2])) return false;
      // In a host only an escaped byte from 0x80 up (or %25, the zone separator) is allowed.
      if (host && parseInt(s[i + 1]!, 16) < 8 && s.slice(i, i + 3) !== '%25') return false;
      i += 2;
    } else if (host && c.charCodeAt(0) < 0x80 && !isAlpha(c) && !isDigit(c) && !"-_.~!$&'()*+,;=:[]<>\"".includes(c)) {
      return false;
    }
  }
  return true;
}

const validOptionalPort = (p: string): boolean => p === '' || (p.startsWith(':') && [...p.slice(1)].every(isDigit));

function validHost(host: string): boolean {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0 || !validOptionalPort(host.slice(end + 1))) return false;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(host.slice(colon))) return false;
  }
  return unescapes(host, true);
}

function validAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  if (!validHost(authority.slice(at + 1))) return false;
  if (at < 0) return true;
  const userinfo = authority.slice(0, at);
  for (const c of userinfo) if (!isAlpha(c) && !isDigit(c) && !"-._:~!$&'()*+,;=%@".includes(c)) return false;
  return unescapes(userinfo, false);
}

/** True when Go's url.ParseRequestURI accepts `s`: the API server's `uri` format. */
export function isRequestUri(s: string): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  if (s === '*') return true;
  let scheme = '';
  let rest = s;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (isAlpha(c)) continue;
    if (isDigit(c) || c === '+' || c === '-' || c === '.') {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false;
      scheme = s.slice(0, i);
      rest = s.slice(i + 1);
    }
    break;
  }
  // The query is not checked; one trailing "?" alone is an empty query.
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    if (!validAuthority(authority)) return false;
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  return unescapes(rest, false);
}

/** The formats the CRD schemas use, by name: what both ajv and the schema walker check. */
export const CRD_FORMAT_CHECKS: Record<string, ((s: string) => boolean) | { validate: (s: string) => boolean } | { type: 'number'; validate: (n: number) => boolean }> = {
  uri: isRequestUri,
  // ajv-formats' own RFC 3339 check, through its documented `get` (the CommonJS module's
  // `default` is the plugin under both Node's interop and the bundler's).
  'date-time': addFormats.default.get('date-time', 'full') as { validate: (s: string) => boolean },
  // The API server stores these fields as int32; the field's own bounds say the same in words.
  int32: { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 },
};

/** Whether `v` is of the string format `name` as validate's ajv checks it; undefined for a format it has no string check for. */
export function crdFormatOk(name: string, v: string): boolean | undefined {
  const f = Object.hasOwn(CRD_FORMAT_CHECKS, name) ? CRD_FORMAT_CHECKS[name] : undefined;
  if (f === undefined || ('type' in f && f.type === 'number')) return undefined;
  return typeof f === 'function' ? f(v) : (f.validate as (s: string) => boolean)(v);
}
