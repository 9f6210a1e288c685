// Checks Kubernetes objects the way the API server would (`agentplat validate`): custom resources
// of the agentplat.dev group (defaults first, then the CRD's OpenAPI schema, unknown fields being
// errors, not pruned, then its CEL rules, each at every place in the object where its schema node
// has a value), core kinds and the foreign CRDs the chart uses. This module runs it: it reads each
// input (./stream.ts), checks each object (./object.ts) and reports (./report.ts).
// Loads the schema validators and the CEL evaluator: import this module lazily. It reads the CRDs
// through validation-data.ts (versions, defaults, rules) and crd-validators.ts (compiled
// schemas): data and code the build wrote, so the model is never built here.
import type { Problem } from '../problems/problem.ts';
import { crdValidationData } from '../crds/validation-data.ts';
import { pathText } from './openapi-check.ts';
import { fastDocuments } from '../yaml/read.ts';
import type { Json } from './decode.ts';
import { checkDoc, type ValidateOptions } from './object.ts';
import { finishRun, hideSecrets, mergeCounts, type Tally, type ValidateResult } from './report.ts';
import { parseStream, plainDocumentTexts, type ResourceInput } from './stream.ts';

export { pathText };
export type { ResourceInput, ValidateOptions, ValidateResult };

/** Every kind the validator knows, in each served version. */
export function crdKinds(): { kind: string; version: string }[] {
  return Object.entries(crdValidationData()).flatMap(([kind, crd]) => crd.versions.map((version) => ({ kind, version })));
}

/**
 * Validates every agentplat.dev document of the inputs (the items of a `List` one by one); other
 * groups are skipped and counted. A run that checked nothing says so (`crd/nothing-checked`).
 */
export function validateCustomResources(inputs: readonly ResourceInput[], opts: ValidateOptions = {}): ValidateResult {
  const run = new ResourceValidation(opts);
  const problems = inputs.flatMap((input) => run.check(input));
  const end = run.finish();
  return { ...end, problems: [...problems, ...end.problems] };
}

/**
 * A validate run fed one input at a time (the CLI reads, checks and prints one file after the
 * other): between inputs it keeps only counts, never a document or a problem it has returned.
 */
export class ResourceValidation {
  private readonly tally: Tally = { checked: {}, skipped: {}, firstSkipped: new Map() };
  private inputs = 0;
  private firstFile: string | undefined;
  private errors = 0;

  constructor(private readonly opts: ValidateOptions = {}) {}

  /** The problems of one input, in the order they were found. */
  check(input: ResourceInput): Problem[] {
    const opts = this.opts;
    const tally = this.tally;
    this.inputs++;
    this.firstFile ??= input.file;
    // Most files are valid, and their data is all a check needs: the plain reader gives it
    // without positions (yaml/read.ts). The documents with a problem are read again with
    // positions (the whole file, when the reader cannot read it or skipped documents are
    // reported with their line).
    const fast = opts.noFastPath || opts.onSkip || opts.strict ? undefined : this.checkPlain(input);
    if (fast) {
      const { fastTally, failed, count } = fast;
      const texts = failed.length > 0 ? plainDocumentTexts(input.text, count) : undefined;
      if (failed.length === 0 || texts) {
        mergeCounts(tally.checked, fastTally.checked);
        mergeCounts(tally.skipped, fastTally.skipped);
        // Only the documents with problems are read again, with positions, each on its own.
        const problems = failed.flatMap((i) => this.checkWithPositions({ file: input.file, text: texts![i]!.text }, { checked: {}, skipped: {}, firstSkipped: new Map() }, texts![i]!.firstLine));
        this.errors += problems.filter((p) => p.severity === 'error').length;
        return problems;
      }
    }
    const problems = this.checkWithPositions(input, tally, 0);
    this.errors += problems.filter((p) => p.severity === 'error').length;
    return problems;
  }

  /**
   * Checks the documents of a file the plain reader reads, one at a time, without positions:
   * what it counted, and which documents (by index) have problems. Undefined when the yaml
   * library must read the file.
   */
  private checkPlain(input: ResourceInput): { fastTally: Tally; failed: number[]; count: number } | undefined {
    const fastTally: Tally = { checked: {}, skipped: {}, firstSkipped: new Map() };
    const failed: number[] = [];
    const docs = fastDocuments(input.text, 'resources');
    for (let count = 0; ; count++) {
      const next = docs.next();
      if (next.done) return next.value ? { fastTally, failed, count } : undefined;
      const found: Problem[] = [];
      checkDoc(input.file, { data: next.value as Json, locate: () => ({ line: 0, column: 0 }) }, found, this.opts, fastTally);
      if (found.length > 0) failed.push(count);
    }
  }

  /** The problems of a text read with positions; `lineOffset` lines come before it in its file. */
  private checkWithPositions(input: ResourceInput, tally: Tally, lineOffset: number): Problem[] {
    // The syntax problems of every document first, then the others, as they always came.
    const syntax: Problem[] = [];
    const found: Problem[] = [];
    for (const doc of parseStream(input, syntax)) {
      const first = found.length;
      checkDoc(input.file, doc, found, this.opts, tally);
      hideSecrets(found, first, doc.data);
    }
    const problems = [...syntax, ...found];
    return lineOffset === 0 ? problems : problems.map((p) => (p.line === undefined ? p : { ...p, line: p.line + lineOffset }));
  }
  /** The problems only the whole run can tell (--strict's kinds without a schema, nothing checked), and the counts. */
  finish(): ValidateResult {
    return finishRun(this.opts, this.tally, { inputs: this.inputs, firstFile: this.firstFile, errors: this.errors });
  }
}
