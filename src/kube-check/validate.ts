// Checks custom resources of the agentplat.dev group the way the API server would: defaults
// first, then the CRD's OpenAPI schema (unknown fields are errors, not pruned), then its CEL
// rules, each at every place in the object where its schema node has a value.
// Loads the schema validators and the CEL evaluator: import this module lazily. It reads the CRDs
// through validation-data.ts (versions, defaults, rules) and crd-validators.ts (compiled
// schemas): data and code the build wrote, so the model is never built here.
import { nearest } from '../problems/nearest.ts';
import { metadataFindings, RELAXED_SERVICE_NAMES_SINCE, type MetaOptions } from './metadata.ts';
import { kubeOlder } from '../spec/kube-features.ts';

import type { ErrorObject } from 'ajv';
import { Composer, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type Node as YamlNode } from 'yaml';
import type { Problem } from '../problems/problem.ts';
import { coreUri, GROUP, INT64_BOUND } from '../crds/ids.ts';
import { bigIntsAsNumbers } from '../values/big-integers.ts';
import type { Schema } from '../crds/k8s-types.ts';
import { compileCel, type CelProgram } from './cel.ts';
import { crdSchemas, crdValidator } from '../crds/crd-validators.ts';
import { schemaAccepts } from '../spec/schema-accepts.ts';
import { crdFormatOk } from './formats.ts';
import { crdValidationData } from '../crds/validation-data.ts';
import { coreGroups, coreKindRef, coreKindsOf, coreRelease, DEFAULT_KUBE_VERSION } from './core-kinds.ts';
import { checkOpenapi, pathText } from './openapi-check.ts';

export { pathText };
import { coreRuleIssues } from './core-rules.ts';
import { foreignApiVersionsOf, foreignKind } from './foreign-kinds.ts';
import type { CrdRuleId } from './rules.ts';
import { placeYamlErrors } from '../yaml/errors.ts';
import { plainYamlDocuments } from '../yaml/plain-yaml.ts';
import { leavesDialect } from '../yaml/block-reader.ts';
import { firstCyclicAlias } from '../values/source.ts';
import { excerptAt, maskedLines, MIN_MASKED_LENGTH, redactProblem, secretValues, SecretFields } from '../problems/secrets.ts';
import { schemaSentence, showValue } from '../problems/schema-wording.ts';

export interface ResourceInput {
  /** As shown to the user: a path or `<stdin>`. */
  file: string;
  text: string;
}

export interface SkippedDoc {
  file: string;
  line: number;
  apiVersion: string;
  kind: string;
  name: string;
}

export interface ValidateOptions {
  /** Called for each document of another API group (they are not checked). */
  onSkip?: (doc: SkippedDoc) => void;
  /** Documents agentplat has no schema for are errors (`crd/no-schema`), not notes. */
  strict?: boolean;
  /** A run that checked no resource passes (no `crd/nothing-checked`). */
  allowEmpty?: boolean;
  /** Read every file with the YAML library, positions and all (tests compare both ways). */
  noFastPath?: boolean;
  /** The Kubernetes release whose schemas core objects are checked against (`1.37`); default the newest. */
  kubeVersion?: string;
}

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
interface Tally {
  checked: Record<string, number>;
  skipped: Record<string, number>;
  /** The first document of each skipped `apiVersion kind`, to place a --strict finding. */
  firstSkipped: Map<string, { file: string; line: number; column: number; excerpt?: string; excerptColumn?: number; kind: string; apiVersion: string }>;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (Object.hasOwn(into, key) ? into[key]! : 0) + 1;
}

type Path = (string | number)[];
type Json = unknown;

const YAML_SYNTAX: CrdRuleId = 'crd/yaml-syntax';
const MAX_ALIAS_COUNT = 1000;

// ---- defaults ----

/** Applies schema defaults to absent fields, top-down, as the API server does before validating. */
export function applyDefaults(s: Schema, data: Json): void {
  if (Array.isArray(data)) {
    if (s.items) for (const item of data) applyDefaults(s.items, item);
    return;
  }
  if (!isObject(data)) return;
  if (s.properties) {
    for (const [k, sub] of Object.entries(s.properties)) {
      if (data[k] === undefined && sub.default !== undefined) data[k] = structuredClone(sub.default);
      if (data[k] !== undefined) applyDefaults(sub, data[k]);
    }
  } else if (s.additionalProperties) {
    for (const v of Object.values(data)) applyDefaults(s.additionalProperties, v);
  }
}

// ---- nulls ----

/**
 * Drops `null` values of known fields, before defaulting, as the API server does when it decodes
 * a custom resource: no field of these CRDs is nullable, so a null is taken as "not set" (and
 * the field's default, if any, then fills it). Nulls inside lists, and under fields the schema
 * does not know, stay and fail validation as they do on the server.
 */
