// The values linter: layers the revision defaults under the user's layers, checks the schema
// (types, enums, formats, unknown keys) and every cross-field rule, and points each finding at the
// file, line and column (or --set flag) where the offending key was written.

import type { Problem } from '../problems/problem.ts';
import { sortProblems } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import type { Location, PathSegment, ValuesSource } from '../values/source.ts';
import { hasPath } from '../values/source.ts';
import { joinPath, splitPath, type LayeredValues } from '../values/merge.ts';
import { defaultsSource } from '../values/defaults.ts';
import { layerRelease } from '../values/replace.ts';
import { checkSchema } from './schema.ts';
import { scalarSourceOffset } from '../yaml/scalar-offset.ts';
import { touchedBy } from './schema-validators.ts';
import { redactProblem, secretValues, VALUES_SECRETS } from '../problems/secrets.ts';
import { RULES, ruleOwnsPath } from './rules/index.ts';
import type { RuleContext, RuleFinding, ValuesRule } from './rules/types.ts';
import type { CheckObject } from './crd-check.ts';

export interface LintRequest {
  revision: Revision;
  /** User layers in order (-f files, then the --set family); the revision defaults go below them. */
  layers: readonly ValuesSource[];
  kubeVersion?: string;
  /** Release namespace when known (render's -n). */
  releaseNamespace?: string;
  /** Release name when the command knows it (render's --release-name); rules that name the chart's objects use it. */
  releaseName?: string;
  /** True when no namespace was given and releaseNamespace is the assumed `default`: findings that rest on it say so. */
  releaseNamespaceDefaulted?: boolean;
  /** Cluster APIs declared with --api-versions, when the command takes them (render). */
  apiVersions?: readonly string[];
  /**
   * Whether to report a note (info) of this rule about a default the user did not touch. Such a
   * note would be the same on every run of every file, so it is left out unless asked for
   * (`--verbose`, or a level set for the rule).
   */
  showDefaultNote?: (rule: string) => boolean;
  /** Validate's object check, for values that set a provider block's config or tls: src/lint/crd-check.ts (modelConfigCheckFor). */
  checkModelConfig?: CheckObject;
}

export interface LintResult {
  /** Sorted problems. */
  problems: Problem[];
  /** The release's values: defaults + user layers, merged (keys the user replaces as a whole taken from the user's layers); what the renderer renders. */
  layered: LayeredValues;
}

export function lintValues(req: LintRequest): LintResult {
  return lintCore(req, RULES, false)!;
}

/**
 * lintValues' result when it finds no error, else undefined as soon as it finds one: for a
 * caller that only asks whether the linter passes the values (explain's example values). The
 * checks `first` picks run before the others, so that those likeliest to find one (the checks
 * that read the key the caller changed) end the run early.
 */
export function lintValuesUnlessError(req: LintRequest, first: (rule: ValuesRule) => boolean): LintResult | undefined {
  return lintCore(req, [...RULES.filter(first), ...RULES.filter((r) => !first(r))], true);
}

function lintCore(req: LintRequest, rules: readonly ValuesRule[], stopAtError: boolean): LintResult | undefined {
  // The release's values, made once here (the renderer renders this same value: LintResult.layered).
  // The schema sees what the chart renders: every layer merged (a `required` key may come from any
  // layer), with the keys the user replaces as a whole taken from the user's layers alone. Each
  // finding still points at the layer that wrote its path (toProblem). Without user layers there
  // is nothing to check: the defaults are valid (tests pin that).
  const layered: LayeredValues = layerRelease(defaultsSource(req.revision), req.layers);
  const findings: RuleFinding[] = req.layers.length > 0 ? checkSchema(req.revision, layered.values, ruleOwnsPath, touchedBy(req.layers)) : [];
  const schemaFailed = findings.length > 0;
  // Whether a finding is an error as reported (toProblem leaves some findings out).
  const isError = (f: RuleFinding) => f.severity === 'error' && toProblem(f, layered, req.layers, req.showDefaultNote) !== undefined;
  if (stopAtError && findings.some(isError)) return undefined;

  const ctx: RuleContext = {
    revision: req.revision,
    values: layered.values,
    ...(req.kubeVersion ? { kubeVersion: req.kubeVersion } : {}),
    ...(req.releaseNamespace ? { releaseNamespace: req.releaseNamespace } : {}),
    ...(req.releaseName ? { releaseName: req.releaseName } : {}),
    ...(req.releaseNamespace && req.releaseNamespaceDefaulted ? { releaseNamespaceDefaulted: true } : {}),
    ...(req.apiVersions ? { apiVersions: req.apiVersions } : {}),
    ...(req.checkModelConfig ? { checkModelConfig: req.checkModelConfig } : {}),
    userSet: (path) => {
      const segs = typeof path === 'string' ? splitPath(path) : path;
      return req.layers.some((l) => hasPath(l.data, segs));
    },
    report: (f) => void findings.push(f),
  };
  for (const rule of rules) {
    const before = findings.length;
    try {
      rule.check(ctx);
    } catch (err) {
      // Rules read values defensively; a crash on values the schema already rejected is noise.
      if (!schemaFailed) throw err;
    }
    if (stopAtError && findings.slice(before).some(isError)) return undefined;
  }
  // No message, hint or excerpt repeats a secret the user wrote, whatever rule found what.
  const secrets = new Set<string>();
  for (const l of req.layers) secretValues(l.data, VALUES_SECRETS, secrets);
  const problems: Problem[] = [];
  for (const f of findings) {
    const p = toProblem(f, layered, req.layers, req.showDefaultNote);
    if (p) problems.push(secrets.size === 0 ? p : redactProblem(p, secrets));
  }
  return { problems: sortProblems(problems), layered };
}

