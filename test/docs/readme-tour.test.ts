// The README's tour runs as written: its `sh` block, taken from README.md (so a change to the
// README changes what runs), line by line and in order, in one scratch folder, against a pack of
// this repository installed as users install it. Each offline line must end with the exit code
// its comment documents (`(exit 1: …)`; 0 when it says none) and print no internal error. The
// lines that need a cluster (kubectl, --cluster) are listed, not run: a new one must be added to
// the list here, and to the cluster suite (test/cluster/) if nothing there runs its like.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STACK_TRACE } from '../cli/binary.ts';
import { installOnce, sh, stepEnv, TOOLS_INSTALL, withPackInTools } from '../helpers/pack.ts';
import { CLUSTER_LINES, command, documentedExit, needsCluster, tourLines, writeTourFixtures } from '../helpers/readme-tour.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe("the README's tour runs as written against an installed pack", () => {
  const lines = tourLines();

  it('the lines that need a cluster are these, and only these are left out', () => {
    expect(lines.filter(needsCluster).map(command)).toEqual(CLUSTER_LINES);
  });

  it('every offline line, in order, ends with the exit code its comment documents and prints no internal error', async () => {
    const dir = await withPackInTools(tempDir('agentplat-tour-'));
    const standIns = writeTourFixtures(dir);
    const prefix = await installOnce(TOOLS_INSTALL, dir);
    const env = stepEnv(prefix);
    env.PATH = `${standIns}:${env.PATH}`;

    const offline = lines.filter((l) => !needsCluster(l));
    expect(offline.length).toBeGreaterThan(20);
    const ran = offline.map((line) => {
      // A pipeline fails when any of its commands does, as the README asks of scripts.
      const r = sh('bash', `set -o pipefail\n${line}`, dir, env);
      return { line: command(line), code: r.code, stdout: r.stdout, stderr: r.stderr };
    });
    expect(ran.map((r) => `${r.line} → exit ${r.code}`)).toEqual(offline.map((l) => `${command(l)} → exit ${documentedExit(l)}`));
    for (const r of ran) {
      expect(r.stderr, r.line).not.toMatch(/internal error/);
      expect(r.stderr, r.line).not.toMatch(STACK_TRACE);
    }

    // What a few lines claim, beyond their exit codes.
    const of = (start: string) => ran.find((r) => r.line.startsWith(start))!;
    expect(of('agentplat diff -f values.yaml --against out/').stderr).toMatch(/^no differences: \d+ objects on each side/m);
    expect(of('agentplat plan --from A --to B').stderr).toMatch(/^needs attention: 10 deletions, 1 migration decision \(/m);
    expect(of('agentplat template agentplat -f v.yaml --post-renderer').stdout).toContain('    team: ml\n');
    expect(readFileSync(join(dir, 'values-b.yaml'), 'utf8')).toBe('# the values revision A was installed with\ncontroller:\n  replicas: 2\n  auth:\n    mode: insecure # A\'s word\n');
  });
});
