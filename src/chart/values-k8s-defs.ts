// Derives JSON-schema definitions of the Kubernetes types the values pass through (Probe,
// SecurityContext, Volume, ...) from kubernetes-models' type declarations, at generation time.
// Its `_schemas` ship only compiled validators, so the declarations are the readable source.
// Every object type is closed (`additionalProperties: false`) so a typo inside one is caught.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { QUANTITY_PATTERN, type JsonSchema } from './values-nodes.ts';

const require = createRequire(import.meta.url);

interface Declared {
  file: string;
  /** Local names imported from other modules: local name -> [module file, exported name]. */
  imports: Map<string, string>;
  decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration;
}

function packageDir(pkg: string): string {
  return dirname(require.resolve(`${pkg}/package.json`));
}

/** Resolves an import specifier of a declaration file to the .d.ts it names. */
function resolveModule(fromFile: string, spec: string): string {
  if (spec.startsWith('.')) return resolve(dirname(fromFile), `${spec}.d.ts`);
  const m = /^(@[^/]+\/[^/]+|[^/]+)\/(.*)$/.exec(spec);
  if (!m) throw new Error(`cannot resolve ${spec} from ${fromFile}`);
  return join(packageDir(m[1]!), `${m[2]}.d.ts`);
}

/** Finds the declaration exported as `exportedName` (e.g. IIoK8sApiCoreV1Probe) in a file. */
function loadDeclaration(file: string, exportedName: string): Declared {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const imports = new Map<string, string>();
  let localName = exportedName;
  const decls = new Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration>();
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)) {
      const target = st.moduleSpecifier.text;
      if (target === '@kubernetes-models/base') continue;
      for (const el of st.importClause.namedBindings.elements) imports.set(el.name.text, resolveModule(file, target));
    } else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) if (el.name.text === exportedName && el.propertyName) localName = el.propertyName.text;
    } else if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) {
      decls.set(st.name.text, st);
    }
  }
  const decl = decls.get(localName);
  if (!decl) throw new Error(`${exportedName} not declared in ${file}`);
  return { file, imports, decl };
}

/**
 * An integer field the Kubernetes API declares int32 gets that type's bounds (the declarations
 * say only `number`): the library's own validator of the type is asked whether 2^31 is refused
 * there as "int32". int64 fields (runAsUser, terminationGracePeriodSeconds) stay unbounded.
 */
function boundInt32(schema: JsonSchema, declarationFile: string, key: string): JsonSchema {
  const list = schema.type === 'array' && (schema.items as JsonSchema | undefined)?.type === 'integer';
  if (schema.type !== 'integer' && !list) return schema;
  const js = declarationFile.replace(/\.d\.ts$/, '.js');
  const className = basename(js, '.js');
  let model: (new (data: object) => { validate(): void }) | undefined;
  try {
    model = (require(js) as Record<string, new (data: object) => { validate(): void }>)[className];
  } catch {
    return schema;
  }
  if (!model) return schema;
  const tooBig = 2 ** 31;
  try {
    new model({ [key]: list ? [tooBig] : tooBig }).validate();
    return schema;
  } catch (err) {
    const at = `data/${key}${list ? '/0' : ''} must match format "int32"`;
    if (!String((err as Error).message).includes(at)) return schema;
  }
  const bounds = { minimum: Math.max(-(2 ** 31), Number(schema.minimum ?? -(2 ** 31))), maximum: 2 ** 31 - 1 };
  return list ? { ...schema, items: { ...(schema.items as JsonSchema), ...bounds } } : { ...schema, ...bounds };
}

/** Definition name used in the schema: the exported name without the interface `I`. */
const defName = (exportedName: string) => exportedName.replace(/^I/, '');

export interface K8sDefinitions {
  definitions: Record<string, JsonSchema>;
}

/**
 * Builds `definitions` for the given roots (e.g. IoK8sApiCoreV1Probe) and every type they use.
 * Numbers of these types are all integers in Kubernetes (counts, seconds, ports, modes).
 */
