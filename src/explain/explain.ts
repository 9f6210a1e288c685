// `agentplat explain KEY`: everything known about one values key, each part taken from where the
// tool itself gets it: type, default and meaning from the values schema the linter checks with
// (generated from the values model), the lint checks that read it by running them
// (rule-reads.ts), and the objects and fields it ends up in by rendering the chart with the key
// changed and comparing.

import { AgentplatError, EXIT_PROBLEMS } from '../problems/errors.ts';
import { nearest } from '../problems/nearest.ts';
import { lintReleaseUnlessError, renderRelease, type ReleaseRequest } from '../pipeline/render.ts';
import { readGenerated } from '../package-root.ts';
import { loadModelConfigCheck, type CheckObject } from '../lint/crd-check.ts';
import type { RenderedDoc } from '../model/objects.ts';
import { valuesSchema } from '../docs/embedded.ts';
import { keysOf, typeText, type SchemaNode } from '../docs/values-reference.ts';
import { REVISION_IDS, type Revision } from '../chart/revisions.ts';
import { replacementHint } from '../chart/replacements.ts';
import { assignPath, inferType } from '../values/set-parser.ts';
import { dataSource } from '../values/source.ts';
import { layerRelease } from '../values/replace.ts';
import { defaultsSource } from '../values/defaults.ts';
import { checksReading, rulesChangedBy } from './rule-reads.ts';
import { keyInConfiguration } from '../pipeline/no-effect.ts';
import type { LayeredValues } from '../values/merge.ts';
import type { Problem } from '../problems/problem.ts';
import type { ValuesSource } from '../values/source.ts';

/** Where a changed key shows up in the rendered chart. */
export interface Landing {
  kind: string;
  name: string;
  namespace?: string;
  source: string;
  change: 'changed' | 'added' | 'removed';
  /** Changed fields (dotted, list items by name where they have one); empty for added/removed objects. */
  fields: string[];
}

export interface RevisionFacts {
  type: string;
  /** Absent for keys the defaults leave unset. */
  default?: unknown;
  description: string;
  enum?: unknown[];
  /** Keys one level down, for a key that holds other keys. */
  fields?: { key: string; type: string; description: string }[];
  /** The lint rules, per check, whose findings the key can change (found by running the checks). */
  rules: string[][];
  /** The render with the key set to `example`, compared with the render without it. */
  renders?: {
    /** Other keys set in both renders so the key's component renders at all (its `enabled` switches). */
    with: Record<string, unknown>;
    /**
     * Keys the example value cannot render without, set with it in the second render only
     * (turning the bundled database off needs an external one): set in both, they could hide
     * what the key changes.
     */
    alongside?: Record<string, unknown>;
    /**
     * Cluster APIs declared in both renders (`agentplat render -a`): the key's objects render only
     * when the cluster serves one (a ServiceMonitor needs monitoring.coreos.com/v1). Declared only
     * when the comparison without them changes nothing and a render asked for the API; else empty.
     */
    apiVersions: string[];
    objects: Landing[];
    /** Switches above the key that could not be turned on for the comparison. */
    note?: string;
  };
  /** Why no render comparison was made. */
  rendersNote?: string;
}

export interface Explanation {
  key: string;
  /** Revisions that have the key (of those asked about). */
  revisions: Revision[];
  byRevision: Partial<Record<Revision, RevisionFacts>>;
  /** The value the render comparison used, how to pass it on the command line, and the whole command (with the switches it needs). */
  example?: { value: unknown; flag: string; command: string };
}

export interface TopLevelKey {
  key: string;
  type: string;
  description: string;
  revisions: Revision[];
}

/** Every key (holding keys or a value) of the asked revisions, in schema order, without repeats. */
export function allKeys(revisions: readonly Revision[] = REVISION_IDS): string[] {
  return [...new Set(revisions.flatMap((r) => keysOf(valuesSchema(r)).map((k) => k.key)))];
}

/** The top-level keys, for `explain` without a key. */
export function topLevelKeys(revisions: readonly Revision[]): TopLevelKey[] {
  const out = new Map<string, TopLevelKey>();
  for (const rev of revisions) {
    for (const [key, node] of Object.entries(valuesSchema(rev).properties ?? {})) {
      const seen = out.get(key);
      if (seen) seen.revisions.push(rev);
      else out.set(key, { key, type: typeText(node), description: node.description ?? '', revisions: [rev] });
    }
  }
  return [...out.values()];
}

/**
 * The schema node of a dotted key: declared properties, and the fields of list items as
 * `kubectl explain` descends into them (`controller.env.name`, `controller.tolerations.effect`).
 */
export function schemaNodeAt(schema: SchemaNode, key: string): SchemaNode | undefined {
  const defs = (schema as { definitions?: Record<string, SchemaNode> }).definitions ?? {};
  const resolve = (n: SchemaNode | undefined): SchemaNode | undefined => {
    const ref = refName(n?.$ref);
    return ref && Object.hasOwn(defs, ref) ? defs[ref] : n;
  };
  let node: SchemaNode | undefined = schema;
  for (const seg of key.split('.')) {
    let here = resolve(node);
    if (here && !here.properties?.[seg] && here.type === 'array') here = resolve(here.items);
    node = here?.properties && Object.hasOwn(here.properties, seg) ? here.properties[seg] : undefined;
  }
  return node;
}

