// The corpus the controllers' oracles and agentplat are held to (issue 36, item 4): Flux
// HelmReleases with their ConfigMaps and Secrets, and Argo CD Applications with the files of their
// repository, generated from a seed so that a failing case reproduces. Every value set is one the
// values schema of its revision accepts (the keys are real keys of the chart, each with values of
// its type), so that a difference is one of composition, not of validation; the cases the
// controller refuses are generated on purpose and say so (`refuses`).
//
//   AGENTPLAT_ORACLE_SEED=7 npx vitest run -c vitest.cluster.config.ts test/cluster/gitops-oracles.test.ts
import { stringify } from 'yaml';

export type Revision = 'A' | 'B';

/** A HelmRelease and the objects beside it; `files` are written into one folder. */
export interface FluxCase {
  id: string;
  revision: Revision;
  /** File name → text. `helmrelease.yaml` holds the HelmRelease (and sometimes its ConfigMaps). */
  files: Record<string, string>;
  /** Why the controller must refuse this case, when it must. */
  refuses?: string;
}

/** An Application and the files of its repository; the chart is at `chart/` (the source path). */
export interface ArgoCase {
  id: string;
  revision: Revision;
  /** Repository path → text; `application.yaml` is the Application. */
  files: Record<string, string>;
  refuses?: string;
}

export const SOURCE_PATH = 'chart';
export const CHART_VERSION: Record<Revision, string> = { A: '0.10.0', B: '0.11.0' };

/**
 * The chart versions the chart repository (and the OCI registry) of the Flux cases holds: each
 * patch 0–19 of the minor releases agentplat renders (0.10.x is revision A, 0.11.x revision B), and
 * two pre-releases. The oracle resolves a version range over these, as source-controller resolves it
 * over a repository's index or a registry's tags; the ranges below stay inside them.
 */
export const PUBLISHED_VERSIONS: { version: string; revision: Revision }[] = [
  ...(['A', 'B'] as const).flatMap((revision) => Array.from({ length: 20 }, (_, p) => ({ version: CHART_VERSION[revision].replace(/\.0$/, `.${p}`), revision }))),
  { version: '0.10.0-beta.2', revision: 'A' },
  { version: '0.11.0-rc.1', revision: 'B' },
];

/**
 * Chart versions and ranges as a HelmRelease or a HelmChart writes them, and the revision of the
 * version Flux picks among PUBLISHED_VERSIONS (worked out by hand from Masterminds semver's rules: the
 * newest version the range admits; a range without a pre-release admits no pre-release);
 * undefined when Flux finds none (or cannot read the range).
 */
export const VERSION_EXPRESSIONS: { text: string; revision?: Revision }[] = [
  { text: '0.11.0', revision: 'B' }, { text: '0.10.0', revision: 'A' }, { text: '0.11.4', revision: 'B' },
  { text: 'v0.10.2', revision: 'A' }, { text: '0.11.0-rc.1', revision: 'B' }, { text: '0.10.0-beta.2', revision: 'A' },
  { text: '0.11.x', revision: 'B' }, { text: '0.10.x', revision: 'A' }, { text: '0.10.*', revision: 'A' }, { text: '0.11', revision: 'B' },
  { text: '~0.10.0', revision: 'A' }, { text: '~0.11', revision: 'B' }, { text: '^0.10.1', revision: 'A' }, { text: '^0.11.0', revision: 'B' },
  { text: '>=0.10.0 <0.11.0', revision: 'A' }, { text: '>=0.10.0, <0.12.0', revision: 'B' }, { text: '>= 0.10.3', revision: 'B' },
  { text: '*', revision: 'B' }, { text: '<0.11.0', revision: 'A' }, { text: '<=0.11.0-rc.1', revision: 'B' }, { text: '=0.11.0-rc.1', revision: 'B' },
  { text: '>0.10.5 <0.10.9', revision: 'A' }, { text: '0.10.3 - 0.10.7', revision: 'A' }, { text: '0.10.1 || 0.11.2', revision: 'B' },
  { text: '0.10.x || 0.9.x', revision: 'A' }, { text: '!=0.11.0, <0.12', revision: 'B' }, { text: '0.x', revision: 'B' },
  { text: '>0.11.0-rc.1 <0.11.1', revision: 'B' }, { text: '<0.11.0-rc.1', revision: 'A' }, { text: '>=0.11.0-rc.1 <0.11.0', revision: 'B' },
  { text: '~0.0.0', revision: 'B' }, { text: '0.10.1 - 0.10.4, !=0.10.4', revision: 'A' }, { text: '>= 0.10.0 < 0.11.0', revision: 'A' },
  { text: '0.12.x' }, { text: '~0.9.0' }, { text: '>=1.0.0' }, { text: 'latest' },
];

