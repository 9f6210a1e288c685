// One release from loaded values: lint, then render, then the checks on the rendered objects.
// The operations (operations.ts), which the CLI and the in-process API both run, call these, so a
// render through either gives the same objects and the same problems.
import { applyRuleLevels, askedFor, type RuleLevel } from '../lint/config.ts';
import { lintValues, lintValuesUnlessError, type LintRequest } from '../lint/lint.ts';
import type { ValuesRule } from '../lint/rules/types.ts';
import type { CheckObject } from '../lint/crd-check.ts';
import { sortProblems, type Problem } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import type { LayeredValues, Values } from '../values/merge.ts';
import type { ValuesSource } from '../values/source.ts';
import { RenderError } from '../render/components/common.ts';
import type { RenderedDoc } from '../model/objects.ts';
import { TemplateOutputError } from '../render/engine.ts';
import { checkObjectNames } from '../render/names-check.ts';
import type { RenderRuleId } from '../render/rules.ts';
import { DuplicateObjectError } from '../render/order.ts';
import { showOnly, sourceMatches } from '../render/manifests.ts';
import { renderChart, renderChartWithReads, type ChartRenderOptions, type RenderWithReads } from '../render/render.ts';
import { RULES } from '../lint/rules/index.ts';
import { noEffectProblems, userLeaves, type AlikeMemo } from './no-effect.ts';
import { REPLACE_NOT_MERGE } from '../values/replace.ts';

export interface ReleaseRequest {
  revision: Revision;
  /** The user's layers over the defaults, in order (later wins). */
  layers: readonly ValuesSource[];
  releaseName: string;
  namespace: string;
  /** True when the user gave no namespace and `namespace` is the assumed `default` (findings that rest on it say so). */
  namespaceDefaulted?: boolean;
  apiVersions: readonly string[];
  kubeVersion?: string;
  skipCrds?: boolean;
  /** How the CRDs were left out and how to get them, for a --show-only hint (template: "…unless --include-crds"). */
  crdsAdvice?: string;
  /** Only the objects of these source paths (a UsageError names one that matches nothing). */
  showOnly?: readonly string[];
  /** Rule levels (`.agentplat.yaml`, --rule), applied before the errors decide whether to render. */
  rules?: Readonly<Record<string, RuleLevel>>;
  /** Which default notes (infos about defaults) to keep; by default those the rules ask for. */
  showDefaultNote?: (rule: string) => boolean;
  /** `ignoreKeys` of the config file: unknown keys not reported. */
  ignoreKeys?: readonly string[];
  /**
   * Report the keys the user sets that change nothing rendered (values/no-effect, a warning) or
   * repeat the default (values/same-as-default, a note): lint asks for it unless --no-effects.
   */
  effects?: boolean;
  /** Validate's object check, when the layers set a provider block's config or tls (modelConfigCheckFor). */
  checkModelConfig?: CheckObject;
  /** With `effects`: what earlier runs over the same document keep (the language server's, ./alike-memo.ts). */
  effectMemo?: EffectMemo;
  /** Told of every API the render asks the capabilities about (explain: which APIs its objects wait for). */
  onApiQuery?: (apiVersion: string) => void;
}

/**
 * What the language server keeps between the runs of one document (./alike-memo.ts): the
 * judgement's answers (AlikeMemo), and the render with its reads, given again while every value
 * it read holds what it held.
 */
export interface EffectMemo extends AlikeMemo {
  render(values: Values, options: ChartRenderOptions, make: () => RenderWithReads): RenderWithReads;
}

export interface ReleaseResult {
  /** The linter's problems and those the render found, infos included. */
  problems: Problem[];
  /** The rendered objects in output order; undefined when a problem is an error. */
  docs?: RenderedDoc[];
}

const NAME_HINT = 'use a shorter --release-name or fullnameOverride: names longer than 63 characters are cut, and two cut names can meet';
/** What lintRelease needs of a release: the values side of a ReleaseRequest. */
export type ValuesRequest = Pick<ReleaseRequest, 'revision' | 'layers' | 'namespace' | 'namespaceDefaulted' | 'apiVersions' | 'kubeVersion' | 'rules' | 'showDefaultNote' | 'ignoreKeys' | 'checkModelConfig'> & Partial<Pick<ReleaseRequest, 'releaseName'>>;

/**
 * The release's values (defaults under the user's layers, with where each key came from) and the
 * linter's problems about them, rule levels applied: what renderRelease renders from, and what
 * `agentplat values --computed` prints.
 */