/** An unknown key: exit 1 like `kubectl explain` on a field that does not exist, with the nearest key. */
export function unknownKey(key: string, asked: readonly Revision[]): AgentplatError {
  const inAsked = allKeys(asked);
  const other = REVISION_IDS.filter((r) => !asked.includes(r));
  // A key the specification leaves out on purpose: what replaces it (the hint lint gives).
  const replacement = asked.length === 1 ? replacementHint(asked[0]!, key, undefined) : undefined;
  if (other.length > 0 && allKeys(other).includes(key)) {
    return new AgentplatError(
      `values key "${key}" exists only in revision ${other.join(', ')}`,
      EXIT_PROBLEMS,
      `${replacement ? `${replacement}; ` : ''}run \`agentplat explain ${key} --revision ${other[0]}\`; \`agentplat migrate\` rewrites values between revisions`,
    );
  }
  if (replacement) return new AgentplatError(`values key "${key}" is not in revision ${asked.join(', ')}`, EXIT_PROBLEMS, replacement);
  const near = nearest(key, inAsked);
  return new AgentplatError(
    `unknown values key "${key}"`,
    EXIT_PROBLEMS,
    `${near ? `did you mean ${near}? ` : ''}\`agentplat explain\` lists the top-level keys, \`agentplat explain <key>\` the keys under one`,
  );
}

const holdsKeys = (node: SchemaNode) => node.properties !== undefined && Object.keys(node.properties).length > 0;

/** `rules: false` leaves out the lint rules (the slow part), for callers that want the rest. */
export async function explainKey(key: string, revisionsAsked: readonly Revision[], parts: { rules?: boolean } = {}): Promise<Explanation> {
  // A provider block's examples render with the block set, which runs validate's ModelConfig check.
  const checkModelConfig = key.startsWith('providers.') ? await modelConfigCheck() : undefined;
  const revisions = revisionsAsked.filter((r) => schemaNodeAt(valuesSchema(r), key) !== undefined);
  if (revisions.length === 0) throw unknownKey(key, revisionsAsked);
  const byRevision: Partial<Record<Revision, RevisionFacts>> = {};
  let example: Explanation['example'];
  for (const rev of revisions) {
    const node = schemaNodeAt(valuesSchema(rev), key)!;
    const item = listItemField(rev, key);
    const def = item ? undefined : node.default;
    const candidates = exampleValues(key, node, def);
    const facts: RevisionFacts = {
      type: holdsKeys(node) ? 'object' : typeText(node),
      // Keys the defaults leave unset have none.
      ...(def !== undefined ? { default: def } : {}),
      description: node.description ?? '',
      ...(node.enum ? { enum: node.enum } : {}),
      rules: parts.rules === false ? [] : item ? rulesChangedBy(rev, item.list, candidates.map((v) => [{ ...item.example, [item.field]: v }]), checkModelConfig) : rulesChangedBy(rev, key, [...candidates, ...probeValues(node)], checkModelConfig),
    };
    if (holdsKeys(node)) {
      facts.fields = Object.entries(node.properties!).map(([k, n]) => ({ key: `${key}.${k}`, type: holdsKeys(n) ? 'object' : typeText(n), description: n.description ?? '' }));
      facts.rendersNote = 'explain one of its fields to see where it renders';
    } else if (candidates.length === 0) {
      facts.rendersNote = 'no example value for this type';
    } else {
      // A field of a list item renders as a list of one example item with that field changed.
      const setKey = item ? item.list : key;
      const values = item ? candidates.map((v) => [{ ...item.example, [item.field]: v }]) : candidates;
      const landed = landings(rev, setKey, values, checkModelConfig);
      if (typeof landed === 'string') facts.rendersNote = landed;
      else {
        facts.renders = landed.renders;
        example ??= { value: landed.value, flag: setFlag(setKey, landed.value), command: landed.command };
      }
    }
    byRevision[rev] = facts;
  }
  return { key, revisions, byRevision, ...(example ? { example } : {}) };
}

let checkOnce: CheckObject | undefined;

/**
 * Validate's ModelConfig check, each object checked once: explain builds the same provider block's
 * ModelConfig on many value sets and example values (the check is a function of the object alone).
 */
async function modelConfigCheck(): Promise<CheckObject> {
  if (checkOnce) return checkOnce;
  const check = await loadModelConfigCheck();
  const seen = new Map<string, ReturnType<CheckObject>>();
  // undefined and the numbers JSON has no word for are kept apart from null.
  const text = (data: unknown) => JSON.stringify(data, (_k, v: unknown) => (v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? `\0${String(v)}` : v));
  checkOnce = (data) => {
    const id = text(data);
    let found = seen.get(id);
    if (!found) seen.set(id, (found = check(data)));
    return [...found];
  };
  return checkOnce;
}

