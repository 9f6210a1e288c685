// An Argo CD Application (argoproj.io/v1alpha1, `source` or `sources`) read as the repo-server
// reads it to build `helm template`: targetRevision (or the chart's Chart.yaml in a Git source)
// to the revision; the values in helm's order of the command line Argo CD builds: each valueFiles
// entry (relative to the source's path, or `$ref/…` from another source of the Application), then
// helm.values or helm.valuesObject, then parameters (--set, or --set-string with forceString) and
// fileParameters (--set-file); releaseName (default the Application's name), helm.namespace (else
// the destination namespace), skipCrds, kubeVersion and apiVersions. Value file paths, file
// parameter paths and parameter values go through the repo-server's build environment first
// (`$ARGOCD_APP_NAME`, `${ARGOCD_APP_NAMESPACE}`, …: argoEnv below).
import { posix } from 'node:path';
import { UsageError } from '../problems/errors.ts';
import { CHART_NAME } from '../chart/revisions.ts';
import type { PathSegment, ValuesSource } from '../values/source.ts';
import { get, nodeAt, posAt, readDocuments, str, whereAt, writtenAt, type YamlDoc } from './documents.ts';
import { embeddedText } from './embedded.ts';
import { assignmentsLayer, embeddedLayer, FilePlaces, type Assignment, type UserFile } from './layers.ts';
import type { GitopsReader, GitopsRelease, WrittenLayer, WrittenParts } from './release.ts';
import { resolveVersion, supportedVersionsText } from './versions.ts';

const basename = (p: string) => p.replace(/\/+$/, '').split('/').pop() ?? p;

/** Argo CD escapes commas in a parameter's value unless the value is a `{…}` list. */
function escapeCommas(value: string): string {
  if (value.startsWith('{') && value.endsWith('}')) return value;
  let out = '';
  let prev = '';
  for (const c of value) {
    out += c === ',' && prev !== '\\' ? '\\,' : c;
    prev = c;
  }
  return out;
}

