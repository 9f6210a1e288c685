// The corpus of "validate at scale" (bench/bench.mjs) and the local JSON schemas kubeconform
// reads for it. Deterministic: the same seed and size give the same files, byte for byte.
//
// - Objects: the agentplat.dev custom resources of fixtures/resources and of the chart's render
//   (revisions A and B), and the core kinds the chart renders (Deployment, Service, ConfigMap,
//   Secret, ServiceAccount, PersistentVolumeClaim, Role, RoleBinding, ClusterRole,
//   ClusterRoleBinding), each copied under a new name and namespace. One custom resource in a
//   hundred is made invalid in a way both tools see without CEL (an unknown field, or a number
//   where the schema has a string), so both report the same objects as invalid.
// - Files: 1 to 20 documents each (seeded), in a few sub-folders.
// - Schemas (writeKubeconformSchemas): standalone JSON schemas in the layout kubeconform's
//   `-schema-location` template names, `<kind><-group-version>-strict.json`, every object without
//   `additionalProperties` closed as `-strict` expects: the core kinds from the Kubernetes
//   OpenAPI v3 documents shipped in the k8s.io/kubernetes Go module (in the module cache, no
//   network), the custom resources from `agentplat crds -o json` (their openAPIV3Schema).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

/** The schema-location template for the schemas written by writeKubeconformSchemas into `dir`. */
export const schemaLocation = (dir) => `${dir}/{{ .ResourceKind }}{{ .KindSuffix }}{{ .StrictSuffix }}.json`;

export const CORE_KINDS = ['Deployment', 'Service', 'ConfigMap', 'Secret', 'ServiceAccount', 'PersistentVolumeClaim', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'];
const GROUP = 'agentplat.dev';

/** A small seeded generator (mulberry32): the same seed, the same corpus. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The objects copies are made of: custom resources and core objects, as data. */
export function corpusTemplates(root) {
  const crs = readdirSync(join(root, 'fixtures', 'resources'))
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(root, 'fixtures', 'resources', f), 'utf8')).map((d) => d.toJS()))
    .filter((o) => o && typeof o === 'object');
  const core = [];
  for (const revision of ['A', 'B']) {
    const out = execFileSync(join(root, 'bin', 'agentplat'), ['render', '-r', revision, '-o', 'json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    for (const o of JSON.parse(out).items) {
      if (o.apiVersion.startsWith(`${GROUP}/`)) crs.push(o);
      else if (CORE_KINDS.includes(o.kind)) core.push(o);
    }
  }
  return { crs, core };
}

/**
 * Writes `objects` objects into `dir` (created), in files of 1 to 20 documents. `crOnly`: custom
 * resources only (what both tools check in full while validate has no core-kind schemas).
 * Returns what was written: files, objects by kind, and how many objects are invalid.
 */
