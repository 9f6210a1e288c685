// Checking one object: a document of a stream or an object given as data. An object of the
// agentplat.dev group is checked as the API server checks a custom resource (nulls, defaults, the
// CRD's schema, its CEL rules), a core kind against the OpenAPI schema and Go rules of the chosen
// release, a foreign CRD's object against its published schema; the items of a List one by one.
import { nearest } from '../problems/nearest.ts';
import { metadataFindings, RELAXED_SERVICE_NAMES_SINCE, type MetaOptions } from './metadata.ts';
import { kubeOlder } from '../chart/kube-features.ts';
import type { Problem } from '../problems/problem.ts';
import { GROUP } from '../crds/ids.ts';
import { bigIntsAsNumbers } from '../values/big-integers.ts';
import type { Schema } from '../crds/k8s-types.ts';
import { compileCel, type CelProgram } from './cel.ts';
import { crdSchemas, crdValidator } from '../crds/crd-validators.ts';
import { schemaAccepts } from '../chart/schema-accepts.ts';
import { crdFormatOk } from './formats.ts';
import { crdValidationData } from '../crds/validation-data.ts';
import { coreGroups, coreKindRef, coreKindsOf, coreRelease, DEFAULT_KUBE_VERSION } from './core-kinds.ts';
import { checkOpenapi, pathText } from './openapi-check.ts';
import { coreRuleIssues } from './core-rules.ts';
import { foreignApiVersionsOf, foreignKind } from './foreign-kinds.ts';
import type { CrdRuleId } from './rules.ts';
import { applyDefaults, decoderUnknownFields, isObject, LIST_KIND, pruneNulls, type Json, type Path } from './decode.ts';
import { count, hideSecrets, type Tally } from './report.ts';
import { relevantErrors, schemaAt, schemaFindings } from './schema-findings.ts';
import type { ParsedDoc } from './stream.ts';

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

export function checkDoc(file: string, doc: ParsedDoc, problems: Problem[], opts: ValidateOptions, tally: Tally): void {
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