/** Other values a check may act on (an empty string, zero, an empty list), tried besides the examples. */
function probeValues(node: SchemaNode): unknown[] {
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : (node.anyOf ?? node.oneOf ?? []).flatMap((n) => (Array.isArray(n.type) ? n.type : n.type ? [n.type] : []));
  const out: unknown[] = [];
  if (types.includes('string')) out.push('', 'latest', '0');
  if (types.includes('integer') || types.includes('number')) out.push(0, 1, 2, 3, 5, 100);
  if (types.includes('boolean')) out.push(true, false);
  if (types.includes('array')) out.push([]);
  if (types.includes('object')) out.push({});
  if (node.enum) out.push(...node.enum);
  return out;
}

/** For a key inside the items of a list (`controller.env.name`): the list key, the item field and an example item. */
function listItemField(rev: Revision, key: string): { list: string; field: string; example: Record<string, unknown> } | undefined {
  const parts = key.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const list = parts.slice(0, i).join('.');
    const node = schemaNodeAt(valuesSchema(rev), list);
    if (!node || node.type !== 'array') continue;
    const example = exampleValue(list, node, undefined);
    const item = Array.isArray(example) && example[0] !== null && typeof example[0] === 'object' ? (example[0] as Record<string, unknown>) : undefined;
    // Only a field of the item itself: deeper fields are explained through their own list.
    if (!item || i !== parts.length - 1) return undefined;
    return { list, field: parts[i]!, example: item };
  }
  return undefined;
}

// ---- in the user's configuration ------------------------------------------------------------

/** The key in the render of the user's values (`explain KEY -f … --set …`), from that render's read record. */
export interface InConfiguration {
  revision: Revision;
  /** The objects made by the parts of the render that read the key (every object when the render context read it). */
  feeds: Omit<Landing, 'change' | 'fields'>[];
  /** The parts that read it: components (`controller`, `authproxy`, …), `context` for the render context. */
  readBy: string[];
  /** Nothing reads it: why (the switch that is off, or that no object of this configuration reads it). */
  unreadBecause?: string;
  /** The key, or keys under it, that the values set, each with lint's verdict. */
  set: { key: string; effect: boolean; rule?: string; why?: string }[];
  /** What the values' setting of it changes: the render compared with the render without it (the rest of the values kept). */
  changes?: Landing[];
  /** The APIs the render declared (`-a`). */
  apiVersions: string[];
  /**
   * When nothing this render makes reads the key and the render asked about an API it did not
   * declare, with which the key's objects render (a ServiceMonitor without monitoring.coreos.com/v1):
   * that API and the objects the key then feeds.
   */
  needsApi?: { apiVersion: string; feeds: Omit<Landing, 'change' | 'fields'>[] };
}

/**
 * `key` in the render of `layered` (the user's `layers` over the defaults of `revision`, linted
 * with `problems`), with the cluster APIs `apiVersions` declared (`-a`, parsed).
 */
export function keyInValues(key: string, revision: Revision, layers: readonly ValuesSource[], layered: LayeredValues, problems: readonly Problem[], apiVersions: readonly string[] = []): InConfiguration {
  if (!schemaNodeAt(valuesSchema(revision), key)) throw unknownKey(key, [revision]);
  // Without the CRDs, as the examples render (they do not change with the values but for mcpop.enabled, which the mcpop part reads too).
  const asked = new Set<string>();
  const options = { revision, releaseName: 'agentplat', releaseNamespace: RELEASE_NAMESPACE, apiVersions: [...apiVersions], skipCrds: true, onApiQuery: (api: string) => asked.add(api) };
  const k = keyInConfiguration(revision, layers, layered, options, problems, key);
  const feedsOf = (docs: readonly RenderedDoc[]) =>
    docs.map((d) => {
      const { change: _c, fields: _f, ...rest } = landing(d, 'changed', []);
      return rest;
    });
  // Nothing reads it: the reader may wait for an API this render asked about and was not declared.
  let needsApi: InConfiguration['needsApi'];
  for (const api of k.readBy.length === 0 ? [...asked].filter((a) => !apiVersions.includes(a)).sort() : []) {
    const withApi = keyInConfiguration(revision, layers, layered, { ...options, apiVersions: [...apiVersions, api], onApiQuery: () => {} }, problems, key);
    if (withApi.readBy.length > 0) {
      needsApi = { apiVersion: api, feeds: feedsOf(withApi.objects) };
      break;
    }
  }
  return {
    revision,
    feeds: feedsOf(k.objects),
    readBy: k.readBy,
    ...(k.unreadBecause ? { unreadBecause: k.unreadBecause } : {}),
    set: k.set.map(({ key: sk, verdict }) => (verdict.effect ? { key: sk, effect: true } : { key: sk, effect: false, rule: verdict.rule, why: verdict.why })),
    ...(k.without ? { changes: compare(k.without, k.docs) } : {}),
    apiVersions: [...apiVersions],
    ...(needsApi ? { needsApi } : {}),
  };
}

