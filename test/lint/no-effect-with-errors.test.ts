// Issue 38: a file with a typo, a cross-field error and a key with no effect shows the three at
// once. The keys' effects are judged on the user's values even when lint finds errors that leave
// the render's meaning as written (an unknown key, a cross-field rule); a value of the wrong type
// waits until it is fixed.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';
import { THREE_FINDINGS } from '../helpers/three-findings.ts';


interface Found {
  rule: string;
  severity: string;
  path: string;
  line?: number;
  column?: number;
}

async function lint(values: string): Promise<{ code: number; problems: Found[] }> {
  const run = await runInProcess(['lint', '-f', '-', '--format', 'json'], { stdin: values });
  const problems = (JSON.parse(run.stdout) as { files: { problems: Found[] }[] }).files.flatMap((f) => f.problems);
  return { code: run.code, problems: problems.filter((p) => p.severity !== 'info') };
}

describe('lint: keys with no effect are reported alongside errors that do not change the render', () => {
  it('a typo, a cross-field error and a key with no effect: the three findings at once, with default rule levels', async () => {
    const { code, problems } = await lint(THREE_FINDINGS);
    expect(code).toBe(1);
    expect(problems.map((p) => [p.severity, p.rule, p.path, p.line, p.column])).toEqual([
      ['error', 'values/unknown-key', 'controller.replicass', 2, 3],
      ['error', 'values/pdb-thresholds-exclusive', 'controller.pdb.minAvailable', 5, 5],
      ['warning', 'values/no-effect', 'ui.httpRoute.hostnames', 8, 5],
    ]);
  });

  it('a value of the wrong type holds back the judgement of what has no effect', async () => {
    const { problems } = await lint('controller:\n  replicas: many\nui:\n  httpRoute:\n    hostnames: [agents.example.com]\n');
    expect(problems.map((p) => p.rule)).toEqual(['values/schema']);
  });
});
