// Values-derived decisions several components share: metrics, the database source, PDB
// thresholds. Each is one function so the controller env, the RBAC objects and the metrics
// objects can never disagree. (Scope and watch namespaces differ per revision: the revision
// model holds them, revision-model.ts.)

import { posix } from 'node:path';
import { dnsTrunc, type RenderContext } from './context.ts';
import { at, bool, firstOf, present, scalarText, str } from './values-access.ts';

// ------------------------------------------------------------------------------------------
// Metrics (metrics-provisioning, metrics-port-from-bind-address, metrics-bind-address-disable)

export interface MetricsSettings {
  /** enabled AND bindAddress names a port other than 0. */
  enabled: boolean;
  bindAddress: string;
  /** The trailing digits of bindAddress (`:8443` → 8443, `[::1]:9443` → 9443). */
  port: number;
  secure: boolean;
  serviceType: string;
  servicePort: number;
  /** Service port name: `https` when secure, else `http-metrics`. */
  portName: string;
}

export function metricsSettings(ctx: RenderContext): MetricsSettings {
  const raw = at(ctx.values, 'controller.metrics.bindAddress');
  const bindAddress = raw === undefined || raw === null ? ':8443' : scalarText(raw);
  const digits = /(\d+)$/.exec(bindAddress)?.[1] ?? '';
  const port = digits === '' ? 0 : Number(digits);
  const secure = bool(ctx.values, 'controller.metrics.secureServing', true);
  const servicePort = Number(at(ctx.values, 'controller.metrics.service.port') ?? 8443);
  return {
    enabled: bool(ctx.values, 'controller.metrics.enabled') && port !== 0,
    bindAddress,
    port,
    secure,
    serviceType: firstOf(str(ctx.values, 'controller.metrics.service.type'), 'ClusterIP'),
    servicePort: Number.isFinite(servicePort) ? servicePort : 8443,
    portName: secure ? 'https' : 'http-metrics',
  };
}

// ------------------------------------------------------------------------------------------
// Database (db-url-precedence, bundled-db-condition)

/**
 * `url`: `expands` when the URL refers to other variables of the container (`$(NAME)`). The
 * kubelet expands such references only in an env var's own `value`, never in one read from a
 * Secret, so such a URL stays in the Deployment; any other URL goes to the release's Secret
 * (docs/decisions.md, "The database URL lives in a Secret").
 */
export type DatabaseSource = { kind: 'urlFile'; urlFile: string } | { kind: 'url'; url: string; expands: boolean } | { kind: 'bundled' } | { kind: 'none' };

export function databaseSource(ctx: RenderContext): DatabaseSource {
  const urlFile = str(ctx.values, 'database.rdb.urlFile');
  if (urlFile) return { kind: 'urlFile', urlFile };
  const url = str(ctx.values, 'database.rdb.url');
  if (url) return { kind: 'url', url, expands: envReferences(url).length > 0 };
  if (bool(ctx.values, 'database.rdb.bundled.enabled', true)) return { kind: 'bundled' };
  return { kind: 'none' };
}

/**
 * The references to other variables (`$(NAME)`) the kubelet expands in an env var's value, as
 * [from, to, name] in order; `$$` writes a `$` and starts none, and a `$(` without its `)` stays as
 * written.
 */
function referenceSpans(text: string): [number, number, string][] {
  const spans: [number, number, string][] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '$') continue;
    if (text[i + 1] === '$') {
      i++;
      continue;
    }
    if (text[i + 1] !== '(') continue;
    const close = text.indexOf(')', i + 2);
    if (close < 0) break;
    if (close > i + 2) spans.push([i, close + 1, text.slice(i + 2, close)]);
    i = close;
  }
  return spans;
}

/** The names of the variables a text refers to as `$(NAME)`, which the kubelet expands in an env var's value. */
export function envReferences(text: string): string[] {
  return referenceSpans(text).map(([, , name]) => name);
}

/**
 * What the kubelet makes of an env var's value that refers to no other variable: `$$` becomes `$`
 * (any other `$` stays). A URL moved from the Deployment into a Secret is written so, for the
 * controller to read the same URL as before: nothing is expanded in a value read from a Secret.
 */
export function expandedWithoutReferences(text: string): string {
  return text.replace(/\$\$/g, '$');
}

