// Issue 7, validate: `holds` (src/kube-check/cel.ts) answers "the rule holds" for the usual object without
// the CEL evaluator. It must never say so where the evaluator gives anything but true (false, an
// error), and it must say so for the example resources (else it saves nothing). Checked against
// the evaluator for every rule of every CRD, on objects built from the names and words the rules use.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCel } from '../../src/kube-check/cel.ts';
import type { Schema } from '../../src/crds/k8s-types.ts';
import { applyDefaults } from '../../src/kube-check/decode.ts';
import { crdValidationData } from '../../src/crds/validation-data.ts';
import { GROUP } from '../../src/crds/ids.ts';
import { OBJECTS } from '../hardening/_resource-arb.ts';
import { fcParams, runs, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';

/** Every rule of every kind, with the schema nodes it sits on. */
function rules(): { rule: string; node: Schema }[] {
  const out: { rule: string; node: Schema }[] = [];
  const walk = (s: Schema): void => {
    for (const v of s['x-kubernetes-validations'] ?? []) out.push({ rule: v.rule, node: s });
    if (s.items) walk(s.items);
    for (const sub of Object.values(s.properties ?? {})) walk(sub);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties);
  };
  for (const crd of Object.values(crdValidationData())) for (const v of crd.versions) walk(crd.walk[v]!);
  return out;
}

const RULES = rules();
const TEXTS = [...new Set(RULES.map((r) => r.rule))];
/** Field names and string words of the rules: the objects below are made of them. */
const NAMES = [...new Set(TEXTS.flatMap((r) => [...r.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!)))];
const WORDS = [...new Set(TEXTS.flatMap((r) => [...r.matchAll(/'([^']*)'/g)].map((m) => m[1]!)))];

type Json = unknown;
const leaf: fc.Arbitrary<Json> = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom('', 'x', 'é😀', 'HTTP://a', 'https://a'), fc.boolean(), fc.constant(null), fc.constantFrom(0, 1, 1.5, -1), fc.array(fc.constantFrom(...WORDS, 'x'), { maxLength: 3 }));
const object: fc.Arbitrary<Json> = fc.letrec((tie) => ({
  map: fc.dictionary(fc.constantFrom(...NAMES), fc.oneof({ depthSize: 'small' }, leaf, tie('map'), fc.array(tie('map'), { maxLength: 2 })), { maxKeys: 6 }),
})).map;

function outcome(rule: string, self: Json): 'true' | 'other' {
  try {
    return compileCel(rule)(self) === true ? 'true' : 'other';
  } catch {
    return 'other';
  }
}

describe('CEL rules: a quick "holds" that never contradicts the evaluator', () => {
  it('there are rules to check, and the objects are made of their names and words', () => {
    expect(TEXTS.length).toBeGreaterThan(20);
    expect(NAMES.length).toBeGreaterThan(20);
    expect(WORDS.length).toBeGreaterThan(10);
  });

  const RUNS = 20_000;
  it(`says "holds" only where the evaluator gives true, for every rule (${seedTitle(51, RUNS)})`, async () => {
    let holds = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TEXTS), object, breathing((rule, self) => {
        if (!compileCel(rule).holds(self)) return;
        holds++;
        expect(outcome(rule, self), `${rule} on ${JSON.stringify(self)}`).toBe('true');
      })),
      fcParams(51, RUNS),
    );
    expect(holds).toBeGreaterThan(runs(RUNS) / 5);
  });

  it('says "holds" for every rule on every example resource where the evaluator gives true', () => {
    let checked = 0;
    for (const o of OBJECTS) {
      const doc = structuredClone(o) as { apiVersion?: string; kind?: string };
      const crd = typeof doc.kind === 'string' ? crdValidationData()[doc.kind] : undefined;
      const version = doc.apiVersion?.slice(GROUP.length + 1);
      if (!crd || !version || !crd.walk[version]) continue;
      applyDefaults(crd.walk[version]!, doc);
      const visit = (s: Schema, v: Json): void => {
        if (v === null || v === undefined) return;
        for (const r of s['x-kubernetes-validations'] ?? []) {
          checked++;
          expect(compileCel(r.rule).holds(v), r.rule).toBe(outcome(r.rule, v) === 'true');
        }
        if (Array.isArray(v)) v.forEach((x) => s.items && visit(s.items, x));
        else if (typeof v === 'object') for (const [k, sub] of Object.entries(s.properties ?? {})) visit(sub, (v as Record<string, Json>)[k]);
      };
      visit(crd.walk[version]!, doc);
    }
    expect(checked).toBeGreaterThan(20);
  });
});