function toProblem(f: RuleFinding, layered: LayeredValues, userLayers: readonly ValuesSource[], showDefaultNote?: (rule: string) => boolean): Problem | undefined {
  const segs: PathSegment[] = typeof f.path === 'string' ? splitPath(f.path) : [...f.path];
  const written = locateInUserLayers(segs, userLayers);
  // Nothing the user wrote lies on the path: a note about it is about an untouched default.
  if (!written && f.severity === 'info' && !showDefaultNote?.(f.rule)) return undefined;
  const found = written ?? layered.locate(segs);
  if (f.onlyInFile && found?.origin !== undefined) return undefined;
  const loc = found && f.keyCharacter !== undefined ? atKeyCharacter(found, String(segs[segs.length - 1]), f.keyCharacter) : found;
  const given = f.hintFor?.[loc?.origin ?? 'file'] ?? f.hint;
  const hint = f.rule === 'values/unknown-key' && loc && loc.origin === undefined ? anchorHolderHint(segs, loc, given) : given;
  return {
    severity: f.severity,
    rule: f.rule,
    path: joinPath(segs),
    message: f.message,
    ...(hint ? { hint } : {}),
    ...(loc?.file ? { file: loc.file } : {}),
    ...(loc?.line ? { line: loc.line } : {}),
    ...(loc?.column ? { column: loc.column } : {}),
    ...(loc?.excerpt !== undefined ? { excerpt: loc.excerpt } : {}),
    ...(loc?.excerptColumn !== undefined ? { excerptColumn: loc.excerptColumn } : {}),
    ...(f.onlyInRevision ? { onlyInRevision: f.onlyInRevision } : {}),
    ...(f.fix ? { fix: f.fix } : {}),
  };
}

/**
 * A finding points at what the user wrote when it can: the deepest written prefix of its path in
 * the latest user layer (a rule about `authproxy.config.clientID` points at the user's `authproxy:`
 * block rather than at the empty default), and at the defaults only when no user layer wrote any
 * part of the path.
 */
function locateInUserLayers(path: readonly PathSegment[], layers: readonly ValuesSource[]): Location | undefined {
  for (let len = path.length; len >= 1; len--) {
    const prefix = path.slice(0, len);
    for (let i = layers.length - 1; i >= 0; i--) {
      if (hasPath(layers[i]!.data, prefix)) {
        const loc = layers[i]!.locate(prefix);
        if (loc) return loc;
      }
    }
  }
  return undefined;
}

/**
 * The location of a key moved to the character `index` of the key: in a file the location is the
 * key as written (a quoted key counts its quote and escapes, scalar-offset.ts); on the command
 * line it is the flag's path, in which the key is found as written. Unmoved when the key is not
 * where the location points (a key inside a --set-json value).
 */
function atKeyCharacter(loc: Location, key: string, index: number): Location {
  if (loc.column === undefined || loc.excerpt === undefined) return loc;
  const start = loc.excerptColumn ?? loc.column;
  const written = loc.excerpt.slice(start - 1);
  let offset: number | undefined;
  if (loc.origin === undefined) offset = scalarSourceOffset(written, index);
  else {
    const at = written.slice(0, written.search(/(?<!\\)=|$/)).indexOf(key);
    offset = at < 0 ? undefined : at + index;
  }
  if (offset === undefined) return loc;
  return { ...loc, column: loc.column + offset, ...(loc.excerptColumn !== undefined ? { excerptColumn: loc.excerptColumn + offset } : {}) };
}

/**
 * An unknown key of a file that holds a YAML anchor for others to repeat (`x-res: &res …`, then
 * `resources: *res`) is not the chart's: helm ignores it, and `ignoreKeys` in .agentplat.yaml
 * keeps it from being reported. The hint gives the line to add when the key looks like such a
 * holder: its anchor is repeated by an alias, or its name starts with `x-`; for an anchored key
 * nothing repeats, that comes after the usual hint (it may be a misspelt key).
 */
function anchorHolderHint(segs: readonly PathSegment[], loc: Location, hint: string | undefined): string | undefined {
  const key = String(segs[segs.length - 1]);
  const anchor = loc.anchor;
  const named = key.startsWith('x-');
  if (!anchor && !named) return hint;
  const pattern = joinPath(segs).replace(/'/g, "''");
  const keep = `add the line \`ignoreKeys: ['${pattern}']\` to .agentplat.yaml (or '${pattern}' to its ignoreKeys list)`;
  if (anchor && anchor.aliases > 0) {
    const repeated = anchor.aliases === 1 ? 'an alias repeats' : `${anchor.aliases} aliases repeat`;
    return `\`${key}\` holds the anchor &${anchor.name} that ${repeated}; the chart does not read it: to keep it, ${keep}`;
  }
  if (named) return `a key named \`x-…\` is by custom an anchor holder or a note, which the chart does not read: to keep it, ${keep}`;
  const unused = `\`${key}\` only holds the anchor &${anchor!.name} (no alias repeats it yet), ${keep}`;
  if (hint === undefined) return `if ${unused}`;
  return /[?.]$/.test(hint) ? `${hint} If ${unused}` : `${hint}; if ${unused}`;
}
