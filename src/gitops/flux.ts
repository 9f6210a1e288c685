// A Flux HelmRelease (helm.toolkit.fluxcd.io/v2, v2beta2, v2beta1) read as helm-controller reads
// it: the chart version (or the OCIRepository or HelmChart its chartRef names) to the revision,
// the release name (Flux's default `[<targetNamespace>-]<name>`, shortened with a hash past 53
// characters), the namespace, the CRD policy, and the values composed as Flux's chartutil
// composes them: each valuesFrom in order (merged, or with targetPath set into the values by
// helm's --set parser, as a string when quoted), then spec.values merged over them.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { UsageError } from '../problems/errors.ts';
import { CHART_NAME } from '../chart/revisions.ts';
import { cloneTree, isPlainMap, mergeMaps, ownValue, setOwn, splitPath, type Values } from '../values/merge.ts';
import { applySetArgument } from '../values/set-parser.ts';
import type { PathSegment, ValuesSource } from '../values/source.ts';
import { get, nodeAt, posAt, readDocuments, str, typeOf, whereAt, writtenAt, type YamlDoc } from './documents.ts';
import { re2ToRegExp, Re2Error } from './re2.ts';
import { embeddedText } from './embedded.ts';
import { assignmentsLayer, embeddedLayer, type Assignment, type UserFile } from './layers.ts';
import { postRenderer, type KustomizeStep, type PatchPlace, type PatchStep, type Selector } from './post-render.ts';
import type { GitopsReader, GitopsRelease, WrittenAt, WrittenLayer } from './release.ts';
import { resolveVersion, supportedVersionsText, type ResolveOptions } from './versions.ts';
import { parse as parseYaml } from 'yaml';

export const FLUX_API_VERSIONS = ['helm.toolkit.fluxcd.io/v2', 'helm.toolkit.fluxcd.io/v2beta2', 'helm.toolkit.fluxcd.io/v2beta1'];

