// `npm run build:exe -- --target …` (scripts/build-exe.mjs) refuses, before building anything, a
// target this machine cannot build, and a cross build whose emulator is missing: it says why and
// what to install or pass instead, exits 1 and writes no executable.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const buildExe = (args: string[], env: NodeJS.ProcessEnv = process.env) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-exe.mjs'), ...args], { cwd: ROOT, env, encoding: 'utf8' });

describe('build:exe --target', () => {
  it('a macOS target on Linux: says a macOS executable is built and signed on macOS, and writes nothing', () => {
    const out = join(tempDir('agentplat-exe-target-'), 'agentplat');
    const r = buildExe(['--target', 'darwin-arm64', '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `scripts/build-exe.mjs: cannot build the executable for darwin-arm64 on this machine: a macOS executable is built on macOS: its snapshot must be made by a macOS Node, which cannot run on ${process.platform}-${process.arch}, and it must be signed there\n  hint: build darwin-arm64 on a darwin-arm64 machine, or use the npm package there\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a target that does not exist: lists the ones this machine builds', () => {
    const r = buildExe(['--target', 'windows-x64']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot build the executable for windows-x64 on this machine: windows-x64 is not a target this machine builds');
    expect(r.stderr).toContain(`  hint: --target is one of: ${process.platform}-${process.arch}`);
  });

  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('linux-arm64 without qemu-user on PATH: names the Debian packages to install', () => {
    // A PATH with node alone.
    const bin = join(tempDir('agentplat-exe-target-path-'), 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const out = join(tempDir('agentplat-exe-target-'), 'agentplat');
    const r = buildExe(['--target', 'linux-arm64', '--out', out], { PATH: bin, HOME: process.env.HOME });
    expect(r.stderr).toBe(
      "scripts/build-exe.mjs: qemu-aarch64 (qemu-user) is not on PATH: it runs linux-arm64's Node here\n  hint: apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross binutils-aarch64-linux-gnu\n",
    );
    expect(r.status).toBe(1);
    expect(existsSync(out)).toBe(false);
  });
});
