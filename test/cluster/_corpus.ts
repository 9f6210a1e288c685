// The custom resources `agentplat validate` and the API server both judge: valid resources of the
// six kinds, and variants that break exactly one thing, derived from the Resource API's field
// tables (test/data/spec/resource-types.json: every field's type, enum, required flag, bounds,
// pattern and format), its section 7 rules (the CEL cases) and section 8 limits (the limit cases),
// plus the example resources, a seeded sample of the validate fuzzer's structural edits, and every
// integer of the Kubernetes core types an Agent's deployment embeds at the edge of the int32 range.
import fc from 'fast-check';
import { parse, parseAllDocuments } from 'yaml';
import { CEL_CASES } from '../crds/cel-cases.ts';
import { buildLimitDoc, LIMITS } from '../crds/limit-cases.ts';
import { OBJECTS, structural } from '../hardening/_resource-arb.ts';
import { chartCrdDocs } from '../../src/crds/index.ts';
import { RESOURCE_TYPES } from '../data/spec.ts';
import type { Schema } from '../../src/crds/k8s-types.ts';

type Json = unknown;
type Rec = Record<string, Json>;

export interface Resource {
  /** What the variant does, e.g. `ModelConfig spec.providerB.maxTokens below minimum`. */
  id: string;
  /** Where the generator expects a problem (undefined for resources meant to be valid). */
  target?: string;
  /** The figure the resource counts in, e.g. `custom resources: field tables`. */
  category: string;
  object: Rec;
}

interface Field {
  type: string;
  required?: boolean;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  pattern?: string;
  format?: string;
}
interface Types {
  kinds: Record<string, { spec: string }>;
  types: Record<string, { fields?: Record<string, Field> }>;
  standardTypes: string[];
}

const SPEC: Types = RESOURCE_TYPES;
const API_VERSION = 'agentplat.dev/v1alpha2';
export const CORPUS_NAMESPACE = 'corpus';

/** A string that satisfies a field's pattern, format and length bounds. */
function goodString(f: Field): string {
  let s = 'value';
  if (f.format === 'uri') s = 'https://example.com/x';
  if (f.pattern?.includes('s3://')) s = 's3://bucket/skill';
  if (f.pattern?.includes('gs://')) s = 'gs://bucket/snapshots';
  if (f.pattern?.includes('https?')) s = 'https://api.example.com';
  if (f.maxLength !== undefined && s.length > f.maxLength) s = 'v'.repeat(f.maxLength);
  if (f.minLength !== undefined && s.length < f.minLength) s = s.padEnd(f.minLength, 'x');
  return s;
}

const elem = (t: string): string | undefined => /^array\((.+)\)$/.exec(t)?.[1];
const isMap = (t: string): boolean => t.startsWith('map(');

