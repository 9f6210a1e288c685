// Writes schemas/kubernetes/openapi.json: the schemas `agentplat validate` checks core Kubernetes
// objects against, taken from each supported release's own OpenAPI (api/openapi-spec/v3/*.json in
// the k8s.io/kubernetes Go module, fetched with `go mod download`, so it works on any machine with
// Go and the module proxy). Only the stable built-in groups (api/v1 and apis/<group>/v<N>) are
// read, each kind's definition and the definitions it reaches are kept, and every definition is
// reduced to what validation reads (no descriptions, no patch or list-type annotations). A
// definition that is the same in two releases is written once.
//
// Run: node scripts/gen-k8s-openapi.mjs            (writes the file)
//      node scripts/gen-k8s-openapi.mjs --check    (exit 1 when the committed file differs)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = join(root, 'schemas', 'kubernetes', 'openapi.json');
export const CRDS_OUTPUT = join(root, 'schemas', 'kubernetes', 'crds.json');
export const SUMS = join(root, 'schemas', 'kubernetes', 'SHA256SUMS');

/**
 * The foreign CRDs the chart renders objects of, from the Go modules of the projects that publish
 * them (the CRD files those projects release): the kinds kept of each file, by its path in the module.
 */
export const FOREIGN_CRDS = [
  { module: 'github.com/prometheus-operator/prometheus-operator', version: 'v0.85.0', files: ['example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml', 'example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml'] },
  { module: 'sigs.k8s.io/gateway-api', version: 'v1.3.0', files: ['config/crd/standard/gateway.networking.k8s.io_httproutes.yaml', 'config/crd/standard/gateway.networking.k8s.io_gateways.yaml', 'config/crd/standard/gateway.networking.k8s.io_grpcroutes.yaml'] },
];

/** The releases validate supports (`--kube-version`), by minor version: the cluster suite's two. */
export const RELEASES = { '1.34': 'v1.34.4', '1.37': 'v1.37.2' };

const MODULE = 'k8s.io/kubernetes';
const SPEC_DIR = join('api', 'openapi-spec', 'v3');
const ENUMS_FILE = join('pkg', 'generated', 'openapi', 'zz_generated.openapi.go');

/** A module's folder in the Go module cache, downloaded when absent; and its checksum. */
export function moduleDir(version, module = MODULE) {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], { encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' } });
  const info = JSON.parse(out);
  if (info.Error) throw new Error(`go mod download ${module}@${version}: ${info.Error}`);
  return { dir: info.Dir, sum: info.Sum };
}

/** A CRD's schema node reduced to what validation reads (no descriptions). */
function compactCrdSchema(node) {
  if (Array.isArray(node)) return node.map(compactCrdSchema);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const k of Object.keys(node).sort()) {
    if (k === 'description' || k === 'example' || k === 'externalDocs' || k === 'title') continue;
    // Property names and enum values are data, not schema keywords.
    out[k] = k === 'properties' ? Object.fromEntries(Object.keys(node[k]).sort().map((p) => [p, compactCrdSchema(node[k][p])])) : k === 'enum' || k === 'default' ? node[k] : compactCrdSchema(node[k]);
  }
  return out;
}

/**
 * The served versions of the foreign CRDs: `group/version/Kind` → the version's schema, without
 * apiVersion, kind and metadata at the root (validate checks those as for every object: metadata
 * is ObjectMeta). `texts` maps each module file to its YAML text.
 */
export async function buildCrdsData(sources) {
  const { parseAllDocuments } = await import('yaml');
  const kinds = {};
  const origin = {};
  for (const { module, version, sum, texts } of sources) {
    for (const [file, text] of Object.entries(texts)) {
      for (const doc of parseAllDocuments(text)) {
        const crd = doc.toJS();
        if (crd?.kind !== 'CustomResourceDefinition') continue;
        for (const v of crd.spec.versions) {
          if (!v.served) continue;
          const schema = compactCrdSchema(v.schema.openAPIV3Schema);
          for (const k of ['apiVersion', 'kind', 'metadata']) delete schema.properties?.[k];
          const key = `${crd.spec.group}/${v.name}/${crd.spec.names.kind}`;
          kinds[key] = { schema, ...(v.subresources?.status ? { statusSubresource: true } : {}) };
          origin[key] = `${module}@${version} ${file}`;
        }
      }
    }
  }
  return { origin: sortKeys(origin), sums: Object.fromEntries(sources.map((s) => [`${s.module}@${s.version}`, s.sum])), kinds: sortKeys(kinds) };
}