/** What the chart of a Flux case is: the HelmRelease's spec.chart or spec.chartRef, the objects it names, files of a Git repository. */
interface ChartForm {
  spec: Record<string, unknown>;
  objects: Record<string, unknown>[];
  files: Record<string, string>;
  /** The revision of the version Flux picks; undefined when it picks none. */
  revision?: Revision;
  about: string;
}

const HELM_REPOSITORY = { kind: 'HelmRepository', name: 'agentplat' };

/**
 * A chart as a HelmRelease names it: a version pinned in spec.chart.spec (most cases), a version
 * range there, a HelmChart or an OCIRepository named by spec.chartRef (with a range, a semverFilter,
 * a tag, a digest or no reference at all), or a chart from a GitRepository, whose Chart.yaml gives
 * the version (spec.version is ignored then).
 */
function chartForm(r: Random, revision: Revision, pinDigest: boolean): ChartForm {
  const expression = () => r.pick(VERSION_EXPRESSIONS);
  const ref = (kind: string, name: string) => ({ kind, name, ...(r.chance(0.3) ? { namespace: 'apps' } : {}) });
  const metadata = (name: string) => (r.chance(0.5) ? { name, namespace: 'apps' } : { name });
  const form = pinDigest ? 0.8 : r.next();
  if (form < 0.45) {
    return { spec: { chart: { spec: { chart: 'agentplat', version: CHART_VERSION[revision], sourceRef: HELM_REPOSITORY } } }, objects: [], files: {}, revision, about: `version ${CHART_VERSION[revision]}` };
  }
  if (form < 0.62) {
    const e = r.chance(0.1) ? { text: '', revision: 'B' as const } : expression();
    return { spec: { chart: { spec: { chart: 'agentplat', ...(e.text ? { version: e.text } : {}), sourceRef: HELM_REPOSITORY } } }, objects: [], files: {}, ...(e.revision ? { revision: e.revision } : {}), about: `spec.chart.spec.version "${e.text}"` };
  }
  if (form < 0.75) {
    const e = r.chance(0.1) ? { text: '', revision: 'B' as const } : expression();
    const chart = { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'HelmChart', metadata: metadata('agentplat'), spec: { interval: '10m', chart: 'agentplat', ...(e.text ? { version: e.text } : {}), sourceRef: HELM_REPOSITORY } };
    return { spec: { chartRef: ref('HelmChart', 'agentplat') }, objects: [chart], files: {}, ...(e.revision ? { revision: e.revision } : {}), about: `HelmChart spec.version "${e.text}"` };
  }
  if (form < 0.92) {
    const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
    const ranges = VERSION_EXPRESSIONS.map((e) => ({ ref: { semver: e.text }, ...(e.revision ? { revision: e.revision } : {}) }));
    const others: { ref: Record<string, string>; revision?: Revision }[] = [
      { ref: { semver: '>=0.10.0', semverFilter: '^0\\.10\\.' }, revision: 'A' },
      { ref: { semver: '>=0.10.0', semverFilter: '^0\\.11\\.[0-3]$' }, revision: 'B' },
      { ref: { semver: '*', semverFilter: '^v' } },
      // RE2, as source-controller compiles it: flag groups JavaScript lacks, \A and \z; a lookahead RE2 refuses.
      { ref: { semver: '>=0.10.0', semverFilter: '(?i)^0\\.10\\.' }, revision: 'A' },
      { ref: { semver: '>=0.10.0', semverFilter: '\\A0\\.11\\.[0-3]\\z' }, revision: 'B' },
      { ref: { semver: '>=0.10.0', semverFilter: '^0\\.(?!11)' } },
      { ref: { semver: '0.10.x', tag: '0.11.0' }, revision: 'A' },
      { ref: { tag: '0.10.3' }, revision: 'A' }, { ref: { tag: '0.11.0-rc.1' }, revision: 'B' }, { ref: { tag: '0.11.2' }, revision: 'B' },
      { ref: { tag: '0.11.x' } }, { ref: { tag: 'latest' } }, { ref: {} },
    ];
    const pinned: { ref: Record<string, string>; revision?: Revision } = { ref: { tag: '0.11.0', digest } };
    const v = pinDigest ? pinned : r.chance(0.5) ? r.pick(ranges) : r.pick([...others, pinned]);
    const oci = { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository', metadata: metadata('agentplat'), spec: { interval: '10m', url: 'oci://ghcr.io/example/charts/agentplat', ...(Object.keys(v.ref).length > 0 ? { ref: v.ref } : {}) } };
    return { spec: { chartRef: ref('OCIRepository', 'agentplat') }, objects: [oci], files: {}, ...(v.revision ? { revision: v.revision } : {}), about: `OCIRepository ref ${JSON.stringify(v.ref)}` };
  }
  // A chart from Git: its Chart.yaml's version counts, whatever spec.version says.
  const written = r.pick(['0.10.3', '0.11.2', undefined]);
  const files: Record<string, string> = written ? { 'charts/agentplat/Chart.yaml': `apiVersion: v2\nname: agentplat\nversion: ${written}\n` } : {};
  const git = { kind: 'GitRepository', name: 'platform' };
  const about = `a chart from Git at version ${written ?? '(no Chart.yaml)'}`;
  const found = written ? { revision: (written.startsWith('0.10.') ? 'A' : 'B') as Revision } : {};
  if (r.chance(0.5)) return { spec: { chart: { spec: { chart: './charts/agentplat', version: '0.12.x', sourceRef: git } } }, objects: [], files, ...found, about };
  const chart = { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'HelmChart', metadata: metadata('agentplat'), spec: { interval: '10m', chart: './charts/agentplat', version: '0.12.x', sourceRef: git } };
  return { spec: { chartRef: ref('HelmChart', 'agentplat') }, objects: [chart], files, ...found, about };
}

/** A small seeded generator (mulberry32): the same seed gives the same corpus on every machine. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Some of the items, in a random order. */
  some<T>(items: readonly T[], lo: number, hi: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    for (let n = this.int(lo, Math.min(hi, pool.length)); n > 0; n--) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0]!);
    return out;
  }
}

