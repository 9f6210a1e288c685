// Finds and reads the kubeconfig the way kubectl does, without the cluster client: which files
// (`--kubeconfig`, else every file of KUBECONFIG's path list that exists, else ~/.kube/config),
// how they merge (the first file to name a cluster, user or context, or to set current-context,
// wins), relative file references resolved against the file that holds them, and which context
// and namespace a run uses (`--context`, else current-context; the context's namespace, else
// `default`). Every failure is a usage error that says how to fix it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { UsageError } from '../problems/errors.ts';
import { nearest } from '../problems/nearest.ts';
import { placeYamlErrors } from '../yaml/errors.ts';

/** The flags every `--cluster` command takes, spelled as kubectl spells them. */
export interface KubeconfigFlags {
  kubeconfig?: string;
  context?: string;
  /** The context flag as the command spells it, for messages: `--context` (kubectl), or `--kube-context` (helm; diff, whose --context is lines). */
  contextFlag?: string;
}

type Entry = { name: string; [k: string]: unknown };

/** A kubeconfig in its file format (kebab-case keys), the files merged. */
export interface RawKubeconfig {
  apiVersion: 'v1';
  kind: 'Config';
  clusters: Entry[];
  users: Entry[];
  contexts: Entry[];
  'current-context'?: string;
}

export interface ResolvedKubeconfig {
  /** The files read, in the order they merged. */
  files: string[];
  config: RawKubeconfig;
  context: string;
  cluster: string;
  /** The API server's URL. */
  server: string;
  user: string;
  /** The context's namespace, else `default`. */
  namespace: string;
}

export interface KubeconfigEnv {
  cwd: string;
  env: Record<string, string | undefined>;
}

/** The files a run reads, in merge order (only those that exist, except a `--kubeconfig` that does not). */
export function kubeconfigFiles(flags: KubeconfigFlags, where: KubeconfigEnv): string[] {
  if (flags.kubeconfig !== undefined) {
    if (flags.kubeconfig === '') throw new UsageError('--kubeconfig: empty path', 'give the kubeconfig file, e.g. --kubeconfig ~/.kube/config');
    const file = resolve(where.cwd, flags.kubeconfig);
    if (!existsSync(file)) throw new UsageError(`--kubeconfig ${flags.kubeconfig}: no such file`, 'give an existing kubeconfig file, or leave the flag out to use KUBECONFIG or ~/.kube/config');
    return [file];
  }
  const list = where.env.KUBECONFIG;
  if (list !== undefined && list !== '') {
    const paths = list.split(delimiter).filter((p) => p !== '').map((p) => resolve(where.cwd, p));
    const found = [...new Set(paths)].filter((p) => existsSync(p) && statSync(p).isFile());
    if (found.length === 0) throw new UsageError(`no kubeconfig: none of the files in KUBECONFIG exists (${paths.join(delimiter)})`, 'point KUBECONFIG at your kubeconfig file(s), or pass --kubeconfig FILE');
    return found;
  }
  const home = where.env.HOME ?? where.env.USERPROFILE ?? homedir();
  const file = join(home, '.kube', 'config');
  if (!existsSync(file)) throw new UsageError(`no kubeconfig: ${file} does not exist and KUBECONFIG is not set`, 'pass --kubeconfig FILE, set KUBECONFIG, or create ~/.kube/config (your cluster provider\'s CLI writes one)');
  return [file];
}