/** Flux's release name: past 53 characters, the first 40, a dash and 12 characters of its SHA-256. */
export function shortenReleaseName(name: string): string {
  if (name.length <= 53) return name;
  return `${name.slice(0, 40)}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

const basename = (p: string) => p.replace(/\/+$/, '').split('/').pop() ?? p;

/** The documents beside the object, read once. */
export class Beside {
  private read?: YamlDoc[];
  constructor(private readonly own: YamlDoc[], private readonly reader: GitopsReader) {}
  all(): YamlDoc[] {
    if (!this.read) {
      this.read = [...this.own];
      const seen = new Set(this.own.map((d) => d.file.name));
      for (const f of this.reader.neighbours()) {
        if (seen.has(f.name)) continue;
        seen.add(f.name);
        try {
          this.read.push(...readDocuments(f));
        } catch {
          // A file beside the object that is not YAML holds nothing the object names.
        }
      }
    }
    return this.read;
  }
  find(kind: string, name: string, namespace: string): YamlDoc | undefined {
    return this.all().find((d) => {
      const t = typeOf(d.data);
      const ns = str(get(d.data, 'metadata', 'namespace'));
      return t.kind === kind && str(get(d.data, 'metadata', 'name')) === name && (ns === undefined || ns === namespace);
    });
  }
}

export function fluxRelease(d: YamlDoc, beside: Beside, reader: GitopsReader): GitopsRelease | { skipped: string } {
  const data = d.data;
  const name = str(get(data, 'metadata', 'name')) ?? '';
  const ns = str(get(data, 'metadata', 'namespace')) ?? 'default';
  const title = `HelmRelease ${ns}/${name}`;
  const apiVersion = typeOf(data).apiVersion!;
  const notes: string[] = [];
  if (!FLUX_API_VERSIONS.includes(apiVersion)) {
    throw new UsageError(`${whereAt(d, ['apiVersion'])}: ${title}: apiVersion ${apiVersion} is not one agentplat reads`, `use ${FLUX_API_VERSIONS.join(', ')}`);
  }
  const chart = chartOf(d, beside, ns, title, reader);
  if (basename(chart.name) !== CHART_NAME) return { skipped: `${d.file.name}: ${title} is of chart "${chart.name}", not ${CHART_NAME}: skipped` };
  const resolved = resolveVersion(chart.version, chart.resolve);
  if (!resolved) {
    throw new UsageError(`${chart.where}: ${title}: ${chart.what ?? 'chart version'} "${chart.version}" matches no version of ${CHART_NAME} agentplat knows`, `agentplat renders ${supportedVersionsText()}; set ${chart.key} to one of them`);
  }
  if (chart.note) notes.push(chart.note);
  const targetNamespace = str(get(data, 'spec', 'targetNamespace'));
  const releaseName = shortenReleaseName(str(get(data, 'spec', 'releaseName')) ?? (targetNamespace ? `${targetNamespace}-${name}` : name));
  const storage = str(get(data, 'spec', 'storageNamespace'));
  if (storage) notes.push(`${title}: storageNamespace ${storage} is where Helm keeps the release's records; it changes nothing rendered`);
  const installCrds = str(get(data, 'spec', 'install', 'crds')) ?? 'Create';
  for (const key of ['install', 'upgrade'] as const) {
    const policy = str(get(data, 'spec', key, 'crds'));
    if (policy !== undefined && !['Skip', 'Create', 'CreateReplace'].includes(policy)) {
      throw new UsageError(`${whereAt(d, ['spec', key, 'crds'])}: ${title}: spec.${key}.crds "${policy}" is not a CRD policy Flux knows`, 'write Skip, Create or CreateReplace');
    }
  }
  for (const f of (get(data, 'spec', 'chart', 'spec', 'valuesFiles') as unknown[] | undefined) ?? [get(data, 'spec', 'chart', 'spec', 'valuesFile')].filter((x) => x !== undefined)) {
    if (f !== 'values.yaml') {
      throw new UsageError(`${whereAt(d, ['spec', 'chart', 'spec', 'valuesFiles'])}: ${title}: the chart's values file "${String(f)}" is not a file of ${CHART_NAME}`, 'the chart ships values.yaml only (its defaults); move those values into spec.values or a valuesFrom ConfigMap');
    }
    notes.push(`${title}: spec.chart.spec.valuesFiles values.yaml is the chart's defaults, which agentplat always starts from`);
  }
  const written: WrittenLayer[] = [];
  const layers = valueLayers(d, beside, ns, title, notes, written);
  const post = postRenderSteps(d, title);
  if (post.length > 0) {
    const last = layers.pop() ?? { name: `${d.file.name} ${title}`, data: {}, locate: () => undefined };
    layers.push({ ...last, postRender: postRenderer(post) });
  }
  const at = chart.path ? writtenAt(chart.doc, chart.path) : undefined;
  const versionAt = at && chart.fixed ? { ...at, fixed: chart.fixed } : at;
  return {
    kind: 'HelmRelease',
    title,
    file: d.file.name,
    revision: resolved.revision,
    versionFrom: `${chart.where} ${chart.key} "${chart.version}"`,
    releaseName,
    namespace: targetNamespace ?? ns,
    skipCrds: installCrds === 'Skip',
    apiVersions: [],
    layers,
    notes,
    written: { ...(versionAt ? { version: { ...versionAt, value: chart.version, key: chart.key } } : {}), layers: written },
  };
}

interface ChartOf {
  name: string;
  version: string;
  where: string;
  key: string;
  /** The document and path of the version as written (none when the object gives no version). */
  doc: YamlDoc;
  path?: PathSegment[];
  /** Why migrate cannot move the version by rewriting it where it is written (a chart's own Chart.yaml). */
  fixed?: string;
  /** How the version is read (an OCIRepository's semver and semverFilter, a tag read as written). */
  resolve?: ResolveOptions;
  /** What the version is called in a refusal (default "chart version"). */
  what?: string;
  note?: string;
}

/** A kind of source whose chart is at the version its Chart.yaml says: Flux ignores the version written beside it. */
const GIT_KINDS = ['GitRepository', 'Bucket'];

/**
 * The chart of a HelmRelease and its version as Flux finds it: spec.chart.spec (a HelmChart made
 * of it), or the HelmChart or OCIRepository spec.chartRef names. A chart from a GitRepository or a
 * Bucket is at its Chart.yaml's version, read under the repository's root.
 */
