// `npm run release`: everything a release publishes, into release/ (git-ignored), reproducibly:
// built twice from the same commit, every file is the same bytes (test/release/release.test.ts).
//
//   agentplat-<v>.tgz                          the npm package (npm pack)
//   agentplat-<v>-linux-x64.tar.gz             the single executable (npm run build:exe) and LICENSE, one archive
//   agentplat-<v>-linux-arm64.tar.gz           per target of TARGETS: this machine's, and the other one built
//                                              under qemu-user (npm run build:exe -- --target linux-arm64)
//   agentplat-<v>-image-<arch>.oci.tar         the OCI image of this machine's executable, also the Argo CD plugin sidecar (npm run build:image)
//   agentplat-helm-plugin-<v>.tar.gz           the Helm 4 plugin (plugins/helm): plugin.yaml and its launcher
//   agentplat-helm-postrenderer-<v>.tar.gz     the Helm 4 post-renderer plugin (plugins/helm-postrenderer)
//   kubectl-agentplat-<v>.tar.gz               the kubectl plugin's launcher (plugins/kubectl)
//   agentplat.krew.yaml                        the krew manifest: each executable archive (linux/amd64, linux/arm64), its SHA-256
//   agentplat-<v>.cdx.json                     the SBOM (CycloneDX 1.5): the npm packages the bundle holds
//                                              (package-lock.json), the Node release each executable is made of,
//                                              the Debian libraries of the image
//   SHA256SUMS                                 sha256sum's format, every file above
//
// Times come from SOURCE_DATE_EPOCH, else the last commit. AGENTPLAT_RELEASE_URL is the folder the
// archives are downloaded from (the krew manifest's uri); default: the GitHub release of the tag v<version>.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip, sha256, sourceDateEpoch, tar } from './lib/repro.mjs';
import { HOST, launcher, target, TARGETS } from './lib/targets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { version } = pkg;
const out = join(root, 'release');
const work = join(out, '.work');
const epoch = sourceDateEpoch(root);
const env = { ...process.env, SOURCE_DATE_EPOCH: String(epoch) };
const ARCH = { x64: 'amd64', arm64: 'arm64' }[process.arch];
// The executables a release holds: one per Linux target, this machine's built natively, the
// other under qemu-user (scripts/lib/targets.mjs).
const EXE_TARGETS = Object.keys(TARGETS);
const started = Date.now();

