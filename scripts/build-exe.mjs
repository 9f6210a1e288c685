// `npm run build:exe`: this machine's single executable, dist/exe/agentplat: Node 24's single
// executable application (https://nodejs.org/api/single-executable-applications.html) made of
// the same bundle as the npm package, with
// - a start-up snapshot warmed by real work (src/cli/exe-main.ts runs a few commands at build
//   time): a run starts with the CLI loaded, compiled and its data parsed;
// - the package's data files (values/, schemas/, dist/generated/, the chunks of dist/chunks/) as
//   the executable's assets, read through src/package-root.ts;
// - Node's binary stripped of its symbols before the blob is injected (postject).
//
//   npm run build:exe [-- --node /path/to/node24] [-- --out path/to/agentplat]
//
// --out writes the executable elsewhere than dist/exe/agentplat (its work folder beside it), so that
// two builds (a test's and the release's) never share a folder.
//
// The Node it is made of: --node, else this node when it is Node 24, else Node 24 from the npm
// registry (`npx -p node@24`). A snapshot runs only on the very binary that built it, so that
// binary is both the builder and the base of the executable.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const NODE_MAJOR = 24;
// The fuse Node's binary carries for postject (the same string in every Node release).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function fail(message, hint) {
  process.stderr.write(`scripts/build-exe.mjs: ${message}\n  hint: ${hint}\n`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) fail(`\`${[cmd, ...args].join(' ')}\` failed (exit ${r.status ?? r.signal})`, 'see its output above');
}

function nodeBinary() {
  const i = argv.indexOf('--node');
  const given = i >= 0 ? argv[i + 1] : process.env.AGENTPLAT_EXE_NODE;
  const node = given ?? (process.versions.node.split('.')[0] === String(NODE_MAJOR) ? process.execPath : execFileSync('npx', ['-y', '-p', `node@${NODE_MAJOR}`, 'node', '-p', 'process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim());
  const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
  if (version.split('.')[0] !== `v${NODE_MAJOR}`) fail(`${node} is Node ${version}, not Node ${NODE_MAJOR}`, `pass a Node ${NODE_MAJOR} binary with --node`);
  return { node, version };
}

/** Every file under `dir` of the folder `base` (relative to it, slash-separated) → its path. */
function assetsOf(base, dir, into) {
  for (const entry of readdirSync(join(base, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) assetsOf(base, rel, into);
    else into[rel] = join(base, rel);
  }
  return into;
}

const { node, version } = nodeBinary();
const outAt = argv.indexOf('--out');
const outFile = outAt >= 0 ? resolve(argv[outAt + 1] ?? fail('--out needs a path', 'e.g. --out /tmp/agentplat')) : join(root, 'dist', 'exe', 'agentplat');
const outDir = dirname(outFile);
// The work folder is inside the repository (the bundle's generated modules resolve node_modules
// from there), one per build when --out is given.
const work = join(root, 'dist', 'exe', outAt >= 0 ? `.work-${process.pid}` : '.work');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
// A build of its own, into the work folder: dist/ is left as it is (a test may be reading it, or
// another build writing it).
const built = join(work, 'dist');
process.stderr.write(`build-exe: the bundle (node scripts/build.mjs --exe --into ${relative(root, built)})\n`);
run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--exe', '--into', built], { cwd: root });
// What the executable holds, staged as the package lays it out: the entry, and what the package
// reads at run time as assets: the data of values/ and schemas/, what the build generated, and
// the chunks one command loads (templates/ is compiled into dist/generated/templates.json). The
// values file the warm-up lints (src/cli/exe-main.ts) is read at build time only.
const stage = join(work, 'package');
for (const part of ['values', 'schemas', 'fixtures/render/httproute/values.yaml']) cpSync(join(root, part), join(stage, part), { recursive: true });
for (const part of ['generated', 'chunks', 'sea/main.cjs']) cpSync(join(built, part), join(stage, 'dist', part), { recursive: true });
const assets = {};
for (const dir of ['values', 'schemas', 'dist/generated', 'dist/chunks']) assetsOf(stage, dir, assets);
const blob = join(work, 'sea.blob');
const config = join(work, 'sea-config.json');
// V8's options for every run of the executable (the blob's execArgv) and for the snapshot's builder,
// so that the snapshot's code is made under the flags it runs with. --no-maglev: Node 24 turns on
// V8's mid-tier compiler Maglev (Node 22 leaves it off), which compiles a run's hot functions on a
// second thread that a run of a tenth of a second ends before using (docs/performance.md: 11 ms of
// CPU of `render --skip-crds`, measured). TurboFan stays on for long runs (validate at scale).
const V8_OPTIONS = ['--no-maglev'];
writeFileSync(config, `${JSON.stringify({ main: join(stage, 'dist', 'sea', 'main.cjs'), output: blob, disableExperimentalSEAWarning: true, useSnapshot: true, useCodeCache: false, execArgv: V8_OPTIONS, assets }, null, 2)}\n`);
process.stderr.write(`build-exe: the blob, its snapshot warmed by src/cli/exe-main.ts (${version})\n`);
// The snapshot is built in a clean environment: the warm-up runs read none of the builder's
// settings, and NODE_OPTIONS would end up in the snapshot's V8 flags.
run(node, [...V8_OPTIONS, '--experimental-sea-config', config], { cwd: stage, env: { PATH: process.env.PATH ?? '', AGENTPLAT_EXE_BUILD_ROOT: stage } });

const exe = join(work, 'agentplat');
copyFileSync(node, exe);
chmodSync(exe, 0o755);
if (process.platform === 'darwin') run('codesign', ['--remove-signature', exe]);
else if (spawnSync('strip', ['--version'], { stdio: 'ignore' }).status === 0) run('strip', ['--strip-all', exe]);
else process.stderr.write('build-exe: no `strip` on PATH: the executable keeps Node\'s symbols\n');
// postject (a devDependency) writes the blob into the binary as a note (ELF), segment (Mach-O) or
// resource (PE), and flips the fuse that tells Node to look for it.
const { inject } = (await import('postject')).default;
await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE, ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}) });
if (process.platform === 'darwin') run('codesign', ['--sign', '-', exe]);
mkdirSync(outDir, { recursive: true });
if (outAt >= 0) copyFileSync(exe, outFile);
else renameSync(exe, outFile);
rmSync(work, { recursive: true, force: true });
process.stderr.write(`build-exe: ${relative(root, outFile)} (${(statSync(outFile).size / 1e6).toFixed(1)} MB, ${version}, ${process.platform}-${process.arch})\n`);
