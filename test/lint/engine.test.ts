// The linter's plumbing: which layer a finding points at, and what it never prints.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';

const layer = (text: string, name: string) => parseValuesText(text, name).source!;

describe('lint engine', () => {
  it('points at the latest layer that wrote the offending key', () => {
    const base = layer('controller:\n  replicas: 1\n', 'base.yaml');
    const over = layer('# override\ncontroller:\n  replicas: "two"\n', 'prod.yaml');
    const p = lintValues({ revision: 'B', layers: [base, over] }).problems.find((x) => x.rule === 'values/schema');
    expect(p).toMatchObject({ rule: 'values/schema', path: 'controller.replicas', file: 'prod.yaml', line: 3, column: 3 });
    expect(p!.excerpt).toBe('  replicas: "two"');
  });

  it('secret values are never echoed in messages or excerpts', () => {
    const src = layer('authproxy:\n  config:\n    clientSecret: 8c9f2e71-very-secret\n    cookieSecret: [hunter2-cookie]\n', 'secrets.yaml');
    const problems = lintValues({ revision: 'B', layers: [src] }).problems;
    const text = JSON.stringify(problems);
    expect(problems.some((p) => p.path === 'authproxy.config.cookieSecret')).toBe(true);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('very-secret');
  });

  it('a wrongly typed boolean gets a YAML 1.2 hint', () => {
    const src = layer('ipv6: "yes"\n', 'v.yaml');
    const p = lintValues({ revision: 'A', layers: [src] }).problems.find((x) => x.rule === 'values/schema');
    expect(p).toMatchObject({ rule: 'values/schema', path: 'ipv6', line: 1, column: 1 });
    expect(p!.hint).toMatch(/true or false/);
  });

  it('an explicit null deletes a default key instead of failing its type', () => {
    const src = layer('controller:\n  pdb:\n    maxUnavailable: null\n', 'v.yaml');
    // (the defaults deploy the bundled database, which is always noted)
    expect(lintValues({ revision: 'B', layers: [src] }).problems.filter((p) => p.rule !== 'values/bundled-database')).toEqual([]);
  });

  it('enum errors accept values of the other revision with a hint', () => {
    const src = layer('otel:\n  exporter:\n    otlp:\n      protocol: http\n', 'v.yaml');
    const p = lintValues({ revision: 'B', layers: [src] }).problems.find((x) => x.rule === 'values/schema');
    expect(p).toMatchObject({ rule: 'values/schema', path: 'otel.exporter.otlp.protocol', line: 4, column: 7 });
    expect(p!.message).toMatch(/grpc/);
  });
});

describe('schema check on the user layers only', () => {
  it('finds what checking the merged tree finds, for every lint fixture', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { checkSchema } = await import('../../src/lint/schema.ts');
    const { layerValues } = await import('../../src/values/merge.ts');
    const { defaultsSource } = await import('../../src/values/defaults.ts');
    for (const f of readdirSync('fixtures/lint')) {
      for (const revision of ['A', 'B'] as const) {
        const user = layer(readFileSync(`fixtures/lint/${f}`, 'utf8'), f);
        const merged = layerValues([defaultsSource(revision), user]).values;
        const userOnly = layerValues([user]).values;
        expect(checkSchema(revision, userOnly), `${f} (${revision})`).toEqual(checkSchema(revision, merged));
      }
    }
  });
});