function fail(message, hint) {
  process.stderr.write(`scripts/release.mjs: ${message}\n  hint: ${hint}\n`);
  process.exit(1);
}
function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) fail(`\`${[cmd, ...args].join(' ')}\` failed (exit ${r.status ?? r.signal})`, 'see its output above');
  return r.stdout;
}
const step = (what) => process.stderr.write(`release: ${what} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);

if (process.platform !== 'linux' || !ARCH) fail(`a release is built on Linux (x64 or arm64), not ${process.platform}-${process.arch}`, 'the image and the executable are Linux ones; run it in a Linux CI job');
for (const dir of ['helm', 'helm-postrenderer']) {
  const meta = readFileSync(join(root, 'plugins', dir, 'plugin.yaml'), 'utf8');
  if (!new RegExp(`^version: ${version.replace(/\./g, '\\.')}$`, 'm').test(meta)) fail(`plugins/${dir}/plugin.yaml: its version: is not ${version} (package.json's)`, `set version: ${version} there`);
}
for (const name of EXE_TARGETS) {
  const how = launcher(target(name));
  if (how.missing) fail(`the ${name} executable cannot be built here: ${how.missing}`, `${how.hint} (a release holds the executable of every target: ${EXE_TARGETS.join(', ')})`);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// The npm package: npm pack writes fixed times and modes itself; prepack builds dist/.
step('npm pack');
const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', out]))[0].filename;

// The single executables, one per target, and their archives.
const executables = EXE_TARGETS.map((name) => {
  step(`the single executable for ${name} (npm run build:exe -- --target ${name})`);
  const file = join(work, `agentplat-${name}`);
  const info = `${file}.json`;
  run(process.execPath, [join(root, 'scripts', 'build-exe.mjs'), '--target', name, '--out', file, '--info', info]);
  const archive = `agentplat-${version}-${name}.tar.gz`;
  writeFileSync(
    join(out, archive),
    gzip(tar([{ path: 'agentplat', type: 'file', mode: 0o755, file }, { path: 'LICENSE', type: 'file', mode: 0o644, file: join(root, 'LICENSE') }], epoch), 6),
  );
  return { ...TARGETS[name], name, file, archive, node: JSON.parse(readFileSync(info, 'utf8')).node };
});
const exe = executables.find((e) => e.name === HOST)?.file ?? fail(`no executable for this machine (${HOST})`, `build the release on one of ${EXE_TARGETS.join(', ')}`);

step('the image (npm run build:image)');
run(process.execPath, [join(root, 'scripts', 'build-image.mjs'), '--exe', exe, '--out', join(work, 'image', 'agentplat.oci.tar')]);
renameSync(join(work, 'image', 'agentplat.oci.tar'), join(out, `agentplat-${version}-image-${ARCH}.oci.tar`));
const image = JSON.parse(readFileSync(join(work, 'image', 'image.json'), 'utf8'));

// The plugins: each archive holds one folder, the plugin's, as `helm plugin install` and krew expect.
step('the plugin archives');
function pluginArchive(name, folder, inside) {
  const entries = [{ path: inside, type: 'dir', mode: 0o755 }, { path: `${inside}/LICENSE`, type: 'file', mode: 0o644, file: join(root, 'LICENSE') }];
  const walk = (rel) => {
    for (const e of readdirSync(join(root, folder, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        entries.push({ path: `${inside}/${path}`, type: 'dir', mode: 0o755 });
        walk(path);
      } else entries.push({ path: `${inside}/${path}`, type: 'file', mode: statSync(join(root, folder, path)).mode & 0o111 ? 0o755 : 0o644, file: join(root, folder, path) });
    }
  };
  walk('');
  writeFileSync(join(out, name), gzip(tar(entries, epoch)));
}
pluginArchive(`agentplat-helm-plugin-${version}.tar.gz`, 'plugins/helm', 'agentplat');
pluginArchive(`agentplat-helm-postrenderer-${version}.tar.gz`, 'plugins/helm-postrenderer', 'agentplat-validate');
pluginArchive(`kubectl-agentplat-${version}.tar.gz`, 'plugins/kubectl', 'kubectl-agentplat');

// krew installs the executable itself as kubectl-agentplat (it runs the same under any name).
const base = (process.env.AGENTPLAT_RELEASE_URL ?? `https://github.com/agentplat/agentplat/releases/download/v${version}`).replace(/\/$/, '');
writeFileSync(
  join(out, 'agentplat.krew.yaml'),
  [
    'apiVersion: krew.googlecontainertools.github.com/v1alpha2',
    'kind: Plugin',
    'metadata:',
    '  name: agentplat',
    'spec:',
    `  version: v${version}`,
    `  shortDescription: ${pkg.description.split(',')[0].replace(/[:#]/g, '')}`,
    '  description: |',
    `    ${pkg.description}`,
    '    `kubectl agentplat render -f values.yaml`, `kubectl agentplat lint -f values.yaml`, `kubectl agentplat validate DIR`.',
    '  platforms:',
    ...executables.flatMap((e) => [
      '    - selector:',
      '        matchLabels:',
      `          os: ${e.platform}`,
      `          arch: ${e.debian}`,
      `      uri: ${base}/${e.archive}`,
      `      sha256: ${sha256(readFileSync(join(out, e.archive)))}`,
      '      files:',
      '        - { from: agentplat, to: . }',
      '        - { from: LICENSE, to: . }',
      '      bin: agentplat',
    ]),
    '',
  ].join('\n'),
);

// The SBOM: the npm packages the bundles hold (esbuild names each bundled module's path in a
// comment: [path/]node_modules/<name>/…), with what package-lock.json says of them, and the image's
// libraries with their Debian packages.
step('the SBOM');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const bundled = new Set();
const scan = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (e.name !== 'exe' && e.name !== 'types') scan(join(dir, e.name));
    } else if (/\.(c|m)?js$/.test(e.name)) {
      for (const m of readFileSync(join(dir, e.name), 'utf8').matchAll(/^\/\/ \S*?((?:node_modules\/(?:@[^/\s]+\/)?[^/\s]+\/)+)/gm)) bundled.add(m[1].replace(/\/$/, ''));
    }
  }
};
scan(join(root, 'dist'));
const purlOf = (name, v) => `pkg:npm/${name.startsWith('@') ? `%40${name.slice(1)}` : name}@${v}`;
const npmComponents = [...bundled].sort().map((key) => {
  const entry = lock.packages[key];
  if (!entry) fail(`the bundle holds ${key}, which package-lock.json does not list`, 'run npm install so that the lock matches node_modules, then release again');
  const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const hash = entry.integrity?.startsWith('sha512-') ? [{ alg: 'SHA-512', content: Buffer.from(entry.integrity.slice(7), 'base64').toString('hex') }] : [];
  return { type: 'library', 'bom-ref': purlOf(name, entry.version), name, version: entry.version, purl: purlOf(name, entry.version), ...(hash.length ? { hashes: hash } : {}), ...(entry.license ? { licenses: [{ expression: entry.license }] } : {}) };
});
const debComponents = [...new Map(image.libraries.filter((l) => l.package).map((l) => [l.package, l])).values()]
  .sort((a, b) => (a.package < b.package ? -1 : 1))
  .map((l) => ({ type: 'library', 'bom-ref': `pkg:deb/debian/${l.package}@${l.version}?arch=${ARCH}`, name: l.package, version: l.version, purl: `pkg:deb/debian/${l.package}@${l.version}?arch=${ARCH}`, properties: [{ name: 'agentplat:in', value: 'image' }] }));