export function argoRelease(d: YamlDoc, reader: GitopsReader): GitopsRelease | { skipped: string } {
  const data = d.data;
  const name = str(get(data, 'metadata', 'name')) ?? '';
  const appNs = str(get(data, 'metadata', 'namespace')) ?? 'argocd';
  const title = `Application ${appNs}/${name}`;
  const notes: string[] = [];
  const many = get(data, 'spec', 'sources');
  const sources: { at: PathSegment[]; data: unknown }[] = Array.isArray(many)
    ? many.map((s, i) => ({ at: ['spec', 'sources', i], data: s }))
    : get(data, 'spec', 'source') !== undefined ? [{ at: ['spec', 'source'], data: get(data, 'spec', 'source') }] : [];
  const chartSources = sources.filter((s) => get(s.data, 'ref') === undefined || get(s.data, 'chart') !== undefined);
  // A Helm repository source names its chart; a Git source is a chart when its path holds a
  // Chart.yaml, and the chart's name is that file's, whatever the folder is called. Without the
  // file (not in the repository agentplat reads), a path ending in the chart's name is taken as
  // ours, so that the refusal can say where the Chart.yaml was looked for.
  const chartOf = (s: { data: unknown }): { name?: string; says: string } => {
    const chart = str(get(s.data, 'chart'));
    if (chart !== undefined) return { name: chart, says: `is of chart "${chart}"` };
    const path = str(get(s.data, 'path'));
    if (path === undefined) return { says: 'names no chart' };
    const file = reader.repoFile(posix.join(path, 'Chart.yaml'));
    if (file) {
      const named = str(get(readDocuments(file)[0]?.data, 'name'));
      return { name: named, says: `is of chart "${named ?? ''}" (${file.name})` };
    }
    if (basename(path) === CHART_NAME) return { name: CHART_NAME, says: '' };
    return { says: `reads ${path}, which holds no Chart.yaml ${reader.repoRootText} (no Helm chart)` };
  };
  const charts = chartSources.map((s) => ({ s, chart: chartOf(s) }));
  const ours = charts.find((c) => c.chart.name === CHART_NAME)?.s;
  if (!ours) {
    const says = charts.map((c) => c.chart.says);
    return { skipped: `${d.file.name}: ${title} ${says.length > 0 ? says.join('; ') : 'names no chart'}, not ${CHART_NAME}: skipped` };
  }
  const src = ours.data;
  const at = ours.at;
  const isChartSource = get(src, 'chart') !== undefined;
  const sourcePath = str(get(src, 'path')) ?? '';
  const target = str(get(src, 'targetRevision')) ?? '';
  let version: string;
  let versionFrom: string;
  let versionAt: WrittenParts['version'];
  if (isChartSource) {
    version = target;
    versionFrom = `${whereAt(d, [...at, 'targetRevision'])} targetRevision "${target}"`;
    const written = writtenAt(d, [...at, 'targetRevision']);
    if (written) versionAt = { ...written, value: target, key: 'targetRevision' };
  } else {
    const chartFile = reader.repoFile(posix.join(sourcePath, 'Chart.yaml'));
    const v = chartFile ? str(get(readDocuments(chartFile)[0]?.data, 'version')) : undefined;
    if (!chartFile || v === undefined) {
      throw new UsageError(`${whereAt(d, [...at, 'path'])}: ${title}: the chart is read from Git (${sourcePath}), and its Chart.yaml is not found ${reader.repoRootText}`, 'pass the repository\'s root with --values-from DIR, so the chart\'s version is read from its Chart.yaml');
    }
    version = v;
    versionFrom = `${chartFile.name} version "${v}"`;
    const chartDoc = readDocuments(chartFile)[0]!;
    const written = writtenAt(chartDoc, ['version']) ?? { file: chartFile.name, where: `${chartFile.name}:1:1`, start: 0, end: 0 };
    const ref = whereAt(d, [...at, 'targetRevision']);
    versionAt = { ...written, value: v, key: `version of ${chartFile.name}`, fixed: `the chart is read from Git (path ${sourcePath}, targetRevision "${target}" at ${ref} is a Git ref): point targetRevision at the ref whose ${posix.join(sourcePath, 'Chart.yaml')} has the new version` };
  }
  const env = argoEnv(d, { name, appNs, project: str(get(data, 'spec', 'project')) ?? '', destNs: str(get(data, 'spec', 'destination', 'namespace')) ?? '', repoURL: str(get(src, 'repoURL')) ?? '', path: sourcePath, target, revision: isChartSource && /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(target) ? target : undefined, title });
  const resolved = resolveVersion(version);
  if (!resolved) {
    throw new UsageError(`${versionFrom.split(' ')[0]}: ${title}: chart version "${version}" matches no version of ${CHART_NAME} agentplat knows`, `agentplat renders ${supportedVersionsText()}`);
  }
  const helm = get(src, 'helm') ?? {};
  const helmAt = [...at, 'helm'];
  if (get(helm, 'passCredentials') !== undefined) notes.push(`${title}: helm.passCredentials is ignored (it concerns fetching the chart, which agentplat holds)`);
  if (get(helm, 'skipSchemaValidation') === true) notes.push(`${title}: helm.skipSchemaValidation: agentplat still checks the values against the chart's schema (its findings are what helm would have refused)`);
  const ignoreMissing = get(helm, 'ignoreMissingValueFiles') === true;
  checkRefs(d, sources, title);
  const layers: ValuesSource[] = [];
  const written: WrittenLayer[] = [];
  const place = (path: PathSegment[]) => writtenAt(d, path) ?? { file: d.file.name, where: whereAt(d, path), start: 0, end: 0 };
  const read = new Map<string, string>();
  const fileContext: FileContext = { env, multi: Array.isArray(many) && many.length > 0, sources, isChartSource, sourcePath, reader, title, ignoreMissing, notes, read, repoURL: str(get(src, 'repoURL')) ?? '' };
  const valueFiles = (get(helm, 'valueFiles') as unknown[] | undefined) ?? [];
  const explicit = explicitValueFiles(d, valueFiles, [...helmAt, 'valueFiles'], fileContext);
  valueFiles.forEach((f, i) => {
    for (const file of valueFileLayers(d, String(f), [...helmAt, 'valueFiles', i], `helm.valueFiles[${i}]`, fileContext, explicit)) {
      layers.push(file.layer);
      written.push({ layer: file.layer, label: `${file.label} ${file.file.name}`, form: 'file', text: file.file.text, at: { file: file.file.name, where: `${file.file.name}:1:1`, start: 0, end: file.file.text.length } });
    }
  });
  const valuesObject = get(helm, 'valuesObject');
  const values = get(helm, 'values');
  const inline = valuesObject !== undefined && valuesObject !== null ? 'valuesObject' : typeof values === 'string' && values.trim() !== '' ? 'values' : undefined;
  if (valuesObject !== undefined && typeof values === 'string' && values.trim() !== '') notes.push(`${title}: helm.valuesObject is set, so Argo CD ignores helm.values`);
  if (inline) {
    const node = nodeAt(d, [...helmAt, inline]);
    const embedded = node ? embeddedText(node, d.file.text, d.lines) : undefined;
    if (!embedded) throw new UsageError(`${whereAt(d, [...helmAt, inline])}: ${title}: helm.${inline} must be ${inline === 'values' ? 'a YAML text' : 'a map of values'}`, `write helm.${inline} as the chart's values`);
    const layer = embeddedLayer(`${d.file.name} helm.${inline}`, embedded, d.places, (inner, outer) => (inline === 'values' ? `helm.values line ${inner.line}${outer.exact ? '' : ' (the string starts here)'}` : 'helm.valuesObject'), `fix helm.${inline}`);
    layers.push(layer);
    written.push({ layer, label: `helm.${inline}`, form: inline === 'values' ? 'string' : 'map', text: embedded.text, at: place([...helmAt, inline]) });
  }
  // Argo CD keeps one value per parameter name (the last), then hands them to helm as --set or --set-string.
  const params = ((get(helm, 'parameters') as unknown[] | undefined) ?? []).map((p, i) => ({ p, i }));
  const lastOf = new Map<string, number>();
  for (const { p, i } of params) lastOf.set(str(get(p, 'name')) ?? '', i);
  const assignment = (p: unknown, i: number, kind: Assignment['kind'], label: string, value: string, fieldAt: PathSegment[]): Assignment => ({
    arg: `${str(get(p, 'name')) ?? ''}=${value}`,
    kind,
    at: { ...d.places.at(posAt(d, fieldAt)), via: label },
    where: `${whereAt(d, fieldAt)}: ${title}: ${label}`,
    fix: 'Argo CD hands "name=value" to helm\'s --set parser: check the name\'s path (dots, [index])',
  });
  for (const forceString of [false, true]) {
    const chosen = params.filter(({ p, i }) => lastOf.get(str(get(p, 'name')) ?? '') === i && (get(p, 'forceString') === true) === forceString);
    if (chosen.length === 0) continue;
    const layer = assignmentsLayer(
      `${d.file.name} helm.parameters${forceString ? ' (forceString)' : ''}`,
      chosen.map(({ p, i }) => {
        const vAt = [...helmAt, 'parameters', i, 'value'];
        return assignment(p, i, forceString ? 'set-string' : 'set', `parameters[${i}]`, escapeCommas(env.subst(str(get(p, 'value')) ?? '', vAt, `parameters[${i}].value`)), vAt);
      }),
    );
    layers.push(layer);
    written.push({ layer, label: `helm.parameters${forceString ? ' (forceString)' : ''}`, form: 'assignments', at: place([...helmAt, 'parameters']) });
  }
  const fileParams = (get(helm, 'fileParameters') as unknown[] | undefined) ?? [];
  if (fileParams.length > 0) {
    const layer = assignmentsLayer(`${d.file.name} helm.fileParameters`, fileParams.map((p, i) => {
      const pAt = [...helmAt, 'fileParameters', i, 'path'];
      const written = str(get(p, 'path')) ?? '';
      const rel = refPath(d, written, pAt, `fileParameters[${i}]`, fileContext)?.rel ?? repoPath(d, sourcePath, env.subst(written, pAt, `fileParameters[${i}].path`), pAt, title, `fileParameters[${i}]`);
      const file = reader.repoFile(rel);
      if (!file) throw new UsageError(`${whereAt(d, pAt)}: ${title}: fileParameters[${i}] reads ${rel}, which is not found ${reader.repoRootText}`, 'pass the repository\'s root with --values-from DIR');
      return assignment(p, i, 'set-literal', `fileParameters[${i}]`, file.text, pAt);
    }));
    layers.push(layer);
    written.push({ layer, label: 'helm.fileParameters', form: 'assignments', at: place([...helmAt, 'fileParameters']) });
  }
  const kubeVersion = str(get(helm, 'kubeVersion'));
  const apiVersions = ((get(helm, 'apiVersions') as unknown[] | undefined) ?? []).map(String);
  return {
    kind: 'Application',
    title,
    file: d.file.name,
    revision: resolved.revision,
    versionFrom,
    releaseName: str(get(helm, 'releaseName')) ?? name,
    // The repo-server renders into helm.namespace when it is set, else the destination's namespace.
    namespace: str(get(helm, 'namespace')) || str(get(data, 'spec', 'destination', 'namespace')) || 'default',
    skipCrds: get(helm, 'skipCrds') === true,
    ...(kubeVersion ? { kubeVersion } : {}),
    apiVersions,
    layers,
    notes,
    written: { ...(versionAt ? { version: versionAt } : {}), layers: written },
  };
}