export function pruneNulls(s: Record<string, unknown>, defs: Record<string, Record<string, unknown>>, data: Json): void {
  const node = resolveRef(s, defs);
  if (Array.isArray(data)) {
    const items = node.items as Record<string, unknown> | undefined;
    if (items) for (const item of data) pruneNulls(items, defs, item);
    return;
  }
  if (!isObject(data)) return;
  const props = node.properties as Record<string, Record<string, unknown>> | undefined;
  const extra = node.additionalProperties;
  for (const [k, v] of Object.entries(data)) {
    const sub = props && Object.hasOwn(props, k) ? props[k] : isObject(extra) ? extra : undefined;
    if (!sub) continue;
    if (v === null) delete data[k];
    else pruneNulls(sub, defs, v);
  }
}

const refIndex = new WeakMap<object, Map<string, Record<string, unknown>>>();

function resolveRef(s: Record<string, unknown>, defs: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const ref = s.$ref;
  if (typeof ref !== 'string') return s;
  let byUri = refIndex.get(defs);
  if (!byUri) refIndex.set(defs, (byUri = new Map(Object.entries(defs).map(([id, d]) => [coreUri(id), d]))));
  return byUri.get(ref) ?? s;
}

// ---- unknown fields ----

interface UnknownField {
  path: Path;
  /**
   * The value whose shape the schema does not have (a map or a list where the schema has a
   * scalar, a list or a map), when that is why the field is unknown: the value to fix.
   */
  misfit?: Path;
}

/**
 * The fields the API server's decoder does not know, found its way: it walks the object along the
 * schema and takes a key of a map as unknown where the schema node has no such property and no
 * schema for other keys. So every key of a map given where a scalar or a list belongs is unknown,
 * and so is every key of a map inside a list given where something else belongs; a list of
 * scalars in the wrong place has no unknown field (the schema check names it). With strict field
 * validation the server refuses the object for these alone, naming each. Nothing is looked into
 * below a node that keeps unknown fields (`{}`), nor `apiVersion`, `kind` and `metadata` at the
 * root (metadata is decoded as ObjectMeta: its unknown fields are the schema check's).
 */
