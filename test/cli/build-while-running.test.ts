// A build (`npm run build`, which `npm test` runs) replaces dist/ in one step: a CLI started while
// it runs uses the previous build, whole, and never fails for want of a file.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { ensureBuilt, ROOT } from './binary.ts';

beforeAll(() => ensureBuilt());

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runNode(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('a build while the CLI runs', () => {
  it('every CLI run during a rebuild succeeds with the same output; the build leaves no staging folder', async () => {
    // A copy of the project (the build script finds the project from its own location), with the
    // current bundle; without start-up snapshots, so each run reads dist/ afresh.
    const pkg = tempDir('agentplat-build-');
    for (const f of ['package.json', 'src', 'templates', 'values', 'schemas', 'scripts', 'bin']) cpSync(join(ROOT, f), join(pkg, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true, filter: (src) => !/\.blob$|\.blob\.stamp$/.test(src) });
    const args = [join(pkg, 'bin', 'agentplat'), 'render', '-r', 'B', '--skip-crds'];
    const expected = await runNode(args, pkg);
    expect(expected.code, expected.stderr).toBe(0);

    let building = true;
    const build = runNode([join(pkg, 'scripts', 'build.mjs')], pkg, { AGENTPLAT_SKIP_SNAPSHOT: '1' }).finally(() => {
      building = false;
    });
    const runs: Ended[] = [];
    do runs.push(await runNode(args, pkg));
    while (building);
    const built = await build;
    expect(built.code, built.stderr).toBe(0);
    for (const r of runs) expect({ code: r.code, stderr: r.stderr.slice(0, 2000), same: r.stdout === expected.stdout }).toEqual({ code: 0, stderr: '', same: true });
    expect(readdirSync(pkg).filter((e) => e.startsWith('dist')).sort()).toEqual(['dist']);
    expect(existsSync(join(pkg, 'dist', 'agentplat.mjs'))).toBe(true);
  });
});
