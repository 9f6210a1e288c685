// The benchmark of what users install: packs this repository (`npm pack`), installs the tarball
// into a scratch prefix the way `npm install -g` and the recipes do, and times the installed
// `agentplat` as whole processes, each job against a bare `node -e 0` started by the same node in
// the same run, with peak memory.
//
//   npm run bench [-- --rounds 11] [-- --node /path/to/node ...] [-- --checkout] [-- --out FILE] [-- --readme]
//   npm run bench -- --scale-only [--scale-rounds 3] [--scale-sizes 1000,10000,40000]   # validate at scale alone
//
// - --node (repeatable): the node binaries to run on (the launcher runs the `node` on PATH, so
//   each one's folder is put first on PATH). Default: Node 24 and Node 22, from the npm registry
//   (`npx -p node@24`, `npx -p node@22`; npx keeps them in its cache).
// - Beside them, in the same interleaved rounds: the single executable (dist/exe/agentplat, built
//   by `npm run build:exe`; --exe PATH for another, --no-exe to leave it out) and Helm 4.3.1
//   (built from its Go module by test/cluster/build-helm.sh, cached with the cluster suite's
//   tools; --no-helm to leave it out). Helm renders a chart the bench writes from agentplat's own
//   output (templates/ holds the rendered objects, crds/ the CRDs, values.yaml the defaults): the
//   same objects with no template logic, so Helm's figures are its floor for this chart. The
//   table "against Helm 4" gives each job's wall and CPU time as a ratio to Helm's job:
//   `render --skip-crds` to `helm template`, `render` to `helm template --include-crds`,
//   `lint -f` to `helm lint -f`, `--version` to `helm version`.
// - NODE_EXTRA_CA_CERTS is removed from the environment of every run: Node reads that file at
//   every start (a few milliseconds a user without it does not pay).
// - --checkout: time this repository's bin/agentplat instead of the installed package (to compare
//   with figures of a git checkout).
// - Cases run alternating: every round runs each case once, after warm-up rounds that are not
//   counted (they fill the code cache, in a folder of this run, as a user's first runs do), so machine
//   noise spreads evenly. Reported per case: median, min and max wall time, the median as a ratio
//   to the floor's median, the median CPU time (user + system, from bash's `times`) and its ratio
//   to the floor's (steadier than wall time on a busy machine), and peak memory (maximum resident
//   set size of one more run, from /usr/bin/time when present).
// - Prints a table per node and writes JSON (bench/results/latest.json, with --scale-only scale.json, unless --out); --readme
//   also writes the tables into docs/performance.md between the bench markers (the flag kept its name).
//   Timed assertions do not belong in the test suite; this script asserts nothing.
// - Then "validate at scale" (bench/scale.mjs): agentplat validate against kubeconform, built from
//   its Go module by bench/build-kubeconform.sh, over generated corpora of 1,000 to 40,000 objects
//   (objects per CPU-second and peak memory); --no-scale leaves it out, --scale-only runs it alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, writeResources } from './_shared.mjs';
import { measureScale, scaleTable } from './scale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const args = (name) => argv.flatMap((a, i) => (a === name ? [argv[i + 1]] : []));
const rounds = Number(arg('--rounds', '11'));
const warmup = 2;

const checkout = argv.includes('--checkout');
const npxNode = (major) => execFileSync('npx', ['-y', '-p', `node@${major}`, 'node', '-p', 'process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
const nodes = args('--node').length > 0 ? args('--node') : [npxNode(24), npxNode(22)];
const exePath = argv.includes('--no-exe') ? undefined : arg('--exe', join(root, 'dist', 'exe', 'agentplat'));
const HELM_VERSION = '4.3.1';
const scaleOnly = argv.includes('--scale-only');
// A run of the scale part alone keeps the start-up figures of latest.json.
const out = arg('--out', join(root, 'bench', 'results', scaleOnly ? 'scale.json' : 'latest.json'));
const scaleRounds = Number(arg('--scale-rounds', '3'));
const scaleSizes = arg('--scale-sizes', '1000,10000,40000').split(',').map(Number);

const work = mkdtempSync(join(tmpdir(), 'agentplat-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** The installed package's launcher: `npm pack`, then `npm install -g` of the tarball into a scratch prefix. */
function install() {
  const npm = (cmdArgs, cwd) => execFileSync('npm', cmdArgs, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stderr.write('bench: npm pack\n');
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], root));
  const tarball = join(work, packed[0].filename);
  const prefix = join(work, 'prefix');
  process.stderr.write('bench: npm install -g (scratch prefix)\n');
  npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], work);
  return { bin: join(prefix, 'bin', 'agentplat'), files: packed[0].files.map((f) => f.path) };
}

