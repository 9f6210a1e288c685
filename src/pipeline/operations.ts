// The operations the CLI and the in-process API both run: one function each, a typed request in
// (the user's layers described as data, the release's names, settings) and data out (problems,
// objects, values). Each loads what it needs itself: the user's layers, and validate's ModelConfig
// check when the layers set a provider block's config or tls. Rule levels are applied here and
// nowhere else. An adapter (src/cli/commands/*-run.ts, src/api.ts) maps its flags or options to a
// request, calls one operation, and formats what it returns.
import { applyRuleLevels, type RuleLevel } from '../lint/config.ts';
import { modelConfigCheckFor } from '../lint/crd-check.ts';
import { expandTargets } from '../lint/targets.ts';
import { UsageError } from '../problems/errors.ts';
import type { Problem } from '../problems/problem.ts';
import type { RenderedDoc } from '../model/objects.ts';
import type { Revision } from '../chart/revisions.ts';
import { loadUserLayers, readUserFile, type InputReader, type LayerOptions, type LoadedLayers } from '../values/load.ts';
import type { LayeredValues } from '../values/merge.ts';
import { parseValuesText, type ValuesSource } from '../values/source.ts';
import { parseApplySetFlag, toApplySet } from '../render/applyset.ts';
import { protectCrds } from '../render/crd-protect.ts';
import { addLabels, parseLabelFlags } from '../render/labels.ts';
import { inertUserKeys, type InertKey } from './no-effect.ts';
import { lintRelease, renderRelease, type EffectMemo, type ReleaseRequest, type ReleaseResult } from './render.ts';
import { checkReleaseNames, parseApiVersionList, parseKubeVersion } from './request.ts';

/** What every operation over a release's values takes. */
export interface ValuesOperationRequest {
  revision: Revision;
  /** The user's layers over the revision's defaults: -f inputs, then the --set family. */
  layers: LayerOptions;
  /** Where relative paths are read from, and standard input. */
  reader: InputReader;
  releaseName: string;
  namespace: string;
  /** True when the user gave no namespace and `namespace` is the assumed `default`. */
  namespaceDefaulted?: boolean;
  /** --api-versions as given: each entry one API or a comma-separated list. */
  apiVersions?: readonly string[];
  /** --kube-version as given (`1.29`, `v1.29.3`). */
  kubeVersion?: string;
  /** Where the release name came from, for messages (default --release-name). */
  releaseNameOrigin?: string;
  /** Rule levels (`.agentplat.yaml`, --rule). */
  rules?: Readonly<Record<string, RuleLevel>>;
  /** `ignoreKeys` of the config file: unknown keys not reported. */
  ignoreKeys?: readonly string[];
  /** Which notes about untouched defaults to keep. */
  showDefaultNote?: (rule: string) => boolean;
}