// ---- an example value --------------------------------------------------------------------

const WORD = 'example-value';
/** The namespace `agentplat render` uses without -n, and the explanation renders in (a namespace list must hold it). */
const RELEASE_NAMESPACE = 'default';

/** Kubernetes objects the values take, one small valid instance each. */
const K8S_EXAMPLES: Record<string, unknown> = {
  IoK8sApiCoreV1Toleration: { key: WORD, operator: 'Exists', effect: 'NoSchedule' },
  IoK8sApiCoreV1EnvVar: { name: 'EXAMPLE_VALUE', value: WORD },
  IoK8sApiCoreV1EnvFromSource: { configMapRef: { name: WORD } },
  IoK8sApiCoreV1Volume: { name: WORD, emptyDir: {} },
  IoK8sApiCoreV1VolumeMount: { name: WORD, mountPath: '/example' },
  IoK8sApiCoreV1TopologySpreadConstraint: { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
  IoK8sApiCoreV1LocalObjectReference: { name: WORD },
  IoK8sApiCoreV1Affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }] } } },
  IoK8sApiCoreV1Probe: { httpGet: { path: '/example', port: 8080 }, periodSeconds: 7 },
  IoK8sApiCoreV1PodSecurityContext: { runAsNonRoot: true, runAsUser: 1234, seccompProfile: { type: 'RuntimeDefault' } },
  IoK8sApiCoreV1SecurityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsUser: 1234 },
  IoK8sApiCoreV1ResourceRequirements: { limits: { cpu: '750m', memory: '640Mi' }, requests: { cpu: '250m', memory: '320Mi' } },
  IoK8sApiRbacV1PolicyRule: { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  AgentplatAgentContextCompaction: { compactionInterval: 7, overlapSize: 1 },
  IoK8sApiCoreV1ContainerResizePolicy: { resourceName: 'cpu', restartPolicy: 'NotRequired' },
  IoK8sApiCoreV1HostAlias: { ip: '10.0.0.7', hostnames: ['example.com'] },
  IoK8sApiCoreV1Lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
  IoK8sApiCoreV1Container: { name: WORD, image: 'busybox:1.36' },
  IoK8sApiCoreV1Capabilities: { drop: ['ALL'] },
  IoK8sApiCoreV1SeccompProfile: { type: 'RuntimeDefault' },
  IoK8sApiCoreV1AppArmorProfile: { type: 'RuntimeDefault' },
  IoK8sApiCoreV1SELinuxOptions: { type: 'container_t' },
  IoK8sApiCoreV1WindowsSecurityContextOptions: { runAsUserName: 'ContainerUser' },
};

/**
 * Keys whose value the linter holds to more than their schema does, and which no example below
 * meets: the first value tried for them (a cookie secret is 16, 24 or 32 bytes; a token file is
 * an absolute path in a folder of its own; a Gateway is named).
 */
const KEY_EXAMPLES: Record<string, unknown> = {
  'authproxy.config.cookieSecret': 'example-cookie-secret-32-bytes!!',
  'controller.substrate.substrateApiTokenFile': '/var/run/secrets/example/token',
  'authproxy.gatewayApi.gatewayRef': { name: 'other-gateway' },
};

const STRING_EXAMPLES = [WORD, 'providerA', 'https://example.com', '/example', '17m', '90s', ':9443', 'example.com', 'EXAMPLE_VALUE'];

function refName(ref: string | undefined): string | undefined {
  return ref?.split('/').pop();
}

function matches(node: SchemaNode & { pattern?: string; minimum?: number; maximum?: number }, v: unknown): boolean {
  if (node.enum) return node.enum.some((e) => JSON.stringify(e) === JSON.stringify(v));
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (typeof v === 'string') {
    if (types.length > 0 && !types.includes('string')) return false;
    return node.pattern === undefined || new RegExp(node.pattern, 'u').test(v);
  }
  if (typeof v === 'number') {
    if (!types.includes('integer') && !types.includes('number')) return false;
    return (node.minimum === undefined || v >= node.minimum) && (node.maximum === undefined || v <= node.maximum);
  }
  return false;
}

/** A value for `key` different from its default that its schema accepts; undefined when none is known. */
export function exampleValue(key: string, node: SchemaNode, def: unknown): unknown {
  return exampleValues(key, node, def)[0];
}

/**
 * Values for `key` different from its default that its schema accepts, the likeliest first: the
 * explanation renders with the first the linter also accepts (a base path must start with "/",
 * a provider block must name its own provider).
 */
