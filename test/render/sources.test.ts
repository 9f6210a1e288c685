// `# Source:` paths are the reference chart's files (what --show-only takes), not our template
// files: src/render/sources.ts lists, for every source path, the templates that make it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocs } from '../../src/render/engine.ts';
import { SOURCE_TEMPLATES } from '../../src/render/sources.ts';
import { templateFiles } from '../../src/render/template-source.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const TEMPLATES = Object.keys(templateFiles(join(ROOT, 'templates'))).filter((f) => !f.split('/').pop()!.startsWith('_'));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('source paths and the templates that make them', () => {
  it('every template the table names exists, and every template makes some source path', () => {
    const named = new Set(Object.values(SOURCE_TEMPLATES).flat());
    expect([...named].filter((t) => !TEMPLATES.includes(t))).toEqual([]);
    expect(TEMPLATES.filter((t) => !named.has(t))).toEqual([]);
  });

  it('every # Source: path of the chart and sub-chart goldens is in the table', () => {
    const goldens = files(join(ROOT, 'fixtures')).filter((f) => /(expected|golden)\.yaml$/.test(f));
    expect(goldens.length).toBeGreaterThan(10);
    const unlisted = goldens.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/^# Source: (agentplat\/(?:templates|charts)\/\S+)$/gm)].map((m) => m[1]!).filter((s) => !s.startsWith('agentplat/crds/') && SOURCE_TEMPLATES[s] === undefined).map((s) => `${relative(ROOT, f)}: ${s}`),
    );
    expect(unlisted).toEqual([]);
  });

  it('rendering a source with a template the table does not list for it fails', () => {
    const data = { meta: { name: 'x', namespace: 'ns', labels: {}, annotations: {} }, data: {} };
    expect(renderDocs('agentplat/templates/controller-configmap.yaml', 'chart/configmap.yaml.hbs', data)).toHaveLength(1);
    expect(() => renderDocs('agentplat/templates/configmap.yaml', 'chart/configmap.yaml.hbs', data)).toThrow(/does not list/);
    expect(() => renderDocs('agentplat/templates/controller-configmap.yaml', 'chart/secret.yaml.hbs', data)).toThrow(/does not list/);
  });
});