function chartOf(d: YamlDoc, beside: Beside, ns: string, title: string, reader: GitopsReader): ChartOf {
  const data = d.data;
  const ref = get(data, 'spec', 'chartRef');
  if (ref !== undefined) {
    const kind = str(get(ref, 'kind')) ?? '';
    const refName = str(get(ref, 'name')) ?? '';
    const refNs = str(get(ref, 'namespace')) ?? ns;
    if (kind !== 'OCIRepository' && kind !== 'HelmChart') {
      throw new UsageError(`${whereAt(d, ['spec', 'chartRef', 'kind'])}: ${title}: spec.chartRef.kind ${kind} is not one Flux takes`, 'write OCIRepository or HelmChart');
    }
    const src = beside.find(kind, refName, refNs);
    if (!src) {
      throw new UsageError(`${whereAt(d, ['spec', 'chartRef'])}: ${title}: spec.chartRef names ${kind} ${refNs}/${refName}, which is not in this file nor beside it`, `put the ${kind} in the HelmRelease's folder, or pass the folder that holds it with --values-from DIR`);
    }
    if (kind === 'HelmChart') {
      const chart = str(get(src.data, 'spec', 'chart')) ?? '';
      const sourceKind = str(get(src.data, 'spec', 'sourceRef', 'kind')) ?? '';
      if (GIT_KINDS.includes(sourceKind)) return gitChart(src, ['spec'], chart, sourceKind, `HelmChart ${refNs}/${refName}`, reader);
      return { name: chart, version: str(get(src.data, 'spec', 'version')) ?? '*', where: whereAt(src, ['spec', 'version']), key: 'spec.version of the HelmChart', doc: src, path: ['spec', 'version'] };
    }
    const url = str(get(src.data, 'spec', 'url')) ?? '';
    const semver = str(get(src.data, 'spec', 'ref', 'semver'));
    const tag = str(get(src.data, 'spec', 'ref', 'tag'));
    const digest = str(get(src.data, 'spec', 'ref', 'digest'));
    const what = `OCIRepository ${refNs}/${refName}`;
    if (semver === undefined && tag === undefined) {
      throw new UsageError(`${whereAt(src, ['spec', 'ref'])}: ${what} gives no spec.ref.tag or spec.ref.semver, so its chart version is unknown offline`, 'set spec.ref.tag (e.g. 0.11.0) or spec.ref.semver (e.g. 0.11.x)');
    }
    const note = digest !== undefined ? `${what}: spec.ref.digest ${digest} pins the artifact Flux pulls; agentplat takes its chart version from spec.ref.${semver !== undefined ? 'semver' : 'tag'}, which must name the same chart` : undefined;
    if (semver !== undefined) {
      // Flux resolves ref.semver over the registry's tags, the ones ref.semverFilter keeps.
      const filter = str(get(src.data, 'spec', 'ref', 'semverFilter'));
      let keep: RegExp | undefined;
      if (filter !== undefined) {
        try {
          // Flux compiles it with Go's regexp (RE2 syntax), not JavaScript's.
          keep = re2ToRegExp(filter);
        } catch (err) {
          if (!(err instanceof Re2Error)) throw err;
          throw new UsageError(`${whereAt(src, ['spec', 'ref', 'semverFilter'])}: ${what}: spec.ref.semverFilter "${filter}" is not a Go (RE2) regular expression agentplat can read: ${err.message}`, 'write a regular expression over the tags in RE2 syntax, e.g. ^0\\.11\\. or (?i)^v?0\\.11\\.');
        }
      }
      return {
        name: basename(url), version: semver, where: whereAt(src, ['spec', 'ref', 'semver']), key: 'spec.ref.semver of the OCIRepository', doc: src, path: ['spec', 'ref', 'semver'],
        resolve: { exactFirst: false, ...(keep ? { keep: (t: string) => keep.test(t) } : {}) },
        ...(keep ? { what: `spec.ref.semver with semverFilter "${filter}"` } : {}),
        ...(note ? { note } : {}),
      };
    }
    // A tag is pulled as written: it names one version, never a range.
    return { name: basename(url), version: tag!, where: whereAt(src, ['spec', 'ref', 'tag']), key: 'spec.ref.tag of the OCIRepository (one version as written, e.g. 0.11.0)', doc: src, path: ['spec', 'ref', 'tag'], resolve: { exactOnly: true }, what: 'tag', ...(note ? { note } : {}) };
  }
  const chart = str(get(data, 'spec', 'chart', 'spec', 'chart'));
  if (chart === undefined) {
    throw new UsageError(`${whereAt(d, ['spec'])}: ${title}: neither spec.chart.spec.chart nor spec.chartRef names a chart`, `add spec.chart.spec.chart: ${CHART_NAME} and spec.chart.spec.version`);
  }
  const sourceKind = str(get(data, 'spec', 'chart', 'spec', 'sourceRef', 'kind')) ?? '';
  if (GIT_KINDS.includes(sourceKind)) return gitChart(d, ['spec', 'chart', 'spec'], chart, sourceKind, title, reader);
  const version = str(get(data, 'spec', 'chart', 'spec', 'version')) ?? '*';
  return { name: chart, version, where: whereAt(d, ['spec', 'chart', 'spec', 'version']), key: 'spec.chart.spec.version', doc: d, path: ['spec', 'chart', 'spec', 'version'] };
}

