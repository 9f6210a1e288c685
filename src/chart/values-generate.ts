// Turns the values model into the two artefacts other code reads: the commented defaults file
// (values/revision-<x>.yaml) and the JSON schema (schemas/values-<x>.schema.json) of a revision.

import { Document, isMap, isScalar, type Pair, type YAMLMap } from 'yaml';
import { REVISIONS, type Revision } from './revisions.ts';
import { defaultsOf, inRevision, pick, VALUES_MODEL } from './values-model.ts';
import { ByRevision, K8S, type Group, type JsonSchema, type Leaf, type Node } from './values-nodes.ts';

/** Non-validating keywords the values schemas use; register them with ajv (strict mode). */
export const VALUES_SCHEMA_KEYWORDS = ['markdownDescription', 'x-agentplat-secret', 'x-agentplat-kind'] as const;

/** Value kinds named on a leaf (`x-agentplat-kind`) so messages can explain the expected notation. */
const KINDS = new Set(['quantity', 'duration', 'int-or-string']);

const other = (rev: Revision): Revision => (rev === 'A' ? 'B' : 'A');

// ---- defaults file ---------------------------------------------------------------------

export function valuesYaml(rev: Revision): string {
  const doc = new Document(defaultsOf(rev));
  annotate(doc.contents as YAMLMap, VALUES_MODEL, rev);
  const v = REVISIONS[rev].chartVersion;
  // This file is what `agentplat values` prints, byte for byte: users start their values files
  // from it, and findings in the defaults name its lines. So the header speaks to them (no note
  // for this repository's developers) and points editors at the schema `agentplat schema` writes.
  doc.commentBefore =
    ` yaml-language-server: $schema=./agentplat.schema.json\n` +
    ` Default values of the agentplat chart, revision ${rev} (chart version ${v}).\n` +
    ` Editor completion: agentplat schema --revision ${rev} > agentplat.schema.json (read by the line above).\n` +
    ` Pass your own file with -f; maps merge into these, lists replace them, null removes a key.`;
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

function annotate(map: YAMLMap, g: Group, rev: Revision): void {
  (map.items as Pair[]).forEach((item, index) => {
    if (!isScalar(item.key)) return;
    const child = g.children[String(item.key.value)];
    const n = child && inRevision(child, rev);
    if (!n) return;
    const lines = [` ${n.doc}`];
    if (n.kind === 'leaf' && n.default instanceof ByRevision) lines.push(` (revision ${other(rev)} default: ${yamlScalar(n.default[other(rev)])})`);
    const banner = n.banner ?? (child.kind === 'split' ? child.banner : undefined);
    if (banner) {
      // The document comment already ends with a blank line before the first key.
      item.key.spaceBefore = !(g === VALUES_MODEL && index === 0);
      item.key.commentBefore = [` ---- ${banner} ----`, '', ...lines].join('\n');
    } else {
      item.key.commentBefore = lines.join('\n');
    }
    if (n.kind === 'group' && isMap(item.value)) annotate(item.value, n, rev);
  });
}

/** A default as it would be written in YAML, for the "other revision" note. */
function yamlScalar(v: unknown): string {
  return new Document(v).toString({ lineWidth: 0 }).trim();
}

// ---- JSON schema -----------------------------------------------------------------------

export function valuesSchema(rev: Revision, k8sDefinitions: Record<string, JsonSchema>): JsonSchema {
  const root = groupSchema(VALUES_MODEL, rev, true);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `agentplat chart values, revision ${rev} (chart ${REVISIONS[rev].chartVersion})`,
    ...root,
    definitions: k8sDefinitions,
  };
}

/** Kubernetes types the values reference; the generator derives them with their dependencies. */
export const K8S_ROOTS: readonly string[] = Object.values(K8S);

function revisionNote(node: Node, rev: Revision): string {
  if (node.only) return `Only in revision ${rev}.`;
  return 'Revisions A and B.';
}

