// The in-process API: `import { render, lint, validate } from 'agentplat'`. Tools and tests
// render and lint without a process per call; each function runs the same pipeline as its CLI
// command (values layered like Helm, lint before render, the same problems) and returns data
// instead of printing. Invalid options (an unknown revision, a bad release name, a file that
// cannot be read) throw an AgentplatError; problems with the values are returned, never thrown.
import { AgentplatError, UsageError } from './problems/errors.ts';
import { lintValues } from './lint/lint.ts';
import { prepareCrdCheck } from './lint/crd-check.ts';
import { countProblems, sortProblems, type Problem, type ProblemCounts } from './problems/problem.ts';
import { checkReleaseNames, parseApiVersionList, parseKubeVersion, revisionOption, validateKubeVersion } from './pipeline/request.ts';
import type { K8sObject, RenderedDoc } from './model/objects.ts';
import { toYaml } from './output/manifests.ts';
import { renderRelease } from './pipeline/render.ts';
import { loadUserLayers, readUserFile } from './values/load.ts';
import { parseValuesText, type ValuesSource } from './values/source.ts';

export { AgentplatError, UsageError };
export type { K8sObject, Problem, ProblemCounts };

/** A list option given as a list, or its one entry alone (`values: 'values.yaml'`). */
export type OneOrMany<T> = T | readonly T[];

/** One values layer: a file path, YAML text with the name problems should use, or plain data. */
export type ValuesInput = string | { name: string; text: string } | { name?: string; values: Record<string, unknown> };

export interface ValuesOptions {
  /** Chart revision, 'A' or 'B' (default 'B'). */
  revision?: string;
  /** Layers over the revision's defaults, in order: later wins (like -f). One layer may be given alone. */
  values?: ValuesInput | readonly ValuesInput[];
  /** The --set family, applied after `values` in Helm's order: setJson, set, setString, setFile, setLiteral. */
  set?: OneOrMany<string>;
  setString?: OneOrMany<string>;
  setJson?: OneOrMany<string>;
  setFile?: OneOrMany<string>;
  setLiteral?: OneOrMany<string>;
  /** Kubernetes version to check and render for, e.g. '1.29'. */
  kubeVersion?: string;
  /** APIs the cluster serves, group/version[/Kind], each entry one API or a comma-separated list (like --api-versions). */
  apiVersions?: OneOrMany<string>;
  /** Where relative file paths are read from (default: process.cwd()). */
  cwd?: string;
}

export interface LintOptions extends ValuesOptions {
  /** Also report notes about defaults the values do not touch (like `agentplat lint --verbose`). */
  verbose?: boolean;
}

export interface RenderOptions extends ValuesOptions {
  releaseName?: string;
  namespace?: string;
  skipCrds?: boolean;
  /** Only the objects of these source paths, e.g. 'templates/controller-deployment.yaml'. */
  showOnly?: OneOrMany<string>;
}

export interface RenderedObject {
  /** The `# Source:` path, e.g. 'agentplat/templates/controller-deployment.yaml'. */
  source: string;
  object: K8sObject;
}

export interface RenderResult {
  /** True when nothing is an error (then `objects` and `yaml` hold the release). */
  ok: boolean;
  /** Errors and warnings of the values and the render, sorted (infos are lint's). */
  problems: Problem[];
  objects: RenderedObject[];
  /** The manifests exactly as `agentplat render` prints them; '' when not ok. */
  yaml: string;
}

export interface LintResult {
  /** True when there is no error. */
  ok: boolean;
  /** Every finding, infos included, sorted. */
  problems: Problem[];
  counts: ProblemCounts;
}

export interface ValidateResult {
  ok: boolean;
  problems: Problem[];
  /** Documents of the agentplat.dev group that were checked, and of other groups, skipped. */
  checked: number;
  skipped: number;
}

/** Lints and renders a release, as `agentplat render` does. */
export async function render(options: RenderOptions = {}): Promise<RenderResult> {
  const releaseName = options.releaseName ?? 'agentplat';
  const namespace = options.namespace ?? 'default';
  checkReleaseNames(releaseName, namespace);
  const { revision, layers, problems: loadProblems, kubeVersion, apiVersions } = await loadOptions(options);
  await prepareCrdCheck(layers);
  if (loadProblems.some((p) => p.severity === 'error')) return { ok: false, problems: shown(loadProblems), objects: [], yaml: '' };
  // A --show-only miss is a UsageError, thrown by renderRelease.
  const result = renderRelease({
    revision,
    layers,
    releaseName,
    namespace,
    ...(options.namespace === undefined ? { namespaceDefaulted: true } : {}),
    apiVersions,
    ...(kubeVersion ? { kubeVersion } : {}),
    ...(options.skipCrds ? { skipCrds: true } : {}),
    ...(options.showOnly !== undefined ? { showOnly: listOption('showOnly', options.showOnly) } : {}),
  });
  const problems = shown([...loadProblems, ...result.problems]);
  if (!result.docs) return { ok: false, problems, objects: [], yaml: '' };
  const docs: RenderedDoc[] = result.docs;
  return { ok: true, problems, objects: docs.map((d) => ({ source: d.source, object: d.object })), yaml: toYaml(docs) };
}