/** A path of the repository, from the source's path; one that leaves the repository is refused. */
function repoPath(d: YamlDoc, sourcePath: string, file: string, at: PathSegment[], title: string, label: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
    throw new UsageError(`${whereAt(d, at)}: ${title}: ${label} is a URL (${file}), which agentplat does not fetch`, 'download it into the repository and name its path, or pass it with -f');
  }
  const joined = file.startsWith('/') ? posix.normalize(file.slice(1)) : posix.normalize(posix.join(sourcePath, file));
  if (joined === '..' || joined.startsWith('../')) {
    throw new UsageError(`${whereAt(d, at)}: ${title}: ${label} "${file}" is outside the repository, which Argo CD refuses`, 'keep values files inside the repository (a path from the source\'s path that does not climb above the root)');
  }
  return joined;
}

/** The controller's own namespace, which agentplat takes to be Argo CD's default (an Application there is named without its namespace). */
const CONTROL_NAMESPACE = 'argocd';

export interface ArgoEnv {
  /** A path or value with the build environment substituted, as the repo-server's Envsubst does. */
  subst(text: string, at: PathSegment[], label: string): string;
}

/**
 * The repo-server's build environment for a helm source: the variables it substitutes in value file
 * paths, file parameter paths and parameter values (`$NAME` or `${NAME}`, `$$` for a dollar; a name
 * it does not set becomes empty, as Go's os.Expand makes it). ARGOCD_APP_REVISION is what the
 * repo-server resolved: a chart source's exact version is known; a range's version or a Git commit
 * is not, and a text that needs it is refused rather than guessed.
 */