/** Reads, merges and resolves the kubeconfig a run uses, and picks its context. */
export function resolveKubeconfig(flags: KubeconfigFlags, where: KubeconfigEnv): ResolvedKubeconfig {
  const files = kubeconfigFiles(flags, where);
  const config: RawKubeconfig = { apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [] };
  for (const file of files) {
    const one = readKubeconfigFile(file);
    for (const list of ['clusters', 'users', 'contexts'] as const) {
      for (const entry of one[list]) if (!config[list].some((e) => e.name === entry.name)) config[list].push(entry);
    }
    if (config['current-context'] === undefined && one['current-context']) config['current-context'] = one['current-context'];
  }
  const where1 = files.length === 1 ? files[0]! : `the kubeconfig files ${files.join(', ')}`;
  const known = config.contexts.map((c) => c.name);
  const knownText = known.length > 0 ? `the contexts in ${where1}: ${known.join(', ')}` : `${where1} has no contexts`;
  const contextFlag = flags.contextFlag ?? '--context';
  let context: string;
  if (flags.context !== undefined) {
    if (!known.includes(flags.context)) {
      const near = nearest(flags.context, known);
      throw new UsageError(`${contextFlag} ${flags.context}: no such context`, `${near ? `did you mean ${near}? ` : ''}${knownText}`);
    }
    context = flags.context;
  } else {
    const current = config['current-context'];
    if (!current) throw new UsageError(`no current context in ${where1}`, `pass ${contextFlag} NAME (${knownText}), or run kubectl config use-context NAME`);
    if (!known.includes(current)) throw new UsageError(`current-context ${current} of ${where1} names no context`, `pass ${contextFlag} NAME (${knownText})`);
    context = current;
  }
  const ctx = (config.contexts.find((c) => c.name === context)!.context ?? {}) as { cluster?: string; user?: string; namespace?: string };
  const cluster = config.clusters.find((c) => c.name === ctx.cluster);
  if (!ctx.cluster || !cluster) throw new UsageError(`context ${context} names the cluster "${ctx.cluster ?? ''}", which ${where1} does not define`, `add the cluster to the kubeconfig, or pick another context (${knownText})`);
  const server = (cluster.cluster as { server?: unknown } | undefined)?.server;
  if (typeof server !== 'string' || server === '') throw new UsageError(`cluster ${cluster.name} in ${where1} has no server URL`, 'set clusters[].cluster.server, e.g. https://203.0.113.10:6443');
  if (ctx.user && !config.users.some((u) => u.name === ctx.user)) throw new UsageError(`context ${context} names the user "${ctx.user}", which ${where1} does not define`, `add the user to the kubeconfig, or pick another context (${knownText})`);
  return { files, config, context, cluster: cluster.name, server, user: ctx.user ?? '', namespace: ctx.namespace || 'default' };
}

/** One kubeconfig file, its relative file references made absolute against its folder. */
function readKubeconfigFile(file: string): RawKubeconfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: cannot read the kubeconfig (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'check the path and its permissions');
  }
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    // Placed and worded as a values file's YAML error is (yaml/errors.ts): at the place to fix.
    const err = placeYamlErrors(doc, text)[0]!;
    const before = text.slice(0, err.offset);
    const line = before.split('\n').length;
    const column = err.offset - before.lastIndexOf('\n');
    throw new UsageError(`${file}:${line}:${column}: the kubeconfig is not valid YAML: ${err.message.replace(/^invalid YAML: /, '')}`, `${err.hint ? `${err.hint}; ` : ''}kubectl config view shows what kubectl reads`);
  }
  const raw: unknown = doc.toJS() ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${file}: a kubeconfig is a mapping (apiVersion: v1, kind: Config, clusters, users, contexts)`, 'point --kubeconfig or KUBECONFIG at a kubeconfig file');
  const r = raw as Record<string, unknown>;
  const base = dirname(file);
  const abs = (p: unknown) => (typeof p === 'string' && p !== '' && !isAbsolute(p) ? join(base, p) : p);
  const entries = (key: 'clusters' | 'users' | 'contexts', inner: string, fix: (body: Record<string, unknown>) => void): Entry[] => {
    const list = r[key];
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) throw new UsageError(`${file}: ${key} is not a list`, 'fix the file (kubectl config view shows what kubectl reads)');
    return list.map((e: unknown, i) => {
      if (typeof e !== 'object' || e === null || typeof (e as Entry).name !== 'string' || (e as Entry).name === '') throw new UsageError(`${file}: ${key}[${i}] has no name`, `every entry of ${key} needs a name`);
      const body = { ...((e as Record<string, unknown>)[inner] as Record<string, unknown> | undefined) };
      fix(body);
      return { ...(e as Entry), [inner]: body };
    });
  };
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: entries('clusters', 'cluster', (c) => {
      if ('certificate-authority' in c) c['certificate-authority'] = abs(c['certificate-authority']);
    }),
    users: entries('users', 'user', (u) => {
      for (const k of ['client-certificate', 'client-key', 'tokenFile', 'token-file']) if (k in u) u[k] = abs(u[k]);
      const exec = u.exec as { command?: unknown } | undefined;
      // Like kubectl: an exec command with a path separator is a file relative to the kubeconfig;
      // a bare name is looked up on PATH.
      if (exec && typeof exec.command === 'string' && /[\\/]/.test(exec.command)) u.exec = { ...exec, command: abs(exec.command) };
    }),
    contexts: entries('contexts', 'context', () => {}),
    ...(typeof r['current-context'] === 'string' && r['current-context'] !== '' ? { 'current-context': r['current-context'] } : {}),
  };
}
