// Every template output of real renders (both revisions, several value sets) goes through the fast
// reader, as lines (src/render/template-program.ts); here each output is also written out as text
// and read by the full YAML parser, and the two must agree.
import { describe, expect, it, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { outputText, type TemplateLine, type TemplateOutput } from '../../src/render/template-program.ts';

const seen: TemplateOutput[] = [];
vi.mock('../../src/yaml/template-yaml.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/yaml/template-yaml.ts')>();
  return {
    ...real,
    readTemplateLines: (docs: TemplateLine[][], values: unknown[]) => {
      seen.push({ docs: docs.map((d) => [...d]), values });
      return real.readTemplateLines(docs, values);
    },
  };
});

const { readTemplateLines } = await vi.importActual<typeof import('../../src/yaml/template-yaml.ts')>('../../src/yaml/template-yaml.ts');
const { renderChart } = await import('../../src/render/render.ts');
const { lintValues } = await import('../../src/lint/lint.ts');
const { parseValuesText } = await import('../../src/values/source.ts');

const VARIANTS = [
  '',
  'ipv6: true\ncontroller:\n  replicas: 2\n  metrics: {enabled: true}\n  pdb: {enabled: true}\nui:\n  pdb: {enabled: true}\n  httpRoute: {enabled: true, parentRefs: [{name: gw}]}\nauthproxy:\n  enabled: true\n  config: {existingSecret: oidc}\n',
  'controller:\n  substrate: {enabled: true}\nsubstrate: {enabled: true}\nsubstrateWorkerPool: {create: true, IMAGE_KEY: ghcr.io/x/worker:1}\nextraObjects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: "{{ .Release.Name }}-extra"}\n',
];

describe('template output reader on real template outputs', () => {
  for (const revision of ['A', 'B'] as const) {
    VARIANTS.forEach((text, i) => {
      it(`revision ${revision}, value set ${i}: every template output is read by the fast reader, which agrees with the full parser`, () => {
        seen.length = 0;
        const values = text.replace('IMAGE_KEY', revision === 'A' ? 'ateomImage' : 'workerImage');
        const layers = values ? [parseValuesText(values, 'v.yaml').source!] : [];
        const { layered, problems } = lintValues({ revision, layers });
        expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
        renderChart(layered.values, { revision, releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: ['monitoring.coreos.com/v1', 'route.openshift.io/v1'], skipCrds: true });
        expect(seen.length).toBeGreaterThan(10);
        const slow: string[] = [];
        for (const output of seen) {
          const t = outputText(output);
          const mine = readTemplateLines(output.docs, output.values);
          if (!mine) {
            slow.push(t.slice(0, 200));
            continue;
          }
          const full = parseAllDocuments(t, { version: '1.2' }).map((d) => (d as { toJS(): unknown }).toJS()).filter((d) => d !== null);
          expect(mine).toEqual(full);
        }
        // Every template stays inside the reader's subset, so a render never loads the YAML library's
        // parser (quote quantities and durations such as "500m" or "30s" in templates).
        expect(slow).toEqual([]);
      });
    });
  }
});
