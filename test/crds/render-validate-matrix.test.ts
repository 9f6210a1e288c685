// `agentplat render | agentplat validate -` is clean: over the configuration matrix the cluster
// suite sends to the API server (test/cluster/_matrix.ts: every golden render fixture, every
// sub-chart off, every optional part on, both revisions), validate checks the platform's objects of
// the render and finds no problem; what it cannot check it names in its note, and never fails for.
import { describe, expect, it } from 'vitest';
import { MATRIX } from '../cluster/_matrix.ts';
import { runInProcess } from '../cli/in-process.ts';

describe('render | validate - is clean over the configuration matrix', () => {
  for (const config of MATRIX) {
    it(`${config.name} (${config.revision})`, async () => {
      const flags = ['-r', config.revision, '-n', config.namespace, ...config.apiVersions.flatMap((a) => ['--api-versions', a]), '-f', '-'];
      const rendered = await runInProcess(['render', ...flags], { stdin: config.values });
      expect(rendered.code, rendered.stderr).toBe(0);
      const validated = await runInProcess(['validate', '-', '-v', '--format', 'json'], { stdin: rendered.stdout });
      const report = JSON.parse(validated.stdout) as { files: { problems: unknown[] }[] };
      expect(report.files.flatMap((f) => f.problems)).toEqual([]);
      expect(validated.code).toBe(0);
      // The platform's own objects were checked (the default ModelConfig at least, unless turned off).
      expect(validated.stderr).toMatch(/^validate: checked [1-9]\d* resources? \(/m);
    });
  }
});
