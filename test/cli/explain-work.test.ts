// `agentplat explain`'s render comparison does only the work its answer needs: an example value the
// linter refuses is refused at the first error and never rendered, and the render it is compared
// with is made only once one passes, without linting it again (the build found it passes:
// dist/generated/explain-bases.json). Its own file: explain keeps the renders it made for the
// process, so these counts hold in a module graph no other test has rendered in (each test below
// uses renders the ones before it did not make, or says why a kept one does not matter).
import { describe, expect, it } from 'vitest';
import { explainKey } from '../../src/explain/explain.ts';
import { RULES } from '../../src/lint/rules/index.ts';
import type { RuleContext } from '../../src/lint/rules/types.ts';
import { withTemplateRuns } from '../../src/render/engine.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';

/** How many times each check (by its first rule id) ran during `run`. */
async function checkRuns(run: () => Promise<unknown>): Promise<(id: string) => number> {
  const runs = new Map<string, number>();
  const checks = RULES.map((r) => r.check);
  RULES.forEach((rule, i) => {
    rule.check = (ctx: RuleContext) => {
      runs.set(rule.ids[0]!.id, (runs.get(rule.ids[0]!.id) ?? 0) + 1);
      checks[i]!.call(rule, ctx);
    };
  });
  try {
    await run();
  } finally {
    RULES.forEach((rule, i) => (rule.check = checks[i]!));
  }
  return (id) => runs.get(RULES.find((r) => r.ids.some((x) => x.id === id))!.ids[0]!.id) ?? 0;
}

describe('explain renders an example only once the linter passes it', () => {
  it('an example value the linter refuses costs no render, and the render it is compared with is made only once one passes (authproxy.service.port, which the proxy chart removed: none passes with authproxy.enabled)', async () => {
    const sources: string[] = [];
    const watch = { run: (source: string, _t: string, _d: unknown, make: () => RenderedDoc[]) => (sources.push(source), make()) };
    const e = await withTemplateRuns(watch, () => explainKey('authproxy.service.port', ['B'], { rules: false }));
    // With the proxy on, every example fails the linter: compared without it …
    expect(e.byRevision.B!.renders!.note).toMatch(/^with authproxy\.enabled=true, no example value/);
    // … so no template of the proxy ran: neither the proxy's render nor one of an example with it was made.
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => s.includes('authproxy'))).toEqual([]);
  });

  it('the linter stops at the first error on an example value: the checks that read the key run first, the others only on values that pass (authproxy.service.port with authproxy.enabled)', async () => {
    const count = await checkRuns(async () => {
      const e = await explainKey('authproxy.service.port', ['B'], { rules: false });
      expect(e.byRevision.B!.renders!.note).toMatch(/^with authproxy\.enabled=true, no example value/);
    });
    // The proxy's check, which reads the key, refused each example value with the proxy on …
    expect(count('values/authproxy-removed-key')).toBeGreaterThanOrEqual(2);
    // … and a check that never reads it ran only on what passed: the example without the proxy
    // (the render it is compared with was made by the test before, and is not linted either).
    expect(count('values/templated-values')).toBeLessThanOrEqual(2);
  });

  it('the render an example is compared with is not linted: the build found that the linter passes it (controller.replicas, revision A: one lint, of the example)', async () => {
    const count = await checkRuns(async () => {
      const e = await explainKey('controller.replicas', ['A'], { rules: false });
      expect(e.byRevision.A!.renders!.objects.length).toBeGreaterThan(0);
    });
    expect(count('values/templated-values')).toBe(1);
  });
});