export function lintRelease(req: ValuesRequest): { problems: Problem[]; layered: LayeredValues } {
  const lint = lintValues(lintRequest(req));
  const problems = req.rules || req.ignoreKeys ? applyRuleLevels(lint.problems, req.rules ?? {}, req.ignoreKeys) : lint.problems;
  return { problems, layered: lint.layered };
}

/**
 * lintRelease's result when the linter passes the release (no error), else undefined, found
 * with the checks `first` picks run first and the run ended at the first error (lintValuesUnlessError):
 * for a caller that renders only what passes (explain's example values).
 */
export function lintReleaseUnlessError(req: ValuesRequest, first: (rule: ValuesRule) => boolean): { problems: Problem[]; layered: LayeredValues } | undefined {
  // Rule levels can make an error of the linter's a warning, or take it away: those runs lint whole.
  if (req.rules || req.ignoreKeys) {
    const whole = lintRelease(req);
    return whole.problems.some((p) => p.severity === 'error') ? undefined : whole;
  }
  return lintValuesUnlessError(lintRequest(req), first);
}

function lintRequest(req: ValuesRequest): LintRequest {
  return {
    revision: req.revision,
    layers: [...req.layers],
    releaseNamespace: req.namespace,
    ...(req.releaseName ? { releaseName: req.releaseName } : {}),
    ...(req.namespaceDefaulted ? { releaseNamespaceDefaulted: true } : {}),
    apiVersions: [...req.apiVersions],
    ...(req.kubeVersion ? { kubeVersion: req.kubeVersion } : {}),
    ...(req.checkModelConfig ? { checkModelConfig: req.checkModelConfig } : {}),
    ...(req.showDefaultNote ? { showDefaultNote: req.showDefaultNote } : req.rules ? { showDefaultNote: askedFor(req.rules) } : {}),
  };
}

/** `linted`: what lintRelease(req) returned, when the caller linted the release already. */
export function renderRelease(req: ReleaseRequest, linted?: ReturnType<typeof lintRelease>): ReleaseResult {
  const lint = linted ?? lintRelease(req);
  let problems = lint.problems;
  const options: ChartRenderOptions = {
    revision: req.revision,
    releaseName: req.releaseName,
    releaseNamespace: req.namespace,
    apiVersions: [...req.apiVersions],
    ...(req.kubeVersion ? { kubeVersion: req.kubeVersion } : {}),
    ...(req.skipCrds ? { skipCrds: true } : {}),
    ...(req.onApiQuery ? { onApiQuery: req.onApiQuery } : {}),
  };
  if (problems.some((p) => p.severity === 'error')) {
    // No release; but what the user's keys change is still judged when every error leaves the
    // render's meaning as written (see judgedDespite), so one run shows them all.
    if (!req.effects || req.layers.length === 0 || !problems.every(judgedDespite)) return { problems };
    let render: RenderWithReads;
    try {
      render = renderRecorded(req, lint.layered.values, options);
    } catch {
      return { problems }; // the chart does not render these values: nothing to judge against
    }
    return { problems: withEffects(req, lint.layered, render, options, problems) };
  }
  let docs: RenderedDoc[];
  let reads: RenderWithReads | undefined;
  try {
    if (req.effects && req.layers.length > 0) {
      reads = renderRecorded(req, lint.layered.values, options);
      docs = reads.docs;
    } else docs = renderChart(lint.layered.values, options);
  } catch (err) {
    // Values the linter let through but the chart cannot render: a problem, not a crash.
    if (err instanceof RenderError) return { problems: [...problems, { severity: 'error', rule: 'render/values' satisfies RenderRuleId, path: '', message: err.message }] };
    // Two objects with one name: the names were truncated or overridden into each other.
    if (err instanceof DuplicateObjectError) return { problems: [...problems, { severity: 'error', rule: 'render/duplicate-object' satisfies RenderRuleId, path: '', message: err.message, hint: NAME_HINT }] };
    if (err instanceof TemplateOutputError) throw new Error(`bug in a template: ${err.message}`);
    throw err;
  }
  // A GitOps object's post-renderers (Flux spec.postRenderers) make the release, before anything looks at it.
  const postProblems: Problem[] = [];
  for (const layer of req.layers) {
    if (!layer.postRender) continue;
    const post = layer.postRender(docs);
    postProblems.push(...post.problems);
    docs = post.docs;
  }
  // What the post-renderers found (a patch that selects nothing, or one that fails the release) is reported at the patch in the user's file.
  if (postProblems.length > 0) {
    problems = sortProblems([...problems, ...applyRuleLevels(postProblems, req.rules ?? {}, req.ignoreKeys)]);
    if (problems.some((p) => p.severity === 'error')) return { problems };
  }
  if (req.showOnly && req.showOnly.length > 0) {
    docs = showOnly(docs, req.showOnly, (name) => whyNotRendered(name, lint.layered.values, options, req.crdsAdvice ?? '--skip-crds leaves out: drop --skip-crds'));
  }
  const badNames = checkObjectNames(docs, req.kubeVersion);
  if (badNames.length > 0) return { problems: [...problems, ...badNames] };
  return { problems: reads ? withEffects(req, lint.layered, reads, options, problems) : problems, docs };
}