export function writeCorpus(dir, { objects, seed = 1, crOnly = false, templates }) {
  const rnd = random(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const byKind = {};
  let invalid = 0;
  let files = 0;
  mkdirSync(dir, { recursive: true });
  for (let n = 0; n < objects; ) {
    const size = Math.min(objects - n, 1 + Math.floor(rnd() * 20));
    const docs = [];
    for (let i = 0; i < size; i++, n++) {
      const cr = crOnly || rnd() < 0.4;
      const o = structuredClone(pick(cr ? templates.crs : templates.core));
      o.metadata = { ...o.metadata, name: `${String(o.metadata?.name ?? o.kind.toLowerCase()).slice(0, 40)}-${n}` };
      if (o.metadata.namespace !== undefined || cr) o.metadata.namespace = `team-${Math.floor(rnd() * 8)}`;
      if (cr && rnd() < 0.01) {
        breakObject(o, rnd);
        invalid++;
      }
      byKind[o.kind] = (byKind[o.kind] ?? 0) + 1;
      docs.push(stringify(o, { lineWidth: 0 }));
    }
    const sub = join(dir, `part-${String(files % 16).padStart(2, '0')}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `objects-${String(files).padStart(5, '0')}.yaml`), docs.join('---\n'));
    files++;
  }
  return { dir, files, objects, byKind, invalid };
}

/** One fault both tools see from the schema alone: an unknown field, or a number for a string. */
function breakObject(o, rnd) {
  const spec = o.spec ?? (o.spec = {});
  const text = Object.keys(spec).find((k) => typeof spec[k] === 'string');
  if (text !== undefined && rnd() < 0.5) spec[text] = 12345;
  else spec.unknownField = 'x';
}

/** `-apps-v1`, `-v1`, `-agentplat-v1alpha2`: kubeconform's KindSuffix of an apiVersion. */
function kindSuffix(apiVersion) {
  const parts = apiVersion.split('/');
  return parts.length > 1 ? `-${parts[0].split('.')[0].toLowerCase()}-${parts[1].toLowerCase()}` : `-${parts[0].toLowerCase()}`;
}

/**
 * Writes the strict standalone schemas of the core kinds and of the agentplat.dev custom
 * resources into `dir`; returns how many were written. `openapi` is the folder of the Kubernetes
 * OpenAPI v3 documents (api/openapi-spec/v3 of the k8s.io/kubernetes module).
 */
export function writeKubeconformSchemas(dir, { root, openapi, kinds = CORE_KINDS }) {
  mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const f of readdirSync(openapi).filter((f) => f.endsWith('_openapi.json'))) {
    const schemas = JSON.parse(readFileSync(join(openapi, f), 'utf8')).components?.schemas ?? {};
    for (const s of Object.values(schemas)) {
      for (const gvk of s['x-kubernetes-group-version-kind'] ?? []) {
        if (!kinds.includes(gvk.kind)) continue;
        const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
        const file = join(dir, `${gvk.kind.toLowerCase()}${kindSuffix(apiVersion)}-strict.json`);
        if (existsSync(file)) continue;
        writeFileSync(file, JSON.stringify(standalone(s, schemas)));
        written++;
      }
    }
  }
  const crds = JSON.parse(execFileSync(join(root, 'bin', 'agentplat'), ['crds', '-o', 'json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
  for (const crd of crds.items ?? crds) {
    if (crd.spec.group !== GROUP) continue;
    for (const v of crd.spec.versions) {
      const file = join(dir, `${crd.spec.names.kind.toLowerCase()}${kindSuffix(`${GROUP}/${v.name}`)}-strict.json`);
      writeFileSync(file, JSON.stringify(closeCrdSchema(v.schema.openAPIV3Schema)));
      written++;
    }
  }
  return written;
}

/**
 * An OpenAPI schema with every `$ref` written out (a reference back into itself becomes `{}`),
 * descriptions and `x-kubernetes-*` dropped, and objects with properties closed
 * (`additionalProperties: false`), as kubeconform's strict schemas are.
 */
function standalone(s, schemas, stack = []) {
  if (Array.isArray(s)) return s.map((x) => standalone(x, schemas, stack));
  if (!s || typeof s !== 'object') return s;
  if (typeof s.$ref === 'string') {
    const id = s.$ref.replace('#/components/schemas/', '');
    return stack.includes(id) ? {} : standalone(schemas[id], schemas, [...stack, id]);
  }
  // `allOf: [{$ref}]` with a default beside it: the referenced schema.
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return standalone(s.allOf[0], schemas, stack);
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'description' || k === 'default' || k.startsWith('x-kubernetes-')) continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v).map(([p, sub]) => [p, standalone(sub, schemas, stack)])) : standalone(v, schemas, stack);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** A CRD's openAPIV3Schema made strict for kubeconform: int-or-string spelled out, objects closed. */
function closeCrdSchema(s) {
  if (Array.isArray(s)) return s.map(closeCrdSchema);
  if (!s || typeof s !== 'object') return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'description' || k.startsWith('x-kubernetes-')) continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v).map(([p, sub]) => [p, closeCrdSchema(sub)])) : closeCrdSchema(v);
  }
  if (s['x-kubernetes-int-or-string']) return { ...out, type: undefined, oneOf: [{ type: 'integer' }, { type: 'string' }] };
  if (out.properties && out.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return out;
}