function argoEnv(d: YamlDoc, a: { name: string; appNs: string; project: string; destNs: string; repoURL: string; path: string; target: string; revision: string | undefined; title: string }): ArgoEnv {
  const vars = new Map<string, string | undefined>([
    // The controller names an Application outside its own namespace `<namespace>_<name>`.
    ['ARGOCD_APP_NAME', a.appNs === '' || a.appNs === CONTROL_NAMESPACE ? a.name : `${a.appNs}_${a.name}`],
    ['ARGOCD_APP_NAMESPACE', a.destNs],
    ['ARGOCD_APP_PROJECT_NAME', a.project],
    ['ARGOCD_APP_REVISION', a.revision],
    ['ARGOCD_APP_REVISION_SHORT', a.revision?.slice(0, 7)],
    ['ARGOCD_APP_REVISION_SHORT_8', a.revision?.slice(0, 8)],
    ['ARGOCD_APP_SOURCE_REPO_URL', a.repoURL],
    ['ARGOCD_APP_SOURCE_PATH', a.path],
    ['ARGOCD_APP_SOURCE_TARGET_REVISION', a.target],
  ]);
  return {
    subst(text, at, label) {
      return expandShell(text, (name) => {
        if (!vars.has(name)) return '';
        const v = vars.get(name);
        if (v === undefined) {
          throw new UsageError(`${whereAt(d, at)}: ${a.title}: ${label} "${text}" uses $${name}, the revision Argo CD resolves when it syncs (the commit of a Git source, the newest chart version of a range), which agentplat cannot know offline`, `name the file without $${name}, or pin targetRevision to an exact chart version (e.g. 0.11.0), which is then the revision`);
        }
        return v;
      });
    },
  };
}

