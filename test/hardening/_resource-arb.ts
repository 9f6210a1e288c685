// Custom resources for the validate fuzz suite: the example resources (fixtures/resources) with
// structural edits (fields deleted, replaced by random JSON, unknown fields added, lists grown,
// kinds swapped), as YAML streams.
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { corpus } from './_mutate.ts';

const KINDS = ['Agent', 'SandboxAgent', 'AgentHarness', 'ModelConfig', 'ModelProviderConfig', 'RemoteMCPServer', 'MCPServer', 'Agnet'];
export const FILES = corpus('fixtures/resources');
export const OBJECTS = FILES.flatMap((t) => parseAllDocuments(t).map((d) => d.toJS() as unknown)).filter((o) => o !== null && typeof o === 'object');

type Json = unknown;
type Edit = { op: 'delete' | 'replace' | 'unknown' | 'grow' | 'kind'; where: number; value: Json; kind: string };

/** Every [container, key] of an object tree, in a stable order. */
function slots(root: Json): [Record<string, Json> | Json[], string | number][] {
  const out: [Record<string, Json> | Json[], string | number][] = [];
  const walk = (v: Json) => {
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([v, i]), walk(x)));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push([v as Record<string, Json>, k]), walk(x);
  };
  walk(root);
  return out;
}

function applyEdit(obj: Json, e: Edit): Json {
  const all = slots(obj);
  if (all.length === 0) return obj;
  const [container, key] = all[e.where % all.length]!;
  const c = container as Record<string | number, Json>;
  switch (e.op) {
    case 'delete':
      if (Array.isArray(container)) container.splice(key as number, 1);
      else delete c[key];
      break;
    case 'replace':
      c[key] = e.value;
      break;
    case 'unknown':
      if (c[key] !== null && typeof c[key] === 'object' && !Array.isArray(c[key])) (c[key] as Record<string, Json>)[`unknownField${e.where % 7}`] = e.value;
      else c[key] = { unexpected: e.value };
      break;
    case 'grow':
      if (Array.isArray(c[key])) (c[key] as Json[]).push(structuredClone((c[key] as Json[])[0] ?? e.value));
      else c[key] = [c[key], e.value];
      break;
    case 'kind':
      (obj as Record<string, Json>).kind = e.kind;
      break;
  }
  return obj;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  op: fc.constantFrom('delete', 'replace', 'unknown', 'grow', 'kind'),
  where: fc.nat(),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', 'http://x', 'Declarative', 'BYO', 'ProviderB', 'ServiceAccountExchange', -1, 0, 1e308, 2 ** 53 + 1, true, null)),
  kind: fc.constantFrom(...KINDS),
});

/** A stream: one edited example resource, maybe followed by unedited ones. */
export const structural = fc.tuple(fc.constantFrom(...OBJECTS), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.nat({ max: 2 })).map(([o, edits, extra]) => {
  const docs = [edits.reduce(applyEdit, structuredClone(o))];
  for (let i = 0; i < extra; i++) docs.push(structuredClone(OBJECTS[(i * 3 + edits.length) % OBJECTS.length]));
  return docs.map((d) => stringify(d)).join('---\n');
});

