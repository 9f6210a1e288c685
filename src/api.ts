// The in-process API: `import { render, lint, validate } from 'agentplat'`. Tools and tests
// render and lint without a process per call; each function runs the same pipeline as its CLI
// command (values layered like Helm, lint before render, the same problems) and returns data
// instead of printing: it maps its options to the request of the operation the command runs
// (src/pipeline/operations.ts). Invalid options (an unknown revision, a bad release name, a file
// that cannot be read) throw an AgentplatError; problems with the values are returned, never thrown.
import { AgentplatError, UsageError } from './problems/errors.ts';
import { countProblems, sortProblems, type Problem, type ProblemCounts } from './problems/problem.ts';
import { revisionOption } from './pipeline/request.ts';
import { lintOperation, renderOperation, type ValuesOperationRequest } from './pipeline/operations.ts';
import type { K8sObject, RenderedDoc } from './model/objects.ts';
import { toYaml } from './render/manifests.ts';
import type { ValuesInput } from './values/input.ts';
import type { InputReader } from './values/load.ts';
import { packageVersion } from './package-version.ts';

export { AgentplatError, UsageError };
export type { K8sObject, Problem, ProblemCounts };

/** A list option given as a list, or its one entry alone (`values: 'values.yaml'`). */
export type OneOrMany<T> = T | readonly T[];

export type { ValuesInput };

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

/** The release the values are for: its names decide the objects' names, which lint checks as render does. */
export interface ReleaseOptions extends ValuesOptions {
  /** Release name (default 'agentplat'), like --release-name. */
  releaseName?: string;
  /** Release namespace (default 'default', assumed), like -n. */
  namespace?: string;
}

export interface LintOptions extends ReleaseOptions {
  /** Also report notes about defaults the values do not touch (like `agentplat lint --verbose`). */
  verbose?: boolean;
  /**
   * Report the keys the values set that change nothing rendered (values/no-effect) or repeat the
   * chart's default (values/same-as-default), as `agentplat lint` does; false like --no-effects. Default true.
   */
  effects?: boolean;
}

export interface RenderOptions extends ReleaseOptions {
  skipCrds?: boolean;
  /** Only the objects of these source paths, e.g. 'templates/controller-deployment.yaml'. */
  showOnly?: OneOrMany<string>;
  /** Annotate the CRDs so that GitOps tools never prune them (like --protect-crds). */
  protectCrds?: boolean;
  /** The ApplySet parent, `[KIND/]NAME` (like --applyset): every object gets the member label, and the parent is rendered. */
  applyset?: string;
  /** `key=value` labels for every object (like --labels). */
  labels?: OneOrMany<string>;
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
  // A --show-only miss is a UsageError, thrown by the operation.
  const result = await renderOperation({
    ...operationRequest(options),
    ...(options.skipCrds ? { skipCrds: true } : {}),
    ...(options.showOnly !== undefined ? { showOnly: listOption('showOnly', options.showOnly) } : {}),
    ...(options.protectCrds ? { protectCrds: true } : {}),
    ...(options.applyset !== undefined ? { applySet: options.applyset, applySetTooling: `agentplat/v${packageVersion()}` } : {}),
    labels: listOption('labels', options.labels),
  });
  const problems = shown(result.problems);
  if (!result.docs) return { ok: false, problems, objects: [], yaml: '' };
  const docs: RenderedDoc[] = result.docs;
  return { ok: true, problems, objects: docs.map((d) => ({ source: d.source, object: d.object })), yaml: toYaml(docs) };
}

/**
 * Lints a release, as `agentplat lint` does: the values, then the objects they render (names,
 * duplicates, the APIs the render needs), nothing printed.
 */
export async function lint(options: LintOptions = {}): Promise<LintResult> {
  const { problems: found } = await lintOperation({ ...operationRequest(options), showDefaultNote: () => options.verbose === true, effects: options.effects !== false });
  const problems = sortProblems(found);
  const counts = countProblems(problems);
  return { ok: counts.errors === 0, problems, counts };
}

/**
 * Checks Kubernetes manifests (YAML texts, one or more documents each), as `agentplat validate`
 * does: core kinds against the OpenAPI of `kubeVersion` (1.34 or 1.37, default the newest),
 * custom resources against their CRDs.
 */
export async function validate(inputs: readonly { file: string; text: string }[], options: { kubeVersion?: string } = {}): Promise<ValidateResult> {
  const { validateOperation } = await import('./pipeline/validate.ts');
  const run = await validateOperation({ inputs, reader: apiReader(), ...(options.kubeVersion !== undefined ? { kubeVersion: options.kubeVersion } : {}) });
  const found: Problem[] = [];
  for await (const file of run.files()) found.push(...file.problems);
  const r = run.finish();
  const problems = sortProblems([...found, ...r.problems]);
  return { ok: !problems.some((p) => p.severity === 'error'), problems, checked: r.checked, skipped: r.skipped };
}

/** The operation's request from the options: the layers as data, names and versions unchecked (the operation checks them). */
function operationRequest(options: ReleaseOptions): ValuesOperationRequest {
  const values: readonly unknown[] = options.values === undefined ? [] : Array.isArray(options.values) ? options.values : [options.values];
  return {
    revision: revisionOption(options.revision ?? 'B', 'revision'),
    layers: {
      values: values as readonly ValuesInput[],
      set: listOption('set', options.set),
      setString: listOption('setString', options.setString),
      setJson: listOption('setJson', options.setJson),
      setFile: listOption('setFile', options.setFile),
      setLiteral: listOption('setLiteral', options.setLiteral),
    },
    reader: apiReader(options.cwd),
    releaseName: options.releaseName ?? 'agentplat',
    namespace: options.namespace ?? 'default',
    ...(options.namespace === undefined ? { namespaceDefaulted: true } : {}),
    apiVersions: listOption('apiVersions', options.apiVersions),
    ...(options.kubeVersion !== undefined ? { kubeVersion: options.kubeVersion } : {}),
  };
}

/** Where relative paths are read from; the API reads no standard input. */
function apiReader(cwd?: string): InputReader {
  return { cwd: cwd ?? process.cwd(), readStdin: () => Promise.reject(new UsageError('the API reads no standard input: pass { name, text }')) };
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
