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

describe('the schema is checked against the merged values', () => {
  it('a required key is satisfied by any layer: a default seccomp type under a user localhostProfile is no error', () => {
    const set = layer('podSecurityContext:\n  seccompProfile:\n    localhostProfile: profile.json\n', '--set #1');
    const problems = lintValues({ revision: 'B', layers: [set] }).problems;
    expect(problems.filter((p) => p.rule === 'values/schema')).toEqual([]);
  });

  it('a required key the user deletes is reported at the layer that deleted it', () => {
    const base = layer('ipv6: false\n', 'base.yaml');
    const over = layer('podSecurityContext:\n  seccompProfile:\n    type: null\n', 'prod.yaml');
    const p = lintValues({ revision: 'A', layers: [base, over] }).problems.find((x) => x.rule === 'values/schema');
    expect(p).toMatchObject({ path: 'podSecurityContext.seccompProfile.type', file: 'prod.yaml', line: 3, column: 5 });
    expect(p!.message).toMatch(/required/);
  });

  it('a key the user replaces as a whole is checked as the user wrote it (a probe keeps no default part)', () => {
    const over = layer('controller:\n  readinessProbe:\n    httpGet:\n      path: /ready\n', 'prod.yaml');
    const p = lintValues({ revision: 'B', layers: [over] }).problems.find((x) => x.rule === 'values/schema');
    // the default's port does not fill in the user's httpGet: the probe is the user's alone
    expect(p).toMatchObject({ path: 'controller.readinessProbe.httpGet.port', file: 'prod.yaml', line: 3, column: 5 });
  });
});
