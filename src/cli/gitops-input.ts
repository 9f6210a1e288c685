// GitOps objects wherever a command reads values: before a command runs, each -f (and plan's and
// diff's --to-values) file that holds a Flux HelmRelease or an Argo CD Application is replaced by
// the object's value layers, and the object's settings fill the flags the user left unset (the
// revision, release name, namespace, CRDs, Kubernetes version, APIs); a flag given that
// contradicts the object is refused. lint's positional files may be such objects too: each
// release is linted on its own settings (lint-run.ts). Notes go to stderr.
import type { Command } from 'commander';
import { stringify as stringifyYaml } from 'yaml';
import type { App } from './app.ts';
import { missingValuesSources, type GitopsReader, type GitopsRelease, type UserFile } from '../gitops/index.ts';
import { UsageError } from '../problems/errors.ts';
import type { ReadLayer } from '../values/load.ts';
import { lintTargetFiles, readGitopsInput } from '../pipeline/gitops-input.ts';
import { GITOPS_TO_VALUES, GITOPS_VALUES } from './options.ts';
import { REVISIONS } from '../chart/revisions.ts';

/** What lint runs for each release found among its positional files. */
export interface GitopsLintJob {
  release: GitopsRelease;
}

type Opts = Record<string, unknown>;

/** The cluster client of this run, connected on the first HelmRelease that needs it. */
const clients = new WeakMap<App, Promise<import('../cluster/client.ts').ClusterClient>>();

/**
 * With --cluster: the ConfigMaps and Secrets a file's HelmReleases name in valuesFrom that no file
 * holds, read from the cluster in the HelmRelease's namespace, each as a file of its own
 * (`cluster:ConfigMap/ns/name`) that positions point into. One missing there is left to the reading
 * to refuse (or skip, when optional), as Flux does.
 */
async function clusterSources(cmd: Command, app: App, file: UserFile, reader: GitopsReader): Promise<UserFile[]> {
  const opts = cmd.opts<Opts>();
  if (opts.cluster !== true) return [];
  const wanted = missingValuesSources(file, reader);
  if (wanted.length === 0) return [];
  let client = clients.get(app);
  if (!client) {
    const { connect } = await import('../cluster/connect.ts');
    client = connect({ kubeconfig: opts.kubeconfig as string | undefined, context: opts.kubeContext as string | undefined, contextFlag: '--kube-context' }, { cwd: app.io.cwd, env: app.io.env });
    clients.set(app, client);
  }
  const c = await client;
  const out: UserFile[] = [];
  for (const ref of wanted) {
    const o = (await c.get({ group: '', version: 'v1', kind: ref.kind }, ref.name, ref.namespace)) as Record<string, unknown> | undefined;
    if (!o) continue;
    const kept = { apiVersion: 'v1', kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace }, ...(o.data !== undefined ? { data: o.data } : {}) };
    out.push({ name: `cluster:${ref.kind}/${ref.namespace}/${ref.name}`, text: stringifyYaml(kept) });
  }
  return out;
}

/** The valuesFrom sources of a command's -f object read from the cluster, with --cluster (migrate's request takes it). */
export function clusterSourcesOf(cmd: Command, app: App): (file: UserFile, reader: GitopsReader) => Promise<UserFile[]> {
  return (file, reader) => clusterSources(cmd, app, file, reader);
}

/** The notes printed in this process: a file read twice in one run (as -f and as a positional file, or by both sides of plan) says each note once. */
const printed = new WeakMap<App, Set<string>>();
function note(app: App, notes: readonly string[]): void {
  let seen = printed.get(app);
  if (!seen) printed.set(app, (seen = new Set()));
  for (const n of notes) {
    if (seen.has(n)) continue;
    seen.add(n);
    app.io.stderr(`agentplat: note: ${n}\n`);
  }
}

