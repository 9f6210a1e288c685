// Random edits of a JSON document, for the property tests that hold a schema walker
// (src/chart/schema-accepts.ts) to ajv: values that probe every keyword, put anywhere in a tree.
import fc from 'fast-check';

type Json = unknown;

/** Values that probe every keyword: non-finite and fractional numbers, lengths, code points, dates, URIs. */
export const probe: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, -1, 2 ** 31, 2 ** 53 + 2, 1e308),
  fc.constantFrom('', 'x', 'a'.repeat(64), 'a'.repeat(254), 'a'.repeat(256), '😀'.repeat(63), '😀'.repeat(64), '\ud800', 'é'.repeat(300)),
  fc.constantFrom('2024-01-01T00:00:00Z', '2024-02-30T00:00:00Z', '2024-01-01', 'not a date', 'http://example.com/x', 'https://a.b/c?d#e', 'ftp:x', 'no scheme', 's3://bucket/key', 'urn:x'),
  fc.constantFrom('Declarative', 'BYO', 'ProviderB', 'ServiceAccountExchange', 'IfNotPresent', 'TCP', 'Exists'),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
);

/** Every [container, key] of a tree, in a stable order. */
function slots(root: Json): [Record<string, Json> | Json[], string | number][] {
  const out: [Record<string, Json> | Json[], string | number][] = [];
  const walk = (v: Json): void => {
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([v, i]), walk(x)));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.push([v as Record<string, Json>, k]), walk(x));
  };
  walk(root);
  return out;
}

const edit = fc.record({
  op: fc.constantFrom('replace', 'delete', 'add', 'duplicate'),
  where: fc.nat(),
  value: probe,
  key: fc.constantFrom('unknownField', 'name', 'type', 'value', 'image', 'x'),
  // Copies a duplicated list item gets: past the schemas' maxItems too.
  copies: fc.constantFrom(1, 2, 30),
});

/** `docs`, one of them, with up to five edits anywhere in it (a copy). */
export function editedOneOf(docs: readonly Json[]): fc.Arbitrary<Json> {
  return fc.tuple(fc.constantFrom(...docs), fc.array(edit, { minLength: 1, maxLength: 5 })).map(([o, edits]) => {
    const doc = structuredClone(o);
    for (const e of edits) {
      const all = slots(doc);
      if (all.length === 0) break;
      const [container, key] = all[e.where % all.length]!;
      const c = container as Record<string | number, Json>;
      if (e.op === 'replace') c[key] = e.value;
      else if (e.op === 'delete') {
        if (Array.isArray(container)) container.splice(key as number, 1);
        else delete c[key];
      } else if (e.op === 'add') {
        const target = c[key];
        if (target !== null && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, Json>)[e.key] = e.value;
      } else if (Array.isArray(c[key])) for (let i = 0; i < e.copies; i++) (c[key] as Json[]).push(structuredClone((c[key] as Json[])[0] ?? e.value));
    }
    return doc;
  });
}