function decoderUnknownFields(root: Record<string, unknown>, defs: Record<string, Record<string, unknown>>, data: Json): UnknownField[] {
  const out: UnknownField[] = [];
  const walk = (s: Record<string, unknown> | undefined, v: Json, path: Path, misfit: Path | undefined): void => {
    const node = s === undefined ? undefined : resolveRef(s, defs);
    if (node !== undefined && Object.keys(node).length === 0) return;
    if (Array.isArray(v)) {
      const items = node?.items as Record<string, unknown> | undefined;
      v.forEach((item, i) => walk(items, item, [...path, i], items === undefined ? (misfit ?? path) : misfit));
      return;
    }
    if (!isObject(v)) return;
    const props = node?.properties as Record<string, Record<string, unknown>> | undefined;
    const extra = node?.additionalProperties;
    for (const [k, sub] of Object.entries(v)) {
      if (path.length === 0 && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
      const p = props && Object.hasOwn(props, k) ? props[k] : isObject(extra) ? extra : undefined;
      if (p !== undefined) walk(p, sub, [...path, k], misfit);
      // An object node that keeps unknown fields beside its properties (ajv reads it so too).
      else if (props !== undefined && extra === undefined) continue;
      // An object node: a plain unknown field. Anything else: the map itself is the fault.
      else out.push(props !== undefined || extra !== undefined ? { path: [...path, k] } : { path: [...path, k], misfit: misfit ?? path });
    }
  };
  walk(root, data, [], undefined);
  return out;
}

// ---- CEL ----

interface CelFailure {
  path: Path;
  fieldPath?: Path;
  message: string;
  error?: string;
}

function runCel(s: Schema, data: Json, path: Path, out: CelFailure[]): void {
  if (data === undefined || data === null) return;
  for (const v of s['x-kubernetes-validations'] ?? []) {
    let program: CelProgram;
    try {
      program = compileCel(v.rule);
    } catch (err) {
      out.push({ path, message: v.message, error: `rule does not compile: ${(err as Error).message}` });
      continue;
    }
    if (program.holds(data)) continue;
    const fieldPath = v.fieldPath ? v.fieldPath.split('.').filter(Boolean) : undefined;
    try {
      if (program(data) !== true) out.push({ path, ...(fieldPath ? { fieldPath } : {}), message: v.message });
    } catch (err) {
      out.push({ path, message: v.message, error: (err as Error).message.split('\n')[0] ?? '' });
    }
  }
  if (Array.isArray(data)) {
    if (s.items) data.forEach((item, i) => runCel(s.items!, item, [...path, i], out));
  } else if (isObject(data)) {
    if (s.properties) {
      for (const [k, sub] of Object.entries(s.properties)) if (data[k] !== undefined) runCel(sub, data[k], [...path, k], out);
    } else if (s.additionalProperties) {
      for (const [k, v] of Object.entries(data)) runCel(s.additionalProperties, v, [...path, k], out);
    }
  }
}

// ---- documents and positions ----

interface ParsedDoc {
  data: Json;
  locate(path: Path): { line: number; column: number; excerpt?: string; excerptColumn?: number };
}

/**
 * The documents of a file read with positions, one at a time (the yaml library's parser and
 * composer, which parseAllDocuments runs to the end): a long stream is never held whole as
 * syntax trees. Syntax problems go to `problems` as their document is reached.
 */
function* parseStream(input: ResourceInput, problems: Problem[]): Generator<ParsedDoc> {
  const lineCounter = new LineCounter();
  // Excerpts never show a credential: the values of secret fields and URL passwords are masked.
  const lines = maskedLines(input.text, crdSecretFields());
  const options = { lineCounter, uniqueKeys: true, version: '1.2', logLevel: 'error' } as const;
  for (const doc of new Composer(options).compose(new Parser(lineCounter.addNewLine).parse(input.text))) {
    if (doc.errors.length > 0) {
      // A nesting bomb fails once per level; one problem, at the first place, says it all.
      const isExhaustion = (e: { code: string; message: string }): boolean => e.code === 'RESOURCE_EXHAUSTION' || /call stack/i.test(e.message);
      const exhausted = doc.errors.filter(isExhaustion).sort((a, b) => a.pos[0] - b.pos[0]).slice(0, 1);
      const placed = [
        ...exhausted.map((x) => ({ offset: x.pos[0], code: 'RESOURCE_EXHAUSTION', message: 'invalid YAML: the document nests too deeply to be read', hint: 'resources are never that deep; check for a generated or corrupted file' })),
        ...placeYamlErrors(doc, input.text, doc.errors.filter((e) => !isExhaustion(e))),
      ];
      for (const e of placed) {
        const pos = lineCounter.linePos(e.offset);
        problems.push({
          severity: 'error',
          rule: YAML_SYNTAX,
          path: '',
          message: e.code === 'DUPLICATE_KEY' ? duplicateKeyMessage(e.offset, input.text) : e.message,
          ...(e.hint ? { hint: e.hint } : {}),
          file: input.file,
          line: pos.line,
          column: pos.col,
          ...excerptAt(lines, pos.line, pos.col),
        });
      }
      continue;
    }
    const cycle = firstCyclicAlias(doc);
    if (cycle !== undefined) {
      const pos = lineCounter.linePos(cycle);
      problems.push({
        severity: 'error',
        rule: YAML_SYNTAX,
        path: '',
        message: 'an alias refers to a node that contains it, so the value would be endless',
        hint: 'an alias may only repeat a node that is complete before it',
        file: input.file,
        line: pos.line,
        column: pos.col,
        ...excerptAt(lines, pos.line, pos.col),
      });
      continue;
    }
    let data: Json;
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      const pos = lineCounter.linePos(doc.range[0]);
      problems.push({ severity: 'error', rule: YAML_SYNTAX, path: '', message: `cannot read the document: ${(err as Error).message}`, hint: 'an alias-heavy document is refused to bound memory; write the resource out', file: input.file, line: pos.line, column: pos.col });
      continue;
    }
    const contents = doc.contents as YamlNode | null;
    const docStart = lineCounter.linePos(contents?.range?.[0] ?? doc.range[0]);
    yield {
      data,
      locate(path) {
        const offset = offsetOf(contents, path);
        const pos = offset === undefined ? docStart : lineCounter.linePos(offset);
        return { line: pos.line, column: pos.col, ...excerptAt(lines, pos.line, pos.col) };
      },
    };
  }
}