type Scalar = string | number | boolean;
type Value = Scalar | Value[] | { [k: string]: Value };

/**
 * A key of the chart (present in revisions A and B) and values of its type. `path` is a list of
 * key segments: a segment may hold a dot (an annotation key), which --set and targetPath escape.
 */
interface Leaf {
  path: string[];
  value: (r: Random) => Value;
  /** The leaf's scalars as --set would type them when written bare (strings that read as numbers or booleans need quoting). */
  kind: 'int' | 'bool' | 'string' | 'list';
}

const word = (r: Random) => r.pick(['alpha', 'beta', 'ops', 'team-a', 'v2', 'blue']);
export const LEAVES: Leaf[] = [
  { path: ['controller', 'replicas'], value: (r) => r.int(0, 5), kind: 'int' },
  { path: ['ui', 'replicas'], value: (r) => r.int(0, 3), kind: 'int' },
  { path: ['controller', 'loglevel'], value: (r) => r.pick(['info', 'debug', 'error', 'warn']), kind: 'string' },
  // Tags that read as numbers: a string in YAML files only when quoted, and in --set only with --set-string.
  { path: ['controller', 'image', 'tag'], value: (r) => r.pick(['1.2.3', 'v0.11.0', '2024', '1.10', 'latest']), kind: 'string' },
  { path: ['controller', 'image', 'repository'], value: (r) => r.pick(['agentplat/controller', 'mirror/agentplat-controller']), kind: 'string' },
  { path: ['registry'], value: (r) => r.pick(['ghcr.io', 'registry.example.com', 'mirror.local:5000']), kind: 'string' },
  { path: ['imagePullPolicy'], value: (r) => r.pick(['Always', 'IfNotPresent', 'Never']), kind: 'string' },
  { path: ['ipv6'], value: (r) => r.chance(0.5), kind: 'bool' },
  { path: ['controller', 'mcpEgressPlaintext'], value: (r) => r.chance(0.5), kind: 'bool' },
  { path: ['proxy', 'url'], value: (r) => r.pick(['', 'http://proxy.internal:3128']), kind: 'string' },
  { path: ['nameOverride'], value: (r) => r.pick(['', 'agents', 'ap']), kind: 'string' },
  { path: ['labels', 'team'], value: word, kind: 'string' },
  { path: ['annotations', 'example.com/owner'], value: word, kind: 'string' },
  { path: ['podAnnotations', 'prometheus.io/scrape'], value: (r) => r.pick(['true', 'false']), kind: 'string' },
  { path: ['nodeSelector', 'kubernetes.io/os'], value: () => 'linux', kind: 'string' },
  { path: ['controller', 'watchNamespaces'], value: (r) => r.some(['apps', 'agents', 'ops'], 0, 3), kind: 'list' },
  { path: ['controller', 'env'], value: (r) => r.some([{ name: 'A', value: 'one' }, { name: 'B', value: '2' }], 0, 2), kind: 'list' },
];

