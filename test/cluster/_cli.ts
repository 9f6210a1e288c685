// The built CLI (bin/agentplat, run by `npm run test:cluster` after `npm run build`) as a child
// process, the way a user or a pipeline runs it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'agentplat');

export function agentplat(args: string[], stdin?: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: stdin, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