const target = checkout ? { bin: join(root, 'bin', 'agentplat'), files: [] } : install();
const crs = { dir: writeResources(root, join(work, 'resources')), docs: 200 };
const values = join(root, 'fixtures', 'render', 'httproute', 'values.yaml');
// A kubeconfig whose server nothing listens on (port 1 of the loopback address): `validate
// --cluster` loads the cluster client, resolves the kubeconfig, is refused a connection and exits 2.
const unreachable = join(work, 'unreachable.kubeconfig');
writeFileSync(unreachable, JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }], users: [{ name: 'u', user: { token: 't' } }], contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }], 'current-context': 'c' }));

// The code cache (src/code-cache.ts) goes to a folder of this run: the warm-up rounds fill it as a
// user's first runs do. Two more cases show a run without it: one whose cache folder cannot be
// written (a read-only home), and a first run (its cache folder emptied before each run), which
// compiles everything and writes the cache as it exits.
const cacheHome = join(work, 'cache');
const noCacheHome = join(work, 'not-a-folder');
writeFileSync(noCacheHome, '');
const firstRunHome = join(work, 'first-run-cache');

const cases = (node) => [
  { id: 'floor', name: '`node -e 0` (the floor)', cmd: [node, '-e', '0'] },
  { id: 'version', name: '`agentplat --version`', cmd: [target.bin, '--version'] },
  { id: 'render-skip-crds', name: '`render --skip-crds`', cmd: [target.bin, 'render', '--skip-crds'] },
  { id: 'render', name: '`render` (CRDs included)', cmd: [target.bin, 'render'] },
  { id: 'lint-values', name: '`lint -f values.yaml` (a small values file)', cmd: [target.bin, 'lint', '-f', values] },
  { id: 'validate-200', name: `\`validate\` on ${crs.docs} custom resources (${crs.docs} files)`, cmd: [target.bin, 'validate', crs.dir] },
  { id: 'validate-cluster-help', name: '`validate --cluster --help` (flags only, no cluster client)', cmd: [target.bin, 'validate', '--cluster', '--help'] },
  { id: 'validate-cluster-unreachable', name: '`validate --cluster`, server unreachable (loads the cluster client, exit 2)', cmd: [target.bin, 'validate', '--cluster', '--kubeconfig', unreachable], code: 2 },
  { id: 'render-skip-crds-no-cache', name: '`render --skip-crds`, cache folder not writable', cmd: [target.bin, 'render', '--skip-crds'], env: { XDG_CACHE_HOME: noCacheHome } },
  { id: 'render-skip-crds-first-run', name: '`render --skip-crds`, first run (writes the cache)', cmd: [target.bin, 'render', '--skip-crds'], env: { XDG_CACHE_HOME: firstRunHome }, before: () => rmSync(firstRunHome, { recursive: true, force: true }) },
];