export function exampleValues(key: string, node: SchemaNode, def: unknown): unknown[] {
  const out: unknown[] = [];
  const add = (v: unknown) => {
    if (v !== undefined && JSON.stringify(v) !== JSON.stringify(def) && !out.some((o) => JSON.stringify(o) === JSON.stringify(v))) out.push(v);
  };
  add(KEY_EXAMPLES[key]);
  const alts = node.anyOf ?? node.oneOf;
  const ref = refName(node.$ref);
  if (ref) {
    add(K8S_EXAMPLES[ref]);
    return out;
  }
  if (node.enum) {
    for (const e of node.enum) if (e !== '') add(e);
    for (const e of node.enum) add(e);
    return out;
  }
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (types.includes('boolean')) {
    add(def !== true);
    return out;
  }
  const scalarNodes = alts ?? [node];
  const numeric = scalarNodes.find((n) => {
    const t = Array.isArray(n.type) ? n.type : [n.type];
    return t.includes('integer') || t.includes('number');
  }) as (SchemaNode & { minimum?: number; maximum?: number }) | undefined;
  const stringy = scalarNodes.find((n) => (Array.isArray(n.type) ? n.type : [n.type]).includes('string')) as (SchemaNode & { pattern?: string }) | undefined;
  // Quantities and durations first as strings of their own kind, like users write them.
  const numbers = (): void => {
    if (!numeric) return;
    const min = numeric.minimum ?? 0;
    const max = numeric.maximum ?? Number.MAX_SAFE_INTEGER;
    const base = typeof def === 'number' ? def : min;
    for (const n of [base + 1, base - 1, min + 1, min]) if (n >= min && n <= max && Number.isInteger(n)) add(n);
  };
  if (stringy && stringy.pattern) {
    const candidates = /cpu/i.test(key) ? ['750m', ...STRING_EXAMPLES] : /memory|storage|size/i.test(key) ? ['640Mi', ...STRING_EXAMPLES] : ['3', '7', '640Mi', ...STRING_EXAMPLES, '30%'];
    const fitting = candidates.filter((c) => c !== def && matches(stringy, c));
    // A count written as digits is a number where the key takes one.
    if (numeric && fitting[0] !== undefined && /^\d+$/.test(fitting[0])) numbers();
    for (const c of fitting) if (!numeric || !/^\d+$/.test(c)) add(c);
  }
  numbers();
  if (stringy && !stringy.pattern) for (const c of STRING_EXAMPLES) if (matches(stringy, c)) add(c);
  if (types.includes('array')) {
    const items = node.items ?? {};
    const itemRef = refName(items.$ref);
    if (itemRef) {
      if (K8S_EXAMPLES[itemRef] !== undefined) add([K8S_EXAMPLES[itemRef]]);
      return out;
    }
    const itemAlts = items.anyOf ?? items.oneOf ?? [items];
    // A Kubernetes object first where a list takes one (extraObjects): a bare string is not one.
    if (itemAlts.some((n) => n.type === 'object')) add([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: WORD }, data: { example: WORD } }]);
    const str = itemAlts.find((n) => n.type === 'string') as (SchemaNode & { pattern?: string }) | undefined;
    // A list of words: the last word alone (a subset the schema accepts).
    if (str?.enum) add([str.enum[str.enum.length - 1]]);
    if (str) for (const c of [...STRING_EXAMPLES, RELEASE_NAMESPACE]) if (matches(str, c)) add([c]);
    return out;
  }
  if (types.includes('object')) {
    const ap = node.additionalProperties;
    // A map whose values may be strings (a plain string map, or one that also takes numbers).
    if (typeof ap === 'object' && ap.type !== 'string' && !(ap.anyOf ?? []).some((a) => a.type === 'string')) return out;
    add({ example: WORD });
  }
  return out;
}

/** How a user passes `value` for `key`: --set where it reads back the same, --set-json otherwise. */
export function setFlag(key: string, value: unknown): string {
  const quote = (s: string) => (/^[\w.,:/=@%+{}\[\]-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  if (typeof value === 'boolean' || typeof value === 'number') return `--set ${key}=${value}`;
  if (typeof value === 'string') {
    const flag = inferType(value) === value && !/[,{}\[\]\\]/.test(value) ? '--set' : '--set-string';
    return `${flag} ${quote(`${key}=${value}`)}`;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && /^[\w.:/-]+$/.test(v) && inferType(v) === v)) {
    return `--set ${quote(`${key}={${value.join(',')}}`)}`;
  }
  const entries = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : undefined;
  if (entries && entries.length === 1 && typeof entries[0]![1] === 'string' && inferType(entries[0]![1]) === entries[0]![1]) {
    return `--set ${quote(`${key}.${entries[0]![0]}=${entries[0]![1]}`)}`;
  }
  return `--set-json ${quote(`${key}=${JSON.stringify(value)}`)}`;
}

// ---- where it lands ------------------------------------------------------------------------

/** The `enabled` switches above `key` that are off by default: its objects render only with them on. */
function switchesAbove(rev: Revision, key: string): Record<string, unknown> {
  const parts = key.split('.');
  const out: Record<string, unknown> = {};
  for (let i = 1; i < parts.length; i++) {
    const sw = `${parts.slice(0, i).join('.')}.enabled`;
    if (sw === key) continue;
    const node = schemaNodeAt(valuesSchema(rev), sw);
    if (node?.type === 'boolean' && node.default === false) out[sw] = true;
  }
  return out;
}

/**
 * The release `agentplat render` renders with `-a` for each of `apis` and no other flag, so the
 * example printed renders the same; `onApiQuery` is told of each API the render asks about.
 */
function releaseOf(rev: Revision, set: Record<string, unknown>, checkModelConfig: CheckObject | undefined, apis: readonly string[], onApiQuery?: (api: string) => void): ReleaseRequest {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(set)) assignPath(data, k.split('.'), v);
  const layers = Object.keys(set).length > 0 ? [dataSource('explain', data)] : [];
  return { revision: rev, layers, releaseName: 'agentplat', namespace: RELEASE_NAMESPACE, apiVersions: apis, skipCrds: true, ...(checkModelConfig ? { checkModelConfig } : {}), ...(onApiQuery ? { onApiQuery } : {}) };
}

