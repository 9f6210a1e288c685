// The linux-arm64 single executable (`npm run build:exe -- --target linux-arm64`), built on this
// machine by Node's arm64 binary under qemu-user, run under qemu-user over a handful of commands:
// its standard output, standard error and exit code must be byte for byte those of the installed
// npm package on this machine's Node 24 (the same Node release: scripts/build-exe.mjs takes the
// arm64 Node of the release the x64 executable is made of). Where qemu-user or the arm64 C
// library is missing, the file skips saying what to install (fails under AGENTPLAT_REQUIRE_TOOLS=1).
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { launcher, target } from '../../scripts/lib/targets.mjs';
import { ROOT } from '../cli/binary.ts';
import { differences, node24, runInAsync, type Ran } from '../helpers/exe-compare.ts';
import { installedPack } from '../helpers/pack.ts';
import { toolMissing } from '../helpers/real-tool.ts';
import { runAsync } from '../helpers/run-async.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const EM_AARCH64 = 183;
const SHT_SYMTAB = 2;

/** An ELF64 little-endian file's machine and the type of each of its sections (what `file` reads to say "ARM aarch64" and "stripped"). */
function elf(path: string): { machine: number; sectionTypes: number[] } {
  const fd = openSync(path, 'r');
  try {
    const read = (at: number, n: number) => {
      const b = Buffer.alloc(n);
      readSync(fd, b, 0, n, at);
      return b;
    };
    const h = read(0, 64);
    expect(h.subarray(0, 6).toString('latin1')).toBe('\x7fELF\x02\x01');
    const [shoff, shentsize, shnum] = [Number(h.readBigUInt64LE(0x28)), h.readUInt16LE(0x3a), h.readUInt16LE(0x3c)];
    const table = read(shoff, shentsize * shnum);
    return { machine: h.readUInt16LE(0x12), sectionTypes: Array.from({ length: shnum }, (_, i) => table.readUInt32LE(i * shentsize + 4)) };
  } finally {
    closeSync(fd);
  }
}
const arm64 = target('linux-arm64');
const how: { argv?: string[]; missing?: string; hint?: string } = arm64.error ? { missing: arm64.error, hint: 'run this test on Linux' } : launcher(arm64);
const canRun = !how.missing || !toolMissing('test/exe/arm64.test.ts (the linux-arm64 executable under qemu-user)', `${how.missing} (${how.hint})`);

describe.skipIf(!canRun)('the linux-arm64 single executable, under qemu-user, prints what the npm package prints', () => {
  let pkgBin = '';
  let env: Record<string, string> = {};
  // A folder of the test's own: it runs what this build made, never an older build's file.
  const exe = join(tempDir('agentplat-exe-arm64-'), 'agentplat');
  const home = tempDir('agentplat-exe-arm64-home-');
  beforeAll(async () => {
    const node = node24();
    // Without blocking the worker: the build takes minutes under the emulator.
    const built = await runAsync(process.execPath, [join(ROOT, 'scripts', 'build-exe.mjs'), '--target', 'linux-arm64', '--out', exe], { cwd: ROOT });
    expect(built.status, built.stderr).toBe(0);
    pkgBin = join(await installedPack(), 'bin', 'agentplat');
    // The package's launcher runs the `node` on PATH: Node 24's folder first.
    env = { PATH: `${join(node, '..')}:/usr/bin:/bin`, HOME: home, NO_COLOR: '1' };
  });

  it('is an arm64 ELF binary, stripped of its symbol table', () => {
    const { machine, sectionTypes } = elf(exe);
    expect(machine).toBe(EM_AARCH64);
    expect(sectionTypes.length).toBeGreaterThan(10);
    expect(sectionTypes).not.toContain(SHT_SYMTAB);
  });

  it('render, lint of a fixture, a broken values file, validate, --version, an unknown command and a --cluster run: the same stdout, stderr and exit code', async () => {
    // A cluster nothing listens at: the run loads the cluster client and reports the refused connection.
    const kubeconfig = join(tempDir('agentplat-exe-arm64-kube-'), 'config');
    writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n');
    const cmds = [
      ['--version'],
      ['render', '-f', 'fixtures/render/httproute/values.yaml'],
      ['render', '-r', 'B', '-o', 'json'],
      ['lint', '-f', 'fixtures/lint/pdb-both-thresholds.yaml'],
      ['lint', '-f', 'fixtures/bad-input/malformed.yaml'],
      ['render', '-f', 'fixtures/bad-input/duplicate-key.yaml'],
      ['validate', 'fixtures/resources'],
      ['no-such-command'],
      ['validate', '--cluster', '--kubeconfig', kubeconfig],
    ];
    const [qemu = exe, ...pre] = how.argv ?? [];
    const ran: Ran[] = [];
    const runArm64 = async (args: readonly string[]) => {
      const r = await runInAsync(qemu, how.argv?.length ? [...pre, exe, ...args] : args, ROOT, env);
      ran.push(r);
      return r;
    };
    expect(await differences(cmds, (args) => runInAsync(pkgBin, args, ROOT, env), runArm64)).toEqual([]);
    // The executable ran each command, and each kind of outcome is among them: output and success, findings, a refused file or usage.
    expect(ran).toHaveLength(cmds.length);
    expect(new Set(ran.map((r) => r.code))).toEqual(new Set([0, 1, 2]));
    expect(ran[1]!.stdout).toContain('kind: Deployment');
  });
});
