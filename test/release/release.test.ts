// `npm run release` (scripts/release.mjs) twice from the same commit: every file of release/ is
// the same bytes, the single executables and the image that holds one included (docs/executable.md,
// "Releases"); the executables' archives hold LICENSE and the executable of their platform;
// SHA256SUMS and the krew manifest name the files' real sums, the archives hold fixed times and
// owners, and the SBOM lists the npm packages the bundle holds, as the lock has them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const OUT = join(ROOT, 'release');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sums = () => Object.fromEntries(readdirSync(OUT).sort().map((f) => [f, sha(readFileSync(join(OUT, f)))]));
const release = () => promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'release.mjs')], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });

/** The entries of a tar archive: name, mode, uid, gid, mtime. */
function entries(tarball: Buffer) {
  const list: { name: string; mode: number; uid: number; gid: number; mtime: number; uname: string }[] = [];
  for (let off = 0; off + 512 <= tarball.length; ) {
    const h = tarball.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const field = (a: number, n: number) => h.subarray(a, a + n).toString('utf8').replace(/\0.*$/s, '');
    const num = (a: number, n: number) => parseInt(field(a, n).trim() || '0', 8);
    const prefix = field(345, 155);
    list.push({ name: (prefix ? `${prefix}/` : '') + field(0, 100), mode: num(100, 8), uid: num(108, 8), gid: num(116, 8), mtime: num(136, 12), uname: field(265, 32) });
    off += 512 + Math.ceil(num(124, 12) / 512) * 512;
  }
  return list;
}

let first: Record<string, string> = {};
let second: Record<string, string> = {};
const kept = tempDir('agentplat-release-first-');
const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? 0);
beforeAll(async () => {
  await release();
  first = sums();
  cpSync(OUT, kept, { recursive: true });
  await release();
  second = sums();
});

describe('npm run release', () => {
  it('two builds give the same bytes, file for file, the executables, their image and the sums that name them included', () => {
    expect(Object.keys(first).length).toBe(10);
    expect(Object.keys(first).filter((f) => /-linux-[^.]+\.tar\.gz$|\.oci\.tar$|^agentplat\.krew\.yaml$|^SHA256SUMS$/.test(f))).toHaveLength(5);
    expect(second).toEqual(first);
  });

  it("the executables' archives, linux-x64 and linux-arm64: the same entries, times, modes and owners both times, LICENSE the same bytes, the executable of its platform", () => {
    const exeArchives = Object.keys(second).filter((f) => /-linux-[^.]+\.tar\.gz$/.test(f));
    expect(exeArchives.map((f) => /-(linux-[^.]+)\.tar\.gz$/.exec(f)![1])).toEqual(['linux-arm64', 'linux-x64']);
    for (const exeArchive of exeArchives) {
      const [a, b] = [kept, OUT].map((dir) => gunzipSync(readFileSync(join(dir, exeArchive))));
      const meta = (t: Buffer) => entries(t).map(({ name, mode, uid, gid, mtime }) => ({ name, mode, uid, gid, mtime }));
      expect(meta(b!), exeArchive).toEqual(meta(a!));
      expect(meta(b!).map((e) => e.name)).toEqual(['LICENSE', 'agentplat']);
      // The LICENSE entry is first: its bytes follow its header.
      const license = readFileSync(join(ROOT, 'LICENSE'));
      expect(a!.subarray(512, 512 + license.length).equals(license)).toBe(true);
      expect(b!.subarray(512, 512 + license.length).equals(license)).toBe(true);
      // The executable follows: an ELF binary whose machine (bytes 18-19) is its platform's.
      const at = 512 + Math.ceil(license.length / 512) * 512 + 512;
      expect(b!.subarray(at, at + 4).toString('latin1'), exeArchive).toBe('\x7fELF');
      expect(b!.readUInt16LE(at + 18), exeArchive).toBe(exeArchive.endsWith('-linux-arm64.tar.gz') ? 183 : 62);
    }
  });

  it("SHA256SUMS holds the sum of every other file, and the krew manifest each platform's executable archive and its sum", () => {
    const listed = readFileSync(join(OUT, 'SHA256SUMS'), 'utf8').trim().split('\n').map((l) => l.split('  ').reverse() as [string, string]);
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(Object.entries(second).filter(([f]) => f !== 'SHA256SUMS')));
    const krew = readFileSync(join(OUT, 'agentplat.krew.yaml'), 'utf8');
    const platforms = [...krew.matchAll(/os: (\S+)\n\s+arch: (\S+)\n\s+uri: \S+\/([^/\s]+)\n\s+sha256: ([0-9a-f]{64})/g)].map(([, os, arch, archive, sum]) => ({ os, arch, archive, sum }));
    expect(platforms.map((p) => `${p.os}/${p.arch}: ${p.archive}`)).toEqual([`linux/amd64: agentplat-${version}-linux-x64.tar.gz`, `linux/arm64: agentplat-${version}-linux-arm64.tar.gz`]);
    for (const p of platforms) expect(p.sum, p.archive).toBe(second[p.archive!]);
  });

  it('the archives hold sorted entries, one time (the last commit\'s), owner 0 and no user names', () => {
    const archives = Object.keys(second).filter((n) => n.endsWith('.tar.gz'));
    expect(archives.length).toBe(5);
    for (const f of archives) {
      const list = entries(gunzipSync(readFileSync(join(OUT, f))));
      expect(list.length, f).toBeGreaterThan(1);
      expect(list.map((e) => e.name), f).toEqual(list.map((e) => e.name).sort());
      expect(new Set(list.map((e) => e.mtime)).size, f).toBe(1);
      if (epoch) expect(list[0]!.mtime).toBe(epoch);
      expect(list.every((e) => e.uid === 0 && e.gid === 0 && e.uname === ''), f).toBe(true);
    }
  });

  it('the SBOM lists the packages the bundle holds, with the versions package-lock.json has', () => {
    const file = Object.keys(second).find((f) => f.endsWith('.cdx.json'))!;
    const bom = JSON.parse(readFileSync(join(OUT, file), 'utf8')) as { bomFormat: string; specVersion: string; components: { name: string; version: string; purl: string }[] };
    expect([bom.bomFormat, bom.specVersion]).toEqual(['CycloneDX', '1.5']);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const npm = bom.components.filter((c) => c.purl.startsWith('pkg:npm/'));
    for (const name of ['yaml', 'commander', 'ajv', '@kubernetes/client-node']) expect(npm.find((c) => c.name === name)?.version, name).toBe(lock.packages[`node_modules/${name}`]!.version);
    // Only what the bundle holds: the build tools are not in it.
    for (const name of ['esbuild', 'typescript', 'vitest', 'postject']) expect(npm.some((c) => c.name === name), name).toBe(false);
    expect(bom.components.some((c) => c.purl.startsWith('pkg:deb/debian/libc6@'))).toBe(true);
    // The Node release of each executable, for its platform: one release for both.
    const nodes = bom.components.filter((c) => c.purl.startsWith('pkg:generic/node@'));
    expect(nodes.map((c) => c.purl.replace(/@[^?]+/, ''))).toEqual(['pkg:generic/node?arch=x64&os=linux', 'pkg:generic/node?arch=arm64&os=linux']);
    expect(new Set(nodes.map((c) => c.version)).size).toBe(1);
    expect(nodes[0]!.version).toMatch(/^24\./);
  });
});