/** The render of a base (linted), with the APIs it asked about and was not declared to have. */
function renderAsking(rev: Revision, set: Record<string, unknown>, checkModelConfig: CheckObject | undefined, apis: readonly string[]): { docs: RenderedDoc[] | undefined; asked: Set<string> } {
  const asked = new Set<string>();
  const docs = renderRelease(releaseOf(rev, set, checkModelConfig, apis, (api) => asked.add(api))).docs;
  for (const api of apis) asked.delete(api);
  return { docs, asked };
}

/** The render of `set` without linting it: a base the build found the linter passes (computeExplainBases), or apiMayMatter's pre-check. */
function renderLintClean(rev: Revision, set: Record<string, unknown>, checkModelConfig: CheckObject | undefined, apis: readonly string[]): RenderedDoc[] | undefined {
  const req = releaseOf(rev, set, checkModelConfig, apis);
  return renderRelease(req, { problems: [], layered: layerRelease(defaultsSource(rev), req.layers) }).docs;
}

/**
 * The render of `set` when the linter passes it: linted first, rendered only then (a value the
 * linter refuses costs no render).
 */
function renderIfLintPasses(rev: Revision, set: Record<string, unknown>, changed: readonly string[], checkModelConfig: CheckObject | undefined, apis: readonly string[], onApiQuery?: (api: string) => void): RenderedDoc[] | undefined {
  const req = releaseOf(rev, set, checkModelConfig, apis, onApiQuery);
  // The checks that read a changed key first: the likeliest to refuse it, which ends the lint.
  const readers = new Set(changed.flatMap((k) => [...checksReading(rev, k, checkModelConfig)]));
  const lint = lintReleaseUnlessError(req, (rule) => readers.has(rule));
  return lint ? renderRelease(req, lint).docs : undefined;
}

/**
 * Values a key cannot render without, by the switch or key they go with: the linter refuses the
 * switch or the key alone (the proxy needs its credentials, a route its Gateway, turning the
 * bundled database off an external one, a restriction of the proxy's addresses the removal of the
 * chart's `--email-domain=*` flag (and, for a list of addresses, of its `email_domains = ["*"]`),
 * a minimum of a disruption budget the removal of its default maximum). A null removes a default,
 * as in helm. `test/cli/explain.test.ts` renders every example explain prints, and requires that
 * no key is compared without its switch for want of an example the linter passes, so a key
 * missing here shows up there.
 */
const COMPANIONS: Record<string, Record<string, unknown>> = {
  'authproxy.enabled': { 'authproxy.config.clientID': 'example-client', 'authproxy.config.clientSecret': 'example-secret', 'authproxy.config.cookieSecret': 'example-cookie16' },
  'ui.httpRoute.enabled': { 'ui.httpRoute.parentRefs': [{ name: 'example-gateway' }] },
  'database.rdb.bundled.enabled': { 'database.rdb.url': 'postgres://agentplat@db.example.com:5432/agentplat' },
  'controller.pdb.minAvailable': { 'controller.pdb.maxUnavailable': null },
  'ui.pdb.minAvailable': { 'ui.pdb.maxUnavailable': null },
  'authproxy.config.emailDomains': { 'authproxy.extraArgs.email-domain': null },
  'authproxy.authenticatedEmailsFile.enabled': { 'authproxy.extraArgs.email-domain': null, 'authproxy.config.emailDomains': null },
  'authproxy.htpasswdFile.enabled': { 'authproxy.htpasswdFile.entries': ['example:$2y$05$exampleexampleexample.exampleexampleexampleexampleexa'] },
  'authproxy.gatewayApi.enabled': { 'authproxy.gatewayApi.gatewayRef': { name: 'example-gateway' } },
  'authproxy.sessionStorage.type': { 'authproxy.sessionStorage.redis.standalone.connectionUrl': 'redis://redis.example.svc:6379' },
};

function companions(keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) Object.assign(out, COMPANIONS[k] ?? {});
  return out;
}

const baseCache = new Map<string, RenderedDoc[] | undefined>();

/** The keys set in the renders a key's example is compared with: its switches with their companions, then none (see landings). */
function baseSets(rev: Revision, key: string): { switched: Record<string, unknown>; withKeys: Record<string, unknown> }[] {
  const switches = switchesAbove(rev, key);
  const attempts = Object.keys(switches).length > 0 ? [switches, {}] : [{}];
  // The switches' companions are in both renders (the key among them gets its example value in the second).
  return attempts.map((switched) => ({ switched, withKeys: { ...switched, ...companions(Object.keys(switched)) } }));
}

