// The shape of a cross-field rule: reads the merged values, reports Problems by values path.
// Rules never compute file positions; the linter maps each path to where the user wrote it.

import type { ProblemFix, Severity } from '../../problems/problem.ts';
import type { Revision } from '../../chart/revisions.ts';
import type { Values } from '../../values/merge.ts';
import type { PathSegment, ValueOrigin } from '../../values/source.ts';
import type { CheckObject } from '../crd-check.ts';

export interface RuleFinding {
  rule: string;
  severity: Severity;
  /** Values path the finding is about; a dotted string or segments. */
  path: string | readonly PathSegment[];
  message: string;
  hint?: string;
  /** A better hint when the value came from a given kind of input (a file, --set, --set-string, …). */
  hintFor?: Partial<Record<ValueOrigin, string>>;
  /** For a finding about a key: the UTF-16 index in the key (the path's last segment) of the character to point at. */
  keyCharacter?: number;
  /** The key, shape or word refused belongs to this other revision (see Problem.onlyInRevision). */
  onlyInRevision?: Revision;
  /** Reported only when a values file (or stdin) wrote the path, not a --set flag: about what the file keeps. */
  onlyInFile?: boolean;
  /** The change that fixes it (Problem.fix). */
  fix?: ProblemFix;
}

export interface RuleContext {
  revision: Revision;
  /** Merged values (defaults and every user layer). Only rules run after the schema passed. */
  values: Values;
  /** `--kube-version` when given (`1.27`, `1.29.3`). */
  kubeVersion?: string;
  /** Release namespace when the command knows it (render's -n). */
  releaseNamespace?: string;
  /** Release name when the command knows it (render's --release-name); else the chart's objects are named for release `agentplat`. */
  releaseName?: string;
  /** True when the command was given no namespace and releaseNamespace is the one it assumed (`default`). */
  releaseNamespaceDefaulted?: boolean;
  /** Cluster APIs declared with --api-versions (`group/version` or `group/version/Kind`), when known. */
  apiVersions?: readonly string[];
  /** Validate's check of one object (the default ModelConfig); given when the layers set a provider block's config or tls. */
  checkModelConfig?: CheckObject;
  /** True when the user (not the defaults) wrote this path or one of its children. */
  userSet(path: string | readonly PathSegment[]): boolean;
  report(finding: RuleFinding): void;
}

export interface ValuesRule {
  /** Rule ids this module can report (for docs, SARIF rule tables and --rule). */
  ids: readonly { id: string; description: string }[];
  check(ctx: RuleContext): void;
}