export function deriveK8sDefinitions(roots: readonly string[]): Record<string, JsonSchema> {
  const definitions: Record<string, JsonSchema> = {};
  // The API groups roots may come from, and their folder in kubernetes-models.
  const groupDirs: [RegExp, string][] = [
    [/^IoK8sApiCoreV1(.+)$/, 'v1'],
    [/^IoK8sApiRbacV1(.+)$/, 'rbac.authorization.k8s.io/v1'],
  ];
  const pending: [string, string][] = roots.map((r) => {
    for (const [re, dir] of groupDirs) {
      const m = re.exec(r);
      if (m) return [join(packageDir('kubernetes-models'), dir, `${m[1]}.d.ts`), `I${r}`];
    }
    throw new Error(`root ${r}: only core/v1 and rbac.authorization.k8s.io/v1 roots are supported`);
  });
  const seen = new Set<string>();

  const typeToSchema = (node: ts.TypeNode, d: Declared): JsonSchema => {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword: return { type: 'string' };
      case ts.SyntaxKind.NumberKeyword: return { type: 'integer' };
      case ts.SyntaxKind.BooleanKeyword: return { type: 'boolean' };
      case ts.SyntaxKind.AnyKeyword:
      case ts.SyntaxKind.UnknownKeyword: return {};
    }
    if (ts.isParenthesizedTypeNode(node)) return typeToSchema(node.type, d);
    if (ts.isArrayTypeNode(node)) return { type: 'array', items: typeToSchema(node.elementType, d) };
    if (ts.isUnionTypeNode(node)) {
      const lits = node.types.filter(ts.isLiteralTypeNode).map((t) => t.literal);
      if (lits.length === node.types.length && lits.every(ts.isStringLiteral)) return { type: 'string', enum: lits.map((l) => (l as ts.StringLiteral).text) };
      const kinds = new Set(node.types.map((t) => t.kind));
      // number | string: quantities and int-or-string; both spellings must pass.
      if (kinds.size === 2 && kinds.has(ts.SyntaxKind.NumberKeyword) && kinds.has(ts.SyntaxKind.StringKeyword)) {
        return { anyOf: [{ type: 'integer' }, { type: 'string' }] };
      }
      return { anyOf: node.types.map((t) => typeToSchema(t, d)) };
    }
    if (ts.isTypeLiteralNode(node)) {
      const index = node.members.find(ts.isIndexSignatureDeclaration);
      if (index && node.members.length === 1) return { type: 'object', additionalProperties: typeToSchema(index.type, d) };
      return objectSchema(node.members, d);
    }
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName.getText();
      if (name === 'Array' && node.typeArguments?.[0]) return { type: 'array', items: typeToSchema(node.typeArguments[0], d) };
      if (name === 'Record' && node.typeArguments?.[1]) return { type: 'object', additionalProperties: typeToSchema(node.typeArguments[1], d) };
      const file = d.imports.get(name);
      if (!file) throw new Error(`${d.file}: unresolved type ${name}`);
      enqueue(file, name);
      return { $ref: `#/definitions/${defName(name)}` };
    }
    throw new Error(`${d.file}: unsupported type node ${ts.SyntaxKind[node.kind]} (${node.getText()})`);
  };

  const objectSchema = (members: ts.NodeArray<ts.TypeElement>, d: Declared): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const m of members) {
      if (!ts.isPropertySignature(m) || !m.type) continue;
      const key = ts.isStringLiteral(m.name) || ts.isIdentifier(m.name) ? m.name.text : m.name.getText();
      properties[key] = boundInt32(typeToSchema(m.type, d), d.file, key);
      if (!m.questionToken) required.push(key);
    }
    // An empty declaration (FieldsV1, RawExtension) is free-form data, not a closed object.
    if (Object.keys(properties).length === 0) return { type: 'object' };
    return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
  };

  function enqueue(file: string, exportedName: string) {
    if (!seen.has(exportedName)) pending.push([file, exportedName]);
  }

  while (pending.length > 0) {
    const [file, exportedName] = pending.shift()!;
    if (seen.has(exportedName)) continue;
    seen.add(exportedName);
    const d = loadDeclaration(file, exportedName);
    definitions[defName(exportedName)] = ts.isInterfaceDeclaration(d.decl) ? objectSchema(d.decl.members, d) : typeToSchema(d.decl.type, d);
  }
  // Quantities may be fractional numbers (cpu: 0.5); strings follow the quantity notation.
  const quantity = 'IoK8sApimachineryPkgApiResourceQuantity';
  if (definitions[quantity]) definitions[quantity] = { anyOf: [{ type: 'number' }, { type: 'string', pattern: QUANTITY_PATTERN }] };
  return Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
