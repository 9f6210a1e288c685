// Expands the Kubernetes core types our CRDs embed (EnvVar, Volume, Container, …) into
// structural OpenAPI schemas and writes them as a data module: src/crds/k8s-schemas.generated.ts.
// Field names, optionality, enums and nesting come from kubernetes-models' type declarations;
// integer vs number, and which integers are int32, is asked of its models' `validate`. Everything
// is reached through the packages' `exports` (types through TypeScript's own resolution, models by import).
// Run: node scripts/gen-crd-k8s.mjs
import ts from 'typescript';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The roots our model references, by the short name the model uses: the public module of each type. */
const ROOTS = {
  Condition: '@kubernetes-models/apimachinery/apis/meta/v1/Condition',
  LabelSelector: '@kubernetes-models/apimachinery/apis/meta/v1/LabelSelector',
  EnvVar: 'kubernetes-models/v1/EnvVar',
  EnvFromSource: 'kubernetes-models/v1/EnvFromSource',
  Volume: 'kubernetes-models/v1/Volume',
  VolumeMount: 'kubernetes-models/v1/VolumeMount',
  ResourceRequirements: 'kubernetes-models/v1/ResourceRequirements',
  Toleration: 'kubernetes-models/v1/Toleration',
  Affinity: 'kubernetes-models/v1/Affinity',
  SecurityContext: 'kubernetes-models/v1/SecurityContext',
  PodSecurityContext: 'kubernetes-models/v1/PodSecurityContext',
  Container: 'kubernetes-models/v1/Container',
  LocalObjectReference: 'kubernetes-models/v1/LocalObjectReference',
  ConfigMapKeySelector: 'kubernetes-models/v1/ConfigMapKeySelector',
};

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/**
 * The bounds of an int32 field as a CRD states them. They are what the API server checks in a
 * custom resource, so a value that would be refused once it is copied into a Pod is refused
 * already in the custom resource, by the server and by `validate` alike. On an int-or-string they
 * sit on the node, not on its integer branch: the API server takes an int-or-string anyOf only in
 * its bare form, and minimum and maximum apply to numbers alone, so a string still passes.
 */
const INT32_BOUNDS = { minimum: INT32_MIN, maximum: INT32_MAX };

const RESOLVE = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };

/** The declaration file TypeScript reads for `spec` imported from `fromFile` (exports' "types" condition). */
function declarationOf(spec, fromFile) {
  const r = ts.resolveModuleName(spec, fromFile, RESOLVE, ts.sys).resolvedModule;
  if (!r || !r.resolvedFileName.endsWith('.d.ts')) throw new Error(`cannot resolve the types of ${spec} from ${fromFile}`);
  return r.resolvedFileName;
}

/** The public module path of a declaration file: its package's name and the file's path in it. */
function publicModuleOf(file) {
  let dir = dirname(file);
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error(`no package around ${file}`);
    dir = dirname(dir);
  }
  const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return `${name}/${relative(dir, file).replace(/\.d\.ts$/, '').split('\\').join('/')}`;
}

const INT_OR_STRING = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
/** Leaf types of apimachinery that are not objects. */
const LEAVES = {
  IIoK8sApimachineryPkgApiResourceQuantity: INT_OR_STRING,
  IIoK8sApimachineryPkgUtilIntstrIntOrString: INT_OR_STRING,
  IIoK8sApimachineryPkgApisMetaV1Time: { type: 'string', format: 'date-time' },
  IIoK8sApimachineryPkgApisMetaV1MicroTime: { type: 'string', format: 'date-time' },
  // Embedded object metadata (volume claim templates): the fields a template may carry.
  IIoK8sApimachineryPkgApisMetaV1ObjectMeta: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      namespace: { type: 'string' },
      generateName: { type: 'string' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      finalizers: { type: 'array', items: { type: 'string' } },
    },
  },
};

const defs = {};

function defName(file) {
  return file.replace(/\.d\.ts$/, '').split('/').slice(-1)[0];
}

/**
 * The errors the type's model reports for `data` (`validate()` throws a ValidationError holding
 * ajv's errors), to tell integers from numbers.
 */
async function validatorFor(file, iface) {
  const mod = await import(publicModuleOf(file));
  const Model = mod[iface.replace(/^I/, '')];
  if (typeof Model !== 'function') throw new Error(`no model ${iface.replace(/^I/, '')} in ${publicModuleOf(file)}`);
  return (data) => {
    try {
      new Model(data).validate();
      return [];
    } catch (err) {
      if (!Array.isArray(err?.errors)) throw err;
      return err.errors;
    }
  };
}