/** True when `text` is nothing but references to other variables (`$(DB_PASSWORD)`). */
function onlyReferences(text: string): boolean {
  let at = 0;
  for (const [from, to] of referenceSpans(text)) {
    if (from !== at) return false;
    at = to;
  }
  return at > 0 && at === text.length;
}

/** Where a connection string holds its password: `user:password@` of a URL, its `password=` parameter, or the `password=` setting of a key/value string. */
export type PasswordForm = 'userinfo' | 'query' | 'keyword';

/**
 * Where the connection string `url` carries a password written out, in either form PostgreSQL
 * clients take (`postgres://user:password@host/db?password=…` or `host=… password=…`); undefined
 * when it carries none, or an empty one. A password that is only references to other variables
 * (`$(DB_PASSWORD)`) is not written out when the kubelet expands the URL (`expands`).
 */
export function urlPassword(url: string, expands: boolean): PasswordForm | undefined {
  const written = (p: string | undefined) => p !== undefined && p !== '' && !(expands && onlyReferences(p));
  const uri = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/i.exec(url.trim());
  if (uri) {
    const authority = uri[1]!;
    const at = authority.lastIndexOf('@');
    const userinfo = at < 0 ? '' : authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon >= 0 && written(userinfo.slice(colon + 1))) return 'userinfo';
    for (const param of (uri[3] ?? '').split('&')) {
      const eq = param.indexOf('=');
      if (eq >= 0 && param.slice(0, eq) === 'password' && written(param.slice(eq + 1))) return 'query';
    }
    return undefined;
  }
  for (const m of url.matchAll(/(?:^|\s)password\s*=\s*(?:'((?:[^'\\]|\\.)*)'|(\S*))/g)) {
    if (written(m[1] ?? m[2])) return 'keyword';
  }
  return undefined;
}

/**
 * The Secret that carries `database.rdb.url` to the controller, for a chart fullname: its name
 * (`<fullname>-database-url`) and the key of the URL in it, which is the name of the variable the
 * controller reads the URL from.
 */
export function databaseUrlSecret(fullname: string): { name: string; key: string } {
  return { name: dnsTrunc(`${fullname}-database-url`), key: 'POSTGRES_DATABASE_URL' };
}

/** The bundled database's fixed database and user names. */
export const BUNDLED_DB = { database: 'agentplat', user: 'agentplat' } as const;

/**
 * The bundled database's password. NOT a secret: the bundled database is for development and
 * evaluation only (the values document says so), and output must be deterministic, so the
 * password is a fixed, documented demo value. Production uses `database.rdb.url`/`urlFile`.
 */
export const BUNDLED_DB_DEMO_PASSWORD = 'agentplat-demo';

// ------------------------------------------------------------------------------------------
// PDB thresholds (pdb-thresholds-exclusive, pdb-min-available-unset)

/** A threshold counts as set when not null and its text is not empty; an explicit 0 is set. */
export function thresholdSet(v: unknown): boolean {
  return v !== undefined && v !== null && scalarText(v) !== '';
}

export { present };

// ------------------------------------------------------------------------------------------
// Substrate API token file (revision A)

export type TokenFileParts = { ok: true; folder: string; file: string } | { ok: false; problem: string; hint: string };

/**
 * The folder the projected token volume is mounted at and the file name inside it, from
 * `controller.substrate.substrateApiTokenFile`, by the POSIX path functions (the container's
 * platform). The volume hides whatever the image has in that folder, so the path must be
 * absolute, normal, name a file, and not sit directly in `/`.
 */
export function tokenFileParts(path: string): TokenFileParts {
  const example = 'e.g. /var/run/secrets/substrate/token';
  if (!posix.isAbsolute(path)) return { ok: false, problem: 'is not an absolute path', hint: `write the full path in the container, starting with "/", ${example}` };
  if (path.endsWith('/')) return { ok: false, problem: 'ends in "/", so it names no file', hint: `name the token file inside the folder, ${example}` };
  const normal = posix.normalize(path);
  if (normal !== path) return { ok: false, problem: 'has an empty, "." or ".." segment', hint: `write it as ${JSON.stringify(normal)}` };
  const folder = posix.dirname(path);
  const file = posix.basename(path);
  if (folder === '/') return { ok: false, problem: 'is a file directly in "/": the token volume would be mounted over the whole file system of the container', hint: `put the file in a folder of its own, ${example}` };
  return { ok: true, folder, file };
}
