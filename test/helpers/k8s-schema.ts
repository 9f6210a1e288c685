// Validates rendered objects against the Kubernetes schema of their kind, with unknown fields
// rejected: a misspelled field in a template must fail a test, not reach a cluster.
//
// Where the schemas come from:
//   - built-in kinds: the compiled validators of `kubernetes-models` (`_schemas/*.js`);
//   - HTTPRoute: `@kubernetes-models/gateway-api` (schema registered on its ajv instance);
//   - ServiceMonitor: `@kubernetes-models/prometheus-operator` (compiled validators);
//   - Route (route.openshift.io/v1): the small schema below (no model package exists);
//   - anything else (our CRDs, the substrate's WorkerPool): `registerK8sSchema()` with a JSON
//     schema, e.g. a CRD's openAPIV3Schema.
//
// Unknown fields: the packaged schemas do not set `additionalProperties: false`, and the compiled
// validators cannot be edited. So the object is validated through a recording Proxy: a compiled
// validator reads every property its schema declares (`data.<prop>`), and enumerates the keys of
// a map (`additionalProperties: {...}`). After validation, any key of an object whose schema
// declared properties but which the validator never read is an unknown field. This is exactly
// "additionalProperties: false at every object level that declares properties"; maps and
// free-form objects (no declared properties) are left open. For JSON schemas given here
// (`registerK8sSchema`, Route) `additionalProperties: false` is added literally.
//
// Usage (sub-chart tests too):
//   import { k8sSchemaIssues, expectValidK8sObjects } from '../helpers/k8s-schema.ts';
//   expectValidK8sObjects(docs.map((d) => d.object));   // throws listing every issue

import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

interface RawError {
  instancePath: string;
  keyword: string;
  params?: Record<string, unknown>;
  message?: string;
}
/** Validates `data` (possibly a Proxy) and returns its schema errors. */
type RawValidator = (data: unknown) => RawError[];

export interface SchemaIssue {
  /** JSON pointer inside the object (`/spec/template/spec/containers/0/imagePullPolicyy`). */
  path: string;
  message: string;
}

const validators = new Map<string, RawValidator>();
const key = (apiVersion: string, kind: string) => `${apiVersion}/${kind}`;

// ---------------------------------------------------------------------------------------------
// Built-in kinds from kubernetes-models: the model file names the compiled schema it uses.

const modelsRoot = dirname(require.resolve('kubernetes-models/package.json'));

function builtinValidator(apiVersion: string, kind: string): RawValidator | undefined {
  const dir = apiVersion.includes('/') ? apiVersion : `v1`;
  if (!apiVersion.includes('/') && apiVersion !== 'v1') return undefined;
  let text: string;
  try {
    text = readFileSync(join(modelsRoot, dir, `${kind}.js`), 'utf8');
  } catch {
    return undefined;
  }
  const m = /_schemas\/(\w+)/.exec(text);
  if (!m) return undefined;
  const mod = require(join(modelsRoot, '_schemas', `${m[1]}.js`)) as { validate: ((d: unknown) => boolean) & { errors?: RawError[] | null } };
  return (data) => (mod.validate(data) ? [] : [...(mod.validate.errors ?? [])]);
}

// ---------------------------------------------------------------------------------------------
// Gateway API HTTPRoute: the package registers its schema on the shared ajv of
// @kubernetes-models/validate the first time a model validates.

function gatewayValidator(kind: string): RawValidator | undefined {
  let ctor: new (d: unknown) => { validate(): void };
  try {
    ctor = (require(`@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/${kind}`) as Record<string, new (d: unknown) => { validate(): void }>)[kind]!;
  } catch {
    return undefined;
  }
  try {
    new ctor({ metadata: { name: 'x' } }).validate();
  } catch {
    /* registering is all we wanted */
  }
  const v = require('@kubernetes-models/validate') as { validate(id: string, data: unknown): void };
  return (data) => {
    try {
      v.validate(`gateway.networking.k8s.io.v1.${kind}`, data);
      return [];
    } catch (err) {
      const errors = (err as { errors?: RawError[] }).errors;
      return errors && errors.length > 0 ? errors : [{ instancePath: '', keyword: 'error', message: (err as Error).message }];
    }
  };
}

// ---------------------------------------------------------------------------------------------
// prometheus-operator's compiled validators are ES modules: load the ones we render up front.

async function promValidator(kind: string): Promise<RawValidator | undefined> {
  const root = dirname(require.resolve('@kubernetes-models/prometheus-operator/package.json'));
  const text = readFileSync(join(root, 'monitoring.coreos.com', 'v1', `${kind}.js`), 'utf8');
  const m = /_schemas\/(\w+)\.js/.exec(text);
  if (!m) return undefined;
  const mod = (await import(pathToFileURL(join(root, '_schemas', `${m[1]}.js`)).href)) as {
    validate: ((d: unknown) => boolean) & { errors?: RawError[] | null };
  };
  return (data) => (mod.validate(data) ? [] : [...(mod.validate.errors ?? [])]);
}

