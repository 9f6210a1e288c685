// `npm run build:image`: the agentplat OCI image, which is also the Argo CD config management
// plugin sidecar, as an OCI archive: dist/image/agentplat.oci.tar. No registry, no container
// engine: the archive is written here, byte for byte the same for the same inputs
// (scripts/lib/repro.mjs). Load it with `podman load -i dist/image/agentplat.oci.tar`, push it with
// `skopeo copy oci-archive:dist/image/agentplat.oci.tar docker://REGISTRY/agentplat:VERSION`.
//
// One layer, from scratch:
//   /usr/local/bin/agentplat                      the single executable (npm run build:exe; built first when absent)
//   the C libraries it links, at the paths ldd gives (from this machine's Debian packages, named in dist/image/image.json)
//   /home/argocd/cmp-server/config/plugin.yaml    recipes/argocd/image/plugin.yaml (generate: agentplat cmp generate)
//   /etc/passwd, /etc/group                       root, and argocd (999), the user the image runs as
//   /home/argocd (999's), /tmp (1777)
// Nothing else: no shell, no package manager.
//
//   npm run build:image [-- --exe path/to/agentplat] [-- --out path/to/agentplat.oci.tar]
// (image.json, what the image holds and where its libraries come from, is written beside the archive)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip, parentDirs, sha256, sourceDateEpoch, tar } from './lib/repro.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const UID = 999;

function fail(message, hint) {
  process.stderr.write(`scripts/build-image.mjs: ${message}\n  hint: ${hint}\n`);
  process.exit(1);
}

const ARCH = { x64: 'amd64', arm64: 'arm64' }[process.arch];
if (process.platform !== 'linux' || !ARCH) fail(`an image is built on Linux (x64 or arm64), not ${process.platform}-${process.arch}`, 'run it on a Linux machine or in a Linux CI job');

const i = argv.indexOf('--exe');
const exe = i >= 0 ? resolve(argv[i + 1] ?? fail('--exe needs a path', 'e.g. --exe dist/exe/agentplat')) : join(root, 'dist', 'exe', 'agentplat');
if (!existsSync(exe)) {
  if (i >= 0) fail(`--exe ${exe}: no such file`, 'give the path of a single executable npm run build:exe wrote');
  process.stderr.write('build-image: no dist/exe/agentplat yet: npm run build:exe\n');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build-exe.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail('npm run build:exe failed', 'see its output above');
}

/** The shared libraries the executable loads, as ldd names them (the loader included). */
function libraries() {
  const out = execFileSync('ldd', [exe], { encoding: 'utf8' });
  const paths = [];
  for (const line of out.split('\n')) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) paths.push(m[1]);
  }
  if (paths.length === 0) fail(`ldd found no libraries of ${exe}`, 'the executable is Node 24 linked against glibc; check `ldd` works here');
  return paths.sort();
}

/** The Debian package and version each library comes from (for the SBOM), when dpkg knows it. */
function packageOf(path) {
  for (const p of [path, realpathSync(path)]) {
    const r = spawnSync('dpkg', ['-S', p], { encoding: 'utf8' });
    if (r.status === 0) {
      const name = r.stdout.split(':')[0];
      const v = spawnSync('dpkg-query', ['-W', '-f=${Version}', name], { encoding: 'utf8' });
      return { package: name, version: v.stdout.trim() };
    }
  }
  return {};
}

