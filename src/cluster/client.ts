// What a `--cluster` command asks of a live cluster, as types (ClusterClient and the objects it
// returns) and the error it raises, apart from the client itself (connect.ts): a module that only
// needs these does not load the cluster client library, and tests give commands a fake client.
import { AgentplatError, EXIT_USAGE } from '../problems/errors.ts';

/**
 * The cluster could not be asked: unreachable, or it refused the credentials or the request.
 * Nothing was checked, so like a usage error the run exits 2 (docs/commands.md, "Exit codes").
 */
export class ClusterError extends AgentplatError {
  constructor(
    message: string,
    hint: string,
    /** The HTTP status of a refusal; 0 when the server was not reached. */
    readonly status = 0,
  ) {
    super(message, EXIT_USAGE, hint);
  }
}

export interface GroupVersionKind {
  /** '' for the core group. */
  group: string;
  version: string;
  kind: string;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** A resource the server serves (one entry of /apis/GROUP/VERSION). */
export interface ApiResource extends GroupVersionKind {
  /** The plural of its REST path. */
  name: string;
  namespaced: boolean;
  verbs: string[];
}

/** An API group the server serves, with its versions (preferred first). */
export interface ServedGroup {
  name: string;
  versions: string[];
  preferredVersion: string;
}

export interface ListResult {
  items: KubeObject[];
  /** `all` when listed cluster-wide; else the namespaces that were listed one by one. */
  namespaces: 'all' | string[];
  /** Namespaces the user may not list this resource in (only when listed one by one). */
  forbidden: string[];
  /**
   * True when the user may list neither this resource across namespaces nor the namespaces: only
   * the context's namespace (`namespaces`) was read, and any other namespace may hold objects.
   */
  othersUnknown?: boolean;
}

/** A refusal, as the server's Status object gives it. */
export interface ApiRefusal {
  status: number;
  reason: string;
  message: string;
  causes: { field?: string; message?: string; reason?: string }[];
}

export type ApplyResult = { ok: true; object: KubeObject; warnings: string[] } | { ok: false; refusal: ApiRefusal; warnings: string[] };

/** What a `--cluster` command asks of the cluster. Tests give commands a fake with this interface. */
export interface ClusterClient {
  /** The context used and its cluster's URL. */
  readonly context: string;
  readonly server: string;
  /** `-n`, else the context's namespace, else `default`. */
  readonly namespace: string;
  /** The groups the server serves (core excluded), from /apis. */
  groups(): Promise<ServedGroup[]>;
  /** The resources of one group/version (sub-resources excluded); [] when the server does not serve it. */
  resources(group: string, version: string): Promise<ApiResource[]>;
  /**
   * Every object of a kind: in one namespace when `namespace` is given, else in all namespaces —
   * cluster-wide when allowed, else namespace by namespace (those the user may list); only those
   * a `labelSelector` (`key=value,…`) selects when one is given.
   */
  list(gvk: GroupVersionKind, opts?: { namespace?: string; labelSelector?: string }): Promise<ListResult>;
  /** Whether a namespace exists; undefined when the user may not get namespaces. */
  namespaceExists(name: string): Promise<boolean | undefined>;
  /** One object, or undefined when it does not exist. */
  get(gvk: GroupVersionKind, name: string, namespace?: string): Promise<KubeObject | undefined>;
  /**
   * Server-side apply with dryRun=All, force=false (or `force`: what --force-conflicts would do)
   * and fieldValidation=Strict under `fieldManager`: the server's answer, nothing written. A
   * refusal (admission, validation, conflict) is a result, not an exception; unreachable and 401
   * still throw ClusterError.
   */
  applyDryRun(object: KubeObject, opts: { fieldManager: string; force?: boolean }): Promise<ApplyResult>;
}

/** `group/version`, or `version` for the core group. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** [group, version] of an apiVersion (`v1` → ['', 'v1']). */
export function splitApiVersion(apiVersion: string): [string, string] {
  const i = apiVersion.indexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

const SERVER_SET_METADATA = ['managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const;

/**
 * The object as a user would write it again: server-set metadata and status removed, apiVersion,
 * kind and metadata first (the server writes kind first).
 */
export function asWritten(o: KubeObject): KubeObject {
  const { apiVersion, kind, metadata: meta, status: _status, ...rest } = o;
  const metadata = { ...meta };
  for (const k of SERVER_SET_METADATA) delete metadata[k];
  return { apiVersion, kind, metadata, ...rest };
}
