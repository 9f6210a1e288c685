// The single executable (`npm run build:exe`, scripts/build-exe.mjs) against the npm package:
// over every fixture and the README's offline tour, the executable's standard output, standard
// error and exit code must be byte for byte those of the installed package run by the Node the
// executable is made of (Node 24: the two then share V8, whose messages some outputs quote).
// Then the executable alone: copied into an empty folder with no Node on PATH, as a user who is
// not root and whose home cannot be written.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/binary.ts';
import { breathe } from '../helpers/breathe.ts';
import { differences, node24, runIn } from '../helpers/exe-compare.ts';
import { installedPack } from '../helpers/pack.ts';
import { command, needsCluster, tourLines, writeTourFixtures } from '../helpers/readme-tour.ts';
import { runAsync } from '../helpers/run-async.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const EXE = join(ROOT, 'dist', 'exe', 'agentplat');

/** Every command the fixtures make: render and lint of each values file, validate of each resource file, migrate of each revision-A file, and the commands with no input. */
function fixtureCommands(): string[][] {
  const cmds: string[][] = [['--version'], ['--help'], ['help', 'render'], ['render'], ['render', '-r', 'B'], ['crds'], ['crds', '-r', 'B', '-o', 'json'], ['lint', '-r', 'A'], ['no-such-command'], ['render', '--no-such-flag'], ['render', '-f', 'no-such-file.yaml'], ['validate', '--cluster', '--help']];
  const rel = (...p: string[]) => join('fixtures', ...p);
  for (const d of readdirSync(join(ROOT, 'fixtures', 'render')).sort()) {
    const args = existsSync(join(ROOT, 'fixtures', 'render', d, 'args.json')) ? (JSON.parse(readFileSync(join(ROOT, 'fixtures', 'render', d, 'args.json'), 'utf8')) as { revision?: string }) : {};
    const rev = args.revision ? ['-r', args.revision] : [];
    cmds.push(['render', '-f', rel('render', d, 'values.yaml'), ...rev], ['lint', '-f', rel('render', d, 'values.yaml'), ...rev]);
  }
  for (const f of readdirSync(join(ROOT, 'fixtures', 'subcharts')).filter((n) => n.endsWith('.values.yaml')).sort()) cmds.push(['render', '-f', rel('subcharts', f)], ['lint', '-f', rel('subcharts', f), '-o', 'json']);
  for (const f of readdirSync(join(ROOT, 'fixtures', 'lint')).filter((n) => n.endsWith('.yaml')).sort()) cmds.push(['lint', '-f', rel('lint', f)], ['lint', '-f', rel('lint', f), '-o', 'sarif'], ['render', '--skip-crds', '-f', rel('lint', f)]);
  for (const f of readdirSync(join(ROOT, 'fixtures', 'bad-input')).sort()) cmds.push(['lint', '-f', rel('bad-input', f)], ['render', '-f', rel('bad-input', f)]);
  for (const f of readdirSync(join(ROOT, 'fixtures', 'resources')).sort()) cmds.push(['validate', rel('resources', f)], ['validate', '-r', 'A', rel('resources', f), '-o', 'json']);
  cmds.push(['validate', rel('resources')]);
  for (const f of readdirSync(join(ROOT, 'fixtures', 'migrate')).filter((n) => n.endsWith('-a.yaml')).sort()) cmds.push(['migrate', rel('migrate', f)]);
  return cmds;
}