/**
 * A chart from a GitRepository or a Bucket: Flux ignores the version written beside it and takes
 * the one in the chart's Chart.yaml, at the chart's path in the repository (the reader's root).
 */
function gitChart(d: YamlDoc, at: PathSegment[], chart: string, sourceKind: string, title: string, reader: GitopsReader): ChartOf {
  const path = posix.join(posix.normalize(chart).replace(/^\/+/, ''), 'Chart.yaml');
  if (path.startsWith('../')) {
    throw new UsageError(`${whereAt(d, [...at, 'chart'])}: ${title}: the chart path "${chart}" leaves the ${sourceKind}'s root`, 'write the chart\'s path from the root of the source, e.g. ./charts/agentplat');
  }
  const file = reader.repoFile(path);
  const doc = file ? readDocuments(file)[0] : undefined;
  const version = str(get(doc?.data, 'version'));
  const name = str(get(doc?.data, 'name')) ?? basename(chart);
  if (basename(name) !== CHART_NAME) return { name, version: '', where: '', key: '', doc: d };
  if (!file || !doc || version === undefined) {
    throw new UsageError(`${whereAt(d, [...at, 'chart'])}: ${title}: the chart comes from a ${sourceKind}, so Flux installs it at the version its Chart.yaml says (the version written beside it is ignored), and ${path} is not found ${reader.repoRootText}`, "pass the source's root with --values-from DIR, so that the chart's Chart.yaml is read");
  }
  const ignored = get(d.data, ...at, 'version') !== undefined ? ` (Flux ignores ${at.join('.')}.version for a ${sourceKind})` : '';
  return { name, version, where: whereAt(doc, ['version']), key: `the version of ${file.name}`, doc, path: ['version'], fixed: `the chart is read from the ${sourceKind} at the version its ${file.name} says: point the ${sourceKind} at the revision whose ${path} has the new version`, resolve: { exactOnly: true }, note: `${title}: the chart is read from ${file.name} at version ${version}${ignored}` };
}

const VALUES_KEY = /^[\-._a-zA-Z0-9]+$/;