const isShellSpecial = (c: string | undefined) => c !== undefined && '*#$@!?-0123456789'.includes(c);
const isNameChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** `$NAME`, `${NAME}` and the one-character shell names, expanded as Go's os.Expand expands them; `$$` is a dollar (the name "$", which Argo CD maps to itself). */
export function expandShell(s: string, value: (name: string) => string): string {
  let out = '';
  for (let j = 0; j < s.length; j++) {
    if (s[j] !== '$' || j + 1 >= s.length) {
      out += s[j];
      continue;
    }
    const rest = s.slice(j + 1);
    let name = '';
    let width = 0;
    if (rest[0] === '{') {
      if (rest.length > 2 && isShellSpecial(rest[1]) && rest[2] === '}') [name, width] = [rest[1]!, 3];
      else {
        const close = rest.indexOf('}', 1);
        // `${}` and an unclosed `${` are eaten, as os.Expand eats bad syntax.
        if (close === 1) width = 2;
        else if (close < 0) width = 1;
        else [name, width] = [rest.slice(1, close), close + 1];
      }
    } else if (isShellSpecial(rest[0])) [name, width] = [rest[0]!, 1];
    else {
      while (isNameChar(rest[width])) width++;
      name = rest.slice(0, width);
    }
    if (name === '' && width === 0) out += '$';
    else if (name !== '') out += name === '$' ? '$' : value(name);
    j += width;
  }
  return out;
}

interface FileContext {
  env: ArgoEnv;
  /** spec.sources (Argo CD's HasMultipleSources): only then is `$name/…` a ref. */
  multi: boolean;
  sources: { at: PathSegment[]; data: unknown }[];
  isChartSource: boolean;
  sourcePath: string;
  reader: GitopsReader;
  title: string;
  ignoreMissing: boolean;
  notes: string[];
  /** The chart source's repository. */
  repoURL: string;
  /** The files read so far (repository and path), each with the entry that read it: Argo CD reads a file once, at its first place. */
  read: Map<string, string>;
}

const REF_NAME = /^[a-zA-Z0-9_-]+$/;

/** A repository URL as one checkout: case, a trailing slash and `.git` make no other repository. */
const repoKey = (url: string) => url.trim().toLowerCase().replace(/\/+$/, '').replace(/\.git$/, '');