/** renderChartWithReads, or the memo's render when it holds one of these values (never when something after the render changes its objects: post-renderers, --show-only). */
function renderRecorded(req: ReleaseRequest, values: Values, options: ChartRenderOptions): RenderWithReads {
  // The language server's memory reuses a render while nothing it read changed: it needs every read.
  if (req.effectMemo) {
    const make = () => renderChartWithReads(values, options);
    const reusable = !req.layers.some((l) => l.postRender) && !(req.showOnly && req.showOnly.length > 0);
    return reusable ? req.effectMemo.render(values, options, make) : make();
  }
  // Lint asks the record only about the keys the user sets (values/no-effect): the reads related
  // to them are recorded, and the keys a whole map of the user's replaces (REPLACE_NOT_MERGE),
  // where removing one key changes the keys beside it.
  const leaves = userLeaves(req.layers);
  const replaced = REPLACE_NOT_MERGE.map((p) => p.split('.')).filter((r) => leaves.some((l) => r.every((seg, i) => i >= l.length || seg === String(l[i]))));
  return renderChartWithReads(values, options, [...leaves, ...replaced]);
}

/** The problems with the findings on the user's keys that change nothing rendered (levels applied). */
function withEffects(req: ReleaseRequest, layered: LayeredValues, render: RenderWithReads, options: ChartRenderOptions, problems: Problem[]): Problem[] {
  const inert = noEffectProblems({ revision: req.revision, layers: req.layers, layered, render, options, reported: problems, ...(req.effectMemo ? { memo: req.effectMemo } : {}) });
  const kept = applyRuleLevels(inert, req.rules ?? {}, req.ignoreKeys);
  return kept.length > 0 ? sortProblems([...problems, ...kept]) : problems;
}

/** The cross-field rules' ids: findings about values of the chart's own types. */
const CROSS_FIELD_RULES: ReadonlySet<string> = new Set(RULES.flatMap((r) => r.ids.map((i) => i.id)));

/**
 * Whether the keys' effects can still be judged despite this problem. The judgement compares a
 * render of the user's values with renders without each key; it means something when the render
 * reads the values as the user wrote them. An unknown key is read by no template; a cross-field
 * rule checks a combination of well-typed values, which render as they are. A value of the wrong
 * type (values/schema), or anything else, may make the templates read it otherwise (or throw):
 * the judgement waits until it is fixed. A render that throws is not judged either.
 */
function judgedDespite(p: Problem): boolean {
  return p.severity !== 'error' || p.rule === 'values/unknown-key' || CROSS_FIELD_RULES.has(p.rule);
}

/**
 * Why a --show-only source did not render, when a flag of this run is the reason: --skip-crds left
 * it out, or it renders only for an API the cluster was not declared to serve. Found by rendering
 * again without that flag (only when --show-only already failed); undefined when the values are
 * the reason, or the source does not exist.
 */
function whyNotRendered(name: string, values: Values, options: ChartRenderOptions, crdsAdvice: string): string | undefined {
  const rendersWith = (extra: Partial<ChartRenderOptions>): boolean => {
    try {
      return renderChart(values, { ...options, ...extra }).some((d) => sourceMatches(d.source, name));
    } catch {
      return false;
    }
  };
  const asked = new Set<string>();
  const withCrds = rendersWith({ skipCrds: false, onApiQuery: (api) => asked.add(api) });
  if (options.skipCrds && withCrds) return `that source holds CustomResourceDefinitions, which ${crdsAdvice}, or print them with \`agentplat crds\``;
  for (const api of asked) {
    if (options.apiVersions.includes(api)) continue;
    if (rendersWith({ apiVersions: [...options.apiVersions, api] })) return `that source renders only when the cluster serves ${api}: declare it with --api-versions ${api}`;
  }
  return undefined;
}