/** The request's names and versions, checked before anything is read. */
function releaseSettings(req: ValuesOperationRequest): Omit<ReleaseRequest, 'layers'> {
  const kubeVersion = req.kubeVersion !== undefined ? parseKubeVersion(req.kubeVersion) : undefined;
  const apiVersions = parseApiVersionList(req.apiVersions ?? []);
  checkReleaseNames(req.releaseName, req.namespace, req.releaseNameOrigin);
  return {
    revision: req.revision,
    releaseName: req.releaseName,
    namespace: req.namespace,
    ...(req.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
    apiVersions,
    ...(kubeVersion ? { kubeVersion } : {}),
    ...(req.showDefaultNote ? { showDefaultNote: req.showDefaultNote } : {}),
    ...(req.rules ? { rules: req.rules } : {}),
    ...(req.ignoreKeys ? { ignoreKeys: req.ignoreKeys } : {}),
  };
}

/**
 * Rule levels and ignored keys on the problems of loading the layers (lintRelease levels the
 * linter's own before it decides whether to render).
 */
function leveled(problems: readonly Problem[], req: Pick<ValuesOperationRequest, 'rules' | 'ignoreKeys'>): Problem[] {
  return applyRuleLevels([...problems], req.rules ?? {}, req.ignoreKeys);
}

const hasError = (problems: readonly Problem[]) => problems.some((p) => p.severity === 'error');

/** What each input of a run is called in its report: the -f inputs, else where the values came from. */
export function inputNames(layers: LayerOptions, loaded: LoadedLayers, revision: Revision): string[] {
  const files = (layers.values ?? []).map((v) => (v === '-' ? '<stdin>' : typeof v === 'string' ? v : (v.name ?? '<values>')));
  return files.length > 0 ? files : [loaded.sources.length > 0 ? 'command-line values' : `defaults of revision ${revision}`];
}

// ---------------------------------------------------------------------------------------------
// lint

export interface LintOperationRequest extends ValuesOperationRequest {
  /** Files (or quoted patterns) each linted on its own between the -f layers and the --set family (`agentplat lint FILE…`). */
  targets?: readonly string[];
  /**
   * Also report the keys the user sets that change nothing rendered (values/no-effect) or repeat
   * the default (values/same-as-default); `agentplat lint` asks for it unless --no-effects.
   */
  effects?: boolean;
  /** With `effects`: what to keep of the judgement between runs over the same document (the language server: ./alike-memo.ts). */
  effectMemo?: EffectMemo;
}

export interface LintOutcome {
  /** Every finding, levels applied, in the order found (a formatter sorts). */
  problems: Problem[];
  /** What was linted, as the report names it. */
  inputs: string[];
}

/**
 * Lints as render checks: the values, then the rendered objects (names, duplicates, API gates),
 * nothing printed. One path, so lint and render decide alike.
 */
export async function lintOperation(req: LintOperationRequest): Promise<LintOutcome> {
  const release = releaseSettings(req);
  const check = async (layers: readonly ValuesSource[]): Promise<readonly Problem[]> => {
    const checkModelConfig = await modelConfigCheckFor(layers);
    return renderRelease({ ...release, layers, ...(checkModelConfig ? { checkModelConfig } : {}), ...(req.effects ? { effects: true } : {}), ...(req.effectMemo ? { effectMemo: req.effectMemo } : {}) }).problems;
  };
  const targets = req.targets ?? [];
  if (targets.length === 0) {
    const loaded = await loadUserLayers(req.layers, req.reader);
    const problems = [...loaded.problems, ...(await check(loaded.sources))];
    return { problems: leveled(problems, req), inputs: inputNames(req.layers, loaded, req.revision) };
  }
  const files = expandTargets(targets, req.reader.cwd);
  if (files.includes('-') && (req.layers.values ?? []).includes('-')) throw new UsageError('standard input (-) can be read only once');
  const base = await loadUserLayers({ values: req.layers.values ?? [] }, req.reader);
  const top = await loadUserLayers({ ...req.layers, values: [] }, req.reader);
  const texts: { name: string; text: string }[] = [];
  for (const f of files) texts.push(await readUserFile(f, req.reader));
  // A problem the shared layers cause is the same for every file and is kept once.
  const seen = new Set<string>();
  const found: Problem[] = [];
  const keep = (p: Problem) => {
    const key = JSON.stringify([p.severity, p.rule, p.path, p.message, p.file, p.line, p.column]);
    if (seen.has(key)) return;
    seen.add(key);
    found.push(p);
  };
  for (const target of texts) {
    const parsed = parseValuesText(target.text, target.name);
    parsed.problems.forEach(keep);
    if (!parsed.source) continue;
    (await check([...base.sources, parsed.source, ...top.sources])).forEach(keep);
  }
  return { problems: leveled([...base.problems, ...top.problems, ...found], req), inputs: texts.map((t) => t.name) };
}

// ---------------------------------------------------------------------------------------------
// render

/**
 * Loaded layers → the release: their load problems (levels applied) stop it; otherwise lint and
 * render them, validate's ModelConfig check loaded when they need it. What renderOperation and
 * each rendered side of `diff` and `plan` run.
 */
export async function renderLoaded(loaded: LoadedLayers, req: Omit<ReleaseRequest, 'layers'>): Promise<ReleaseResult> {
  const loadProblems = leveled(loaded.problems, req);
  if (hasError(loadProblems)) return { problems: loadProblems };
  const checkModelConfig = await modelConfigCheckFor(loaded.sources);
  const result = renderRelease({ ...req, layers: loaded.sources, ...(checkModelConfig ? { checkModelConfig } : {}) });
  return { ...result, problems: [...loadProblems, ...result.problems] };
}

export interface RenderOperationRequest extends ValuesOperationRequest {
  skipCrds?: boolean;
  /** How the command leaves the CRDs out and how to get them, for hints (template: "…unless --include-crds"). */
  crdsAdvice?: string;
  /** Only the objects of these source paths. */
  showOnly?: readonly string[];
  /** Annotate the CRDs so that GitOps tools never prune them. */
  protectCrds?: boolean;
  /** `[KIND/]NAME` of the ApplySet parent, as --applyset takes it. */
  applySet?: string;
  /** The ApplySet's tooling annotation (`agentplat/vX.Y.Z`). */
  applySetTooling?: string;
  /** `key=value` labels for every object (--labels). */
  labels?: readonly string[];
  /**
   * Whether the objects go on to be finished and printed, given every problem (the CLI's
   * --strict and --max-warnings); by default when no problem is an error.
   */
  accept?: (problems: readonly Problem[]) => boolean;
  /** Runs after the render and before the labels and ApplySet (--post-renderer): what it returns is the release. */
  postRender?: (docs: RenderedDoc[]) => Promise<RenderedDoc[]>;
}

export interface RenderOutcome {
  /** Every problem of the layers, the values and the render, levels applied, infos included. */
  problems: Problem[];
  /** The release's objects, finished; undefined when refused (an error, or `accept` said no). */
  docs?: RenderedDoc[];
  /** What the problems name as inputs. */
  inputs: string[];
}

export async function renderOperation(req: RenderOperationRequest): Promise<RenderOutcome> {
  const release = releaseSettings(req);
  // Flags that shape the output are checked before any values are read.
  const labels = parseLabelFlags(req.labels ?? []);
  const applySet = req.applySet !== undefined ? parseApplySetFlag(req.applySet, req.namespace) : undefined;
  if (applySet && (req.showOnly ?? []).length > 0) {
    throw new UsageError('--applyset cannot be combined with --show-only', 'an ApplySet is the whole release: pruning with a partial one would delete every object it leaves out');
  }
  if (req.protectCrds && req.skipCrds) {
    const [leftOut, getThem] = (req.crdsAdvice ?? '--skip-crds leaves out: drop --skip-crds').split(': ');
    throw new UsageError(`--protect-crds annotates the CustomResourceDefinitions, which ${leftOut!}`, `${getThem!}, or drop --protect-crds`);
  }
  const loaded = await loadUserLayers(req.layers, req.reader);
  const inputs = inputNames(req.layers, loaded, req.revision);
  const result = await renderLoaded(loaded, {
    ...release,
    ...(req.skipCrds ? { skipCrds: true } : {}),
    ...(req.crdsAdvice ? { crdsAdvice: req.crdsAdvice } : {}),
    ...(req.showOnly ? { showOnly: req.showOnly } : {}),
  });
  const { problems } = result;
  if (!result.docs || !(req.accept ?? ((p) => !hasError(p)))(problems)) return { problems, inputs };
  let docs = result.docs;
  // What the post-renderer made is the release: labels and the ApplySet cover its objects too.
  if (req.postRender) docs = await req.postRender(docs);
  if (req.protectCrds) docs = protectCrds(docs);
  if (applySet) docs = toApplySet(docs, applySet, req.applySetTooling ?? 'agentplat');
  docs = addLabels(docs, labels);
  return { problems, docs, inputs };
}

// ---------------------------------------------------------------------------------------------
// values --computed

export interface ValuesComputeRequest extends ValuesOperationRequest {
  /** The revision the layers are written for; when it differs from `revision`, they are migrated first, as `migrate` does. */
  from?: Revision;
  /** Also find the keys the layers set that change nothing rendered (`inert`), as lint's values/no-effect does. */
  effects?: boolean;
}

export interface ValuesOutcome {
  /** The revision the problems are about: `from` when the user's layers themselves failed to load. */
  problemsRevision: Revision;
  problems: Problem[];
  /** The layers as the user wrote them. */
  written: LoadedLayers;
  /** With `from`: the migrated layers and what the migration did. */
  migrated?: import('./migrate.ts').MigratedLayers;
  /** The layers the values were computed from (the migrated ones, when migrated). */
  loaded: LoadedLayers;
  /** The release's values with their origins; undefined when a problem is an error. */
  layered?: LayeredValues;
  /** With `effects`: the keys of the layers (joinPath) that change nothing rendered, and why. */
  inert?: Map<string, InertKey>;
  inputs: string[];
}

export async function computeValues(req: ValuesComputeRequest): Promise<ValuesOutcome> {
  const release = releaseSettings(req);
  const from = req.from ?? req.revision;
  const written = await loadUserLayers(req.layers, req.reader);
  const writtenProblems = leveled(written.problems, req);
  if (hasError(writtenProblems)) return { problemsRevision: from, problems: writtenProblems, written, loaded: written, inputs: inputNames(req.layers, written, from) };
  const migrated = from !== req.revision ? await (await import('./migrate.ts')).migrateLayers(written, from, req.revision, req.rules ?? {}) : undefined;
  const loaded = migrated?.loaded ?? written;
  const inputs = inputNames(req.layers, loaded, req.revision);
  const loadProblems = leveled(loaded.problems, req);
  const base = { problemsRevision: req.revision, written, ...(migrated ? { migrated } : {}), loaded, inputs };
  if (hasError(loadProblems)) return { ...base, problems: loadProblems };
  const checkModelConfig = await modelConfigCheckFor(loaded.sources);
  const lint = lintRelease({ ...release, layers: loaded.sources, ...(checkModelConfig ? { checkModelConfig } : {}) });
  const problems = [...loadProblems, ...lint.problems];
  if (hasError(problems)) return { ...base, problems };
  const options = { revision: req.revision, releaseName: req.releaseName, releaseNamespace: req.namespace, apiVersions: [...release.apiVersions], ...(release.kubeVersion ? { kubeVersion: release.kubeVersion } : {}) };
  const inert = req.effects && loaded.sources.length > 0 ? inertUserKeys({ revision: req.revision, layers: loaded.sources, layered: lint.layered, options, reported: problems }) : undefined;
  return { ...base, problems, layered: lint.layered, ...(inert ? { inert } : {}) };
}