/** The `ref` of each source, as Argo CD takes them: letters, digits, `_` and `-`, and no two alike. */
function checkRefs(d: YamlDoc, sources: { at: PathSegment[]; data: unknown }[], title: string): void {
  const seen = new Set<string>();
  for (const s of sources) {
    const ref = get(s.data, 'ref');
    if (ref === undefined) continue;
    const at = [...s.at, 'ref'];
    const label = s.at.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').slice(1).replace(/\.\[/g, '[');
    if (typeof ref !== 'string' || !REF_NAME.test(ref)) {
      throw new UsageError(`${whereAt(d, at)}: ${title}: ${label}.ref "${String(ref)}" holds a character Argo CD refuses in a ref`, 'write the ref with letters, digits, "_" and "-" only (e.g. values), and name the files $values/<path>');
    }
    if (seen.has(ref)) {
      throw new UsageError(`${whereAt(d, at)}: ${title}: ${label}.ref "${ref}" is the ref of an earlier source too, which Argo CD refuses`, 'give each source its own ref');
    }
    seen.add(ref);
  }
}

/**
 * A `$name/…` path (a value file or a file parameter) read from the source whose ref is `name`,
 * in an Application of several sources only; with one source a leading `$` is the environment's
 * (`$ARGOCD_APP_NAME/values.yaml`). Undefined when the path names no ref.
 */
function refPath(d: YamlDoc, file: string, at: PathSegment[], label: string, c: FileContext): { rel: string; repo: string } | undefined {
  // `$values` alone names the repository, not a file in it: Argo CD reads its root folder and fails.
  const bare = c.multi ? /^\$([^/]+)\/?$/.exec(file) : null;
  if (bare && c.sources.some((s) => get(s.data, 'ref') === bare[1])) {
    throw new UsageError(`${whereAt(d, at)}: ${c.title}: ${label} "${file}" names the source $${bare[1]} but no file in it`, `write the file's path in that repository after it: $${bare[1]}/path/to/file`);
  }
  const ref = c.multi ? /^\$([^/]+)\/(.*)$/.exec(file) : null;
  if (!ref) return undefined;
  const named = c.sources.find((s) => get(s.data, 'ref') === ref[1]);
  if (!named) throw new UsageError(`${whereAt(d, at)}: ${c.title}: ${label} names the source $${ref[1]}, which no source of the Application has as its ref`, `add ref: ${ref[1]} to the source that holds the file, or fix the name`);
  // The ref's own name is taken as written; the rest of the path goes through the environment.
  return { rel: repoPath(d, '', c.env.subst(`/${ref[2]!}`, at, label).slice(1), at, c.title, label), repo: repoKey(str(get(named.data, 'repoURL')) ?? '') };
}

type Resolved = { rel: string; repo: string } | 'chart-defaults';

/** Where a valueFiles entry points: a path of the repository (the environment substituted), or the chart's own values.yaml. */
function resolveValueFile(d: YamlDoc, file: string, at: PathSegment[], label: string, c: FileContext): Resolved {
  const ref = refPath(d, file, at, label, c);
  if (ref) return ref;
  if (c.isChartSource) {
    const subst = c.env.subst(file, at, label);
    if (posix.normalize(subst) === 'values.yaml') return 'chart-defaults';
    throw new UsageError(`${whereAt(d, at)}: ${c.title}: ${label} "${file}" would be a file of the ${CHART_NAME} chart package, which ships values.yaml only`, 'keep the values file in Git and name it with a second source (ref: values) as $values/path');
  }
  return { rel: repoPath(d, c.sourcePath, c.env.subst(file, at, label), at, c.title, label), repo: repoKey(c.repoURL) };
}

/** The repo-server expands a path holding `*`, `?` or `[` as a glob (doublestar's `**` too). */
const isGlob = (path: string) => /[*?[]/.test(path);

/**
 * The layers one valueFiles entry gives: its file, or each file its glob matches, in doublestar's
 * order (folder by folder, each folder's names sorted), less the files another entry names
 * outright (they keep that entry's place).
 */
function valueFileLayers(d: YamlDoc, file: string, at: PathSegment[], label: string, c: FileContext, explicit: Set<string>): { layer: ValuesSource; file: UserFile; label: string }[] {
  const resolved = resolveValueFile(d, file, at, label, c);
  if (resolved === 'chart-defaults') {
    c.notes.push(`${c.title}: ${label} values.yaml is the chart's defaults, which agentplat always starts from`);
    return [];
  }
  const { rel, repo } = resolved;
  if (!isGlob(rel)) {
    const one = readValueFile(d, rel, repo, at, label, c);
    return one ? [{ ...one, label }] : [];
  }
  const list = c.reader.repoDir;
  if (!list) throw new UsageError(`${whereAt(d, at)}: ${c.title}: ${label} "${file}" is a glob, and this reader cannot list the repository's folders`, 'name the files one by one');
  let matches: string[];
  try {
    matches = globRepository(rel, list);
  } catch (err) {
    if (!(err instanceof GlobSyntaxError)) throw err;
    throw new UsageError(`${whereAt(d, at)}: ${c.title}: ${label} "${file}" is not a glob Argo CD can expand: ${err.message}`, 'close each [ with ] and each { with }, or escape the character with \\');
  }
  if (matches.length === 0) {
    if (c.ignoreMissing) {
      c.notes.push(`${c.title}: ${label} glob ${rel} matches no file and ignoreMissingValueFiles is set: skipped`);
      return [];
    }
    throw new UsageError(`${whereAt(d, at)}: ${c.title}: ${label} glob "${file}" (${rel}) matches no file ${c.reader.repoRootText}, which Argo CD refuses`, 'fix the pattern, add a matching file, or set helm.ignoreMissingValueFiles: true');
  }
  return matches.filter((m) => !explicit.has(`${repo} ${m}`)).flatMap((m) => {
    const one = readValueFile(d, m, repo, at, `${label} (${m})`, c);
    return one ? [{ ...one, label: `${label} (${m})` }] : [];
  });
}

/** The repository paths the entries name outright (no glob), each a path the globs leave to that entry. */
function explicitValueFiles(d: YamlDoc, files: unknown[], at: PathSegment[], c: FileContext): Set<string> {
  const out = new Set<string>();
  files.forEach((f, i) => {
    try {
      const r = resolveValueFile(d, String(f), [...at, i], '', c);
      if (r !== 'chart-defaults' && !isGlob(r.rel)) out.add(`${r.repo} ${r.rel}`);
    } catch {
      // Refused again, with its place, when the entry itself is read.
    }
  });
  return out;
}

class GlobSyntaxError extends Error {}

/** One path segment of a glob as a regular expression: `*`, `?`, `[…]` (`[!…]`, `[^…]`), `{a,b}`, `\` escapes. */
function segmentRegExp(seg: string): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < seg.length; i++) {
    const ch = seg[i]!;
    if (ch === '\\' && i + 1 < seg.length) out += escapeRe(seg[++i]!);
    else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close < 0) throw new GlobSyntaxError(`the [ at character ${i + 1} of "${seg}" is not closed`);
      let body = seg.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\]\\^]/g, (m) => `\\${m}`)}]`;
      i = close;
    } else if (ch === '{') {
      depth++;
      out += '(?:';
    } else if (ch === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (ch === ',' && depth > 0) out += '|';
    else out += escapeRe(ch);
  }
  if (depth > 0) throw new GlobSyntaxError(`a { of "${seg}" is not closed`);
  return new RegExp(`^${out}$`);
}

const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, (m) => `\\${m}`);

/**
 * The files of the repository a glob matches, as doublestar's FilepathGlob lists them: the folders
 * the pattern's leading segments match (in this same order), then in each the names its last
 * segment matches, sorted; `**` is the folder itself and every folder below it, depth first.
 */
export function globRepository(pattern: string, list: (dir: string) => { name: string; dir: boolean }[] | undefined): string[] {
  const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
  const entries = (dir: string) => [...(list(dir) ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const exists = (path: string) => {
    const cut = path.lastIndexOf('/');
    return entries(cut < 0 ? '' : path.slice(0, cut)).some((e) => e.name === (cut < 0 ? path : path.slice(cut + 1)));
  };
  const below = (dir: string, files: boolean): string[] => [dir, ...entries(dir).flatMap((e) => (e.dir ? below(join(dir, e.name), files) : files ? [join(dir, e.name)] : []))];
  const match = (segs: string[], files: boolean): string[] => {
    if (!segs.some(isGlobSegment)) {
      const path = segs.join('/');
      return exists(path) ? [path] : [];
    }
    const last = segs[segs.length - 1]!;
    const head = segs.slice(0, -1);
    const dirs = head.length === 0 ? [''] : head.some(isGlobSegment) ? match(head, false) : [head.join('/')];
    if (last === '**') return dirs.flatMap((dir) => below(dir, files));
    const re = segmentRegExp(last);
    return dirs.flatMap((dir) => entries(dir).filter((e) => re.test(e.name) && (files || e.dir)).map((e) => join(dir, e.name)));
  };
  return match(pattern.split('/'), true);
}

const isGlobSegment = (seg: string) => /[*?[{]/.test(seg);

function readValueFile(d: YamlDoc, rel: string, repo: string, at: PathSegment[], label: string, c: FileContext): { layer: ValuesSource; file: UserFile } | undefined {
  const first = c.read.get(`${repo} ${rel}`);
  if (first !== undefined) {
    c.notes.push(`${c.title}: ${label} reads ${rel}, which ${first} reads already: Argo CD passes a file to helm once, at its first place, so it is skipped here`);
    return undefined;
  }
  const found = c.reader.repoFile(rel);
  if (!found) {
    if (c.ignoreMissing) {
      c.notes.push(`${c.title}: ${label} ${rel} is not found and ignoreMissingValueFiles is set: skipped`);
      return undefined;
    }
    throw new UsageError(`${whereAt(d, at)}: ${c.title}: ${label} reads ${rel}, which is not found ${c.reader.repoRootText}`, 'pass the repository\'s root with --values-from DIR, or set helm.ignoreMissingValueFiles: true');
  }
  c.read.set(`${repo} ${rel}`, label);
  const places = new FilePlaces(found);
  return { layer: embeddedLayer(found.name, { text: found.text, toOuter: (line, col) => ({ line, col, exact: true }) }, places, () => label, `fix ${found.name}`), file: found };
}
