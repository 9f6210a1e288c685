// The scripts a run of the built executable compiled, from V8's coverage of the process
// (NODE_V8_COVERAGE): every CommonJS script and ES module, those `require` loads of an ES module
// included, by file URL, with the coverage of their functions. Tests use it to see which
// libraries a command loads and runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBin } from '../cli/binary.ts';
import { tempDir } from './temp-dir.ts';

export interface ScriptCoverage {
  url: string;
  functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[];
}

export function scriptsRun(args: readonly string[], opts: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}): { code: number | null; stderr: string; scripts: ScriptCoverage[]; urls: string[] } {
  const coverage = tempDir('agentplat-coverage-');
  const r = runBin([...args], { ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}), ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}), env: { ...opts.env, NODE_V8_COVERAGE: coverage } });
  const scripts = readdirSync(coverage).flatMap((f) => (JSON.parse(readFileSync(join(coverage, f), 'utf8')) as { result: ScriptCoverage[] }).result);
  return { code: r.code, stderr: r.stderr, scripts, urls: scripts.map((s) => s.url) };
}
