// streaming-deprecated (values document 2.3, 9.4): controller.streaming has no effect; whatever an
// older values file carries there (older charts had a map) gets the deprecation warning and the
// render goes on, never a type error.
import { expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';

for (const [what, value] of [['a map, as older charts had', '\n    enabled: true\n    timeout: 10m'], ['a boolean', ' true'], ['a number', ' 3'], ['a string', ' "on"'], ['a list', ' [sse]']] as const) {
  for (const revision of ['A', 'B'] as const) {
    it(`streaming-deprecated [${revision}]: controller.streaming as ${what} is the deprecation warning, not a schema error`, () => {
      const src = parseValuesText(`controller:\n  streaming:${value}\n`, 'old.yaml').source!;
      const problems = lintValues({ revision, layers: [src] }).problems.filter((p) => p.severity !== 'info');
      expect(problems.map((p) => [p.rule, p.severity, p.path, p.line])).toEqual([['values/streaming-deprecated', 'warning', 'controller.streaming', 2]]);
    });
  }
}