function annotations(node: Leaf | Group, rev: Revision, outer: Node, def: unknown, hasDefault: boolean): JsonSchema {
  const md = [node.doc];
  if (hasDefault) md.push(`Default: \`${JSON.stringify(def)}\``);
  if (node.kind === 'leaf' && node.default instanceof ByRevision) md.push(`Revision ${other(rev)} default: \`${JSON.stringify(node.default[other(rev)])}\``);
  if (node.optional) md.push('Optional: not set by default.');
  md.push(revisionNote(outer.only ? outer : node, rev));
  return {
    description: node.doc,
    markdownDescription: md.join('\n\n'),
    ...(hasDefault ? { default: def } : {}),
  };
}

function nodeSchema(outer: Node, rev: Revision): JsonSchema | undefined {
  const n = inRevision(outer, rev);
  if (!n) return undefined;
  if (n.kind === 'group') return groupSchema(n, rev, false, outer);
  const def = pick(n.default, rev);
  return {
    ...structuredClone(pick(n.schema, rev)),
    ...annotations(n, rev, outer, def, !n.optional),
    ...(n.secret ? { 'x-agentplat-secret': true } : {}),
    ...(KINDS.has(n.type) ? { 'x-agentplat-kind': n.type } : {}),
  };
}

function groupSchema(g: Group, rev: Revision, isRoot: boolean, outer: Node = g): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, child] of Object.entries(g.children)) {
    const s = nodeSchema(child, rev);
    if (s) properties[key] = s;
  }
  const closed = g.open === undefined;
  return {
    type: 'object',
    ...(isRoot ? { description: g.doc } : annotations(g, rev, outer, defaultsOf(rev, g), !g.optional)),
    properties,
    ...(g.patternProperties ? { patternProperties: structuredClone(pick(g.patternProperties, rev)) } : {}),
    ...(closed ? { additionalProperties: false } : {}),
    ...(g.open !== undefined && g.open !== true
      ? '$ref' in g.open ? { allOf: [structuredClone(g.open)] } : { additionalProperties: structuredClone(g.open) }
      : {}),
  };
}

/** Pretty JSON with a trailing newline, as committed. */
export function schemaText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

// ---- secret fields ---------------------------------------------------------------------

/**
 * Paths of the fields a values schema marks `x-agentplat-secret`, `*` standing for a key of
 * patternProperties or additionalProperties and for a list entry. Kubernetes definitions hold no
 * secret of the chart and are not followed.
 */
export function secretFieldPatterns(schema: JsonSchema): string[][] {
  const out: string[][] = [];
  const walk = (n: unknown, path: string[]): void => {
    if (n === null || typeof n !== 'object') return;
    const s = n as JsonSchema;
    if (s['x-agentplat-secret'] === true) {
      out.push(path);
      return;
    }
    for (const [k, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) walk(sub, [...path, k]);
    for (const sub of Object.values((s.patternProperties ?? {}) as Record<string, unknown>)) walk(sub, [...path, '*']);
    if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, [...path, '*']);
    if (s.items) walk(s.items, [...path, '*']);
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) for (const sub of (s[k] ?? []) as unknown[]) walk(sub, path);
  };
  walk(schema, []);
  return out;
}

/** The TypeScript module of the secret fields of every revision's values (src/problems/values-secret-fields.generated.ts). */
export function secretFieldsModule(schemas: readonly JsonSchema[]): string {
  const all = new Map<string, string[]>();
  for (const s of schemas) for (const p of secretFieldPatterns(s)) all.set(p.join('.'), p);
  const sorted = [...all.keys()].sort().map((k) => all.get(k)!);
  return (
    '// GENERATED by scripts/gen-values.mjs from the fields src/chart/values-model.ts marks secret; do not edit.\n' +
    '// Every revision together: a key that is secret in one revision names a secret in the other too.\n' +
    `export const VALUES_SECRET_FIELDS: readonly (readonly string[])[] = [\n${sorted.map((p) => `  ${JSON.stringify(p)},\n`).join('')}];\n`
  );
}
