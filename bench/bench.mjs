// The benchmark: whole-process wall time of the main jobs, each against a bare `node -e 0` start
// timed in the same run, plus peak memory and in-process throughput.
//
//   npm run bench [-- --rounds 11] [-- --out FILE] [-- --readme]
//
// - Cases run as whole processes (bin/agentplat, as users start it), alternating: every round runs
//   each case once, after warm-up rounds that are not counted, so machine noise spreads evenly.
// - Reported per case: median, min and max wall time, the median as a ratio to the floor's median,
//   and peak memory (maximum resident set size of one more run, from /usr/bin/time when present).
// - In-process: renders per second through the package API (import { render } from 'agentplat').
// - Prints a table and writes JSON (bench/results/latest.json unless --out) for comparisons;
//   --readme also writes the table into README.md between the bench markers.
//   Timed assertions do not belong in the test suite; this script asserts nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { median, writeResources, writeValuesFiles } from './_shared.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rounds = Number(arg('--rounds', '11'));
const warmup = 2;
const out = arg('--out', join(root, 'bench', 'results', 'latest.json'));
const bin = join(root, 'bin', 'agentplat');
if (!existsSync(join(root, 'dist', 'agentplat.mjs'))) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(2);
}

// ---- inputs written for this run ----
const work = mkdtempSync(join(tmpdir(), 'agentplat-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** Every component on, and 50 extra objects. */
function largeValues() {
  const fixture = (p) => parseYaml(readFileSync(join(root, 'fixtures', p), 'utf8'));
  const merge = (a, b) => {
    if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
      const o = { ...a };
      for (const [k, v] of Object.entries(b)) o[k] = merge(a[k], v);
      return o;
    }
    return b;
  };
  let v = {};
  for (const p of ['render/metrics-servicemonitor-b/values.yaml', 'render/httproute/values.yaml', 'render/pdb-min-available/values.yaml', 'subcharts/authproxy-inline.values.yaml', 'subcharts/substrate-worker-pool.values.yaml']) {
    v = merge(v, fixture(p));
  }
  v.extraObjects = Array.from({ length: 50 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `{{ .Release.Name }}-extra-${i}`, labels: { index: String(i) } },
    data: { key: `value ${i}`, text: 'line one\nline two\n' },
  }));
  const file = join(work, 'large-values.yaml');
  writeFileSync(file, JSON.stringify(v, null, 2));
  return file;
}

const large = largeValues();
const crs = { dir: writeResources(root, join(work, 'resources')), docs: 200 };
const many = writeValuesFiles(root, join(work, 'values'));
const manyFiles = readdirSync(many).map((f) => join(many, f));

const cases = [
  { id: 'floor', name: '`node -e 0` (the floor)', cmd: [process.execPath, '-e', '0'] },
  { id: 'version', name: '`agentplat --version`', cmd: [bin, '--version'] },
  { id: 'render-b', name: '`render --revision B` (CRDs included)', cmd: [bin, 'render', '--revision', 'B'] },
  { id: 'render-b-skip-crds', name: '`render --revision B --skip-crds`', cmd: [bin, 'render', '--revision', 'B', '--skip-crds'] },
  { id: 'render-a', name: '`render --revision A` (CRDs included)', cmd: [bin, 'render', '--revision', 'A'] },
  { id: 'render-a-skip-crds', name: '`render --revision A --skip-crds`', cmd: [bin, 'render', '--revision', 'A', '--skip-crds'] },
  { id: 'crds', name: '`crds`', cmd: [bin, 'crds'] },
  { id: 'render-values', name: '`render -f values.yaml` (a small values file)', cmd: [bin, 'render', '--revision', 'B', '-f', join(root, 'fixtures', 'render', 'httproute', 'values.yaml')] },
  {
    id: 'render-large',
    name: '`render -f large.yaml` (every component, 50 extra objects)',
    cmd: [bin, 'render', '--revision', 'B', '-f', large, '--api-versions', 'monitoring.coreos.com/v1', '--api-versions', 'gateway.networking.k8s.io/v1'],
  },
  { id: 'lint-b', name: '`lint --revision B`', cmd: [bin, 'lint', '--revision', 'B'] },
  { id: 'lint-a', name: '`lint --revision A`', cmd: [bin, 'lint', '--revision', 'A'] },
  { id: 'validate-200', name: `\`validate\` on ${crs.docs} custom resources (${crs.docs} files)`, cmd: [bin, 'validate', crs.dir] },
  { id: 'lint-500', name: '`lint` of 500 values files in one process', cmd: [bin, 'lint', '--revision', 'B', '--quiet', ...manyFiles], ok: [0, 1] },
  // The same jobs without the start-up snapshot: what the snapshot is worth (kept only if it pays).
  { id: 'render-b-bundle', name: '`render --revision B`, bundle (no snapshot)', cmd: [bin, 'render', '--revision', 'B'], env: { AGENTPLAT_NO_SNAPSHOT: '1' } },
  { id: 'lint-b-bundle', name: '`lint --revision B`, bundle (no snapshot)', cmd: [bin, 'lint', '--revision', 'B'], env: { AGENTPLAT_NO_SNAPSHOT: '1' } },
];