/** The file's text: one kind per line. */
export function crdsText(data) {
  const lines = [`{"origin":${JSON.stringify(data.origin)},`, `"sums":${JSON.stringify(data.sums)},`, '"kinds":{'];
  const names = Object.keys(data.kinds);
  names.forEach((n, i) => lines.push(`${JSON.stringify(n)}:${JSON.stringify(data.kinds[n])}${i < names.length - 1 ? ',' : ''}`));
  lines.push('}}', '');
  return lines.join('\n');
}

/** The text of crds.json; `dirOf` as for generate(). */
export async function generateCrds(dirOf = (module, version) => moduleDir(version, module)) {
  const sources = FOREIGN_CRDS.map(({ module, version, files }) => {
    const { dir, sum } = dirOf(module, version);
    return { module, version, sum, texts: Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')])) };
  });
  return crdsText(await buildCrdsData(sources));
}

/** A stable group's file: api__v1_openapi.json or apis__<group>__v<N>_openapi.json. */
const STABLE_FILE = /^(?:api__(v\d+)|apis__([^_]+(?:_[^_]+)*)__(v\d+))_openapi\.json$/;

/** Definition names without the long package prefixes (no two collide; checked below). */
function shortName(full) {
  for (const prefix of ['io.k8s.api.', 'io.k8s.apimachinery.pkg.apis.', 'io.k8s.apimachinery.pkg.', 'io.k8s.apiextensions-apiserver.pkg.apis.', 'io.k8s.kube-aggregator.pkg.apis.']) {
    if (full.startsWith(prefix)) return full.slice(prefix.length);
  }
  return full;
}

const REF = '#/components/schemas/';

/**
 * Definitions whose Go type decodes JSON its own way, written as the JSON they accept:
 * int-or-string and quantities as formats validate knows; raw JSON as anything; a JSON schema's
 * "schema or bool/array" fields as the two shapes they take.
 */
const SPECIAL = {
  'util.intstr.IntOrString': { format: 'int-or-string' },
  'api.resource.Quantity': { format: 'quantity' },
  'runtime.RawExtension': {},
  'meta.v1.FieldsV1': {},
  'apiextensions.v1.JSON': {},
  'apiextensions.v1.JSONSchemaPropsOrBool': { anyOf: [{ type: 'boolean' }, { $ref: 'apiextensions.v1.JSONSchemaProps' }] },
  'apiextensions.v1.JSONSchemaPropsOrArray': { anyOf: [{ $ref: 'apiextensions.v1.JSONSchemaProps' }, { type: 'array', items: { $ref: 'apiextensions.v1.JSONSchemaProps' } }] },
  'apiextensions.v1.JSONSchemaPropsOrStringArray': { anyOf: [{ $ref: 'apiextensions.v1.JSONSchemaProps' }, { type: 'array', items: { type: 'string' } }] },
};

/** The formats validate checks; others (double, float) say nothing beyond the type. */
const FORMATS = new Set(['int32', 'int64', 'byte', 'date-time']);
const KEEP = new Set(['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string']);

/** A schema node reduced to what validation reads, with references by short name. */
function compact(node, where) {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) throw new Error(`${where}: not a schema`);
  if (Array.isArray(node.allOf)) {
    if (node.allOf.length !== 1 || Object.keys(node.allOf[0]).some((k) => k !== '$ref')) throw new Error(`${where}: an allOf other than one reference`);
    const rest = { ...node, ...node.allOf[0] };
    delete rest.allOf;
    return compact(rest, where);
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    switch (k) {
      case '$ref':
        if (!v.startsWith(REF)) throw new Error(`${where}: reference ${v}`);
        out.$ref = shortName(v.slice(REF.length));
        break;
      case 'type':
      case 'enum':
        out[k] = v;
        break;
      case 'format':
        if (FORMATS.has(v)) out.format = v;
        break;
      case 'required':
        if (v.length > 0) out.required = [...v].sort();
        break;
      case 'properties':
        out.properties = Object.fromEntries(Object.keys(v).sort().map((p) => [p, compact(v[p], `${where}.${p}`)]));
        break;
      case 'items':
      case 'additionalProperties':
        out[k] = typeof v === 'boolean' ? v : compact(v, `${where}.${k}`);
        break;
      case 'oneOf':
        throw new Error(`${where}: oneOf outside the known special types`);
      default:
        if (KEEP.has(k)) out[k] = v;
    }
  }
  return out;
}