/** The object of one -f list, when one of its files holds one: the release and the list with the file replaced by its layers. */
async function resolveSide(cmd: Command, files: unknown, app: App, valuesFrom: readonly string[], flag: string): Promise<{ release: GitopsRelease; values: Map<string, ReadLayer[]> } | undefined> {
  if (!Array.isArray(files)) return undefined;
  let found: GitopsRelease | undefined;
  const values = new Map<string, ReadLayer[]>();
  for (const f of files) {
    if (typeof f !== 'string' || f === '-' || /^https?:\/\//i.test(f)) continue;
    // A file that cannot be read is the command's to refuse, after its own flags are checked.
    const read = await readGitopsInput(f, app.io.cwd, { cwd: app.io.cwd, readStdin: (n) => app.io.readStdin(n) }, valuesFrom, { unreadable: 'skip', clusterSources: (file, reader) => clusterSources(cmd, app, file, reader) });
    if (!read || read === 'objects') continue;
    note(app, read.notes);
    if (read.releases.length === 0) throw new UsageError(`${f}: holds no HelmRelease or Application of the agentplat chart`, 'name the file that holds the release of this chart');
    if (read.releases.length > 1 || found) {
      throw new UsageError(`${flag} ${f}: ${found ? 'a second' : `${read.releases.length}`} HelmRelease/Application of the agentplat chart in one run`, 'render one release at a time (lint takes many: agentplat lint FILE…)');
    }
    found = read.releases[0]!;
    values.set(f, found.layers.map((source) => ({ name: source.name, source })));
  }
  return found ? { release: found, values } : undefined;
}

function explicit(cmd: Command, key: string): boolean {
  const from = cmd.getOptionValueSource(key);
  return from === 'cli' || from === 'env';
}

/** The object's settings into the flags the user left unset; a contradicting revision is refused. */
function applySettings(cmd: Command, r: GitopsRelease, revisionKeys: readonly string[], with_: { names: boolean }): void {
  const opts = cmd.opts<Opts>();
  for (const key of revisionKeys) {
    if (!(key in opts) && cmd.options.every((o) => o.attributeName() !== key)) continue;
    const given = opts[key];
    if (explicit(cmd, key) && typeof given === 'string' && given.toUpperCase() !== r.revision) {
      const flag = cmd.options.find((o) => o.attributeName() === key)?.long ?? key;
      throw new UsageError(`${flag} ${given} contradicts ${r.title} in ${r.file}: its chart version (${r.versionFrom}) is revision ${r.revision} (chart ${REVISIONS[r.revision].chartVersion})`, `drop ${flag}, or change the object's chart version`);
    }
    if (!explicit(cmd, key)) cmd.setOptionValueWithSource(key, r.revision, 'default');
  }
  if (!with_.names) return;
  const set = (key: string, value: unknown) => {
    if (cmd.options.some((o) => o.attributeName() === key) && !explicit(cmd, key)) cmd.setOptionValueWithSource(key, value, 'default');
  };
  set('releaseName', r.releaseName);
  set('namespace', r.namespace);
  if (cmd.options.some((o) => o.attributeName() === 'namespace') && !explicit(cmd, 'namespace')) cmd.setOptionValue('namespaceDefaulted', false);
  if (r.skipCrds) set('skipCrds', true);
  if (r.kubeVersion) set('kubeVersion', r.kubeVersion);
  if (r.apiVersions.length > 0 && Array.isArray(opts.apiVersions) && opts.apiVersions.length === 0) cmd.setOptionValueWithSource('apiVersions', r.apiVersions, 'default');
}

/** The preAction step: resolves the GitOps objects among a command's value files and lint's positional files. */
export async function gitopsPreAction(cmd: Command, app: App): Promise<void> {
  const opts = cmd.opts<Opts>();
  const valuesFrom = (opts.valuesFrom as string[] | undefined) ?? [];
  const name = cmd.name();
  // migrate rewrites the object itself (pipeline/migrate-gitops.ts): its -f is the file to write, not values to read.
  if (name === 'migrate') return;
  const old = await resolveSide(cmd, opts.values, app, valuesFrom, '-f');
  const next = await resolveSide(cmd, opts.toValues, app, valuesFrom, '--to-values');
  const compare = name === 'plan' || name === 'diff';
  if (old) {
    cmd.setOptionValue(GITOPS_VALUES, old.values);
    applySettings(cmd, old.release, compare ? (name === 'plan' ? ['from', 'fromRevision'] : ['fromRevision']) : ['revision'], { names: true });
    if (compare && !next && name === 'plan') applySettings(cmd, old.release, [], { names: true });
  }
  if (next) {
    cmd.setOptionValue(GITOPS_TO_VALUES, next.values);
    applySettings(cmd, next.release, name === 'plan' ? ['to', 'toRevision'] : ['toRevision'], { names: !old });
  }
  if (name === 'lint') await lintTargets(cmd, app, valuesFrom);
}

/** lint's positional files: the GitOps objects among them become lint jobs; Kubernetes objects that are not values beside them are skipped. */
async function lintTargets(cmd: Command, app: App, valuesFrom: readonly string[]): Promise<void> {
  const args = cmd.processedArgs[0] as string[] | undefined;
  if (!args || args.length === 0) return;
  const files = lintTargetFiles(args, app.io.cwd);
  const kept: string[] = [];
  const jobs: GitopsLintJob[] = [];
  let objects = false;
  for (const f of files) {
    if (f === '-') {
      kept.push(f);
      continue;
    }
    const read = await readGitopsInput(f, app.io.cwd, { cwd: app.io.cwd, readStdin: (n) => app.io.readStdin(n) }, valuesFrom, { unreadable: 'throw', clusterSources: (file, reader) => clusterSources(cmd, app, file, reader) });
    if (read && read !== 'objects') {
      objects = true;
      note(app, read.notes);
      for (const release of read.releases) jobs.push({ release });
      continue;
    }
    // A file of Kubernetes objects (a ConfigMap, a kustomization.yaml) is not a values file.
    if (read === 'objects') {
      objects = true;
      continue;
    }
    kept.push(f);
  }
  if (!objects) return;
  for (const job of jobs) {
    const opts = cmd.opts<Opts>();
    if (explicit(cmd, 'revision') && typeof opts.revision === 'string' && opts.revision.toUpperCase() !== job.release.revision) {
      throw new UsageError(`--revision ${opts.revision} contradicts ${job.release.title} in ${job.release.file}: its chart version (${job.release.versionFrom}) is revision ${job.release.revision}`, 'drop --revision, or change the object\'s chart version');
    }
  }
  cmd.processedArgs[0] = kept;
  cmd.setOptionValue('gitopsJobs', jobs);
  if (kept.length === 0 && jobs.length === 0) throw new UsageError(`${args.join(' ')}: no values file and no HelmRelease or Application of the agentplat chart`, 'name the files that hold the releases of this chart');
}
