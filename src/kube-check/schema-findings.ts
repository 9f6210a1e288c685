// ajv's errors on a custom resource worded as the API server words them: one finding per fault,
// the unknown fields as its decoder names them, the offending value and the known fields read
// from the data and the schema (the validators are not verbose).
import type { ErrorObject } from 'ajv';
import { nearest } from '../problems/nearest.ts';
import { schemaSentence, showValue } from '../problems/schema-wording.ts';
import { coreUri, INT64_BOUND } from '../crds/ids.ts';
import { crdSchemas } from '../crds/crd-validators.ts';
import type { Json, Path, UnknownField } from './decode.ts';
import { pathText } from './openapi-check.ts';
import type { CrdRuleId } from './rules.ts';

/**
 * Drops the per-branch noise of anyOf (int-or-string) when the anyOf itself is reported, and an
 * integer-format error where a bound of the same field is reported: one finding per fault, the one
 * that names the bound.
 */
export function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
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
export function schemaFindings(errors: ErrorObject[], unknown: UnknownField[], root: Json, known: (path: Path) => string[]): Finding[] {
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
export function schemaAt(kind: string, version: string, path: Path): JsonSchemaNode | undefined {
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

export function pointerToPath(pointer: string): Path {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}