// Each executable is made of one Node release's binary for its platform.
const nodeComponents = executables.map((e) => {
  const purl = `pkg:generic/node@${e.node.replace(/^v/, '')}?arch=${e.arch}&os=${e.platform}`;
  return { type: 'platform', 'bom-ref': purl, name: 'node', version: e.node.replace(/^v/, ''), purl, properties: [{ name: 'agentplat:in', value: e.archive }] };
});
const created = new Date(epoch * 1000).toISOString().replace('.000Z', 'Z');
const bomBody = {
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  version: 1,
  metadata: { timestamp: created, component: { type: 'application', 'bom-ref': purlOf('agentplat', version), name: 'agentplat', version, purl: purlOf('agentplat', version), licenses: [{ expression: pkg.license }] } },
  components: [...npmComponents, ...nodeComponents, ...debComponents],
  dependencies: [{ ref: purlOf('agentplat', version), dependsOn: [...npmComponents, ...nodeComponents, ...debComponents].map((c) => c['bom-ref']) }],
};
// The serial number is the content's: the same release, the same number.
const h = sha256(JSON.stringify(bomBody));
const serialNumber = `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
writeFileSync(join(out, `agentplat-${version}.cdx.json`), `${JSON.stringify({ bomFormat: bomBody.bomFormat, specVersion: bomBody.specVersion, serialNumber, ...bomBody }, null, 2)}\n`);

rmSync(work, { recursive: true, force: true });
const files = readdirSync(out).filter((f) => f !== 'SHA256SUMS').sort();
writeFileSync(join(out, 'SHA256SUMS'), files.map((f) => `${sha256(readFileSync(join(out, f)))}  ${f}\n`).join(''));
step(`${relative(root, out)}/: ${files.length + 1} files`);
for (const f of [...files, 'SHA256SUMS']) process.stderr.write(`  ${f} (${(statSync(join(out, f)).size / 1e6).toFixed(1)} MB)\n`);
if (!existsSync(join(out, packed))) fail(`npm pack wrote no ${packed}`, 'see its output above');
