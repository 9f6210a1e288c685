// `render --output-dir`: the folder holds exactly one complete render after every run, changes all
// at once, is never taken from the user without --overwrite, and an interrupted or failed run
// leaves nothing of its own behind.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { BIN, ensureBuilt, HANG_GUARD_MS, runBin } from '../cli/binary.ts';
import { run } from '../../src/cli/program.ts';
import { OUTPUT_MARKER, OUTPUT_MARKER_TEXT } from '../../src/output/output-dir.ts';
import { runInProcess } from '../cli/in-process.ts';

beforeAll(() => {
  ensureBuilt();
});

/** Every file under `dir` (dot files too) with its text, by path relative to `dir`. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** What a render leaves next to the folder: nothing but the folders the test made. */
function leftovers(parent: string): string[] {
  return readdirSync(parent).filter((e) => e.includes('.agentplat-'));
}

/** A pid that no process has: a child that has already ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''], { encoding: 'utf8' });
  return r.pid!;
}

describe('render --output-dir replaces the folder whole', () => {
  it('a re-render removes the files of objects no longer rendered (a disabled sub-chart)', async () => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'out'], { cwd: dir })).code).toBe(0);
    const toolsDir = join(dir, 'out', 'agentplat', 'charts', 'agentplat-tools');
    expect(existsSync(toolsDir)).toBe(true);
    expect((await runInProcess(['render', '--output-dir', 'out', '--set', 'agentplat-tools.enabled=false'], { cwd: dir })).code).toBe(0);
    expect(existsSync(toolsDir)).toBe(false);
    // Exactly what the same render writes into a new folder.
    expect((await runInProcess(['render', '--output-dir', 'fresh', '--set', 'agentplat-tools.enabled=false'], { cwd: dir })).code).toBe(0);
    expect(tree(join(dir, 'out'))).toEqual(tree(join(dir, 'fresh')));
    expect(leftovers(dir)).toEqual([]);
  });

  it('the folder carries the marker that makes it agentplat\'s, with its fixed text', async () => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'out', '--skip-crds'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, 'out', OUTPUT_MARKER), 'utf8')).toBe(OUTPUT_MARKER_TEXT);
  });

  it('an empty folder is used; a non-empty folder agentplat did not write is refused (exit 2) and left as it was', async () => {
    const dir = tempDir('agentplat-outdir-');
    mkdirSync(join(dir, 'empty'));
    expect((await runInProcess(['render', '--output-dir', 'empty', '--skip-crds'], { cwd: dir })).code).toBe(0);
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'notes.md'), 'my notes\n');
    const r = await runInProcess(['render', '--output-dir', 'mine', '--skip-crds'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mine holds files agentplat did not write');
    expect(r.stderr).toContain('--overwrite');
    expect(tree(join(dir, 'mine'))).toEqual({ 'notes.md': 'my notes\n' });
    // A marker with other text is not agentplat's either.
    writeFileSync(join(dir, 'mine', OUTPUT_MARKER), 'something else\n');
    expect((await runInProcess(['render', '--output-dir', 'mine', '--skip-crds'], { cwd: dir })).code).toBe(2);
    expect(leftovers(dir)).toEqual([]);
  });

  it('--overwrite replaces a foreign folder whole; without --output-dir it is a usage error', async () => {
    const dir = tempDir('agentplat-outdir-');
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'notes.md'), 'my notes\n');
    expect((await runInProcess(['render', '--output-dir', 'mine', '--skip-crds', '--overwrite'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'mine', 'notes.md'))).toBe(false);
    expect(existsSync(join(dir, 'mine', OUTPUT_MARKER))).toBe(true);
    const r = await runInProcess(['render', '--overwrite'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('the working directory, or a folder holding it, is refused: a render would replace it', async () => {
    const dir = tempDir('agentplat-outdir-');
    mkdirSync(join(dir, 'sub'));
    for (const target of ['.', '..', dir]) {
      const r = await runInProcess(['render', '--output-dir', target, '--overwrite'], { cwd: join(dir, 'sub') });
      expect(r.code, target).toBe(2);
      expect(r.stderr).toContain('is the working directory or holds it');
    }
    expect(readdirSync(dir)).toEqual(['sub']);
  });

  it('a symbolic link to the folder stays a link; the folder it names is replaced', async () => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'real', '--skip-crds'], { cwd: dir })).code).toBe(0);
    symlinkSync('real', join(dir, 'link'));
    expect((await runInProcess(['render', '--output-dir', 'link', '--skip-crds', '--set', 'agentplat-tools.enabled=false'], { cwd: dir })).code).toBe(0);
    expect(lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link'))).toBe('real');
    expect(existsSync(join(dir, 'real', 'agentplat', 'charts', 'agentplat-tools'))).toBe(false);
  });

  it('missing parent folders are created; on a lint error nothing is created', async () => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'a/b/c', '--set', 'controller.replicas=many'], { cwd: dir })).code).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
    expect((await runInProcess(['render', '--output-dir', 'a/b/c', '--skip-crds'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'a', 'b', 'c', OUTPUT_MARKER))).toBe(true);
  });
});

describe('render --output-dir where nothing can be written', () => {
  it.skipIf(!existsSync('/proc/self'))('--output-dir /proc/x fails at once with exit 2 and says nothing was written', () => {
    // Node's recursive mkdir never returns there; the guard only keeps a regression from hanging the suite.
    const r = runBin(['render', '--output-dir', '/proc/agentplat-test/out']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--output-dir: cannot write /proc/agentplat-test/out: creating /proc/agentplat-test failed');
    expect(r.stderr).toContain('nothing was written');
  });

  it('a parent that is a file: exit 2, nothing created', async () => {
    const dir = tempDir('agentplat-outdir-');
    writeFileSync(join(dir, 'file'), 'x');
    const r = await runInProcess(['render', '--output-dir', 'file/out', '--skip-crds'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output-dir: cannot create file/out: a folder above it is a file');
    expect(readdirSync(dir)).toEqual(['file']);
  });
});

/** Starts the CLI bundle as a child process; resolves with how it ended and what it printed. */
function start(args: string[], cwd: string, onStderr?: (text: string, child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS * 3);
  child.stdout.resume();
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    onStderr?.(stderr, child);
  });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stderr });
    });
  });
}