function valueLayers(d: YamlDoc, beside: Beside, ns: string, title: string, notes: string[], written: WrittenLayer[]): ValuesSource[] {
  const layers: ValuesSource[] = [];
  const specValuesNode = nodeAt(d, ['spec', 'values']);
  const specValuesData = get(d.data, 'spec', 'values');
  let specValues: ValuesSource | undefined;
  let specValuesText = '';
  if (specValuesData !== undefined && specValuesData !== null) {
    const embedded = specValuesNode ? embeddedText(specValuesNode, d.file.text, d.lines) : undefined;
    if (!embedded || typeof specValuesData !== 'object' || Array.isArray(specValuesData)) {
      throw new UsageError(`${whereAt(d, ['spec', 'values'])}: ${title}: spec.values must be a map of values`, 'write spec.values as `key: value` pairs, e.g. `controller:\\n  replicas: 2`');
    }
    specValues = embeddedLayer(`${d.file.name} spec.values`, embedded, d.places, () => 'spec.values', 'fix spec.values');
    specValuesText = embedded.text;
  }
  const specValuesAt = writtenAt(d, ['spec', 'values']);
  const refs = (get(d.data, 'spec', 'valuesFrom') as unknown[] | undefined) ?? [];
  // What Flux has composed so far, built as chartutil builds it (goMerge shares what it does not
  // copy, and a targetPath is written in place): a targetPath is checked against it before it is
  // set, and a write that lands in a map spec.values shares ends up in spec.values too.
  let composed: Values = {};
  const shared = cloneTree(specValues?.data ?? {}) as Values;
  const landed: Assignment[] = [];
  refs.forEach((ref, i) => {
    const at = ['spec', 'valuesFrom', i];
    const label = `spec.valuesFrom[${i}]`;
    const kind = str(get(ref, 'kind')) ?? '';
    const refName = str(get(ref, 'name')) ?? '';
    const key = str(get(ref, 'valuesKey')) ?? 'values.yaml';
    const optional = get(ref, 'optional') === true;
    const targetPath = str(get(ref, 'targetPath'));
    if (kind !== 'ConfigMap' && kind !== 'Secret') {
      throw new UsageError(`${whereAt(d, [...at, 'kind'])}: ${title}: ${label}.kind ${kind || '(none)'}: Flux reads values from a ConfigMap or a Secret only`, 'write kind: ConfigMap or kind: Secret');
    }
    if (!VALUES_KEY.test(key)) {
      throw new UsageError(`${whereAt(d, [...at, 'valuesKey'])}: ${title}: ${label}.valuesKey "${key}" is not a key a ${kind} may hold`, 'a data key holds letters, digits, "-", "_" and "." only');
    }
    const found = beside.find(kind, refName, ns);
    const what = `${kind} ${ns}/${refName}`;
    if (!found) {
      if (optional) {
        notes.push(`${whereAt(d, at)}: ${title}: ${label} ${what} is optional and not found beside the HelmRelease: Flux skips it`);
        return;
      }
      throw new UsageError(`${whereAt(d, at)}: ${title}: ${label} names ${what}, which is not in this file nor beside it, and is not optional: Flux fails the release`, `put the ${kind} in the HelmRelease's folder or pass its folder with --values-from DIR, read it from the cluster with --cluster, or mark the reference optional: true`);
    }
    const entry = dataEntry(found, key);
    if (!entry) {
      if (optional) {
        notes.push(`${whereAt(d, at)}: ${title}: ${label} ${what} has no key ${key} and is optional: Flux skips it`);
        return;
      }
      throw new UsageError(`${whereAt(found, ['data'])}: ${title}: ${label}: ${what} has no key ${key}, and the reference is not optional: Flux fails the release`, `add ${key} to the ${kind}'s data, set valuesKey to the key that holds the values, or mark the reference optional: true`);
    }
    const source = `${label} ${what} key ${key}`;
    if (targetPath !== undefined) {
      // chartutil merges spec.values (as targetPath writes have changed it so far) in before each write.
      const specNow = cloneTree(shared) as Values;
      composed = goMerge(composed, shared);
      const { layer, assignment } = targetPathLayer(d, found, entry, targetPath, source, title, label, at, composed, specNow);
      if (writesIntoShared(composed, targetPath, shared)) landed.push(assignment);
      applySetArgument(composed, assignment.arg, assignment.kind, true);
      layers.push(layer);
      written.push({ layer, label: `${source} at targetPath ${targetPath}`, form: 'assignments', at: writtenAt(d, [...at, 'targetPath']) ?? placeOf(d, at) });
      return;
    }
    const embedded = entry.node ? embeddedText(entry.node, found.file.text, found.lines) : undefined;
    const text = entry.value;
    const layer = embeddedLayer(
      `${found.file.name} ${source}`,
      embedded ?? { text, toOuter: () => ({ ...posAt(found, entry.path), exact: false }) },
      found.places,
      (inner, outer) => `${source} line ${inner.line}${outer.exact ? '' : ' (the string starts here)'}`,
      `fix the values under ${key} of ${what} (Flux reads them as a values file)`,
    );
    composed = goMerge(composed, cloneTree(layer.data) as Values);
    layers.push(layer);
    const isBase64 = typeOf(found.data).kind === 'Secret' && entry.path[0] === 'data';
    written.push({ layer, label: source, form: isBase64 ? 'base64' : 'string', text, at: writtenAt(found, entry.path) ?? placeOf(found, entry.path) });
  });
  if (specValues) {
    layers.push(specValues);
    written.push({ layer: specValues, label: 'spec.values', form: 'map', text: specValuesText, at: specValuesAt ?? placeOf(d, ['spec', 'values']) });
  }
  // spec.values is merged over everything last, with the targetPath values written into the maps
  // it shared: those win over it, in the order they were written.
  if (landed.length > 0) layers.push(assignmentsLayer(`${d.file.name} ${title} targetPath values inside spec.values`, landed));
  return layers;
}

