// Values-derived decisions several components share: metrics, the database source, PDB
// thresholds. Each is one function so the controller env, the RBAC objects and the metrics
// objects can never disagree. (Scope and watch namespaces differ per revision: the revision
// model holds them, revision-model.ts.)

import { posix } from 'node:path';
import type { RenderContext } from './context.ts';
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

export type DatabaseSource = { kind: 'urlFile'; urlFile: string } | { kind: 'url'; url: string } | { kind: 'bundled' } | { kind: 'none' };

export function databaseSource(ctx: RenderContext): DatabaseSource {
  const urlFile = str(ctx.values, 'database.rdb.urlFile');
  if (urlFile) return { kind: 'urlFile', urlFile };
  const url = str(ctx.values, 'database.rdb.url');
  if (url) return { kind: 'url', url };
  if (bool(ctx.values, 'database.rdb.bundled.enabled', true)) return { kind: 'bundled' };
  return { kind: 'none' };
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
