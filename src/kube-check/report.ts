// Reporting a validate run: what it counted (the objects checked and skipped, by kind), the
// problems only the whole run can tell, and the masking of every secret a document holds in the
// problems found in it.
import type { Problem } from '../problems/problem.ts';
import { MIN_MASKED_LENGTH, redactProblem, secretValues, SecretFields } from '../problems/secrets.ts';
import { crdValidationData } from '../crds/validation-data.ts';
import { isObject, LIST_KIND, type Json } from './decode.ts';

export interface ValidateResult {
  problems: Problem[];
  /** Documents of our group that were checked. */
  checked: number;
  skipped: number;
  /** Objects checked, by kind (items of a List counted one by one). */
  checkedKinds: Record<string, number>;
  /** Objects not checked because agentplat has no schema for them, by `apiVersion kind`. */
  skippedKinds: Record<string, number>;
}

/** What a run saw, filled document by document. */
export interface Tally {
  checked: Record<string, number>;
  skipped: Record<string, number>;
  /** The first document of each skipped `apiVersion kind`, to place a --strict finding. */
  firstSkipped: Map<string, { file: string; line: number; column: number; excerpt?: string; excerptColumn?: number; kind: string; apiVersion: string }>;
}

export function count(into: Record<string, number>, key: string): void {
  into[key] = (Object.hasOwn(into, key) ? into[key]! : 0) + 1;
}

/** What a run saw besides the problems of its documents. */
export interface RunSeen {
  inputs: number;
  firstFile: string | undefined;
  errors: number;
}

/** The problems only the whole run can tell (--strict's kinds without a schema, nothing checked), and the counts. */
export function finishRun(opts: { strict?: boolean; allowEmpty?: boolean }, tally: Tally, seen: RunSeen): ValidateResult {
  const problems: Problem[] = [];
  const checked = sum(tally.checked);
  const skipped = sum(tally.skipped);
  if (opts.strict) {
    for (const [key, at] of tally.firstSkipped) {
      problems.push({
        severity: 'error',
        rule: 'crd/no-schema',
        path: '',
        message: `${at.kind} (${at.apiVersion}): agentplat has no schema for this kind, so ${plural(tally.skipped[key]!, 'object')} of it went unchecked`,
        hint: 'validate checks the built-in kinds of Kubernetes, the agentplat.dev kinds and the foreign CRDs the chart uses; drop --strict to let other kinds pass unchecked',
        file: at.file,
        line: at.line,
        column: at.column,
        ...(at.excerpt !== undefined ? { excerpt: at.excerpt } : {}),
        ...(at.excerptColumn !== undefined ? { excerptColumn: at.excerptColumn } : {}),
      });
    }
  }
  if (checked === 0 && !opts.allowEmpty && seen.errors === 0 && problems.length === 0) {
    problems.push({
      severity: 'error',
      rule: 'crd/nothing-checked',
      path: '',
      message: skipped === 0
        ? 'no resource was checked: the input holds no Kubernetes object'
        : `no resource was checked: ${skippedKindsPhrase(skipped, Object.keys(tally.skipped).sort())}`,
      hint: 'give validate Kubernetes manifests (Deployment, Service, …, Agent, ModelConfig, …); --allow-empty lets a run that checks nothing pass',
      ...(seen.inputs === 1 ? { file: seen.firstFile! } : {}),
    });
  }
  return { problems, checked, skipped, checkedKinds: tally.checked, skippedKinds: tally.skipped };
}

export function mergeCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (Object.hasOwn(into, k) ? into[k]! : 0) + n;
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `the 2 objects of the input are of kinds agentplat has no schema for (…)`, in the right number. */
function skippedKindsPhrase(objects: number, kinds: readonly string[]): string {
  const subject = objects === 1 ? 'the one object of the input is' : `the ${objects} objects of the input are`;
  const kind = kinds.length === 1 ? 'a kind' : 'kinds';
  return `${subject} of ${kind} agentplat has no schema for (${kinds.join(', ')})`;
}

/**
 * The secret fields of every kind together: a stream mixes kinds, and its excerpts are masked
 * before any document is read.
 */
let secretFields: SecretFields | undefined;
export const crdSecretFields = (): SecretFields => (secretFields ??= new SecretFields(Object.values(crdValidationData()).flatMap((k) => k.secrets)));

/** Masks, in the problems from `first` on, every secret value the document holds. */
export function hideSecrets(problems: Problem[], first: number, data: Json): void {
  if (problems.length === first) return;
  const secrets = secretValues(data, crdSecretFields());
  secretObjectValues(data, secrets);
  for (let i = first; i < problems.length; i++) problems[i] = redactProblem(problems[i]!, secrets);
}

/** The values of a core Secret's `data` and `stringData` (in a List's items too), added to `out`. */
function secretObjectValues(data: Json, out: Set<string>): void {
  if (!isObject(data)) return;
  if (Array.isArray(data.items) && typeof data.kind === 'string' && LIST_KIND.test(data.kind)) {
    for (const item of data.items) secretObjectValues(item as Json, out);
    return;
  }
  if (data.kind !== 'Secret' || data.apiVersion !== 'v1') return;
  for (const field of ['data', 'stringData']) {
    const values = data[field];
    if (!isObject(values)) continue;
    for (const v of Object.values(values)) if ((typeof v === 'string' || typeof v === 'number') && String(v).length >= MIN_MASKED_LENGTH) out.add(String(v));
  }
}

