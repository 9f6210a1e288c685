// One run of a program without blocking the test worker: suites that run hundreds of helm or
// oracle processes would otherwise keep vitest's worker from answering ("Timeout calling
// onTaskUpdate"). Resolves with the exit status and both outputs; rejects only when the program
// cannot be started.
import { spawn } from 'node:child_process';

export function runAsync(cmd: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