/** Lints values, as `agentplat lint` does on one set of layers. */
export async function lint(options: LintOptions = {}): Promise<LintResult> {
  const { revision, layers, problems: loadProblems, kubeVersion, apiVersions } = await loadOptions(options);
  await prepareCrdCheck(layers);
  const found = loadProblems.some((p) => p.severity === 'error')
    ? []
    : lintValues({ revision, layers, apiVersions: [...apiVersions], showDefaultNote: () => options.verbose === true, ...(kubeVersion ? { kubeVersion } : {}) }).problems;
  const problems = sortProblems([...loadProblems, ...found]);
  const counts = countProblems(problems);
  return { ok: counts.errors === 0, problems, counts };
}

/**
 * Checks Kubernetes manifests (YAML texts, one or more documents each), as `agentplat validate`
 * does: core kinds against the OpenAPI of `kubeVersion` (1.34 or 1.37, default the newest),
 * custom resources against their CRDs.
 */
export async function validate(inputs: readonly { file: string; text: string }[], options: { kubeVersion?: string } = {}): Promise<ValidateResult> {
  const kubeVersion = validateKubeVersion(options.kubeVersion);
  const { validateCustomResources } = await import('./crds/validate.ts');
  const r = validateCustomResources(inputs, { kubeVersion });
  const problems = sortProblems(r.problems);
  return { ok: !problems.some((p) => p.severity === 'error'), problems, checked: r.checked, skipped: r.skipped };
}

async function loadOptions(options: ValuesOptions): Promise<{ revision: 'A' | 'B'; layers: ValuesSource[]; problems: Problem[]; kubeVersion?: string; apiVersions: string[] }> {
  const revision = revisionOption(options.revision ?? 'B', 'revision');
  const kubeVersion = options.kubeVersion !== undefined ? parseKubeVersion(options.kubeVersion) : undefined;
  const apiVersions = parseApiVersionList(listOption('apiVersions', options.apiVersions));
  const reader = { cwd: options.cwd ?? process.cwd(), readStdin: () => Promise.reject(new UsageError('the API reads no standard input: pass { name, text }')) };
  const layers: ValuesSource[] = [];
  const problems: Problem[] = [];
  const values: readonly unknown[] = options.values === undefined ? [] : Array.isArray(options.values) ? options.values : [options.values];
  for (const input of values as readonly ValuesInput[]) {
    let name: string;
    let text: string;
    if (typeof input === 'string') ({ name, text } = await readUserFile(input, reader));
    else if (input && typeof input === 'object' && 'text' in input) ({ name, text } = input);
    else if (input && typeof input === 'object' && 'values' in input) {
      // JSON is YAML: plain data goes through the same parser, limits and checks as a file.
      name = input.name ?? '<values>';
      text = JSON.stringify(input.values);
    } else throw new TypeError(`values: each layer is a file path, { name, text } or { values }, got ${input === null ? 'null' : typeof input}`);
    const parsed = parseValuesText(text, name);
    problems.push(...parsed.problems);
    if (parsed.source) layers.push(parsed.source);
  }
  const flags = await loadUserLayers(
    {
      set: listOption('set', options.set),
      setString: listOption('setString', options.setString),
      setJson: listOption('setJson', options.setJson),
      setFile: listOption('setFile', options.setFile),
      setLiteral: listOption('setLiteral', options.setLiteral),
    },
    reader,
  );
  return { revision, layers: [...layers, ...flags.sources], problems: [...problems, ...flags.problems], ...(kubeVersion ? { kubeVersion } : {}), apiVersions };
}

/**
 * A list of strings from an option given as a list or as one string. Anything else is a
 * TypeError naming the option: spreading it would turn 'a=1' into three flags.
 */
function listOption(name: string, value: OneOrMany<string> | undefined): string[] {
  const list: readonly unknown[] = value === undefined ? [] : typeof value === 'string' ? [value] : Array.isArray(value) ? value : [value];
  for (const v of list) if (typeof v !== 'string') throw new TypeError(`${name}: expected a string or a list of strings, got ${v === null ? 'null' : typeof v}`);
  return list as string[];
}

/** What render reports: errors and warnings (infos are the linter's business, as on the CLI). */
function shown(problems: readonly Problem[]): Problem[] {
  return sortProblems(problems.filter((p) => p.severity !== 'info'));
}