function setIn(tree: Record<string, Value>, path: string[], value: Value): void {
  let node = tree;
  for (const k of path.slice(0, -1)) {
    const next = node[k];
    node = (node[k] = next !== null && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<string, Value>;
  }
  node[path.at(-1)!] = value;
}

/** A values tree over a few leaves. */
function valuesTree(r: Random, lo: number, hi: number): Record<string, Value> {
  const tree: Record<string, Value> = {};
  for (const leaf of r.some(LEAVES, lo, hi)) setIn(tree, leaf.path, leaf.value(r));
  return tree;
}

/** The path as --set and targetPath write it: dots inside a key escaped. */
export function setPath(path: string[]): string {
  return path.map((k) => k.replace(/\./g, '\\.')).join('.');
}

/**
 * A scalar as text for --set or a targetPath, and whether it must be quoted (Flux) or forced to a
 * string (Argo's forceString) to stay a string: a string that --set would read as a number,
 * boolean or null.
 */
function scalarText(v: Scalar): { text: string; needsString: boolean } {
  const text = String(v);
  return { text, needsString: typeof v === 'string' && (/^[-+]?\d+$/.test(text) || /^(true|false|null)$/i.test(text) || text === '') };
}

function yamlText(v: unknown): string {
  return stringify(v, { lineWidth: 0 });
}

// ---- Flux ----

const FLUX_VERSIONS = ['helm.toolkit.fluxcd.io/v2', 'helm.toolkit.fluxcd.io/v2beta2'];

interface ValuesRef {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  valuesKey?: string;
  targetPath?: string;
  optional?: boolean;
}

function source(kind: 'ConfigMap' | 'Secret', name: string, data: Record<string, string>, r: Random, namespace?: string): Record<string, unknown> {
  const metadata = namespace ? { name, namespace } : { name };
  if (kind === 'ConfigMap') return { apiVersion: 'v1', kind, metadata, data };
  // Secrets: base64 data, or stringData as people write them by hand.
  if (r.chance(0.5)) return { apiVersion: 'v1', kind, metadata, stringData: data };
  return { apiVersion: 'v1', kind, metadata, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) };
}