async function expand(file) {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const imports = new Map();
  let iface;
  for (const st of src.statements) {
    if (ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)) {
      for (const el of st.importClause.namedBindings.elements) imports.set(el.name.text, declarationOf(st.moduleSpecifier.text, file));
    }
    if (ts.isInterfaceDeclaration(st) && !iface) iface = st;
  }
  if (!iface) throw new Error(`no interface in ${file}`);
  const exportedName = `IIoK8s${exportSuffix(src)}`;
  const validate = await validatorFor(file, exportedName);
  const properties = {};
  const required = [];
  for (const m of iface.members) {
    if (!ts.isPropertySignature(m)) continue;
    const key = m.name.text;
    if (key === 'apiVersion' || key === 'kind') continue;
    if (!m.questionToken) required.push(key);
    properties[key] = await typeSchema(m.type, { file, imports, validate, path: [key] });
  }
  const schema = { type: 'object', properties };
  if (required.length) schema.required = required.sort();
  return schema;
}

function exportSuffix(src) {
  const m = /export \{ I\w+ as IIoK8s(\w+),/.exec(src.text);
  if (!m) throw new Error(`no export alias in ${src.fileName}`);
  return m[1];
}

async function typeSchema(node, ctx) {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: 'string' };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: 'boolean' };
    case ts.SyntaxKind.NumberKeyword:
      return numberSchema(ctx);
  }
  if (ts.isUnionTypeNode(node)) {
    const values = node.types.map((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? t.literal.text : null));
    if (values.every((v) => v !== null)) return { type: 'string', enum: values };
    throw new Error(`unsupported union at ${ctx.path.join('.')}`);
  }
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText();
    if (name === 'Array') return { type: 'array', items: await typeSchema(node.typeArguments[0], { ...ctx, path: [...ctx.path, 0] }) };
    if (LEAVES[name] === INT_OR_STRING) return refuses(ctx, 2 ** 31, 'format', 'int32') ? { ...INT_OR_STRING, ...INT32_BOUNDS } : INT_OR_STRING;
    if (LEAVES[name]) return LEAVES[name];
    const target = ctx.imports.get(name);
    if (!target) throw new Error(`unresolved type ${name} in ${ctx.file}`);
    const id = defName(target);
    if (!defs[id]) {
      defs[id] = 'pending';
      defs[id] = await expand(target);
    }
    return { $def: id };
  }
  if (ts.isArrayTypeNode(node)) return { type: 'array', items: await typeSchema(node.elementType, { ...ctx, path: [...ctx.path, 0] }) };
  if (ts.isTypeLiteralNode(node)) {
    const idx = node.members.find(ts.isIndexSignatureDeclaration);
    if (idx) return { type: 'object', additionalProperties: await typeSchema(idx.type, { ...ctx, path: [...ctx.path, 'k'] }) };
  }
  throw new Error(`unsupported type ${ts.SyntaxKind[node.kind]} at ${ctx.path.join('.')} in ${ctx.file}`);
}

/**
 * The schema of a number field, asked of the compiled validator: 1.5 is refused there as "not an
 * integer" on an integer field, and 2^31 as "not int32" on a field Kubernetes declares int32 (an
 * int64 field needs no bound of its own: every integer of a custom resource is decoded as an
 * int64). apimachinery ships no validators; its few numbers (generations) are int64.
 */
function numberSchema(ctx) {
  if (!ctx.validate) return { type: 'integer' };
  if (!refuses(ctx, 1.5, 'type', 'integer')) return { type: 'number' };
  return refuses(ctx, 2 ** 31, 'format', 'int32') ? { type: 'integer', format: 'int32', ...INT32_BOUNDS } : { type: 'integer' };
}

/** Whether the type's validator refuses `value` at the field of `ctx` for `keyword` (`type` or `format`) `what`. */
function refuses(ctx, value, keyword, what) {
  if (!ctx.validate) return false;
  const data = {};
  let cur = data;
  const path = ctx.path;
  for (let i = 0; i < path.length - 1; i++) {
    const next = typeof path[i + 1] === 'number' ? [] : {};
    cur[path[i]] = next;
    cur = next;
  }
  cur[path[path.length - 1]] = value;
  const errs = ctx.validate(data);
  const at = '/' + path.join('/');
  return errs.some((e) => e.instancePath === at && e.keyword === keyword && e.params?.[keyword] === what);
}

const roots = {};
for (const [short, spec] of Object.entries(ROOTS)) {
  const file = declarationOf(spec, join(root, 'package.json'));
  const id = defName(file);
  if (!defs[id] || defs[id] === 'pending') defs[id] = await expand(file);
  roots[short] = id;
}

const sorted = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]]));
const out = join(root, 'src', 'crds', 'k8s-schemas.generated.ts');
writeFileSync(
  out,
  '// GENERATED by scripts/gen-crd-k8s.mjs from kubernetes-models; do not edit.\n' +
    '// Structural schemas of the Kubernetes types the CRDs embed; `$def` names another entry.\n' +
    "import type { K8sDefs } from './k8s-types.ts';\n\n" +
    `export const K8S_ROOTS: Record<string, string> = ${JSON.stringify(roots, null, 2)};\n\n` +
    `export const K8S_DEFS: K8sDefs = JSON.parse(${JSON.stringify(JSON.stringify(sorted))});\n`,
);
console.log(`wrote ${out}: ${Object.keys(sorted).length} types`);
