// Keys the pinned sub-charts read without effect (issue 27: "a sub-chart's values are its chart's
// values, and helm users set any of them"): accepted, so values written for the real chart lint,
// warned about where set (values/no-effect), and nothing they hold reaches the manifests.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';

const CASES: [string, string][] = [
  ['agentplat-tools.tools.prometheus', 'agentplat-tools:\n  tools:\n    prometheus:\n      url: http://prom:9090\n      username: u\n      password: no-effect-secret\n'],
  ['agentplat-tools.tools.grafana', 'agentplat-tools:\n  tools:\n    grafana:\n      url: http://grafana:3000\n      apiKey: no-effect-key\n'],
  ['mcpop.controller.metrics.secureServing', 'mcpop:\n  controller:\n    metrics:\n      secureServing: false\n'],
];

describe('values/no-effect: keys the pinned sub-charts read without effect', () => {
  for (const revision of ['A', 'B']) {
    it.each(CASES)(`[${revision}] %s is accepted with a warning at the key, and the render does not change`, async (path, values) => {
      const lint = await runInProcess(['lint', '-r', revision, '-f', '-', '--format', 'json'], { stdin: values });
      const problems = (JSON.parse(lint.stdout) as { files: { problems: { rule: string; path: string; severity: string }[] }[] }).files.flatMap((f) => f.problems);
      expect(problems.filter((p) => p.severity !== 'info').map((p) => [p.rule, p.path])).toEqual([['values/no-effect', path]]);
      const withKey = await runInProcess(['render', '-r', revision, '-f', '-'], { stdin: values });
      const without = await runInProcess(['render', '-r', revision]);
      expect(withKey.code).toBe(0);
      expect(withKey.stdout).toBe(without.stdout);
      expect(withKey.stdout).not.toContain('no-effect-');
    });
  }

  it.each(CASES.map(([path]) => path))('%s: null removes the key, so there is nothing to warn about', async (path) => {
    const lint = await runInProcess(['lint', '--set', `${path}=null`, '--format', 'json']);
    const problems = (JSON.parse(lint.stdout) as { files: { problems: { rule: string; severity: string }[] }[] }).files.flatMap((f) => f.problems);
    expect(lint.code).toBe(0);
    expect(problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });
});