function runOnce(c) {
  const t = process.hrtime.bigint();
  const r = spawnSync(c.cmd[0], c.cmd.slice(1), { cwd: root, env: { ...process.env, ...c.env }, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (!(c.ok ?? [0]).includes(r.status)) throw new Error(`bench: ${c.id} exited with ${r.status}: ${String(r.stderr).slice(0, 400)}`);
  return ms;
}

const samples = Object.fromEntries(cases.map((c) => [c.id, []]));
for (let round = 0; round < warmup + rounds; round++) {
  for (const c of cases) {
    const ms = runOnce(c);
    if (round >= warmup) samples[c.id].push(ms);
  }
  process.stderr.write(`\rround ${round + 1}/${warmup + rounds}`);
}
process.stderr.write('\n');

/** Peak resident memory (MB) of one run, from GNU time's %M (kilobytes), when it is installed. */
function peakMb(c) {
  const time = '/usr/bin/time';
  if (!existsSync(time)) return null;
  const r = spawnSync(time, ['-f', 'PEAK %M', ...c.cmd], { cwd: root, env: { ...process.env, ...c.env }, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const m = /PEAK (\d+)/.exec(String(r.stderr));
  return m ? Number(m[1]) / 1024 : null;
}

// ---- in-process throughput ----
/**
 * Renders per second through the package API in steady state: one second of warm-up (a long-lived
 * process, such as a GitOps controller, renders many times), then three one-second windows, the
 * median reported. `encode`: each result's YAML is also encoded to bytes, as writing it out does
 * (the string is built as a rope; encoding reads every character once).
 */
async function rendersPerSecond(options, { encode = false } = {}) {
  const require = createRequire(join(root, 'package.json'));
  const api = await import(pathToFileURL(require.resolve('agentplat')).href);
  const window = async (ms) => {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < ms) {
      const r = await api.render(options);
      if (!r.ok || r.yaml.length === 0) throw new Error('bench: in-process render failed');
      if (encode && Buffer.byteLength(Buffer.from(r.yaml)) !== Buffer.byteLength(r.yaml)) throw new Error('bench: encoding changed the length');
      n++;
    }
    return n / ((performance.now() - start) / 1000);
  };
  await window(1000);
  return median([await window(1000), await window(1000), await window(1000)]);
}

const floor = median(samples.floor);
const results = cases.map((c) => {
  const xs = samples[c.id];
  return { id: c.id, name: c.name, medianMs: median(xs), minMs: Math.min(...xs), maxMs: Math.max(...xs), ratio: median(xs) / floor, peakMb: peakMb(c) };
});
const inProcess = {
  renderBPerSecond: await rendersPerSecond({ revision: 'B' }),
  renderBSkipCrdsPerSecond: await rendersPerSecond({ revision: 'B', skipCrds: true }),
  renderBEncodedPerSecond: await rendersPerSecond({ revision: 'B' }, { encode: true }),
};

const report = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  rounds,
  warmup,
  floorMs: floor,
  cases: results,
  inProcess,
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

const fmt = (x, d = 1) => (x === null ? 'n/a' : x.toFixed(d));
console.log(`node ${process.version}, ${report.cpus} cpus, ${rounds} rounds after ${warmup} warm-up rounds, whole processes, medians`);
console.log(`${'case'.padEnd(64)} ${'median'.padStart(8)} ${'min'.padStart(7)} ${'max'.padStart(7)} ${'ratio'.padStart(6)} ${'peak MB'.padStart(8)}`);
for (const r of results) {
  console.log(`${r.name.padEnd(64)} ${fmt(r.medianMs).padStart(8)} ${fmt(r.minMs).padStart(7)} ${fmt(r.maxMs).padStart(7)} ${(fmt(r.ratio, 2) + 'x').padStart(6)} ${fmt(r.peakMb).padStart(8)}`);
}
console.log(
  `in-process render --revision B: ${inProcess.renderBPerSecond.toFixed(0)} renders/s (${inProcess.renderBSkipCrdsPerSecond.toFixed(0)}/s with skipCrds, ` +
    `${inProcess.renderBEncodedPerSecond.toFixed(0)}/s with the YAML encoded to bytes)`,
);
console.log(`JSON: ${out}`);

if (process.argv.includes('--readme')) {
  const by = Object.fromEntries(results.map((r) => [r.id, r]));
  const row = (r) => `| ${r.name} | ${r.medianMs.toFixed(0)} ms (${r.minMs.toFixed(0)}–${r.maxMs.toFixed(0)}) | ${r.ratio.toFixed(2)}× | ${r.peakMb === null ? 'n/a' : `${r.peakMb.toFixed(0)} MB`} |`;
  const table = [
    `Measured with \`npm run bench -- --readme\` on ${report.date.slice(0, 10)}: a ${report.cpus}-core machine, Node ${report.node.slice(1)}, ${rounds} interleaved rounds after ${warmup} warm-up rounds, medians (min–max), peak resident memory of one more run.`,
    '',
    '| Job (whole process) | Wall time | vs `node -e 0` | Peak memory |',
    '|---|---|---|---|',
    ...results.map(row),
    '',
    `In-process (\`import { render } from 'agentplat'\`, objects and YAML text, steady state after one second of warm-up, median of three one-second windows): ${inProcess.renderBPerSecond.toFixed(0)} renders per second of revision B's defaults, ${inProcess.renderBSkipCrdsPerSecond.toFixed(0)} without the CRDs (whose 690 kB of text is most of the output), ${inProcess.renderBEncodedPerSecond.toFixed(0)} when each result's YAML is also encoded to bytes as writing it out does (the text is built as a rope, so its characters are copied only by whoever reads them).`,
    '',
    `The start-up snapshot pays: \`render --revision B\` takes ${by['render-b'].medianMs.toFixed(0)} ms with it and ${by['render-b-bundle'].medianMs.toFixed(0)} ms from the bundle, \`lint\` ${by['lint-b'].medianMs.toFixed(0)} and ${by['lint-b-bundle'].medianMs.toFixed(0)} ms.`,
  ].join('\n');
  const readme = join(root, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error('bench: README.md has no bench markers');
  writeFileSync(readme, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
  console.log('README.md: bench table updated');
}
