// Issue 8, fuzzing of custom resources for `validate`: the example resources (fixtures/resources)
// mutated structurally (fields deleted, replaced by random JSON, unknown fields added, lists
// grown, kinds swapped) and as text (the values-file mutations: truncation, indentation, aliases,
// tags, deep nesting …), through `validate -` in-process. Whatever the document: no uncaught
// exception, no internal error, no stack trace, exit 0, 1 or 2, a bounded time per input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { cli, expectContract } from './_cli.ts';
import { corpus, mutatedYaml } from './_mutate.ts';
import { fcParams, seedTitle } from './_seed.ts';

const RUNS = 10_000;
const KINDS = ['Agent', 'SandboxAgent', 'AgentHarness', 'ModelConfig', 'ModelProviderConfig', 'RemoteMCPServer', 'MCPServer', 'Agnet'];
const FILES = corpus('fixtures/resources');
const OBJECTS = FILES.flatMap((t) => parseAllDocuments(t).map((d) => d.toJS() as unknown)).filter((o) => o !== null && typeof o === 'object');

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

const structural = fc.tuple(fc.constantFrom(...OBJECTS), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.nat({ max: 2 })).map(([o, edits, extra]) => {
  const docs = [edits.reduce(applyEdit, structuredClone(o))];
  for (let i = 0; i < extra; i++) docs.push(structuredClone(OBJECTS[(i * 3 + edits.length) % OBJECTS.length]));
  return docs.map((d) => stringify(d)).join('---\n');
});

describe('fuzz: custom resources for validate', () => {
  it('the corpus holds every example resource', () => {
    expect(OBJECTS.length).toBeGreaterThanOrEqual(7);
  });

  it(`validate: exit 0/1/2, no crash, no trace, no hang, JSON reports parse ${seedTitle(400, RUNS)}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 3, arbitrary: structural }, { weight: 2, arbitrary: mutatedYaml(FILES) }), fc.constantFrom('text', 'json'), async (text, format) => {
        n++;
        const argv = ['validate', '--format', format, '-'];
        const what = `agentplat ${argv.join(' ')} <<< ${JSON.stringify(text.slice(0, 3000))}`;
        const r = await cli(argv, text);
        expectContract(r, what);
        if (r.code !== 2 && format === 'json') expect(() => JSON.parse(r.out), what).not.toThrow();
      }),
      fcParams(400, RUNS),
    );
    expect(n).toBeGreaterThanOrEqual(RUNS);
  }, 120_000);
});