for (const kind of ['ServiceMonitor', 'PodMonitor', 'PrometheusRule']) {
  const v = await promValidator(kind);
  if (v) validators.set(key('monitoring.coreos.com/v1', kind), v);
}

// ---------------------------------------------------------------------------------------------
// JSON schemas given here: `additionalProperties: false` added at every level with properties.

const ajv = new Ajv.default({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);

/** Returns a copy of `schema` closed at every object level that declares properties. */
export function closeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' || k === 'patternProperties' || k === 'definitions' || k === '$defs') {
      const m: Record<string, unknown> = {};
      for (const [pk, pv] of Object.entries(v as Record<string, unknown>)) m[pk] = closeSchema(pv);
      out[k] = m;
    } else {
      out[k] = closeSchema(v);
    }
  }
  if (s.properties && s.additionalProperties === undefined && s['x-kubernetes-preserve-unknown-fields'] !== true) {
    out.additionalProperties = false;
  }
  return out;
}

/** Registers a JSON schema (e.g. a CRD version's openAPIV3Schema) for a kind; unknown fields are rejected. */
export function registerK8sSchema(apiVersion: string, kind: string, schema: Record<string, unknown>): void {
  const closed = closeSchema(schema) as Record<string, unknown>;
  // A CRD schema rarely declares apiVersion/kind/metadata: the API server adds them.
  const props = (closed.properties ?? {}) as Record<string, unknown>;
  const withMeta = {
    ...closed,
    properties: {
      apiVersion: { type: 'string', enum: [apiVersion] },
      kind: { type: 'string', enum: [kind] },
      ...props,
      metadata: OBJECT_META,
    },
    required: [...new Set([...(((closed.required as string[] | undefined) ?? [])), 'apiVersion', 'kind', 'metadata'])],
  };
  const fn = ajv.compile(withMeta);
  validators.set(key(apiVersion, kind), (data) => (fn(data) ? [] : [...((fn.errors ?? []) as ErrorObject[])]));
}

const OBJECT_META = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    namespace: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** route.openshift.io/v1 Route: the fields a chart sets (host, path, to, port, tls, wildcardPolicy, alternateBackends). */
const ROUTE_TARGET = {
  type: 'object',
  required: ['kind', 'name'],
  properties: { kind: { type: 'string', enum: ['Service'] }, name: { type: 'string', minLength: 1 }, weight: { type: 'integer', minimum: 0, maximum: 256 } },
};
registerK8sSchema('route.openshift.io/v1', 'Route', {
  type: 'object',
  required: ['spec'],
  properties: {
    spec: {
      type: 'object',
      required: ['to'],
      properties: {
        host: { type: 'string' },
        subdomain: { type: 'string' },
        path: { type: 'string' },
        to: ROUTE_TARGET,
        alternateBackends: { type: 'array', items: ROUTE_TARGET },
        port: { type: 'object', required: ['targetPort'], properties: { targetPort: { anyOf: [{ type: 'integer' }, { type: 'string' }] } } },
        tls: {
          type: 'object',
          required: ['termination'],
          properties: {
            termination: { type: 'string', enum: ['edge', 'passthrough', 'reencrypt'] },
            insecureEdgeTerminationPolicy: { type: 'string', enum: ['Allow', 'None', 'Redirect', ''] },
            certificate: { type: 'string' },
            key: { type: 'string' },
            caCertificate: { type: 'string' },
            destinationCACertificate: { type: 'string' },
          },
        },
        wildcardPolicy: { type: 'string', enum: ['None', 'Subdomain'] },
      },
    },
  },
});

// ---------------------------------------------------------------------------------------------
// The recording Proxy.

interface Visit {
  read: Set<string>;
  enumerated: boolean;
}

function recorder(root: unknown): { proxy: unknown; visits: Map<string, Visit> } {
  const visits = new Map<string, Visit>();
  const wrap = (value: unknown, path: string): unknown => {
    if (value === null || typeof value !== 'object') return value;
    let visit = visits.get(path);
    if (!visit) visits.set(path, (visit = { read: new Set(), enumerated: false }));
    const v = visit;
    return new Proxy(value as object, {
      get(target, prop, receiver) {
        const got = Reflect.get(target, prop, receiver) as unknown;
        if (typeof prop !== 'string') return got;
        v.read.add(prop);
        return Object.prototype.hasOwnProperty.call(target, prop) ? wrap(got, `${path}/${escapePointer(prop)}`) : got;
      },
      has(target, prop) {
        if (typeof prop === 'string') v.read.add(prop);
        return Reflect.has(target, prop);
      },
      ownKeys(target) {
        v.enumerated = true;
        return Reflect.ownKeys(target);
      },
    });
  };
  return { proxy: wrap(root, ''), visits };
}

function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Fields the packaged schemas lack although the API has them: kubernetes-models strips every
 * `description` property and the `x-kubernetes-*` extensions of JSONSchemaProps, and its
 * Kubernetes version predates the pod certificate projection (1.34). An object is recognised by
 * properties its validator read (its "signature"); only then are these extra keys allowed.
 */
