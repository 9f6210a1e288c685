// Section 8 limits: each bound of the enforcement table, broken by one and kept at the bound,
// through `agentplat validate` in-process; the problem points at the field.
import { describe, expect, it } from 'vitest';
import { validateYaml } from './helpers.ts';
import { buildLimitDoc as build, LIMITS as limits } from './limit-cases.ts';

/** Position of the first `key:` after the (only) `parent:` key in the generated YAML. */
function keyPosition(yaml: string, parent: string, key: string): { line: number; column: number } {
  const lines = yaml.split('\n');
  const keyAt = (i: number, k: string): RegExpExecArray | null => new RegExp(`^(\\s*(?:- )?)${k}:`).exec(lines[i]!);
  let i = lines.findIndex((_, j) => keyAt(j, parent));
  for (; i < lines.length; i++) {
    const m = keyAt(i, key);
    if (m) return { line: i + 1, column: m[1]!.length + 1 };
  }
  return { line: 0, column: 0 };
}

describe('section 8 limits as schema keywords', () => {
  for (const [id, l] of limits) {
    const title = `${id}: ${l.kind} ${l.path} ${l.keyword} ${l.value}`;
    it(`${title}: one past the bound is rejected at the field`, async () => {
      const { yaml, key, parent } = build(l, true);
      const r = await validateYaml(yaml);
      expect(r.code, yaml).toBe(1);
      const hits = r.problems.filter((p) => p.rule === 'crd/schema');
      expect(hits.length, JSON.stringify(r.problems, null, 2)).toBe(1);
      expect(hits[0]!.message).toMatch(l.keyword === 'minimum' ? /must be at least -?\d+, found/ : /must (have|be) at (least|most) \d+ (entr|character)/);
      expect({ line: hits[0]!.line, column: hits[0]!.column }).toEqual(keyPosition(yaml, parent, key));
    });
    it(`${title}: the bound itself is accepted`, async () => {
      const { yaml } = build(l, false);
      const r = await validateYaml(yaml);
      expect(r.problems, yaml).toEqual([]);
      expect(r.code).toBe(0);
    });
  }
});