/** One generated HelmRelease case. */
export function fluxCase(r: Random, id: string, pinDigest = false): FluxCase {
  const revision: Revision = r.chance(0.7) ? 'B' : 'A';
  const refs: ValuesRef[] = [];
  const objects: Record<string, unknown>[] = [];
  let refuses: string | undefined;
  const nRefs = r.int(0, 4);
  for (let i = 0; i < nRefs; i++) {
    const kind = r.pick(['ConfigMap', 'Secret'] as const);
    // Two references may name the same object (different keys of one ConfigMap).
    const name = r.chance(0.2) && objects.length > 0 ? (objects.at(-1)!.metadata as { name: string }).name : `values-${i}`;
    const ref: ValuesRef = { kind, name };
    const data: Record<string, string> = {};
    const existing = objects.find((o) => o.kind === kind && (o.metadata as { name: string }).name === name);
    // A key of its own when the object is shared with an earlier reference.
    const key = existing ? `values-${i}.yaml` : r.pick(['values.yaml', 'overrides.yaml', 'extra']);
    if (key !== 'values.yaml' || r.chance(0.3)) ref.valuesKey = key;
    const notMap = r.chance(0.05);
    if (notMap) {
      // A values text that is not a map: the controller cannot read it, optional or not.
      data[key] = r.pick(['true', '- a\n- b\n', 'just text']);
    } else if (r.chance(0.4)) {
      // A single value at a path, typed as --set types it unless quoted.
      const leaf = r.pick(LEAVES.filter((l) => l.kind !== 'list'));
      const { text, needsString } = scalarText(leaf.value(r) as Scalar);
      ref.targetPath = setPath(leaf.path);
      data[key] = needsString ? (r.chance(0.5) ? `"${text}"` : `'${text}'`) : text;
    } else {
      data[key] = yamlText(valuesTree(r, 1, 4));
    }
    const fate = existing ? 'add' : r.chance(0.15) ? 'missing' : r.chance(0.1) ? 'no key' : 'written';
    if (fate === 'missing' || fate === 'no key') {
      ref.optional = r.chance(0.6) || undefined;
      if (!ref.optional) refuses ??= `valuesFrom[${i}]: ${kind} ${name} ${fate === 'missing' ? 'is missing' : `has no key ${key}`} and is not optional`;
      // The object exists but holds another key.
      if (fate === 'no key') objects.push(source(kind, name, { [`other-${i}.yaml`]: data[key]! }, r));
    } else {
      if (notMap) refuses ??= `valuesFrom[${i}]: ${kind} ${name} key ${key} holds no map of values`;
      if (existing) {
        const field = 'stringData' in existing ? 'stringData' : 'data';
        (existing[field] as Record<string, string>)[key] = field === 'data' && kind === 'Secret' ? Buffer.from(data[key]!).toString('base64') : data[key]!;
      } else {
        objects.push(source(kind, name, data, r, r.chance(0.3) ? 'apps' : undefined));
      }
    }
    refs.push(ref);
  }
  const chart = chartForm(r, revision, pinDigest);
  if (!chart.revision) refuses ??= `${chart.about}: Flux finds no chart version`;
  objects.push(...chart.objects);
  const spec: Record<string, unknown> = { interval: '10m', ...chart.spec };
  if (refs.length > 0) spec.valuesFrom = refs;
  if (r.chance(0.8)) spec.values = valuesTree(r, 1, 5);
  const release = { apiVersion: r.pick(FLUX_VERSIONS), kind: 'HelmRelease', metadata: { name: 'agentplat', namespace: 'apps' }, spec };
  const files: Record<string, string> = {};
  // The sources beside the HelmRelease in one file, or in files of their own.
  if (r.chance(0.5)) files['helmrelease.yaml'] = [release, ...objects].map(yamlText).join('---\n');
  else {
    files['helmrelease.yaml'] = yamlText(release);
    objects.forEach((o, i) => (files[`source-${i}.yaml`] = yamlText(o)));
  }
  Object.assign(files, chart.files);
  return { id, revision: chart.revision ?? revision, files, ...(refuses ? { refuses } : {}) };
}

// ---- Argo CD ----

const REPO_URL = 'https://git.example.com/platform.git';