/** The environment a case runs in: `node` on PATH is the one measured; the cwd holds no package. */
const envFor = (node) => {
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}`, XDG_CACHE_HOME: cacheHome };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
};

/**
 * One run: wall time, and the CPU time (user + system, every thread) of the process, which bash's
 * `times` reports for its children to the millisecond. On a machine shared with other work the
 * wall time includes waiting for a core; the CPU time mostly does not. Both include bash's start,
 * the floor's too.
 */
function runOnce(c, baseEnv) {
  const env = { ...baseEnv, ...c.env };
  c.before?.();
  const t = process.hrtime.bigint();
  // Standard output is a pipe this script drains, as `agentplat render | kubectl apply -f -` and a
  // CI runner give it (src/cli/io.ts writes a pipe or a file straight to it, a terminal or a
  // device such as /dev/null through Node's stream).
  const r = spawnSync('bash', ['-c', '"$@"; s=$?; times 1>&2; exit $s', 'bash', ...c.cmd], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== (c.code ?? 0)) throw new Error(`bench: ${c.id} exited with ${r.status}: ${String(r.stderr).slice(0, 400)}`);
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(String(r.stderr));
  if (!m) throw new Error(`bench: no CPU times from bash for ${c.id}`);
  const cpuMs = (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
  return { ms, cpuMs };
}

/** Peak resident memory (MB) of one run, from GNU time's %M (kilobytes), when it is installed. */
function peakMb(c, baseEnv) {
  const time = '/usr/bin/time';
  if (!existsSync(time)) return null;
  const env = { ...baseEnv, ...c.env };
  c.before?.();
  const r = spawnSync(time, ['-f', 'PEAK %M', ...c.cmd], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const m = /PEAK (\d+)/.exec(String(r.stderr));
  return m ? Number(m[1]) / 1024 : null;
}

/**
 * Helm 4.3.1 and a chart of the same objects, or the reason there is none. Helm is the one the
 * cluster suite builds from its Go module (test/cluster/build-helm.sh, cached per machine).
 */
function helmSetup() {
  if (argv.includes('--no-helm')) return { skip: '--no-helm' };
  const built = spawnSync('bash', [join(root, 'test', 'cluster', 'build-helm.sh'), HELM_VERSION], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const helm = built.stdout.trim().split('\n').pop();
  if (built.status !== 0 || !helm || !existsSync(helm)) return { skip: `test/cluster/build-helm.sh ${HELM_VERSION} failed (exit ${built.status}): it needs Go and the Go module proxy` };
  const chart = join(work, 'chart');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  mkdirSync(join(chart, 'crds'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: agentplat\nversion: 0.1.0\n');
  writeFileSync(join(chart, 'values.yaml'), readFileSync(join(root, 'values', 'revision-a.yaml'), 'utf8'));
  const rendered = execFileSync(target.bin, ['render'], { encoding: 'utf8', cwd: work, env: envFor(process.execPath), maxBuffer: 64 * 1024 * 1024 });
  let n = 0;
  for (const doc of rendered.split(/^---\n/m)) {
    const m = /^# Source: agentplat\/(.*)$/m.exec(doc);
    if (!m) continue;
    const crd = /(^|\/)crds\//.test(m[1]);
    const name = `${String(n++).padStart(3, '0')}-${m[1].replace(/\//g, '_')}`;
    // Rendered text is no template: any `{{` in it is printed as it is.
    writeFileSync(join(chart, crd ? 'crds' : 'templates', name), crd ? doc : doc.replace(/\{\{/g, '{{ "{{" }}'));
  }
  const version = execFileSync(helm, ['version', '--short'], { encoding: 'utf8' }).trim();
  return { helm, chart, version };
}

const helm = scaleOnly ? { skip: '--scale-only' } : helmSetup();
const helmCases = () =>
  helm.skip
    ? []
    : [
        { id: 'version', name: '`helm version`', cmd: [helm.helm, 'version', '--short'] },
        { id: 'render-skip-crds', name: '`helm template`', cmd: [helm.helm, 'template', 'agentplat', helm.chart] },
        { id: 'render', name: '`helm template --include-crds`', cmd: [helm.helm, 'template', 'agentplat', helm.chart, '--include-crds'] },
        { id: 'lint-values', name: '`helm lint -f values.yaml`', cmd: [helm.helm, 'lint', helm.chart, '-f', values] },
      ];
/** The executable runs the jobs of the installed package (its own floor is the first node's). */
const exeCases = () => (exePath && existsSync(exePath) ? cases(process.execPath).filter((c) => c.id !== 'floor').map((c) => ({ ...c, cmd: [exePath, ...c.cmd.slice(1)] })) : []);

/**
 * Every subject's jobs in one loop: each round runs every job of every subject once (the
 * installed package on each node, the executable, Helm), so that the machine's load falls on
 * all of them alike.
 */
function measureAll() {
  const subjects = [
    ...nodes.map((node) => ({ key: `node ${execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim()}`, env: envFor(node), list: cases(node) })),
    ...(exeCases().length > 0 ? [{ key: 'executable', env: envFor(nodes[0]), list: exeCases() }] : []),
    ...(helmCases().length > 0 ? [{ key: `helm ${helm.version}`, env: envFor(nodes[0]), list: helmCases() }] : []),
  ];
  const samples = subjects.map((s) => Object.fromEntries(s.list.map((c) => [c.id, { wall: [], cpu: [] }])));
  for (let round = 0; round < warmup + rounds; round++) {
    subjects.forEach((s, i) => {
      for (const c of s.list) {
        const { ms, cpuMs } = runOnce(c, s.env);
        if (round >= warmup) {
          samples[i][c.id].wall.push(ms);
          samples[i][c.id].cpu.push(cpuMs);
        }
      }
    });
    process.stderr.write(`\rround ${round + 1}/${warmup + rounds}`);
  }
  process.stderr.write('\n');
  const floorOf = samples[0].floor;
  return subjects.map((s, i) => {
    const own = samples[i].floor ?? floorOf;
    const floor = median(own.wall);
    const floorCpu = median(own.cpu);
    const results = s.list.map((c) => {
      const xs = samples[i][c.id].wall;
      const cpuMs = median(samples[i][c.id].cpu);
      return { id: c.id, name: c.name, medianMs: median(xs), minMs: Math.min(...xs), maxMs: Math.max(...xs), ratio: median(xs) / floor, cpuMs, cpuRatio: cpuMs / floorCpu, peakMb: peakMb(c, s.env) };
    });
    return { node: s.key.startsWith('node ') ? s.key.slice(5) : undefined, subject: s.key, floorMs: floor, floorCpuMs: floorCpu, cases: results };
  });
}

const loadBefore = loadavg()[0];
const runs = scaleOnly ? [] : measureAll();
const loadAfter = loadavg()[0];

/**
 * Which runs load the cluster client: each job once more with V8's coverage on
 * (NODE_V8_COVERAGE), which lists every script the process compiled, CommonJS, ES modules and
 * those `require` loads of an ES module alike; the count of scripts of @kubernetes/client-node
 * among them. Offline commands must show 0 (test/cluster-client/loading.test.ts requires it of
 * the checkout; this is the installed package).
 */
function clusterClientModules(c) {
  const coverage = join(work, `coverage-${c.id}`);
  rmSync(coverage, { recursive: true, force: true });
  spawnSync(c.cmd[0], c.cmd.slice(1), { cwd: work, env: { ...envFor(process.execPath), ...c.env, NODE_V8_COVERAGE: coverage }, stdio: 'ignore' });
  const urls = readdirSync(coverage).flatMap((f) => JSON.parse(readFileSync(join(coverage, f), 'utf8')).result.map((r) => r.url));
  return urls.filter((u) => /\/dist\/chunks\/cluster-client\.cjs$/.test(u)).length;
}
const clientLoads = scaleOnly ? {} : Object.fromEntries(cases(process.execPath).filter((c) => c.id !== 'floor').map((c) => [c.id, clusterClientModules(c)]));
// validate at scale: on the first node given (the others would add minutes, not a different picture).
const scale = argv.includes('--no-scale') ? undefined : measureScale({ root, work, agentplat: target.bin, env: envFor(nodes[0]), rounds: scaleRounds, sizes: scaleSizes });
const report = {
  env: 'NODE_EXTRA_CA_CERTS unset',
  date: new Date().toISOString(),
  target: checkout ? 'checkout (bin/agentplat of this repository)' : 'installed package (npm pack, npm install -g --prefix)',
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  // The machine's 1-minute load average as the runs began and ended: other work on the machine
  // stretches wall times; the CPU columns count only the process's own work.
  load: { before: loadBefore, after: loadAfter },
  rounds,
  warmup,
  runs,
  sizes: sizes(),
  clusterClientModules: clientLoads,
  ...(scale ? { scale: { node: execFileSync(nodes[0], ['-p', 'process.version'], { encoding: 'utf8' }).trim(), ...scale } } : {}),
};
/** Against Helm: each agentplat subject's job as a ratio to Helm's same job (wall and CPU medians). */
function helmRatios() {
  const h = runs.find((r) => r.subject.startsWith('helm '));
  if (!h) return [];
  return runs
    .filter((r) => r !== h)
    .map((r) => ({
      subject: r.subject,
      jobs: h.cases.map((hc) => {
        const c = r.cases.find((x) => x.id === hc.id);
        return { id: hc.id, helm: hc.name, helmMs: hc.medianMs, helmCpuMs: hc.cpuMs, helmPeakMb: hc.peakMb, wallRatio: c.medianMs / hc.medianMs, cpuRatio: c.cpuMs / hc.cpuMs, peakMb: c.peakMb };
      }),
    }));
}
function sizes() {
  const du = (p) => Number(execFileSync('du', ['-sk', p], { encoding: 'utf8' }).split('\t')[0]) / 1024;
  return {
    installMb: checkout ? null : du(join(dirname(dirname(target.bin)), 'lib', 'node_modules', 'agentplat')),
    executableMb: exePath && existsSync(exePath) ? statSync(exePath).size / 1e6 : null,
    helmMb: helm.helm ? statSync(helm.helm).size / 1e6 : null,
  };
}
const againstHelm = scaleOnly ? [] : helmRatios();
report.againstHelm = againstHelm;
if (helm.skip) report.helmSkipped = helm.skip;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

const fmt = (x, d = 1) => (x === null ? 'n/a' : x.toFixed(d));
console.log(`${report.target}; ${report.cpus} cpus, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}, ${rounds} rounds after ${warmup} warm-up rounds, whole processes, medians`);
for (const run of runs) {
  console.log(`\n${run.subject}`);
  console.log(`${'case'.padEnd(56)} ${'median'.padStart(8)} ${'min'.padStart(7)} ${'max'.padStart(7)} ${'ratio'.padStart(6)} ${'cpu ms'.padStart(7)} ${'ratio'.padStart(6)} ${'peak MB'.padStart(8)}`);
  for (const r of run.cases) {
    console.log(
      `${r.name.padEnd(56)} ${fmt(r.medianMs).padStart(8)} ${fmt(r.minMs).padStart(7)} ${fmt(r.maxMs).padStart(7)} ${(fmt(r.ratio, 2) + 'x').padStart(6)} ${fmt(r.cpuMs).padStart(7)} ${(fmt(r.cpuRatio, 2) + 'x').padStart(6)} ${fmt(r.peakMb).padStart(8)}`,
    );
  }
}
if (againstHelm.length > 0) {
  console.log(`\nagainst Helm ${HELM_VERSION} (agentplat's median / Helm's median, same rounds; peak MB agentplat / Helm)`);
  console.log(`${'job'.padEnd(22)} ${'helm ms'.padStart(8)} ${'cpu ms'.padStart(7)} ${againstHelm.map((a) => a.subject.padStart(24)).join(' ')}`);
  for (const [j, hj] of againstHelm[0].jobs.entries()) {
    console.log(`${hj.id.padEnd(22)} ${fmt(hj.helmMs).padStart(8)} ${fmt(hj.helmCpuMs).padStart(7)} ${againstHelm.map((a) => `${fmt(a.jobs[j].wallRatio, 2)}x cpu ${fmt(a.jobs[j].cpuRatio, 2)}x ${fmt(a.jobs[j].peakMb, 0)}/${fmt(hj.helmPeakMb, 0)}`.padStart(24)).join(' ')}`);
  }
} else if (helm.skip) console.log(`\nagainst Helm: skipped: ${helm.skip}`);
const sz = report.sizes ?? {};
console.log(`\nsizes: installed package ${fmt(sz.installMb)} MB; executable ${fmt(sz.executableMb)} MB; helm ${fmt(sz.helmMb)} MB`);
if (!scaleOnly) {
  console.log(`\nmodules of @kubernetes/client-node each job resolves (node ${process.version}):`);
  for (const [id, n] of Object.entries(clientLoads)) console.log(`  ${id.padEnd(30)} ${n}`);
}
if (report.scale?.skip) console.log(`\nvalidate at scale: skipped: ${report.scale.skip}`);
else if (report.scale) {
  console.log(`\nvalidate at scale (node ${report.scale.node}, ${scaleRounds} rounds, medians)${report.scale.kubeconform.skipped ? `; kubeconform half skipped: ${report.scale.kubeconform.skipped}` : ''}`);
  console.log(scaleTable(report.scale));
}
console.log(`\nJSON: ${out}`);

/** Writes `text` into docs/performance.md between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
function writeReadmeSection(name, text) {
  const readme = join(root, 'docs', 'performance.md');
  const content = readFileSync(readme, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = content.indexOf(start);
  const b = content.indexOf(end);
  if (a < 0 || b < a) throw new Error(`bench: docs/performance.md has no ${name} markers`);
  writeFileSync(readme, `${content.slice(0, a + start.length)}\n${text}\n${content.slice(b)}`);
  console.log(`docs/performance.md: ${name} table updated`);
}

if (argv.includes('--readme') && report.scale?.rows) {
  const kc = report.scale.kubeconform;
  writeReadmeSection(
    'bench-scale',
    [
      `Measured with \`npm run bench -- --readme${scaleOnly ? ' --scale-only' : ''}\` on ${report.date.slice(0, 10)}, on the ${checkout ? 'checkout' : 'installed package'}, Node ${report.scale.node.slice(1)}, a ${report.cpus}-core machine, ${report.scale.rounds} interleaved rounds, medians. CPU time is user + system of the whole process (every thread) from its rusage; objects per CPU-second is objects checked divided by it. ${kc.skipped ? `kubeconform: skipped (${kc.skipped}).` : `kubeconform v${kc.version} built by \`bench/build-kubeconform.sh\`, with strict local schemas generated from the Kubernetes 1.37.2 OpenAPI and the CRDs (\`bench/corpus.mjs\`).`}`,
      '',
      scaleTable(report.scale),
    ].join('\n'),
  );
}

if (argv.includes('--readme') && runs.length > 0) {
  const ids = runs[0].cases.map((c) => c.id);
  const cell = (r) => `${r.medianMs.toFixed(0)} ms (${r.minMs.toFixed(0)}–${r.maxMs.toFixed(0)}), ${r.ratio.toFixed(2)}×; CPU ${r.cpuMs.toFixed(0)} ms, ${r.cpuRatio.toFixed(2)}×; ${r.peakMb === null ? 'n/a' : `${r.peakMb.toFixed(0)} MB`}`;
  const table = [
    `Measured with \`npm run bench -- --readme${nodes.length > 1 ? ' --node … --node …' : ''}\` on ${report.date.slice(0, 10)}, on the ${checkout ? 'checkout' : 'installed package (`npm pack`, then `npm install -g` of the tarball into a scratch prefix)'}: a ${report.cpus}-core machine (load average ${loadBefore.toFixed(1)} as the runs began, ${loadAfter.toFixed(1)} as they ended), ${rounds} interleaved rounds after ${warmup} warm-up rounds, medians (min–max), the ratio to \`node -e 0\` started by the same node in the same run; CPU time (user + system, median) and its ratio to the floor's; peak resident memory of one more run.`,
    '',
    `| Job (whole process) | ${runs.map((r) => (r.node ? `Node ${r.node.slice(1)}` : r.subject)).join(' | ')} |`,
    `|---|${runs.map(() => '---').join('|')}|`,
    ...ids.map((id) => `| ${runs[0].cases.find((c) => c.id === id).name} | ${runs.map((r) => cell(r.cases.find((c) => c.id === id))).join(' | ')} |`),
  ].join('\n');
  writeReadmeSection('bench', table);
}