describe('the single executable prints what the npm package prints', () => {
  let node = '';
  let pkgBin = '';
  let env: Record<string, string> = {};
  beforeAll(async () => {
    node = node24();
    // Without blocking the worker: on a loaded machine the build outlasts vitest's 60 s RPC deadline ("Timeout calling onTaskUpdate").
    const built = await runAsync(process.execPath, [join(ROOT, 'scripts', 'build-exe.mjs'), '--node', node], { cwd: ROOT });
    expect(built.status, built.stderr).toBe(0);
    pkgBin = join(await installedPack(), 'bin', 'agentplat');
    // The package's launcher runs the `node` on PATH: Node 24's folder first.
    env = { PATH: `${join(node, '..')}:/usr/bin:/bin`, HOME: tempDir('agentplat-exe-home-'), NO_COLOR: '1' };
  });

  it('every fixture: the same stdout, stderr and exit code', async () => {
    const cmds = fixtureCommands();
    expect(cmds.length).toBeGreaterThan(250);
    expect(await differences(cmds, (args) => runIn(pkgBin, args, ROOT, env), (args) => runIn(EXE, args, ROOT, env))).toEqual([]);
  });

  it("the README's offline tour, line by line in one folder: the same stdout, stderr and exit code", async () => {
    const lines = tourLines().filter((l) => !needsCluster(l));
    expect(lines.length).toBeGreaterThan(20);
    // Two copies of the tour's folder, one per side; `agentplat` on PATH is the side's.
    const side = async (bin: string) => {
      const dir = tempDir('agentplat-exe-tour-');
      const standIns = writeTourFixtures(dir);
      const binDir = join(dir, '.bin');
      mkdirSync(binDir);
      copyFileSync(bin === EXE ? EXE : join(ROOT, 'test', 'exe', 'package-launcher.sh'), join(binDir, 'agentplat'));
      chmodSync(join(binDir, 'agentplat'), 0o755);
      const sideEnv = { ...env, AGENTPLAT_PACKAGE_BIN: pkgBin, PATH: `${binDir}:${standIns}:${env.PATH}` };
      const ran = [];
      for (const line of lines) {
        const r = runIn('bash', ['-c', `set -o pipefail\n${line}`], dir, sideEnv);
        ran.push({ line: command(line), ...r, stdout: r.stdout.split(dir).join('<dir>'), stderr: r.stderr.split(dir).join('<dir>') });
        await breathe();
      }
      return ran;
    };
    expect(await side(EXE)).toEqual(await side(pkgBin));
  });
});

describe('the single executable runs alone', () => {
  it('copied into an empty folder, with no Node on PATH, as a user who is not root, whose home cannot be written', () => {
    expect(existsSync(EXE), 'npm run build:exe').toBe(true);
    const dir = tempDir('agentplat-exe-alone-');
    chmodSync(dir, 0o755);
    const exe = join(dir, 'agentplat');
    copyFileSync(EXE, exe);
    chmodSync(exe, 0o755);
    const home = join(dir, 'home');
    mkdirSync(home);
    chmodSync(home, 0o555);
    const values = join(dir, 'values.yaml');
    copyFileSync(join(ROOT, 'fixtures', 'render', 'httproute', 'values.yaml'), values);
    chmodSync(values, 0o644);
    // PATH names an empty folder: no Node, no tool. As root, the run drops to user and group
    // 65534 (nobody) with setpriv; as another user, it already is one.
    const path = join(dir, 'empty');
    mkdirSync(path);
    chmodSync(path, 0o755);
    const setpriv = execFileSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).trim();
    const asUser = (args: string[]) => (process.getuid?.() === 0 ? runIn(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', exe, ...args], dir, { PATH: path, HOME: home }) : runIn(exe, args, dir, { PATH: path, HOME: home }));
    expect(runIn('/bin/sh', ['-c', 'command -v node || echo none'], dir, { PATH: path }).stdout.trim()).toBe('none');
    const whoami = process.getuid?.() === 0 ? runIn(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', 'id', '-u'], dir, { PATH: '/usr/bin:/bin' }) : runIn('id', ['-u'], dir, { PATH: '/usr/bin:/bin' });
    expect(whoami.stdout.trim()).not.toBe('0');
    for (const args of [['--version'], ['render', '-r', 'B', '-f', 'values.yaml'], ['lint', '-f', 'values.yaml'], ['validate', join(ROOT, 'fixtures', 'resources', 'agent-declarative.yaml')]]) {
      const alone = asUser(args);
      const inPlace = runIn(EXE, args, dir, { PATH: '/usr/bin:/bin', HOME: tempDir('agentplat-exe-home-') });
      expect(alone, args.join(' ')).toEqual(inPlace);
      expect(alone.code, `${args.join(' ')}: ${alone.stderr}`).toBe(0);
    }
    // Nothing was written beside it or into the home.
    expect(readdirSync(dir).sort()).toEqual(['agentplat', 'empty', 'home', 'values.yaml']);
    expect(readdirSync(home)).toEqual([]);
  });
});