/** A base render's name in explain-bases.json: the revision, whether the ModelConfig check runs, the keys set, the APIs declared (`-a`). */
const baseId = (rev: Revision, withKeys: Record<string, unknown>, withCheck: boolean, apis: readonly string[]) => `${rev}${withCheck ? '+check' : ''} ${JSON.stringify(withKeys)}${apis.length > 0 ? ` -a ${apis.join(',')}` : ''}`;

/**
 * Whether each render explain compares examples with (every key's base sets, per revision, with
 * validate's ModelConfig check for a provider key) passes the linter and renders: without any API
 * declared, and with each API that one of these renders asked about declared (landings compares
 * with one declared when the comparison without it changes nothing). It depends only on the
 * package, so the build finds it (scripts/build.mjs) and writes it to
 * dist/generated/explain-bases.json: explain then renders a base only once an example value
 * passes the linter, and lints it not at all. test/generated.test.ts holds the file to this.
 */
export function computeExplainBases(checkModelConfig: CheckObject): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const rev of REVISION_IDS) {
    const bases = new Map<string, { withKeys: Record<string, unknown>; check: CheckObject | undefined }>();
    for (const key of allKeys([rev])) {
      const item = listItemField(rev, key);
      const check = key.startsWith('providers.') ? checkModelConfig : undefined;
      for (const { withKeys } of baseSets(rev, item ? item.list : key)) bases.set(baseId(rev, withKeys, check !== undefined, []), { withKeys, check });
    }
    const asked = new Set<string>();
    for (const [id, { withKeys, check }] of bases) {
      const r = renderAsking(rev, withKeys, check, []);
      out[id] = r.docs !== undefined;
      for (const api of r.asked) asked.add(api);
    }
    for (const api of [...asked].sort()) {
      for (const { withKeys, check } of bases.values()) out[baseId(rev, withKeys, check !== undefined, [api])] = renderAsking(rev, withKeys, check, [api]).docs !== undefined;
    }
  }
  return out;
}

let bases: Record<string, boolean> | undefined;

/** What the build wrote of computeExplainBases (dist/generated/explain-bases.json). */
export function explainBases(): Readonly<Record<string, boolean>> {
  return (bases ??= JSON.parse(readGenerated('explain-bases.json')) as Record<string, boolean>);
}

/** Whether the base render of `withKeys` passes the linter and renders (from the build: computeExplainBases). */
function baseRenders(rev: Revision, withKeys: Record<string, unknown>, withCheck: boolean, apis: readonly string[]): boolean {
  const known = explainBases()[baseId(rev, withKeys, withCheck, apis)];
  if (known === undefined) {
    // An API no base render asks about is one computeExplainBases does not declare: the build cannot have it.
    const with_ = `${JSON.stringify(withKeys)}${apis.length > 0 ? ` and -a ${apis.join(',')}` : ''}`;
    throw new Error(`dist/generated/explain-bases.json does not know the render of revision ${rev} with ${with_}: run \`npm run build\` in the agentplat folder${apis.length > 0 ? `; if it still does not, no base render asks about ${apis.join(', ')} and computeExplainBases must declare it` : ''}`);
  }
  return known;
}

/** The base render of `withKeys` (the build found that the linter passes it), made once per run. */
function baseDocs(rev: Revision, withKeys: Record<string, unknown>, checkModelConfig: CheckObject | undefined, apis: readonly string[]): RenderedDoc[] {
  const id = baseId(rev, withKeys, checkModelConfig !== undefined, apis);
  if (!baseCache.has(id)) baseCache.set(id, renderLintClean(rev, withKeys, checkModelConfig, apis));
  const docs = baseCache.get(id);
  if (!docs) throw new Error(`dist/generated/explain-bases.json says revision ${rev} renders with ${JSON.stringify(withKeys)}${apis.length > 0 ? ` and -a ${apis.join(',')}` : ''}, and it does not: run \`npm run build\` in the agentplat folder`);
  return docs;
}

interface Landed {
  renders: NonNullable<RevisionFacts['renders']>;
  value: unknown;
  /** `agentplat render` with every flag the comparison set. */
  command: string;
}

/**
 * The render with the first candidate value the chart renders with, compared with the render
 * without it. Whether the render without it passes the linter comes from the build; it is made
 * only once a candidate passes, and a candidate is rendered only once the linter passes it.
 */
