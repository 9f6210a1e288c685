// The values linter: layers the revision defaults under the user's layers, checks the schema
// (types, enums, formats, unknown keys) and every cross-field rule, and points each finding at the
// file, line and column (or --set flag) where the offending key was written.

import type { Problem } from './problem.ts';
import { sortProblems } from './problem.ts';
import type { Revision } from '../spec/revisions.ts';
import type { Location, PathSegment, ValuesSource } from '../values/source.ts';
import { hasPath } from '../values/source.ts';
import { joinPath, layerValues, splitPath, type LayeredValues } from '../values/merge.ts';
import { defaultsSource } from '../values/defaults.ts';
import { checkSchema } from './schema.ts';
import { redactProblem, secretValues, VALUES_SECRETS } from './secrets.ts';
import { RULES, RULE_OWNED_PATHS } from './rules/index.ts';
import type { RuleContext, RuleFinding } from './rules/types.ts';

export interface LintRequest {
  revision: Revision;
  /** User layers in order (-f files, then the --set family); the revision defaults go below them. */
  layers: readonly ValuesSource[];
  kubeVersion?: string;
  /** Release namespace when known (render's -n). */
  releaseNamespace?: string;
  /** Cluster APIs declared with --api-versions, when the command takes them (render). */
  apiVersions?: readonly string[];
}

export interface LintResult {
  /** Sorted problems. */
  problems: Problem[];
  /** Defaults + user layers, merged. */
  layered: LayeredValues;
}

export function lintValues(req: LintRequest): LintResult {
  const defaults = defaultsSource(req.revision);
  const layered = layerValues([defaults, ...req.layers]);
  // The defaults are valid (tests pin that), and the chart's schema has no cross-key keywords
  // (required, if, dependencies), so checking what the user layers wrote finds exactly what checking
  // the merged tree would, while running far less validator code at start-up.
  const userValues = layerValues(req.layers).values;
  const findings: RuleFinding[] = req.layers.length > 0 ? checkSchema(req.revision, userValues, RULE_OWNED_PATHS) : [];
  const schemaFailed = findings.length > 0;

  const ctx: RuleContext = {
    revision: req.revision,
    values: layered.values,
    ...(req.kubeVersion ? { kubeVersion: req.kubeVersion } : {}),
    ...(req.releaseNamespace ? { releaseNamespace: req.releaseNamespace } : {}),
    ...(req.apiVersions ? { apiVersions: req.apiVersions } : {}),
    userSet: (path) => {
      const segs = typeof path === 'string' ? splitPath(path) : path;
      return req.layers.some((l) => hasPath(l.data, segs));
    },
    report: (f) => void findings.push(f),
  };
  for (const rule of RULES) {
    try {
      rule.check(ctx);
    } catch (err) {
      // Rules read values defensively; a crash on values the schema already rejected is noise.
      if (!schemaFailed) throw err;
    }
  }
  // No message, hint or excerpt repeats a secret the user wrote, whatever rule found what.
  const secrets = new Set<string>();
  for (const l of req.layers) secretValues(l.data, VALUES_SECRETS, secrets);
  const problems = findings.map((f) => redactProblem(toProblem(f, layered, req.layers), secrets));
  return { problems: sortProblems(problems), layered };
}

function toProblem(f: RuleFinding, layered: LayeredValues, userLayers: readonly ValuesSource[]): Problem {
  const segs: PathSegment[] = typeof f.path === 'string' ? splitPath(f.path) : [...f.path];
  const loc = locateInUserLayers(segs, userLayers) ?? layered.locate(segs);
  return {
    severity: f.severity,
    rule: f.rule,
    path: joinPath(segs),
    message: f.message,
    ...(f.hint ? { hint: f.hint } : {}),
    ...(loc?.file ? { file: loc.file } : {}),
    ...(loc?.line ? { line: loc.line } : {}),
    ...(loc?.column ? { column: loc.column } : {}),
    ...(loc?.excerpt !== undefined ? { excerpt: loc.excerpt } : {}),
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