const PACKAGE_GAPS: { signature: string[]; extra: string[] }[] = [
  {
    signature: ['$schema', 'multipleOf', 'patternProperties'],
    extra: [
      'description',
      'x-kubernetes-validations',
      'x-kubernetes-preserve-unknown-fields',
      'x-kubernetes-int-or-string',
      'x-kubernetes-embedded-resource',
      'x-kubernetes-list-type',
      'x-kubernetes-list-map-keys',
      'x-kubernetes-map-type',
    ],
  },
  { signature: ['jsonPath', 'priority', 'format'], extra: ['description'] }, // CRD printer columns
  { signature: ['value', 'globalDefault', 'preemptionPolicy'], extra: ['description'] }, // PriorityClass
  { signature: ['clusterTrustBundle', 'serviceAccountToken', 'downwardAPI'], extra: ['podCertificate'] },
];

function allowedExtra(read: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const gap of PACKAGE_GAPS) if (gap.signature.every((k) => read.has(k))) for (const k of gap.extra) out.add(k);
  return out;
}

function unknownFields(obj: unknown, visits: Map<string, Visit>, path = ''): SchemaIssue[] {
  if (obj === null || typeof obj !== 'object') return [];
  const out: SchemaIssue[] = [];
  const visit = visits.get(path);
  if (!visit) return out; // never reached: below a free-form object
  if (Array.isArray(obj)) {
    obj.forEach((item, i) => out.push(...unknownFields(item, visits, `${path}/${i}`)));
    return out;
  }
  const declares = !visit.enumerated && visit.read.size > 0;
  const extra = declares ? allowedExtra(visit.read) : new Set<string>();
  for (const [k, v] of Object.entries(obj)) {
    const p = `${path}/${escapePointer(k)}`;
    if (extra.has(k)) continue;
    if (declares && !visit.read.has(k)) out.push({ path: p, message: `unknown field "${k}"` });
    else out.push(...unknownFields(v, visits, p));
  }
  return out;
}

function validatorFor(apiVersion: string, kind: string): RawValidator | undefined {
  const k = key(apiVersion, kind);
  let v = validators.get(k);
  if (v) return v;
  if (apiVersion === 'gateway.networking.k8s.io/v1') v = gatewayValidator(kind);
  else v = builtinValidator(apiVersion, kind);
  if (v) validators.set(k, v);
  return v;
}

/** True when a schema for the kind is known (built in, packaged or registered). */
export function hasK8sSchema(apiVersion: string, kind: string): boolean {
  return validatorFor(apiVersion, kind) !== undefined;
}

/** Every schema violation and unknown field of one object; a kind without a schema is an issue too. */
export function k8sSchemaIssues(obj: unknown): SchemaIssue[] {
  const o = obj as { apiVersion?: unknown; kind?: unknown };
  if (typeof o?.apiVersion !== 'string' || typeof o.kind !== 'string') return [{ path: '', message: 'apiVersion and kind must be strings' }];
  const validate = validatorFor(o.apiVersion, o.kind);
  if (!validate) return [{ path: '', message: `no schema known for ${o.apiVersion} ${o.kind} (register one with registerK8sSchema)` }];
  const { proxy, visits } = recorder(obj);
  const errors = validate(proxy).map((e) => ({ path: e.instancePath, message: e.message ?? `${e.keyword} ${JSON.stringify(e.params ?? {})}` }));
  return [...errors, ...unknownFields(obj, visits)];
}

/** Throws one error listing every issue of every object (`Kind/name: /path: message`). */
export function expectValidK8sObjects(objects: readonly unknown[]): void {
  const lines: string[] = [];
  for (const obj of objects) {
    const o = obj as { kind?: string; metadata?: { name?: string } };
    for (const issue of k8sSchemaIssues(obj)) lines.push(`${o.kind}/${o.metadata?.name}: ${issue.path || '/'}: ${issue.message}`);
  }
  if (lines.length > 0) throw new Error(`schema violations:\n  ${lines.join('\n  ')}`);
}

/** Registers the openAPIV3Schema of every version of CustomResourceDefinition objects (ours or a sub-chart's). */
export function registerCrdSchemas(crds: readonly unknown[]): void {
  for (const crd of crds) {
    const c = crd as {
      kind?: string;
      spec?: { group?: string; names?: { kind?: string }; versions?: { name: string; schema?: { openAPIV3Schema?: Record<string, unknown> } }[] };
    };
    if (c.kind !== 'CustomResourceDefinition' || !c.spec?.group || !c.spec.names?.kind) continue;
    for (const v of c.spec.versions ?? []) {
      const schema = v.schema?.openAPIV3Schema;
      if (!schema) continue;
      const { properties, ...rest } = schema as { properties?: Record<string, unknown> };
      const { apiVersion: _a, kind: _k, metadata: _m, ...own } = properties ?? {};
      registerK8sSchema(`${c.spec.group}/${v.name}`, c.spec.names.kind, { ...rest, properties: own });
    }
  }
}