/** One generated Application case. */
export function argoCase(r: Random, id: string): ArgoCase {
  const revision: Revision = r.chance(0.7) ? 'B' : 'A';
  const files: Record<string, string> = {};
  const helm: Record<string, unknown> = {};
  let refuses: string | undefined;
  const valueFiles: string[] = [];
  // A second source that only carries `ref: values` (multi-source): its files are named $values/<path
  // from its repository's root>. The harness has one repository, so a ref source of another
  // repository never names a file the chart source names too (they would be two files in Argo CD).
  const multi = r.chance(0.4);
  const sameRepo = multi && r.chance(0.5);
  const refName = multi && r.chance(0.05) ? 'my.values' : 'values';
  if (refName !== 'values') refuses ??= 'sources[1].ref my.values holds a character Argo CD refuses in a ref';
  const appName = r.pick(['agentplat', 'agents']);
  const destination = r.pick(['apps', 'agents']);
  const where: Record<string, string> = {
    'values-prod.yaml': `${SOURCE_PATH}/values-prod.yaml`, 'env/values-1.yaml': `${SOURCE_PATH}/env/values-1.yaml`, '../common/values.yaml': 'common/values.yaml',
    // The repo-server's build environment in a path, and a glob (each match a file at the entry's place; one named outright keeps its own place).
    'env/$ARGOCD_APP_NAME.yaml': `${SOURCE_PATH}/env/${appName}.yaml`, 'env/values-*.yaml': `${SOURCE_PATH}/env/values-2.yaml`, '**/values-?.yaml': `${SOURCE_PATH}/env/deep/values-3.yaml`,
    ...(multi ? { '$values/envs/prod.yaml': 'envs/prod.yaml', '$values/envs/base.yaml': 'envs/base.yaml', '$values/envs/${ARGOCD_APP_NAMESPACE}.yaml': `envs/${destination}.yaml` } : {}),
    // The same files as the chart source names them: Argo CD reads a file once, at its first place.
    ...(sameRepo ? { '$values/common/values.yaml': 'common/values.yaml', [`$values/${SOURCE_PATH}/values-prod.yaml`]: `${SOURCE_PATH}/values-prod.yaml` } : {}),
  };
  for (let i = r.int(0, multi ? 4 : 3); i > 0; i--) {
    const name = r.pick(Object.keys(where));
    valueFiles.push(name);
    files[where[name]!] ??= yamlText(valuesTree(r, 1, 4));
  }
  // A file named twice: Argo CD keeps its first place only.
  if (valueFiles.length > 1 && r.chance(0.3)) valueFiles.push(valueFiles[0]!);
  if (multi && r.chance(0.1)) {
    valueFiles.push('$values/../outside.yaml');
    refuses ??= 'valueFiles: $values/../outside.yaml leaves the repository';
  }
  if (multi && r.chance(0.08)) {
    valueFiles.push('$other/values.yaml');
    refuses ??= 'valueFiles: $other names no source';
  }
  if (r.chance(0.1)) {
    valueFiles.push('../../outside.yaml');
    refuses ??= 'valueFiles: ../../outside.yaml leaves the repository';
  }
  if (r.chance(0.1)) {
    valueFiles.push(multi && r.chance(0.5) ? '$values/envs/missing.yaml' : r.pick(['missing.yaml', 'missing-*.yaml']));
    if (r.chance(0.5)) helm.ignoreMissingValueFiles = true;
    else refuses ??= `valueFiles: ${valueFiles.at(-1)} does not exist`;
  }
  if (valueFiles.length > 0) helm.valueFiles = valueFiles;
  const inline = r.int(0, 3);
  if (inline === 1 || inline === 3) helm.values = yamlText(valuesTree(r, 1, 4));
  if (inline === 2 || inline === 3) helm.valuesObject = valuesTree(r, 1, 4);
  const parameters: Record<string, unknown>[] = [];
  for (const leaf of r.some(LEAVES.filter((l) => l.kind !== 'list'), 0, 3)) {
    const { text, needsString } = scalarText(leaf.value(r) as Scalar);
    parameters.push({ name: setPath(leaf.path), value: text, ...(needsString || (leaf.kind === 'string' && r.chance(0.3)) ? { forceString: true } : {}) });
  }
  if (r.chance(0.2)) {
    // A list item by index, as people set env entries.
    parameters.push({ name: 'controller.env[0].name', value: 'FROM_PARAM' }, { name: 'controller.env[0].value', value: r.pick(['x', '42']), forceString: true });
  }
  if (parameters.length > 0) helm.parameters = parameters;
  if (r.chance(0.2)) {
    files[`${SOURCE_PATH}/files/loglevel.txt`] = r.pick(['debug', 'error']);
    // In an Application of several sources the file may come from the ref source too.
    const fromRef = multi && r.chance(0.5);
    if (fromRef) files['levels/loglevel.txt'] = r.pick(['debug', 'error']);
    helm.fileParameters = [{ name: 'controller.loglevel', path: fromRef ? '$values/levels/loglevel.txt' : 'files/loglevel.txt' }];
  }
  if (r.chance(0.3)) helm.releaseName = r.pick(['platform', 'agentplat-prod']);
  // helm.namespace is where helm renders; $ARGOCD_APP_NAMESPACE stays the destination's.
  if (r.chance(0.2)) helm.namespace = 'tenant-a';
  const app = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: appName, namespace: 'argocd' },
    spec: {
      project: 'default',
      ...(multi
        ? { sources: [{ repoURL: REPO_URL, targetRevision: 'main', path: SOURCE_PATH, helm }, { repoURL: sameRepo ? REPO_URL : 'https://git.example.com/values.git', targetRevision: 'main', ref: refName }] }
        : { source: { repoURL: REPO_URL, targetRevision: 'main', path: SOURCE_PATH, helm } }),
      destination: { server: 'https://kubernetes.default.svc', namespace: destination },
    },
  };
  files['application.yaml'] = yamlText(app);
  return { id, revision, files, ...(refuses ? { refuses } : {}) };
}

export const DEFAULT_SEED = 36_4;

export function fluxCorpus(seed: number, n: number): FluxCase[] {
  const r = new Random(seed);
  // Every 50th case pins its OCIRepository by digest: the difference test/oracles/allowlist.yaml
  // lists, so that its row is needed under any seed.
  return Array.from({ length: n }, (_, i) => fluxCase(r, `flux-${seed}-${i}`, i % 50 === 49));
}

export function argoCorpus(seed: number, n: number): ArgoCase[] {
  const r = new Random(seed + 1);
  return Array.from({ length: n }, (_, i) => argoCase(r, `argo-${seed}-${i}`));
}