function landings(rev: Revision, key: string, candidates: readonly unknown[], checkModelConfig: CheckObject | undefined): Landed | string {
  const sets = baseSets(rev, key);
  const on = Object.keys(sets[0]!.switched).map((k) => `${k}=true`).join(', ');
  let note: string | undefined;
  for (const { withKeys } of sets) {
    // The key's own companions only with its example value.
    const alongside = companions([key]);
    for (const k of Object.keys(withKeys)) delete alongside[k];
    const renders = baseRenders(rev, withKeys, checkModelConfig !== undefined, []);
    for (const value of renders ? candidates : []) {
      const set = { ...withKeys, ...alongside, [key]: value };
      const changed = [key, ...Object.keys(alongside)];
      const asked = new Set<string>();
      const after = renderIfLintPasses(rev, set, changed, checkModelConfig, [], (api) => asked.add(api));
      if (!after) continue;
      let apis: string[] = [];
      let objects = compare(baseDocs(rev, withKeys, checkModelConfig, []), after);
      // Nothing changes: the key's objects may render only when the cluster serves an API the
      // render asked about (a ServiceMonitor). Compared again with each of those declared, in
      // both renders; the first that shows a change is the answer. Whether any of them changes
      // anything is seen first by rendering with all of them declared, unlinted (most keys that
      // change nothing change nothing there either, and cost no lint).
      const waits = objects.length === 0 && asked.size > 0 && apiMayMatter(rev, withKeys, set, checkModelConfig, [...asked].sort());
      for (const api of waits ? [...asked].sort() : []) {
        if (!baseRenders(rev, withKeys, checkModelConfig !== undefined, [api])) continue;
        const withApi = renderIfLintPasses(rev, set, changed, checkModelConfig, [api]);
        const found = withApi ? compare(baseDocs(rev, withKeys, checkModelConfig, [api]), withApi) : [];
        if (found.length > 0) {
          apis = [api];
          objects = found;
          break;
        }
      }
      const command = ['agentplat render', ...apis.map((a) => `-a ${a}`), ...Object.entries(set).map(([k, v]) => setFlag(k, v))].join(' ');
      const extra = Object.keys(alongside).length > 0 ? { alongside } : {};
      return { renders: { with: withKeys, ...extra, apiVersions: apis, objects, ...(note ? { note } : {}) }, value, command };
    }
    // Only the first attempt turns switches on; the second compares without them, and says why.
    note = renders
      ? `with ${on}, no example value of ${key} passes the linter, so this is compared without ${on}`
      : `${on} alone makes the linter ask for more values, so this is compared without it`;
  }
  const tried = candidates.slice(0, 3).map((v) => setFlag(key, v)).join(', ');
  return `the linter refuses every example value tried (${tried}${candidates.length > 3 ? ', …' : ''}); \`agentplat lint\` with one of them says why`;
}

/**
 * Whether `set` renders differently from `withKeys` with `apis` declared, both rendered without
 * linting (a pre-check: landings lints what it reports). True when either does not render.
 */
function apiMayMatter(rev: Revision, withKeys: Record<string, unknown>, set: Record<string, unknown>, checkModelConfig: CheckObject | undefined, apis: readonly string[]): boolean {
  const after = renderLintClean(rev, set, checkModelConfig, apis);
  const before = after && renderLintClean(rev, withKeys, checkModelConfig, apis);
  return !after || !before || compare(before, after).length > 0;
}

function objectId(d: RenderedDoc): string {
  const m = d.object.metadata ?? {};
  return `${d.object.kind}/${m.namespace ?? ''}/${m.name ?? ''}`;
}

function landing(d: RenderedDoc, change: Landing['change'], fields: string[]): Landing {
  const m = d.object.metadata ?? {};
  return { kind: String(d.object.kind), name: String(m.name ?? ''), ...(m.namespace ? { namespace: String(m.namespace) } : {}), source: d.source, change, fields };
}

/** Objects and fields that differ between two renders, in the render's order. */
export function compare(before: readonly RenderedDoc[], after: readonly RenderedDoc[]): Landing[] {
  const old = new Map(before.map((d) => [objectId(d), d]));
  const now = new Set(after.map(objectId));
  const out: Landing[] = [];
  for (const d of after) {
    const o = old.get(objectId(d));
    if (!o) out.push(landing(d, 'added', []));
    else {
      const fields: string[] = [];
      diffFields(o.object, d.object, '', fields);
      if (fields.length > 0) out.push(landing(d, 'changed', fields));
    }
  }
  for (const d of before) if (!now.has(objectId(d))) out.push(landing(d, 'removed', []));
  return out;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const named = (list: readonly unknown[]) => list.every((x) => isMap(x) && typeof x.name === 'string') && new Set(list.map((x) => (x as { name: string }).name)).size === list.length;

function diffFields(a: unknown, b: unknown, path: string, out: string[]): void {
  if (isMap(a) && isMap(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diffFields(a[k], b[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (named(a) && named(b)) {
      const byName = (l: readonly unknown[]) => new Map(l.map((x) => [(x as { name: string }).name, x]));
      const am = byName(a);
      const bm = byName(b);
      for (const n of new Set([...am.keys(), ...bm.keys()])) diffFields(am.get(n), bm.get(n), `${path}[name=${n}]`, out);
      return;
    }
    if (a.length === b.length) {
      a.forEach((x, i) => diffFields(x, b[i], `${path}[${i}]`, out));
      return;
    }
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
}