/** A minimal valid value of a field: its required parts only. */
function minimal(f: Field, depth = 0): Json {
  if (f.enum) return f.enum[0];
  const item = elem(f.type);
  if (item) return Array.from({ length: f.minItems ?? 0 }, () => minimal({ type: item }, depth + 1));
  if (isMap(f.type)) return {};
  switch (f.type) {
    case 'string':
    case 'Duration':
      return f.type === 'Duration' ? '30s' : goodString(f);
    case 'integer':
      return Math.max(f.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'JSON':
      return { any: 'thing' };
    case 'LocalObjectReference':
      return { name: 'ref' };
    case 'ConfigMapKeySelector':
      return { name: 'cm', key: 'k' };
  }
  const t = SPEC.types[f.type];
  if (!t || depth > 10) return {};
  const out: Rec = {};
  for (const [k, sub] of Object.entries(t.fields ?? {})) if (sub.required) out[k] = minimal(sub, depth + 1);
  return out;
}

interface Path {
  /** Dotted path with `[]` after array segments, e.g. `spec.declarative.tools[].mcpServer.name`. */
  path: string;
  field: Field;
  /** The type whose field table the field belongs to. */
  owner: string;
}

/** Every field path under a kind's spec, through object types and array items (not into standard types). */
function paths(kind: string): Path[] {
  const out: Path[] = [];
  const walk = (typeName: string, prefix: string, seen: string[]) => {
    const t = SPEC.types[typeName];
    if (!t || seen.includes(typeName)) return;
    for (const [k, f] of Object.entries(t.fields ?? {})) {
      const item = elem(f.type);
      const p = `${prefix}.${k}`;
      out.push({ path: p, field: f, owner: typeName });
      if (item) walk(item, `${p}[]`, [...seen, typeName]);
      else walk(f.type, p, [...seen, typeName]);
    }
  };
  walk(SPEC.kinds[kind]!.spec, 'spec', []);
  return out;
}

/** A valid spec of each kind to graft fields onto. */
const BASE: Record<string, () => Rec> = {
  Agent: () => ({ type: 'Declarative', declarative: {} }),
  SandboxAgent: () => ({ type: 'Declarative', declarative: {} }),
  AgentHarness: () => ({ backend: 'backendA', substrate: {} }),
  ModelConfig: () => ({ model: 'm' }),
  ModelProviderConfig: () => ({ type: 'ProviderB' }),
  RemoteMCPServer: () => ({ description: 'd', url: 'https://tools.example.com/mcp' }),
};

/** Sets `value` at `path` in `root`, creating minimal valid parents (one item for arrays). */
function graft(root: Rec, path: string, value: Json, kind: string): void {
  const segs = path.split('.').slice(1);
  let cur: Rec = root;
  let typeName = SPEC.kinds[kind]!.spec;
  segs.forEach((seg, i) => {
    const isItem = seg.endsWith('[]');
    const key = seg.replace('[]', '');
    const f = SPEC.types[typeName]?.fields?.[key];
    if (i === segs.length - 1) {
      cur[key] = value;
      return;
    }
    const itemType = f ? elem(f.type) : undefined;
    if (isItem) {
      const arr = (Array.isArray(cur[key]) ? cur[key] : (cur[key] = [])) as Rec[];
      if (arr.length === 0) arr.push((itemType ? minimal({ type: itemType }) : {}) as Rec);
      cur = arr[0]!;
      typeName = itemType ?? '';
    } else {
      if (cur[key] === undefined || cur[key] === null || typeof cur[key] !== 'object') cur[key] = f ? minimal(f) : {};
      cur = cur[key] as Rec;
      typeName = f?.type ?? '';
    }
  });
}

const get = (o: Json, ...keys: (string | number)[]): Json => keys.reduce<Json>((v, k) => (v !== null && typeof v === 'object' ? (v as Rec)[k as string] : undefined), o);

/**
 * Makes the rest of the resource agree with the field the variant is about, so that only that
 * field's own check can fail: the provider named by a provider block, the type of a tool or
 * channel matching its block, the backend of messengerB options, a skills source, and so on.
 */
function harmonize(kind: string, spec: Rec, path: string): void {
  const provider = /spec\.provider([A-J])\b/.exec(path);
  if (provider && kind === 'ModelConfig') spec.provider = `Provider${provider[1]}`;
  if (kind === 'ModelConfig' && path === 'spec.apiKeyPassthrough') delete spec.apiKeySecret;
  if (path.includes('tokenExchange')) {
    spec.apiKeySecret = 'sa';
    const te = get(spec, 'providerB', 'tokenExchange') as Rec;
    if (te && typeof te === 'object' && !path.includes('serviceAccountExchange')) {
      te.type ??= 'ServiceAccountExchange';
      te.serviceAccountExchange ??= { audience: 'https://gw.example.com' };
    }
  }
  if (path.startsWith('spec.byo')) {
    spec.type = 'BYO';
    delete spec.declarative;
  }
  const tools = get(spec, 'declarative', 'tools') as Rec[] | undefined;
  if (Array.isArray(tools) && tools[0] && typeof tools[0] === 'object') {
    const t = tools[0];
    if (path.includes('tools[].agent') || path.includes('isolateSessions')) {
      t.type = 'Agent';
      t.agent ??= { name: 'helper' };
      delete t.mcpServer;
    } else if (!path.endsWith('tools[].type')) {
      t.type ??= 'McpServer';
      if (t.type === 'McpServer') t.mcpServer ??= { name: 'tools' };
    }
    const ms = t.mcpServer as Rec | undefined;
    if (ms && Array.isArray(ms.requireApproval) && !path.endsWith('toolNames')) ms.toolNames = [...new Set([...((ms.toolNames as string[]) ?? []), ...(ms.requireApproval as string[])])].slice(0, 50);
  }
  const skills = spec.skills as Rec | undefined;
  if (skills && typeof skills === 'object' && !['refs', 'gitRefs', 'objectStoreRefs'].some((k) => k in skills)) skills.refs = ['example.com/skill:1'];
  const channels = spec.channels as Rec[] | undefined;
  if (Array.isArray(channels) && channels[0] && typeof channels[0] === 'object') {
    const ch = channels[0];
    ch.name ??= 'chat';
    const block = /channels\[\]\.(messengerA|messengerB)/.exec(path)?.[1];
    if (block) ch.type = block;
    ch.type ??= 'messengerA';
    for (const b of ['messengerA', 'messengerB']) if (b !== ch.type) delete ch[b];
    ch[ch.type as string] ??= minimal({ type: ch.type === 'messengerA' ? 'AgentHarnessMessengerAChannelSpec' : 'AgentHarnessMessengerBChannelSpec' });
    const mb = ch.messengerB as Rec | undefined;
    if (mb && typeof mb === 'object') {
      if ('backendB' in mb) spec.backend = 'backendB';
      const opts = (mb.backendA ?? mb.backendB) as Rec | undefined;
      if (opts && typeof opts === 'object' && opts.channelAccess === 'allowlist' && !path.endsWith('allowlistChannels')) opts.allowlistChannels ??= ['C1'];
    }
  }
  const tls = spec.tls as Rec | undefined;
  if (tls && typeof tls === 'object' && tls.caCertSecretRef !== undefined && !path.endsWith('caCertSecretKey')) tls.caCertSecretKey ??= 'ca.crt';
  const deployment = (get(spec, 'declarative', 'deployment') ?? get(spec, 'byo', 'deployment')) as Rec | undefined;
  if (deployment && path.endsWith('serviceAccountConfig')) delete deployment.serviceAccountName;
}

function resource(kind: string, spec: Rec, n: number): Rec {
  return { apiVersion: API_VERSION, kind, metadata: { name: `r-${String(n).padStart(5, '0')}`, namespace: CORPUS_NAMESPACE }, spec };
}

const wrongType = (f: Field): Json => {
  if (elem(f.type)) return 'not-a-list';
  if (isMap(f.type)) return ['not', 'a', 'map'];
  switch (f.type) {
    case 'string':
    case 'Duration':
      return 12;
    case 'integer':
      return 'twelve';
    case 'boolean':
      return 'yes';
  }
  return 'not-an-object';
};

/** The field-table variants of one path: valid values, then one broken thing each. */
function fieldVariants(p: Path): { what: string; value?: Json; delete?: boolean; invalid: boolean; unknownInside?: boolean }[] {
  const f = p.field;
  const v: ReturnType<typeof fieldVariants> = [];
  v.push({ what: 'minimal valid value', value: minimal(f), invalid: false });
  if (f.enum) {
    for (const e of f.enum.slice(1)) v.push({ what: `enum value ${e}`, value: e, invalid: false });
    v.push({ what: 'value outside the enum', value: 'NotInTheEnum', invalid: true });
    v.push({ what: 'enum value in the wrong case', value: f.enum[0]!.toUpperCase() === f.enum[0] ? f.enum[0]!.toLowerCase() : f.enum[0]!.toUpperCase(), invalid: true });
  }
  v.push({ what: 'value of the wrong type', value: wrongType(f), invalid: true });
  if (f.type === 'integer') {
    v.push({ what: 'integer written as a float', value: 1.5, invalid: true });
    v.push({ what: 'integer past int64', value: 2 ** 64, invalid: true });
    v.push({ what: 'large integer within int32', value: 2147483647, invalid: false });
  }
  if (f.minimum !== undefined) {
    v.push({ what: 'at its minimum', value: f.minimum, invalid: false });
    v.push({ what: 'below its minimum', value: f.minimum - 1, invalid: true });
  }
  if (f.minLength !== undefined) v.push({ what: 'shorter than minLength', value: 'x'.repeat(f.minLength - 1), invalid: true });
  if (f.maxLength !== undefined) {
    v.push({ what: 'at maxLength', value: 'x'.repeat(f.maxLength), invalid: false });
    v.push({ what: 'longer than maxLength', value: 'x'.repeat(f.maxLength + 1), invalid: true });
  }
  if (f.pattern) {
    v.push({ what: 'not matching its pattern', value: 'ftp://elsewhere/x', invalid: true });
    v.push({ what: 'pattern prefix only', value: f.pattern.replace(/^\^/, '').replace(/\.[+*]$|\\|\.\*$/g, '').replace(/\?/, ''), invalid: f.pattern.endsWith('+') });
  }
  if (f.format === 'uri') {
    v.push({ what: 'relative reference for a uri', value: '/relative/path', invalid: true });
    v.push({ what: 'text that is not a uri', value: 'not a uri', invalid: true });
    v.push({ what: 'uri with another scheme', value: 'mailto:team@example.com', invalid: false });
  }
  const item = elem(f.type);
  if (item) {
    const one = minimal({ type: item });
    if (f.minItems !== undefined) v.push({ what: 'fewer items than minItems', value: [], invalid: f.minItems > 0 });
    if (f.maxItems !== undefined) {
      v.push({ what: 'at maxItems', value: Array.from({ length: f.maxItems }, (_, i) => (item === 'string' ? `item-${i}` : structuredClone(one))), invalid: false });
      v.push({ what: 'more items than maxItems', value: Array.from({ length: f.maxItems + 1 }, (_, i) => (item === 'string' ? `item-${i}` : structuredClone(one))), invalid: true });
    }
    v.push({ what: 'list holding a null', value: [null], invalid: true });
  }
  if (f.required) v.push({ what: 'required field missing', delete: true, invalid: true });
  v.push({ what: 'explicit null', value: null, invalid: Boolean(f.required) });
  if (SPEC.types[f.type] || (item && SPEC.types[item])) v.push({ what: 'unknown field inside', unknownInside: true, invalid: true });
  return v;
}

/** The smallest value a schema node takes: its required fields only, each at its smallest. */
function smallest(s: Schema): Json {
  if (s.enum) return s.enum[0];
  if (s['x-kubernetes-int-or-string']) return 1;
  switch (s.type) {
    case 'string':
      return 'x';
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
  }
  const out: Rec = {};
  for (const k of s.required ?? []) out[k] = smallest(s.properties![k]!);
  return out;
}

/**
 * Every integer and int-or-string of the core types under an Agent's declarative deployment
 * (containers, probes and handlers, volumes, affinity, security contexts, resources), with a
 * valid spec around it that holds that field alone: what to set, and where.
 */
function coreIntegers(): { where: string; spec: (value: Json) => Rec; intOrString: boolean }[] {
  const agent = chartCrdDocs().find((d) => (d.object.spec as { names: { kind: string } }).names.kind === 'Agent')!;
  const root = (agent.object.spec as { versions: { schema: { openAPIV3Schema: Schema } }[] }).versions[0]!.schema.openAPIV3Schema;
  const deployment = root.properties!.spec!.properties!.declarative!.properties!.deployment!;
  const out: ReturnType<typeof coreIntegers> = [];
  const walk = (s: Schema, path: (string | number)[], depth: number): void => {
    if (depth > 12) return;
    if (s.type === 'integer' || s['x-kubernetes-int-or-string']) {
      if (path.length === 1 && path[0] === 'replicas') return;
      out.push({ where: path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').slice(1), spec: (value) => placed(path, value), intOrString: Boolean(s['x-kubernetes-int-or-string']) });
      return;
    }
    for (const [k, sub] of Object.entries(s.properties ?? {})) walk(sub, [...path, k], depth + 1);
    if (s.items) walk(s.items, [...path, 0], depth + 1);
    if (s.additionalProperties) walk(s.additionalProperties, [...path, 'cpu'], depth + 1);
  };
  /** The deployment with `value` at `path`, each object on the way holding its required fields. */
  const placed = (path: (string | number)[], value: Json): Rec => {
    const top: Rec = {};
    let cur: Rec | Json[] = top;
    let s: Schema = deployment;
    path.forEach((seg, i) => {
      s = typeof seg === 'number' ? s.items! : (s.properties?.[seg] ?? s.additionalProperties!);
      const next = i === path.length - 1 ? value : s.type === 'array' ? [] : smallest(s);
      (cur as Record<string | number, Json>)[seg] = next;
      cur = next as Rec;
    });
    return { type: 'Declarative', declarative: { deployment: top } };
  };
  walk(deployment, [], 0);
  return out;
}

/**
 * A valid resource of each of the six kinds, for the metadata variants (_core-corpus.ts): the
 * grafting base, and a ModelProviderConfig of type ProviderB names its Secret (section 7).
 */
export function customResourceBases(): Rec[] {
  return Object.keys(SPEC.kinds).map((kind) => resource(kind, kind === 'ModelProviderConfig' ? { ...BASE[kind]!(), secretRef: { name: 'provider-b-key' } } : BASE[kind]!(), 0));
}

/** The whole corpus, in a stable order. */
export function corpus(): Resource[] {
  const out: Resource[] = [];
  let n = 0;
  let category = '';
  const add = (id: string, object: Rec, target?: string) => {
    const o = structuredClone(object);
    const meta = (o.metadata ??= {}) as Rec;
    meta.name = `r-${String(n++).padStart(5, '0')}`;
    meta.namespace = CORPUS_NAMESPACE;
    out.push({ id, category, object: o, ...(target ? { target } : {}) });
  };

  // The field tables.
  category = 'custom resources: field tables';
  for (const kind of Object.keys(SPEC.kinds)) {
    add(`${kind} minimal`, resource(kind, BASE[kind]!(), 0));
    for (const p of paths(kind)) {
      for (const variant of fieldVariants(p)) {
        const spec = BASE[kind]!();
        graft(spec, p.path, variant.delete ? minimal(p.field) : variant.value, kind);
        harmonize(kind, spec, p.path);
        const segs = p.path.split('.').slice(1).map((s) => s.replace('[]', ''));
        const parentPath = p.path.split('.').slice(0, -1).join('.');
        const last = segs[segs.length - 1]!;
        const parent = segs.slice(0, -1).reduce<Json>((o, k) => {
          const x = (o as Rec)[k];
          return Array.isArray(x) ? x[0] : x;
        }, spec) as Rec;
        if (variant.delete) delete parent[last];
        if (variant.unknownInside) {
          const v = parent[last];
          const target = Array.isArray(v) ? v[0] : v;
          if (target && typeof target === 'object') (target as Rec).notInTheApi = 'x';
        }
        add(`${kind} ${p.path} ${variant.what}`, resource(kind, spec, 0), variant.invalid ? (variant.delete ? parentPath || 'spec' : p.path) : undefined);
      }
    }
  }

  // Section 7: every admission rule, broken and kept.
  category = 'custom resources: CEL rules';
  for (const c of CEL_CASES) {
    add(`rule ${c.id} broken`, parse(c.bad.replace(/ # HERE/, '')) as Rec, 'rule');
    add(`rule ${c.id} kept`, parse(c.good) as Rec);
  }

  // Section 8: every limit at its bound and one past it.
  category = 'custom resources: limits';
  for (const [id, l] of LIMITS) {
    for (const bad of [false, true]) {
      const d = buildLimitDoc(l, bad);
      add(`limit ${id} ${l.path} ${l.keyword} ${bad ? 'past' : 'at'} the bound`, parse(d.yaml) as Rec, bad ? l.path : undefined);
    }
  }

  // The core types' integers: 2^31 is past an int32 field's range and within an int64 one's.
  category = 'custom resources: core-type integers';
  for (const f of coreIntegers()) {
    add(`Agent core-type integer ${f.where} at 2^31`, resource('Agent', f.spec(2 ** 31), 0));
    add(`Agent core-type integer ${f.where} at 2^31-1`, resource('Agent', f.spec(2 ** 31 - 1), 0));
    add(`Agent core-type integer ${f.where} at -2^31-1`, resource('Agent', f.spec(-(2 ** 31) - 1), 0));
    if (f.intOrString) add(`Agent core-type int-or-string ${f.where} as a name`, resource('Agent', f.spec('http'), 0));
  }

  // The example resources, and the validate fuzzer's structural edits of them (seeded).
  category = 'custom resources: examples and fuzzed edits';
  for (const o of OBJECTS) add(`example ${(o as Rec).kind} ${((o as Rec).metadata as Rec)?.name}`, o as Rec);
  for (const stream of fc.sample(structural, { seed: 16, numRuns: 400 })) {
    const first = parseAllDocuments(stream)[0]?.toJS() as Json;
    if (first && typeof first === 'object' && !Array.isArray(first) && (first as Rec).apiVersion === API_VERSION && typeof (first as Rec).kind === 'string' && (first as Rec).kind !== 'MCPServer' && (first as Rec).kind !== 'Agnet' && ((first as Rec).metadata === undefined || typeof (first as Rec).metadata === 'object')) {
      add(`fuzzed ${(first as Rec).kind}`, first as Rec);
    }
  }
  return out;
}
