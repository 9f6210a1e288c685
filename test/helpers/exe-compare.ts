// The comparison the single executable's tests make (test/exe/*.test.ts): a command's standard
// output, standard error and exit code, run by the executable and by the installed npm package,
// must be the same bytes.
import { execFileSync, spawnSync } from 'node:child_process';
import { breathe } from './breathe.ts';
import { runAsync } from './run-async.ts';
import { HANG_GUARD_MS } from '../cli/binary.ts';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Node 24, which the executable is made of: this node when it is 24, else npx's copy from the npm registry. */
export function node24(): string {
  if (process.versions.node.startsWith('24.')) return process.execPath;
  return execFileSync('npx', ['-y', '-p', 'node@24', 'node', '-p', 'process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

export function runIn(cmd: string, args: readonly string[], cwd: string, env: Record<string, string>, input?: string): Ran {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', input: input ?? '', timeout: HANG_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `runIn` without blocking the test worker (for runs that take long, as under an emulator), stdin empty. */
export async function runInAsync(cmd: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  const r = await runAsync(cmd, args, { cwd, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs every command of `cmds` on both sides (`want`: the package, `got`: the executable) and
 * returns, for each one whose stdout, stderr or exit code differ, the command and both results.
 */
export async function differences(cmds: readonly (readonly string[])[], want: (args: readonly string[]) => Ran | Promise<Ran>, got: (args: readonly string[]) => Ran | Promise<Ran>): Promise<string[]> {
  const differ: string[] = [];
  for (const args of cmds) {
    const w = await want(args);
    const g = await got(args);
    // A turn of the event loop between commands: vitest's worker answers its runner meanwhile.
    await breathe();
    if (JSON.stringify(g) !== JSON.stringify(w)) differ.push(`agentplat ${args.join(' ')}\n  package:    ${JSON.stringify(w).slice(0, 600)}\n  executable: ${JSON.stringify(g).slice(0, 600)}`);
  }
  return differ;
}