/** Where the nearest written node to `path` is, when the node itself has no place of its own. */
function placeOf(d: YamlDoc, path: PathSegment[]): WrittenAt {
  const pos = posAt(d, path);
  const offset = d.lines.lineStarts[pos.line - 1]! + pos.col - 1;
  return { file: d.file.name, where: d.places.where(pos), start: offset, end: offset };
}

/**
 * Flux's transform.MergeMaps: a map of `over` merges into a map `base` holds (a new map), and any
 * other value of `over`, a map `base` lacks included, is taken as is: shared, not copied.
 */
function goMerge(base: Values, over: Values): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(base)) setOwn(out, k, v);
  for (const [k, v] of Object.entries(over)) {
    const below = ownValue(out, k);
    setOwn(out, k, isPlainMap(v) && isPlainMap(below) ? goMerge(below, v) : v);
  }
  return out;
}

/** Whether helm's parser, writing at `targetPath` into `tree` in place, goes through a map or list that `shared` holds (so writes into it). */
function writesIntoShared(tree: Values, targetPath: string, shared: Values): boolean {
  const inShared = new Set<unknown>();
  const collect = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || inShared.has(v)) return;
    inShared.add(v);
    for (const x of Object.values(v)) collect(x);
  };
  collect(shared);
  const path = splitPath(targetPath);
  let cur: unknown = tree;
  for (const seg of path.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return false;
    cur = ownValue(cur, seg);
    if (inShared.has(cur)) return true;
  }
  return false;
}

interface DataEntry {
  value: string;
  node?: import('yaml').Node;
  path: PathSegment[];
}

/** The text under `key` of a ConfigMap's data, or a Secret's stringData or (decoded) data. */
function dataEntry(d: YamlDoc, key: string): DataEntry | undefined {
  for (const field of ['data', 'stringData']) {
    const v = get(d.data, field, key);
    if (v === undefined) continue;
    const isSecretData = typeOf(d.data).kind === 'Secret' && field === 'data';
    if (isSecretData) return { value: Buffer.from(String(v), 'base64').toString('utf8'), path: [field, key] };
    const node = nodeAt(d, [field, key]);
    return { value: String(v), ...(node ? { node } : {}), path: [field, key] };
  }
  return undefined;
}