/** The parser's duplicate-key error in one sentence that names the key at `offset`. */
function duplicateKeyMessage(offset: number, text: string): string {
  const key = /^[^\s:#]*/.exec(text.slice(offset, offset + 200))?.[0];
  return key ? `duplicate key "${key}": it appears twice in the same map` : 'duplicate key: a key appears twice in the same map';
}

/** Offset of the deepest node on `path` that exists (the key for map entries). */
function offsetOf(root: YamlNode | null, path: Path): number | undefined {
  let cur: unknown = root;
  let best = root?.range?.[0];
  for (const seg of path) {
    if (isMap(cur)) {
      const pair = cur.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      best = (pair.key as YamlNode).range?.[0] ?? best;
      cur = pair.value;
    } else if (isSeq(cur) && typeof seg === 'number') {
      const item = cur.items[seg] as YamlNode | undefined;
      if (!item) break;
      best = item.range?.[0] ?? best;
      cur = item;
    } else break;
  }
  return best;
}

// ---- the check ----

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
    // without positions (yaml/plain-yaml.ts). The documents with a problem are read again with
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
    const docs = plainYamlDocuments(input.text);
    for (let count = 0; ; count++) {
      let next: IteratorResult<unknown>;
      try {
        next = docs.next();
      } catch (err) {
        if (leavesDialect(err)) return undefined;
        throw err;
      }
      if (next.done) return { fastTally, failed, count };
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
    const { opts, tally } = this;
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
    if (checked === 0 && !opts.allowEmpty && this.errors === 0 && problems.length === 0) {
      problems.push({
        severity: 'error',
        rule: 'crd/nothing-checked',
        path: '',
        message: skipped === 0
          ? 'no resource was checked: the input holds no Kubernetes object'
          : `no resource was checked: ${skippedKindsPhrase(skipped, Object.keys(tally.skipped).sort())}`,
        hint: 'give validate Kubernetes manifests (Deployment, Service, …, Agent, ModelConfig, …); --allow-empty lets a run that checks nothing pass',
        ...(this.inputs === 1 ? { file: this.firstFile! } : {}),
      });
    }
    return { problems, checked, skipped, checkedKinds: tally.checked, skippedKinds: tally.skipped };
  }
}

/**
 * The documents of a file the plain reader has read (so its only document markers are lines
 * `---`, and it has no directive and no `...`), each with the number of lines before it, the
 * documents that hold nothing but comments left out as the reader leaves them out; undefined
 * when they are not `count` (a JSON document, carriage returns: read the file whole instead).
 */
function plainDocumentTexts(text: string, count: number): { text: string; firstLine: number }[] | undefined {
  if (text.includes('\r')) return undefined;
  const lines = text.split('\n');
  const out: { text: string; firstLine: number }[] = [];
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && lines[i]!.trimEnd() !== '---') continue;
    const body = lines.slice(start, i);
    if (body.some((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))) out.push({ text: body.join('\n'), firstLine: start });
    start = i + 1;
  }
  return out.length === count ? out : undefined;
}