function refsOf(node, into) {
  if (Array.isArray(node)) for (const n of node) refsOf(n, into);
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') into.add(v);
      else refsOf(v, into);
    }
  }
}

/**
 * The enums of the release's OpenAPI, which the published spec files leave out: the API server
 * serves them from its generated definitions (pkg/generated/openapi/zz_generated.openapi.go in the
 * same module), read here line by line. Returns `generated function → [path, values]`, the path made of
 * property names, `items` and `additionalProperties`.
 */
export function readEnums(goFile) {
  const out = {};
  let fn;
  let depth = 0;
  const stack = [];
  for (const l of readFileSync(goFile, 'utf8').split('\n')) {
    const start = /^func schema_(\w+)\(ref/.exec(l);
    if (start) {
      fn = start[1];
      depth = 0;
      stack.length = 0;
    }
    if (fn === undefined) continue;
    const prop = /^\s*"([^"]+)": \{\s*$/.exec(l);
    if (prop) stack.push({ seg: prop[1], depth });
    else if (/^\s*Items: &spec\.SchemaOrArray\{\s*$/.test(l)) stack.push({ seg: 'items', depth });
    else if (/^\s*AdditionalProperties: &spec\.SchemaOrBool\{\s*$/.test(l)) stack.push({ seg: 'additionalProperties', depth });
    const e = /^\s*Enum:\s*\[\]interface\{\}\{(.*)\},\s*$/.exec(l);
    if (e) (out[fn] ??= []).push([stack.map((x) => x.seg), JSON.parse(`[${e[1]}]`)]);
    const bare = l.replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, '');
    for (const c of bare) {
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
      }
    }
  }
  return out;
}

/**
 * The generated functions are named after the Go package and type, shortened
 * (`k8sio_api_core_v1_Container`, `pkg_apis_meta_v1_ObjectMeta`): a function is the definition
 * whose Go name (`k8s.io/api/core/v1.Container`) ends with the function's name, separators aside.
 */
function enumsByDefinition(fnEnums, fullNames) {
  const squash = (s) => s.replace(/[._/-]/g, '');
  const goNames = fullNames.map((full) => [full, squash(full.replace(/^io\.k8s\./, 'k8s.io/'))]);
  const out = {};
  for (const [fn, list] of Object.entries(fnEnums)) {
    const key = squash(fn);
    const hits = goNames.filter(([, go]) => go.endsWith(key));
    if (hits.length > 1) throw new Error(`schema_${fn} matches ${hits.map(([f]) => f).join(', ')}`);
    if (hits.length === 1) out[shortName(hits[0][0])] = list;
  }
  return out;
}

/** Puts each enum on its node of the compact definitions. */
function applyEnums(all, enums) {
  for (const [name, list] of Object.entries(enums)) {
    if (!Object.hasOwn(all, name)) continue;
    for (const [path, values] of list) {
      let node = all[name].node;
      for (const seg of path) node = seg === 'items' || seg === 'additionalProperties' ? node?.[seg] : node?.properties?.[seg];
      if (node === undefined || typeof node !== 'object') throw new Error(`${name}: no schema node at ${path.join('.')} for its enum`);
      node.enum = values;
    }
  }
}