function targetPathLayer(hr: YamlDoc, found: YamlDoc, entry: DataEntry, targetPath: string, source: string, title: string, label: string, at: PathSegment[], composed: Values, specNow: Values): { layer: ValuesSource; assignment: Assignment } {
  const where = whereAt(hr, [...at, 'targetPath']);
  checkTargetPath(composed, targetPath, where, title, label);
  // Flux: a value in single or double quotes is set as a string (its quotes trimmed), else typed as --set types it.
  let value = entry.value;
  const quoted = (value.startsWith("'") && value.endsWith("'")) || (value.startsWith('"') && value.endsWith('"'));
  if (quoted) value = value.replace(/^['"]+|['"]+$/g, '');
  const pos = posAt(found, entry.path);
  const assignment: Assignment = {
    arg: `${targetPath}=${value}`,
    kind: quoted ? 'set-string' : 'set',
    at: { ...found.places.at(pos), via: `${source} at targetPath ${targetPath}` },
    where: `${where}: ${title}: ${label}.targetPath ${targetPath}`,
    fix: 'Flux hands "targetPath=value" to helm\'s --set parser: escape commas in the value with \\, or quote the whole value to set it as a string',
  };
  // Flux merges spec.values (as earlier targetPath writes left it) in before it sets a targetPath.
  const layer = assignmentsLayer(`${found.file.name} ${source}`, [assignment], (below) => mergeMaps(below, specNow));
  return { layer, assignment };
}

/** A targetPath must lead through maps (a name) and lists (an index) as the values have them: helm's parser fails otherwise. */
function checkTargetPath(tree: Values, targetPath: string, where: string, title: string, label: string): void {
  let cur: unknown = tree;
  const segs = splitPath(targetPath);
  if (!/^([a-zA-Z0-9_\-.\\/]|\[[0-9]{1,5}\])+$/.test(targetPath)) {
    throw new UsageError(`${where}: ${title}: ${label}.targetPath "${targetPath}" is not a path Flux accepts`, 'write a dotted path of names and [index]es, e.g. controller.image.tag or agents[0].name');
  }
  for (let i = 0; i < segs.length; i++) {
    if (cur === undefined || cur === null) return;
    const seg = segs[i]!;
    const shown = segs.slice(0, i).map(String).join('.') || '(the top)';
    if (Array.isArray(cur) && typeof seg === 'string') {
      throw new UsageError(`${where}: ${title}: ${label}.targetPath ${targetPath} writes the key "${seg}" into a list at ${shown}: Flux's value parser cannot, and fails the release`, `address an item of the list with an index (${shown}[0].${seg}), or set the whole list in spec.values`);
    }
    if (typeof cur !== 'object') {
      throw new UsageError(`${where}: ${title}: ${label}.targetPath ${targetPath} goes through ${shown}, which holds a ${typeof cur}, not a map: Flux's value parser fails the release`, `remove the value at ${shown} from the layers below, or point targetPath elsewhere`);
    }
    if (!Array.isArray(cur) && typeof seg === 'number') {
      throw new UsageError(`${where}: ${title}: ${label}.targetPath ${targetPath} indexes ${shown}, which is a map, not a list: Flux's value parser fails the release`, 'use a key name instead of the index');
    }
    cur = (cur as Record<string, unknown>)[seg as string];
  }
}

function postRenderSteps(d: YamlDoc, title: string): KustomizeStep[] {
  const steps: KustomizeStep[] = [];
  const list = (get(d.data, 'spec', 'postRenderers') as unknown[] | undefined) ?? [];
  list.forEach((pr, i) => {
    const k = get(pr, 'kustomize');
    if (k === undefined) return;
    const base: PathSegment[] = ['spec', 'postRenderers', i, 'kustomize'];
    const patches: PatchStep[] = [];
    const patchText = (raw: unknown, at: PathSegment[]): unknown => {
      if (typeof raw !== 'string') return raw;
      try {
        return parseYaml(raw);
      } catch (err) {
        throw new UsageError(`${whereAt(d, at)}: ${title}: ${at.join('.').replace(/\.(\d+)/g, '[$1]')} is not YAML: ${(err as Error).message.split('\n')[0]}`, 'fix the patch text');
      }
    };
    const label = (at: PathSegment[]): PatchPlace => {
      const path = at.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('').slice(1).replace(/\.\[/g, '[');
      const { file, line, column, excerpt } = d.places.at(posAt(d, at));
      return { file, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}), ...(excerpt !== undefined ? { excerpt } : {}), label: `${title}: ${path}`, path };
    };
    ((get(k, 'patches') as unknown[] | undefined) ?? []).forEach((p, j) => {
      const at = [...base, 'patches', j];
      const patch = patchText(get(p, 'patch'), [...at, 'patch']);
      const target = get(p, 'target') as Selector | undefined;
      patches.push({ type: Array.isArray(patch) ? 'json6902' : 'strategic-merge', patch, ...(target ? { target } : {}), at: label(at) });
    });
    ((get(k, 'patchesStrategicMerge') as unknown[] | undefined) ?? []).forEach((p, j) => {
      const at = [...base, 'patchesStrategicMerge', j];
      patches.push({ type: 'strategic-merge', patch: patchText(p, at), at: label(at) });
    });
    ((get(k, 'patchesJson6902') as unknown[] | undefined) ?? []).forEach((p, j) => {
      const at = [...base, 'patchesJson6902', j];
      const target = get(p, 'target') as Selector | undefined;
      patches.push({ type: 'json6902', patch: patchText(get(p, 'patch'), [...at, 'patch']), ...(target ? { target } : {}), at: label(at) });
    });
    const images = ((get(k, 'images') as Record<string, unknown>[] | undefined) ?? []).map((im) => ({
      name: String(im.name ?? ''),
      ...(im.newName !== undefined ? { newName: String(im.newName) } : {}),
      ...(im.newTag !== undefined ? { newTag: String(im.newTag) } : {}),
      ...(im.digest !== undefined ? { digest: String(im.digest) } : {}),
    }));
    steps.push({ patches, images });
  });
  return steps;
}

export type { UserFile };
