// Which values must never be echoed in a message: keys that name secrets, tokens, passwords or keys.
export function isSecretKey(key: unknown): boolean {
  return typeof key === 'string' && /(secret|token|password|passwd|apikey|api_key|(^|[a-z])key$|Key$)/i.test(key) && !/^(apiKeySecretRef|apiKeySecretKey|existingSecret|secretRef|caCertSecretRef|caCertSecretKey)$/.test(key);
}

/**
 * Values paths the schemas mark secret (`x-agentplat-secret`) whose key does not say so: a
 * database URL carries its password. test/hardening/secrets.test.ts checks that every path the
 * schemas mark is recognised by isSecretPath.
 */
export const SECRET_PATHS: readonly string[] = ['database.rdb.url'];

/** True when the value at `path` is a secret: a secret key anywhere on the path, or a marked path. */
export function isSecretPath(path: readonly unknown[]): boolean {
  return path.some(isSecretKey) || SECRET_PATHS.includes(path.map(String).join('.'));
}

/** Shorter values are not masked inside other text (they would mask ordinary words). */
const MIN_MASKED_LENGTH = 4;

/** Every secret value (strings and numbers at secret paths) of a values tree. */
export function secretValues(data: unknown, out = new Set<string>()): Set<string> {
  const walk = (v: unknown, path: unknown[], secret: boolean) => {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') {
      const s = String(v);
      if (secret && s.length >= MIN_MASKED_LENGTH) out.add(s);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, [...path, i], secret));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const p = [...path, k];
        walk(x, p, secret || isSecretPath(p));
      }
    }
  };
  walk(data, [], false);
  return out;
}

/** `text` with every occurrence of a secret value replaced by asterisks. */
export function redact(text: string, secrets: ReadonlySet<string>): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('********');
  return out;
}

/**
 * A source line as an excerpt may show it: the value of every secret key on it (block or flow
 * style) and the password of every URL with credentials are masked. For lines the parser could
 * not read, where the values behind them are unknown.
 */
export function maskSecretLine(line: string): string {
  let out = line.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)([^\s@/]+)(@)/gi, '$1********$3');
  out = out.replace(/(["']?)([\w.-]+)\1(\s*[:=]\s*)([^,}\]\s][^,}\]]*|$)/g, (m, q: string, key: string, sep: string, value: string) =>
    isSecretKey(key) && value !== '' ? `${q}${key}${q}${sep}********` : m,
  );
  return out;
}