const epoch = sourceDateEpoch(root);
const libs = libraries().map((path) => ({ path, ...packageOf(path) }));
const owned = { uid: UID, gid: UID };
const files = [
  { path: 'usr/local/bin/agentplat', type: 'file', mode: 0o755, file: exe },
  ...libs.map((l) => ({ path: l.path.slice(1), type: 'file', mode: 0o755, file: l.path })),
  { path: 'home/argocd/cmp-server/config/plugin.yaml', type: 'file', mode: 0o644, file: join(root, 'recipes', 'argocd', 'image', 'plugin.yaml') },
  { path: 'etc/passwd', type: 'file', mode: 0o644, data: `root:x:0:0:root:/root:/sbin/nologin\nargocd:x:${UID}:${UID}:Argo CD:/home/argocd:/sbin/nologin\n` },
  { path: 'etc/group', type: 'file', mode: 0o644, data: `root:x:0:\nargocd:x:${UID}:\n` },
  { path: 'tmp', type: 'dir', mode: 0o1777 },
];
const dirOwners = { home: {}, 'home/argocd': owned, 'home/argocd/cmp-server': owned, 'home/argocd/cmp-server/config': owned };
const layerTar = tar([...parentDirs(files.map((f) => f.path), dirOwners), ...files], epoch);
const layer = gzip(layerTar, 6);
const created = new Date(epoch * 1000).toISOString().replace('.000Z', 'Z');

const blobs = new Map();
const blob = (data, mediaType) => {
  const digest = `sha256:${sha256(data)}`;
  blobs.set(digest, data);
  return { mediaType, digest, size: data.length };
};
const labels = {
  'org.opencontainers.image.title': 'agentplat',
  'org.opencontainers.image.version': version,
  'org.opencontainers.image.created': created,
  'org.opencontainers.image.description': 'agentplat, and the Argo CD config management plugin sidecar (plugin.yaml in /home/argocd/cmp-server/config)',
};
const config = {
  created,
  architecture: ARCH,
  os: 'linux',
  config: { User: `${UID}:${UID}`, Env: ['PATH=/usr/local/bin', 'HOME=/home/argocd'], Entrypoint: ['/usr/local/bin/agentplat'], WorkingDir: '/home/argocd', Labels: labels },
  rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(layerTar)}`] },
  history: [{ created, created_by: 'scripts/build-image.mjs' }],
};
const manifest = {
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  config: blob(Buffer.from(JSON.stringify(config)), 'application/vnd.oci.image.config.v1+json'),
  layers: [blob(layer, 'application/vnd.oci.image.layer.v1.tar+gzip')],
  annotations: labels,
};
const manifestRef = blob(Buffer.from(JSON.stringify(manifest)), 'application/vnd.oci.image.manifest.v1+json');
const index = {
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.index.v1+json',
  manifests: [{ ...manifestRef, platform: { architecture: ARCH, os: 'linux' }, annotations: { 'org.opencontainers.image.ref.name': `agentplat:${version}` } }],
};
const archive = tar(
  [
    { path: 'oci-layout', type: 'file', mode: 0o644, data: '{"imageLayoutVersion":"1.0.0"}' },
    { path: 'index.json', type: 'file', mode: 0o644, data: JSON.stringify(index) },
    { path: 'blobs', type: 'dir', mode: 0o755 },
    { path: 'blobs/sha256', type: 'dir', mode: 0o755 },
    ...[...blobs].map(([digest, data]) => ({ path: `blobs/sha256/${digest.slice(7)}`, type: 'file', mode: 0o644, data })),
  ],
  epoch,
);
const o = argv.indexOf('--out');
const out = o >= 0 ? resolve(argv[o + 1] ?? fail('--out needs a path', 'e.g. --out /tmp/agentplat.oci.tar')) : join(root, 'dist', 'image', 'agentplat.oci.tar');
const outDir = dirname(out);
mkdirSync(outDir, { recursive: true });
writeFileSync(out, archive);
writeFileSync(join(outDir, 'image.json'), `${JSON.stringify({ version, architecture: ARCH, manifest: manifestRef.digest, layerSize: layer.length, libraries: libs }, null, 2)}\n`);
process.stderr.write(`build-image: ${relative(root, out)} (${(archive.length / 1e6).toFixed(1)} MB; layer ${(layer.length / 1e6).toFixed(1)} MB compressed, ${(layerTar.length / 1e6).toFixed(1)} MB unpacked; ${manifestRef.digest})\n`);