function mergeCounts(into: Record<string, number>, from: Record<string, number>): void {
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

/** A problem of one object checked from data (no file): where in the object it points. */
export interface ObjectFinding {
  problem: Problem;
  /** The path the problem points at (a missing field: its parent). */
  at: (string | number)[];
}

/**
 * Checks one agentplat.dev object given as data, exactly as validate checks a document of a file
 * (defaults, schema, CEL, the same messages); lint uses it for the objects values generate. The
 * data is not changed. The problems carry no position: the caller places them through `at`.
 */
export function checkObject(data: unknown): ObjectFinding[] {
  const copy = structuredClone(data);
  const problems: Problem[] = [];
  const at: Path[] = [];
  // checkDoc locates each problem once, as it reports it: the recorded paths pair up with them.
  checkDoc('', { data: copy, locate: (path) => (at.push(path), { line: 0, column: 0 }) }, problems, {}, { checked: {}, skipped: {}, firstSkipped: new Map() });
  hideSecrets(problems, 0, copy);
  return problems.map((problem, i) => ({ problem, at: at[i] ?? [] }));
}

/**
 * The secret fields of every kind together: a stream mixes kinds, and its excerpts are masked
 * before any document is read.
 */
let secretFields: SecretFields | undefined;
const crdSecretFields = (): SecretFields => (secretFields ??= new SecretFields(Object.values(crdValidationData()).flatMap((k) => k.secrets)));

/** Masks, in the problems from `first` on, every secret value the document holds. */
function hideSecrets(problems: Problem[], first: number, data: Json): void {
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

/** The kinds of list objects (`List`, `AgentList`, `DeploymentList`, …): their items are objects. */
const LIST_KIND = /List$/;

function checkDoc(file: string, doc: ParsedDoc, problems: Problem[], opts: ValidateOptions, tally: Tally): void {
  const data = doc.data;
  const report = (rule: CrdRuleId, path: Path, message: string, hint?: string, at: Path = path): void => {
    const pos = doc.locate(at);
    problems.push({ severity: 'error', rule, path: pathText(path), message, ...(hint ? { hint } : {}), file, ...pos });
  };
  if (data === null || data === undefined) return;
  if (!isObject(data)) {
    report('crd/not-an-object', [], `a Kubernetes object must be a map, found ${Array.isArray(data) ? 'a list' : typeof data}`);
    return;
  }
  // `kubectl get -o yaml` and `render -o json` write a List: each item is an object of its own,
  // checked and placed at its own line (the List's apiVersion says nothing about its items).
  if (typeof data.kind === 'string' && LIST_KIND.test(data.kind) && Array.isArray(data.items)) {
    data.items.forEach((item, i) => {
      const at = (path: Path) => doc.locate(['items', i, ...path]);
      checkDoc(file, { data: item as Json, locate: at }, problems, opts, tally);
    });
    return;
  }
  const apiVersion = data.apiVersion;
  const kind = data.kind;
  if (typeof kind !== 'string' || kind === '') {
    report('crd/missing-kind', ['kind'], 'the document has no kind', 'add `kind:` (Agent, ModelConfig, …) next to apiVersion');
    return;
  }
  if (typeof apiVersion !== 'string' || apiVersion === '') {
    report('crd/missing-api-version', ['apiVersion'], `${kind}: the document has no apiVersion`, `add \`apiVersion: ${GROUP}/v1alpha2\``);
    return;
  }
  const name = isObject(data.metadata) && typeof data.metadata.name === 'string' ? data.metadata.name : '';
  const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/', 2) as [string, string]) : ['', apiVersion];
  const crds = crdValidationData();
  if (group !== GROUP) {
    // A near miss of our group is a typo, not another API: skipping it would pass it unchecked.
    const ourKind = Object.hasOwn(crds, kind);
    if (nearest(group, [GROUP]) !== undefined || (ourKind && group.split('.').includes('agentplat'))) {
      const served = ourKind ? `${GROUP}/${crds[kind]!.versions[0]}` : `${GROUP}/${version}`;
      report('crd/unknown-group', ['apiVersion'], `${kind}: the API group of ${apiVersion} is a near miss of ${GROUP}, so it would be sent to an API the cluster does not have`, `did you mean ${served}?`);
      return;
    }
    if (checkBuiltin(data, apiVersion, group, kind, name, report, opts, tally)) return;
    if (checkForeign(data, apiVersion, group, kind, name, report, opts, tally)) return;
    opts.onSkip?.({ file, line: doc.locate([]).line, apiVersion, kind, name });
    const key = `${apiVersion} ${kind}`;
    count(tally.skipped, key);
    if (!tally.firstSkipped.has(key)) tally.firstSkipped.set(key, { file, ...doc.locate([]), kind, apiVersion });
    return;
  }
  const label = `${kind}${name ? ` ${name}` : ''}`;
  const crd = Object.hasOwn(crds, kind) ? crds[kind] : undefined;
  if (!crd) {
    const kinds = Object.keys(crds);
    const guess = nearest(kind, kinds);
    report('crd/unknown-kind', ['kind'], `${GROUP} has no kind ${kind}`, guess ? `did you mean ${guess}? kinds of ${GROUP}: ${kinds.join(', ')}` : `kinds of ${GROUP}: ${kinds.join(', ')}`);
    return;
  }
  const schema = crd.versions.includes(version) ? crd.walk[version] : undefined;
  if (!schema) {
    const served = crd.versions.map((v) => `${GROUP}/${v}`).join(', ');
    report('crd/unknown-version', ['apiVersion'], `${kind}: ${apiVersion} is not served; the served version is ${served}`, `set \`apiVersion: ${served}\``);
    return;
  }
  count(tally.checked, kind);

  // With the status subresource the API server drops `status` on create and update, so a
  // `kubectl get -o yaml` dump (or an empty `status:`) is checked as the object without it.
  if (crd.statusSubresource.includes(version)) delete data.status;
  const before = problems.length;
  if (!name && !(isObject(data.metadata) && typeof data.metadata.generateName === 'string')) {
    report('crd/schema', ['metadata', 'name'], `${label}: metadata.name is required`, 'give the object a name');
  }
  for (const f of metadataFindings(kind, data.metadata)) report('crd/metadata', f.path, `${label}: ${f.message}`, metadataHint(f.path));
  const { root, defs } = crdSchemas(kind, version);
  pruneNulls(root, defs, data);
  applyDefaults(schema, data);
  // Most documents are valid: the schema walker says so quickly and ajv's code is not even loaded;
  // ajv decides and explains the rest.
  // The schema sees an int64 past 2^53 (a BigInt from --set) as the integer it is.
  const typed = bigIntsAsNumbers(data);
  const validate = schemaAccepts(root, { defs, format: crdFormatOk }, typed) ? undefined : crdValidator(kind, version);
  if (validate && !validate(typed)) {
    const known = (path: Path): string[] => Object.keys(schemaAt(kind, version, path)?.properties ?? {});
    for (const f of schemaFindings(relevantErrors(validate.errors ?? []), decoderUnknownFields(root, defs, data), data, known)) {
      report(f.rule, f.path, `${label}: ${f.message}`, f.hint, f.at);
    }
  }
  const schemaFailed = problems.length > before;
  const failures: CelFailure[] = [];
  runCel(schema, data, [], failures);
  for (const f of failures) {
    if (f.error) {
      // An evaluation error on an object that already fails its schema is a consequence, not news.
      if (!schemaFailed) report('crd/cel', f.path, `${label}: ${pathText(f.path) || 'object'}: ${f.message} (rule could not be evaluated: ${f.error})`);
      continue;
    }
    // The API server names the rule's fieldPath whether or not the field is there; the excerpt
    // then points at the nearest part of it that is.
    const at = f.fieldPath ? [...f.path, ...f.fieldPath] : f.path;
    report('crd/cel', at, `${label}: ${pathText(f.path) || 'object'}: ${f.message}`);
  }
}

type Report = (rule: CrdRuleId, path: Path, message: string, hint?: string, at?: Path) => void;

/**
 * Checks a document of a built-in API group against the OpenAPI schema of the chosen Kubernetes
 * release and the Go validation rules of ./core-rules.ts. False when the document is of no
 * built-in kind agentplat knows (it is then skipped like any other); an apiVersion or kind of a
 * built-in group the release does not serve is an error.
 */
function checkBuiltin(data: Record<string, unknown>, apiVersion: string, group: string, kind: string, name: string, report: Report, opts: ValidateOptions, tally: Tally): boolean {
  const release = coreRelease(opts.kubeVersion ?? DEFAULT_KUBE_VERSION);
  const ref = coreKindRef(release, apiVersion, kind);
  const label = `${kind}${name ? ` ${name}` : ''}`;
  if (ref === undefined) {
    const groups = coreGroups(release);
    const servedAs = [...release.apiVersions].filter((av) => coreKindRef(release, av, kind) !== undefined);
    if (release.apiVersions.has(apiVersion)) {
      const kinds = coreKindsOf(release, apiVersion);
      const guess = nearest(kind, kinds);
      const elsewhere = servedAs.length ? `; ${kind} is served as ${servedAs.join(', ')}` : '';
      report('crd/unknown-kind', ['kind'], `${apiVersion} has no kind ${kind} in Kubernetes ${release.version}${elsewhere}`, guess ? `did you mean ${guess}?` : servedAs.length ? `set \`apiVersion: ${servedAs[0]}\`` : `kinds of ${apiVersion}: ${kinds.join(', ')}`);
      return true;
    }
    if (groups.has(group) && servedAs.length > 0) {
      report('crd/unknown-version', ['apiVersion'], `${kind}: ${apiVersion} is not served by Kubernetes ${release.version}; ${kind} is served as ${servedAs.join(', ')}`, `set \`apiVersion: ${servedAs[0]}\``);
      return true;
    }
    const nearGroup = group === '' || groups.has(group) ? undefined : nearest(group, [...groups].filter(Boolean));
    const typo = servedAs.find((av) => nearGroup !== undefined && av.startsWith(`${nearGroup}/`));
    if (typo !== undefined) {
      report('crd/unknown-group', ['apiVersion'], `${kind}: the API group of ${apiVersion} is a near miss of ${nearGroup}, so it would be sent to an API the cluster does not have`, `did you mean ${typo}?`);
      return true;
    }
    return false;
  }
  count(tally.checked, kind);
  checkMetadata(data, kind, label, report, opts);
  // An int64 past 2^53 (a BigInt from --set) is checked as the integer it is.
  const typed = bigIntsAsNumbers(data) as Record<string, unknown>;
  const issues = checkOpenapi({ $ref: ref }, typed, release.ctx);
  issues.push(...coreRuleIssues(`${apiVersion}/${kind}`, typed, metaOptions(opts)));
  for (const f of issues) report(f.rule, f.path, `${label}: ${f.message}`, f.hint, f.at ?? f.path);
  return true;
}

/**
 * metadata.name (or generateName) is there, and the metadata passes the API server's rules, those
 * of the chosen Kubernetes release where they changed (Service names).
 */
function checkMetadata(data: Record<string, unknown>, kind: string, label: string, report: Report, opts: ValidateOptions): void {
  if (!(isObject(data.metadata) && (typeof data.metadata.name === 'string' && data.metadata.name !== '' || typeof data.metadata.generateName === 'string'))) {
    report('crd/schema', ['metadata', 'name'], `${label}: metadata.name is required`, 'give the object a name', isObject(data.metadata) ? ['metadata'] : []);
  }
  for (const f of metadataFindings(kind, data.metadata, metaOptions(opts))) report('crd/metadata', f.path, `${label}: ${f.message}`, metadataHint(f.path));
}

/** The name rules of the chosen Kubernetes release (Service names). */
function metaOptions(opts: ValidateOptions): MetaOptions {
  return { relaxedServiceNames: !kubeOlder(opts.kubeVersion ?? DEFAULT_KUBE_VERSION, RELAXED_SERVICE_NAMES_SINCE) };
}

/**
 * Checks an object of one of the foreign CRDs the chart uses (./foreign-kinds.ts) as the API
 * server checks a custom resource: nulls of fields that are not nullable dropped, defaults
 * applied, the structural schema (metadata as ObjectMeta), and the CRD's CEL rules that the
 * evaluator runs (a rule it cannot compile or evaluate is not checked). False when the kind is
 * none of them.
 */
function checkForeign(data: Record<string, unknown>, apiVersion: string, group: string, kind: string, name: string, report: Report, opts: ValidateOptions, tally: Tally): boolean {
  const foreign = foreignKind(apiVersion, kind);
  const label = `${kind}${name ? ` ${name}` : ''}`;
  if (foreign === undefined) {
    const served = foreignApiVersionsOf(kind).filter((av) => av.startsWith(`${group}/`));
    if (served.length === 0) return false;
    report('crd/unknown-version', ['apiVersion'], `${kind}: ${apiVersion} is not a version agentplat has the schema of; ${kind} is served as ${served.join(', ')}`, `set \`apiVersion: ${served[served.length - 1]}\``);
    return true;
  }
  count(tally.checked, kind);
  if (foreign.statusSubresource) delete data.status;
  checkMetadata(data, kind, label, report, opts);
  const schema = foreign.schema;
  applyDefaults(schema as Schema, data);
  const typed = bigIntsAsNumbers(data) as Record<string, unknown>;
  const core = coreRelease(opts.kubeVersion ?? DEFAULT_KUBE_VERSION).ctx;
  const issues = checkOpenapi({ ...schema, 'x-kubernetes-embedded-resource': true }, typed, { ...core, mode: 'crd' });
  for (const f of issues) report(f.rule, f.path, `${label}: ${f.message}`, f.hint, f.at ?? f.path);
  const failures: CelFailure[] = [];
  runCel(schema as Schema, typed, [], failures);
  for (const f of failures) {
    if (f.error) continue;
    report('crd/cel', f.fieldPath ? [...f.path, ...f.fieldPath] : f.path, `${label}: ${pathText(f.path) || 'object'}: ${f.message}`);
  }
  return true;
}

/** How to fix a metadata finding, by the field it is at. */
function metadataHint(path: Path): string {
  switch (path[1]) {
    case 'name':
    case 'generateName':
      return 'names are lower-case letters, digits, "-" and ".", e.g. my-model.config';
    case 'namespace':
      return 'namespaces are lower-case letters, digits and "-", e.g. team-a';
    case 'labels':
      return 'a label key is name or prefix/name (e.g. team or example.com/team); a value is at most 63 letters, digits, "-", "_" and "."';
    case 'annotations':
      return 'an annotation key is name or prefix/name (e.g. example.com/owner); keep large data out of annotations';
    default:
      return 'an owner reference needs apiVersion, kind, name and uid, and at most one may be the controller';
  }
}

/**
 * Drops the per-branch noise of anyOf (int-or-string) when the anyOf itself is reported, and an
 * integer-format error where a bound of the same field is reported: one finding per fault, the one
 * that names the bound.
 */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const anyOf = errors.filter((e) => e.keyword === 'anyOf');
  const bounded = new Set(errors.filter((e) => e.keyword === 'minimum' || e.keyword === 'maximum').map((e) => e.instancePath));
  return errors.filter(
    (e) =>
      !anyOf.some((a) => a !== e && e.instancePath === a.instancePath && e.schemaPath.startsWith(a.schemaPath + '/')) &&
      !(e.keyword === 'format' && bounded.has(e.instancePath)),
  );
}

/** A finding before it is placed: its message goes after the object's label. */
interface Finding {
  rule: CrdRuleId;
  path: Path;
  message: string;
  hint?: string;
  /** Where to point in the file when not at `path` (a missing field: its parent). */
  at?: Path;
}

/** A key of a map that its schema node does not have. */
function unknownField(path: Path, known: (path: Path) => string[]): Finding {
  const parent = path.slice(0, -1);
  const fields = known(parent);
  const guess = nearest(String(path[path.length - 1]), fields);
  const hint = guess ? `did you mean ${guess}?` : fields.length ? `known fields: ${fields.join(', ')}` : `${pathText(parent) || 'object'} takes no fields`;
  return { rule: 'crd/unknown-field', path, message: `unknown field ${pathText(path)}`, hint };
}

/**
 * One ajv error as a finding. The validators are not verbose (see crd-ajv.ts): the offending value
 * is read from the data at the error's instancePath, and the fields of an object with an unknown
 * field from its schema node (`known`).
 */
function explain(e: ErrorObject, root: Json, known: (path: Path) => string[]): Finding {
  const path = pointerToPath(e.instancePath);
  const where = pathText(path) || 'object';
  const value = valueAt(root, path);
  const schema = (message: string, hint?: string): Finding => ({ rule: 'crd/schema', path, message, ...(hint ? { hint } : {}) });
  switch (e.keyword) {
    case 'additionalProperties':
      return unknownField([...path, (e.params as { additionalProperty: string }).additionalProperty], known);
    case 'required': {
      const prop = (e.params as { missingProperty: string }).missingProperty;
      return { rule: 'crd/schema', path: [...path, prop], message: `${pathText([...path, prop])} is required`, at: path };
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
      const guess = typeof value === 'string' ? nearest(value, allowed.map(String)) : undefined;
      return schema(`${where} ${schemaSentence({ keyword: e.keyword, params: e.params, value })}`, guess ? `did you mean ${guess}?` : undefined);
    }
    case 'anyOf':
      // The CRDs' only anyOf is Kubernetes' int-or-string.
      return schema(`${where} must be an integer or a string, found ${showValue(value)}`);
    case 'exclusiveMaximum':
    case 'minimum':
      // Every integer field without a bound of its own is an int64 to the API server.
      if ((e.params as { limit: number }).limit === (e.keyword === 'minimum' ? -INT64_BOUND : INT64_BOUND)) {
        return schema(`${where} must be an integer from -2^63 to 2^63-1, found ${showValue(value)}`);
      }
      return schema(`${where} ${schemaSentence({ keyword: e.keyword, params: e.params, value })}`);
    default:
      return schema(`${where} ${schemaSentence({ keyword: e.keyword, params: e.params, value })}`);
  }
}

/**
 * The findings of a document the schema refuses: the unknown fields the way the API server's
 * decoder finds them, then ajv's other errors. A value whose shape is wrong (a map where a string
 * belongs) is named through its keys, where the server names it, with the schema's word on the
 * value; ajv's errors at that value say the same and are left out.
 */
function schemaFindings(errors: ErrorObject[], unknown: UnknownField[], root: Json, known: (path: Path) => string[]): Finding[] {
  const out: Finding[] = [];
  const misfits = new Set(unknown.flatMap((u) => (u.misfit ? [pathText(u.misfit)] : [])));
  const named = new Set<string>();
  for (const u of unknown) {
    named.add(pathText(u.path));
    if (!u.misfit) {
      out.push(unknownField(u.path, known));
      continue;
    }
    const value = pathText(u.misfit) || 'object';
    const why = errors.find((e) => (e.keyword === 'type' || e.keyword === 'anyOf') && pathText(pointerToPath(e.instancePath)) === pathText(u.misfit!));
    out.push({
      rule: 'crd/unknown-field',
      path: u.path,
      message: `unknown field ${pathText(u.path)}${why ? `: ${explain(why, root, known).message}` : ''}`,
      hint: `give ${value} the type its schema has: the API server reads each key of a map given there as an unknown field`,
    });
  }
  for (const e of errors) {
    if (misfits.has(pathText(pointerToPath(e.instancePath)))) continue;
    const f = explain(e, root, known);
    if (f.rule === 'crd/unknown-field' && named.has(pathText(f.path))) continue;
    out.push(f);
  }
  return out;
}

// ---- looking up what a non-verbose error leaves out ----

/** The value at `path` in the data ajv validated (what verbose errors carry as `data`). */
function valueAt(root: Json, path: Path): unknown {
  let cur: unknown = root;
  for (const seg of path) cur = cur === null || typeof cur !== 'object' ? undefined : (cur as Record<string | number, unknown>)[seg];
  return cur;
}

interface JsonSchemaNode {
  $ref?: string;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  additionalProperties?: JsonSchemaNode | boolean;
}

/**
 * The JSON schema node (core-type references followed) that validates the value at `path`: the
 * node a verbose error reports as `parentSchema`. Unambiguous in these schemas: the only anyOf is
 * int-or-string, whose branches hold no objects.
 */
function schemaAt(kind: string, version: string, path: Path): JsonSchemaNode | undefined {
  const { root, defs } = crdSchemas(kind, version);
  const byUri = new Map(Object.keys(defs).map((id) => [coreUri(id), defs[id] as JsonSchemaNode]));
  const deref = (n: JsonSchemaNode | undefined): JsonSchemaNode | undefined => (n?.$ref !== undefined ? byUri.get(n.$ref) : n);
  let cur = deref(root as JsonSchemaNode);
  for (const seg of path) {
    if (!cur) return undefined;
    if (typeof seg === 'number' && cur.items) cur = deref(cur.items);
    else if (cur.properties && Object.hasOwn(cur.properties, seg)) cur = deref(cur.properties[seg]);
    else if (typeof cur.additionalProperties === 'object') cur = deref(cur.additionalProperties);
    else return undefined;
  }
  return cur;
}

// ---- small helpers ----

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pointerToPath(pointer: string): Path {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

