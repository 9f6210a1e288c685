// Lint must evaluate the default `authproxy.extraEnv` (its sign-in checksum include) without
// loading the renderer: the include is registered by src/model/sign-in-template.ts, which lint
// and render share, and lint never reaches a module of render/.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Relative modules reachable from `entry` through value imports (`import type` is erased). */
function reachable(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'"]*?\bfrom\s+)?['"](\.[^'"]+)['"]/gm)) walk(resolve(dirname(file), m[1]!));
  };
  walk(join(ROOT, entry));
  return [...seen].map((f) => relative(ROOT, f).split('\\').join('/')).sort();
}

describe('2.9 authproxy.extraEnv sign-in template checksum at lint time', () => {
  it('lint reaches no module of render/ (so not the components nor the template engine)', () => {
    const mods = reachable('src/lint/lint.ts');
    expect(mods).toContain('src/model/sign-in-template.ts');
    expect(mods.filter((m) => m.startsWith('src/render/'))).toEqual([]);
  });

  it('the render path still registers the include (authproxy sub-chart imports it)', () => {
    expect(reachable('src/render/subcharts/authproxy.ts')).toContain('src/model/sign-in-template.ts');
  });

  it('lint of the defaults with authproxy on evaluates the checksum include without a templated-values problem', () => {
    for (const revision of ['A', 'B'] as const) {
      const { source } = parseValuesText('authproxy:\n  enabled: true\n  config:\n    existingSecret: oidc\n', 'authproxy.yaml');
      const { problems } = lintValues({ revision, layers: [source!], releaseNamespace: 'agentplat' });
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(problems.filter((p) => p.rule === 'values/templated-values')).toEqual([]);
    }
  });
});
