// A working folder for the cluster suite's command-line scenarios: the built `agentplat` and the
// suite's kubectl first on PATH (a kubectl installed on the machine must not answer), KUBECONFIG
// pointing at the test's control plane, and a runner for commands in that folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { startCluster, type Cluster } from './_cluster.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Ran {
  status: number;
  out: string;
  err: string;
}

export interface Tools {
  /** The working folder of the commands. */
  dir: string;
  /** The folder holding the `agentplat` and `kubectl` links. */
  bin: string;
  run(cmd: string, args: string[], input?: string, extraEnv?: NodeJS.ProcessEnv): Ran;
  /** A bash script with -euo pipefail. */
  sh(script: string): Ran;
  remove(): void;
}

/** KUBECTL_APPLYSET is left out of the environment: commands that want it set it themselves. */
export function toolsFor(c: Cluster, prefix: string): Tools {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(join(ROOT, 'bin', 'agentplat'), join(bin, 'agentplat'));
  symlinkSync(inject('kubectl'), join(bin, 'kubectl'));
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`, KUBECONFIG: c.kubeconfig, NO_COLOR: '1' };
  delete env.KUBECTL_APPLYSET;
  const run = (cmd: string, args: string[], input?: string, extraEnv: NodeJS.ProcessEnv = {}): Ran => {
    const r = spawnSync(cmd, args, { cwd: dir, env: { ...env, ...extraEnv }, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.error) throw r.error;
    return { status: r.status ?? -1, out: r.stdout, err: r.stderr };
  };
  return { dir, bin, run, sh: (script) => run('bash', ['-euo', 'pipefail', '-c', script]), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A control plane of one version with a working folder for commands against it; stop() removes both. */
export interface Bench extends Tools {
  c: Cluster;
  stop(): Promise<void>;
}

export async function startBench(version: string, prefix: string): Promise<Bench> {
  const c = await startCluster(version, inject('clusterBinaries')[version]!);
  const tools = toolsFor(c, prefix);
  return {
    ...tools,
    c,
    async stop() {
      tools.remove();
      await c.stop();
    },
  };
}