describe('render --output-dir under concurrency and signals', () => {
  it('concurrent renders into one folder are serialised: all succeed and the folder is one complete render', async () => {
    const dir = tempDir('agentplat-outdir-');
    // Trees that differ in their sets of files and in file contents.
    const variants = [
      ['--set', 'controller.replicas=1'],
      ['--set', 'controller.replicas=2', '--set', 'agentplat-tools.enabled=false'],
      ['--set', 'controller.replicas=3', '--skip-crds'],
      ['--set', 'controller.replicas=4', '--set', 'agentplat-tools.enabled=false', '--skip-crds'],
      ['--set', 'controller.replicas=5'],
      ['--set', 'controller.replicas=6', '--skip-crds'],
    ];
    const expected: Record<string, string>[] = [];
    for (const [i, v] of variants.entries()) {
      expect((await runInProcess(['render', '--output-dir', `ref${i}`, ...v], { cwd: dir })).code).toBe(0);
      expected.push(tree(join(dir, `ref${i}`)));
    }
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(variants.map((v) => start(['render', '--output-dir', 'out', ...v], dir)));
      for (const r of results) expect({ code: r.code, signal: r.signal }, r.stderr).toEqual({ code: 0, signal: null });
      const got = tree(join(dir, 'out'));
      expect(expected.some((e) => JSON.stringify(e) === JSON.stringify(got)), 'the folder equals one of the renders').toBe(true);
      expect(leftovers(dir)).toEqual([]);
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s while the run waits to swap its finished tree in: the run ends by the signal, its staging folder is removed, the folder is unchanged', async (signal) => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'out', '--skip-crds'], { cwd: dir })).code).toBe(0);
    const before = tree(join(dir, 'out'));
    // This test process holds the folder, so the render writes its staging tree and then waits.
    const lock = join(dir, '.out.agentplat-lock');
    writeFileSync(lock, `${process.pid} ${hostname()}\n`);
    let staged: string[] = [];
    const r = await start(['render', '--output-dir', 'out', '--set', 'agentplat-tools.enabled=false'], dir, (text, child) => {
      if (!text.includes('waiting for another render') || staged.length > 0) return;
      staged = leftovers(dir).filter((e) => e.includes('staging'));
      child.kill(signal);
    });
    expect(staged).toHaveLength(1);
    expect(r.signal).toBe(signal);
    expect(leftovers(dir)).toEqual(['.out.agentplat-lock']);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} ${hostname()}\n`);
    expect(tree(join(dir, 'out'))).toEqual(before);
  });

  it('a lock whose holder has ended is taken over; staging and old folders of ended runs are removed, those of running ones kept', async () => {
    const dir = tempDir('agentplat-outdir-');
    const dead = deadPid();
    writeFileSync(join(dir, '.out.agentplat-lock'), `${dead} ${hostname()}\n`);
    mkdirSync(join(dir, `.out.agentplat-staging-${dead}-0abc`));
    writeFileSync(join(dir, `.out.agentplat-staging-${dead}-0abc`, 'half.yaml'), 'kind: Half\n');
    mkdirSync(join(dir, `.out.agentplat-old-${dead}-1def`));
    const live = `.out.agentplat-staging-${process.pid}-2abc`;
    mkdirSync(join(dir, live));
    const r = await start(['render', '--output-dir', 'out', '--skip-crds'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(leftovers(dir)).toEqual([live]);
    expect(existsSync(join(dir, 'out', OUTPUT_MARKER))).toBe(true);
  });
});

describe('render --output-dir --show-only writes only the selected files, as helm template does', () => {
  const deployment = join('agentplat', 'templates', 'controller-deployment.yaml');

  it('after a full render, a --show-only render of one template rewrites that file and leaves every other file byte-identical', async () => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'out'], { cwd: dir })).code).toBe(0);
    const before = tree(join(dir, 'out'));
    expect(Object.keys(before).length).toBeGreaterThan(30);
    const r = await runInProcess(['render', '--output-dir', 'out', '--show-only', 'templates/controller-deployment.yaml', '--set', 'controller.replicas=3'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('wrote 1 file under out');
    const after = tree(join(dir, 'out'));
    // The same set of files; all but the selected one as they were.
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const [path, text] of Object.entries(before)) {
      if (path !== deployment) expect(after[path], path).toBe(text);
    }
    // The selected one is what a full render with the same values writes for it.
    expect(after[deployment]).not.toBe(before[deployment]);
    expect((await runInProcess(['render', '--output-dir', 'ref', '--set', 'controller.replicas=3'], { cwd: dir })).code).toBe(0);
    expect(after[deployment]).toBe(readFileSync(join(dir, 'ref', deployment), 'utf8'));
    expect(leftovers(dir)).toEqual([]);
  });

  it('a missing folder is created with its parents and marked, so a later full render replaces it without --overwrite', async () => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'a/b', '-s', 'templates/controller-deployment.yaml'], { cwd: dir })).code).toBe(0);
    expect(Object.keys(tree(join(dir, 'a', 'b'))).sort()).toEqual([OUTPUT_MARKER, deployment]);
    expect((await runInProcess(['render', '--output-dir', 'a/b', '--skip-crds'], { cwd: dir })).code).toBe(0);
    expect(Object.keys(tree(join(dir, 'a', 'b'))).length).toBeGreaterThan(2);
  });

  it('a folder agentplat did not write, the working directory included, takes the selected files; its own files stay and it gets no mark', async () => {
    const dir = tempDir('agentplat-outdir-');
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'notes.md'), 'my notes\n');
    expect((await runInProcess(['render', '--output-dir', 'mine', '-s', 'templates/controller-deployment.yaml'], { cwd: dir })).code).toBe(0);
    expect(Object.keys(tree(join(dir, 'mine'))).sort()).toEqual([deployment, 'notes.md']);
    // Unmarked, it is still refused by a full render, which would delete the notes.
    expect((await runInProcess(['render', '--output-dir', 'mine', '--skip-crds'], { cwd: dir })).code).toBe(2);
    expect(readFileSync(join(dir, 'mine', 'notes.md'), 'utf8')).toBe('my notes\n');
    // `--output-dir .`, as helm users write it.
    const r = await runInProcess(['render', '--output-dir', '.', '-s', 'templates/controller-deployment.yaml'], { cwd: join(dir, 'mine') });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'mine', 'notes.md'))).toBe(true);
    expect(leftovers(join(dir, 'mine'))).toEqual([]);
  });

  it('--overwrite with --show-only is a usage error: nothing would be deleted', async () => {
    const dir = tempDir('agentplat-outdir-');
    const r = await runInProcess(['render', '--output-dir', 'out', '-s', 'templates/controller-deployment.yaml', '--overwrite'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--overwrite cannot be combined with --show-only');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a file in the way of a selected one as a folder: exit 2, no file changed, nothing of the run left', async () => {
    const dir = tempDir('agentplat-outdir-');
    mkdirSync(join(dir, 'out', 'agentplat', 'templates', 'controller-deployment.yaml'), { recursive: true });
    const r = await runInProcess(['render', '--output-dir', 'out', '-s', 'templates/controller-deployment.yaml', '-s', 'templates/controller-service.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a folder');
    expect(tree(join(dir, 'out'))).toEqual({});
    expect(leftovers(dir)).toEqual([]);
  });

  it('a --show-only render waits for the render that holds the folder, then writes its file', async () => {
    const dir = tempDir('agentplat-outdir-');
    expect((await runInProcess(['render', '--output-dir', 'out', '--skip-crds'], { cwd: dir })).code).toBe(0);
    const before = tree(join(dir, 'out'));
    const lock = join(dir, '.out.agentplat-lock');
    writeFileSync(lock, `${process.pid} ${hostname()}\n`);
    let whileWaiting: Record<string, string> | undefined;
    const r = await start(['render', '--output-dir', 'out', '-s', 'templates/controller-deployment.yaml', '--set', 'controller.replicas=3'], dir, (text) => {
      if (!text.includes('waiting for another render') || whileWaiting) return;
      whileWaiting = tree(join(dir, 'out'));
      rmSync(lock);
    });
    expect(r.code, r.stderr).toBe(0);
    expect(whileWaiting).toEqual(before);
    const after = tree(join(dir, 'out'));
    expect(after[deployment]).toContain('replicas: 3');
    expect({ ...after, [deployment]: before[deployment] }).toEqual(before);
    expect(leftovers(dir)).toEqual([]);
  });
});