/** One release's kinds and the definitions they reach, from its spec folder. */
export function readRelease(specDir, enums = {}) {
  const all = {};
  const kinds = {};
  const files = readdirSync(specDir).filter((f) => STABLE_FILE.test(f)).sort();
  for (const file of files) {
    const m = STABLE_FILE.exec(file);
    const group = m[1] ? '' : m[2];
    const version = m[1] ?? m[3];
    const schemas = JSON.parse(readFileSync(join(specDir, file), 'utf8')).components?.schemas ?? {};
    for (const [full, def] of Object.entries(schemas)) {
      const name = shortName(full);
      const node = Object.hasOwn(SPECIAL, name) ? SPECIAL[name] : compact(def, name);
      const seen = all[name];
      if (seen !== undefined && JSON.stringify(seen.node) !== JSON.stringify(node)) throw new Error(`${name}: two different definitions (${seen.full}, ${full})`);
      all[name] = { full, node };
      const gvks = def['x-kubernetes-group-version-kind'];
      // A kind of this group and version (not the option types every group lists, nor a List:
      // validate unpacks lists and checks their items).
      if (Array.isArray(gvks) && gvks.length === 1 && gvks[0].group === group && gvks[0].version === version && !full.startsWith('io.k8s.apimachinery.') && !gvks[0].kind.endsWith('List')) {
        kinds[`${group ? `${group}/` : ''}${version}/${gvks[0].kind}`] = name;
      }
    }
  }
  applyEnums(all, enumsByDefinition(enums, Object.values(all).map((d) => d.full)));
  // Keep what the kinds reach.
  const defs = {};
  const queue = Object.values(kinds);
  while (queue.length > 0) {
    const name = queue.pop();
    if (Object.hasOwn(defs, name)) continue;
    if (!Object.hasOwn(all, name)) throw new Error(`${name}: referenced but not defined`);
    defs[name] = all[name].node;
    const refs = new Set();
    refsOf(defs[name], refs);
    queue.push(...refs);
  }
  return { kinds: sortKeys(kinds), defs: sortKeys(defs) };
}

function sortKeys(o) {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}

/**
 * The data file from each release's spec folder: every definition once per distinct content
 * (`defs[name]` lists the variants), and per release its kinds and the variant of each definition.
 */
export function buildOpenapiData(releases) {
  const defs = {};
  const versions = {};
  for (const [minor, { version, sum, specDir, enumsFile }] of Object.entries(releases)) {
    const r = readRelease(specDir, readEnums(enumsFile));
    const variants = {};
    for (const [name, node] of Object.entries(r.defs)) {
      const list = (defs[name] ??= []);
      const text = JSON.stringify(node);
      let i = list.findIndex((n) => JSON.stringify(n) === text);
      if (i < 0) i = list.push(node) - 1;
      variants[name] = i;
    }
    versions[minor] = { source: `${MODULE}@${version} ${SPEC_DIR}, enums from ${ENUMS_FILE}`, sum, kinds: r.kinds, defs: variants };
  }
  return { versions, defs: sortKeys(defs) };
}

/** The file's text: one definition per line, so a new release's diff reads definition by definition. */
export function openapiText(data) {
  const lines = ['{"versions":' + JSON.stringify(data.versions) + ',', '"defs":{'];
  const names = Object.keys(data.defs);
  names.forEach((n, i) => lines.push(`${JSON.stringify(n)}:${JSON.stringify(data.defs[n])}${i < names.length - 1 ? ',' : ''}`));
  lines.push('}}', '');
  return lines.join('\n');
}

export function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The text of openapi.json. `dirOf(module, version)` gives a module's folder and checksum: by
 * default `go mod download`; a test passes the module cache's folders, to work without network.
 */
export function generate(dirOf = (module, version) => moduleDir(version, module)) {
  const releases = {};
  for (const [minor, version] of Object.entries(RELEASES)) {
    const { dir, sum } = dirOf(MODULE, version);
    const specDir = join(dir, SPEC_DIR);
    if (!existsSync(specDir)) throw new Error(`${specDir} is missing`);
    releases[minor] = { version, sum, specDir, enumsFile: join(dir, ENUMS_FILE) };
  }
  return openapiText(buildOpenapiData(releases));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outputs = [
    [OUTPUT, generate()],
    [CRDS_OUTPUT, await generateCrds()],
  ];
  let stale = false;
  // The hashes a test compares the committed files with where the modules are not at hand.
  outputs.push([SUMS, outputs.map(([file, text]) => `${sha256(text)}  ${basename(file)}\n`).join('')]);
  for (const [file, text] of outputs) {
    if (process.argv.includes('--check')) {
      const same = existsSync(file) && readFileSync(file, 'utf8') === text;
      stale ||= !same;
      console.log(same ? `${file} is up to date` : `${file} differs from what its sources make: run node scripts/gen-k8s-openapi.mjs`);
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${file} (${text.length} bytes, sha256 ${sha256(text)})`);
    }
  }
  process.exit(stale ? 1 : 0);
}
