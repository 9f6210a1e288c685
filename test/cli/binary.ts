// Runs the built executable (bin/agentplat → dist/) as a child process, the way users and CI do.
// `npm test` builds first; when dist/ is missing or older than the sources, this builds it once
// (a lock directory keeps two test files from building at the same time).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { underLock } from '../helpers/lock.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'agentplat');
const BUNDLE = join(ROOT, 'dist', 'cli.cjs');
const INPUTS = ['src', 'templates', 'values', 'schemas', 'scripts', 'package.json'];

/**
 * Kills a child that never ends, so one hang fails its test instead of stalling the suite until
 * CI's limit. Ten minutes: far beyond any run on a loaded machine; never a statement about speed.
 */
export const HANG_GUARD_MS = 600_000;

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}

function isStale(): boolean {
  if (!existsSync(BUNDLE)) return true;
  const built = statSync(BUNDLE).mtimeMs;
  return INPUTS.some((p) => existsSync(join(ROOT, p)) && newestMtime(join(ROOT, p)) > built);
}

/** Builds dist/ when it is missing or older than its sources. */
export function ensureBuilt(): void {
  underLock(join(ROOT, 'node_modules', '.agentplat-test-build.lock'), isStale, () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stderr}`);
  });
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string | Buffer;
  /** Added to a clean environment (PATH and HOME only, so no NO_COLOR/FORCE_COLOR leaks in). */
  env?: Record<string, string>;
  cwd?: string;
}

/** `node bin/agentplat …args` (the bundle), with stdin closed unless given. */
export function runBin(args: readonly string[], opts: RunOptions = {}): RunResult {
  return runCommand(process.execPath, [BIN, ...args], opts);
}

function runCommand(file: string, args: readonly string[], opts: RunOptions): RunResult {
  const r = spawnSync(file, args, {
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    input: opts.stdin ?? '',
    encoding: 'utf8',
    timeout: HANG_GUARD_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Starts `node bin/agentplat …args`, reads the first chunk of stdout, then closes the pipe like
 * `| head -1` does; resolves with what the process did afterwards.
 */
export function runClosingStdout(args: readonly string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let first = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString('utf8');
      child.stdout.destroy();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, first, stderr });
    });
  });
}

/** No JavaScript stack trace or Node crash banner in the text. */
export const STACK_TRACE = /^\s+at .+[(:]\d+|node:internal|Unhandled 'error' event|^\w*Error: /m;
