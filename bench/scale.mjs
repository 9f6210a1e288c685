// "validate at scale", the part of `npm run bench` that compares `agentplat validate` with
// kubeconform over the same generated corpora (bench/corpus.mjs): the same files, the same objects,
// local schemas, no network. Per corpus size and tool: the objects each tool checked, CPU time
// (user + system, from the child's rusage through GNU time) and objects per CPU-second (objects per
// second per core), wall time, and peak resident memory.
//
// kubeconform runs twice: with `-n 1` (one validation worker; the Go runtime still has its own
// threads, whose CPU time is counted) and with its default parallelism (`-n 4` in v0.8.0). Both
// run with `-strict -summary`. When Go or the module proxy is not there, the kubeconform half is
// skipped with a message and agentplat is measured alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { corpusTemplates, schemaLocation, writeCorpus, writeKubeconformSchemas } from './corpus.mjs';
import { median } from './_shared.mjs';

/** The Kubernetes release whose OpenAPI documents the core kinds' schemas are made from. */
export const KUBERNETES_MODULE = 'k8s.io/kubernetes@v1.37.2';
export const SIZES = [1000, 10000, 40000];

/** kubeconform from bench/build-kubeconform.sh (built once, cached), or why not. */
function kubeconform(root) {
  const r = spawnSync('bash', [join(root, 'bench', 'build-kubeconform.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.stderr) process.stderr.write(r.stderr.replace(/^/gm, 'bench: '));
  if (r.status !== 0) return { skip: `kubeconform could not be built (bench/build-kubeconform.sh exited ${r.status}; it needs Go and the Go module proxy)` };
  return { bin: r.stdout.trim().split('\n').pop() };
}

/** The OpenAPI v3 folder of k8s.io/kubernetes in Go's module cache, downloaded there once if missing. */
function openapiDir() {
  // Where test/cluster/_go-env.sh looks too: PATH, then /usr/local/go/bin.
  const env = { ...process.env, PATH: `${process.env.PATH}${delimiter}/usr/local/go/bin`, GOFLAGS: '-mod=mod' };
  const json = JSON.parse(execFileSync('go', ['mod', 'download', '-json', KUBERNETES_MODULE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env }));
  const dir = join(json.Dir, 'api', 'openapi-spec', 'v3');
  if (!existsSync(dir)) throw new Error(`bench: ${KUBERNETES_MODULE} has no ${dir}`);
  return dir;
}

/** One run under GNU time: exit status, CPU ms (user + system), wall ms, peak RSS MB, stdout and stderr. */
function timed(cmd, env, cwd) {
  const t = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', 'RUSAGE %U %S %M', ...cmd], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const wallMs = Number(process.hrtime.bigint() - t) / 1e6;
  const m = /RUSAGE ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  if (!m) throw new Error(`bench: no rusage for ${cmd.join(' ')}: ${r.stderr.slice(-400)}`);
  return { status: r.status, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, wallMs, peakMb: Number(m[3]) / 1024, stdout: r.stdout, stderr: r.stderr.slice(0, m.index) };
}

/** How many objects a run checked, read from the tool's own summary. */
const checkedBy = {
  agentplat: (r, corpus) => {
    const m = /validate: checked (\d+) resource/.exec(r.stderr);
    // Without a summary line every document was checked (validate prints it when some went unchecked).
    return m ? Number(m[1]) : corpus.objects;
  },
  kubeconform: (r) => {
    const m = /Valid: (\d+), Invalid: (\d+), Errors: (\d+), Skipped: (\d+)/.exec(r.stdout);
    if (!m) throw new Error(`bench: no kubeconform summary: ${r.stdout.slice(-400)}`);
    return Number(m[1]) + Number(m[2]);
  },
};

/**
 * Measures every corpus with every tool, `rounds` interleaved rounds (medians). `agentplat` is
 * the launcher to time, `env` its environment (node on PATH).
 */
export function measureScale({ root, work, agentplat, env, rounds = 3, sizes = SIZES }) {
  if (!existsSync('/usr/bin/time')) return { skip: 'GNU time (/usr/bin/time) is not installed: the CPU time and peak memory of a child come from it' };
  const kc = kubeconform(root);
  let schemas;
  if (kc.bin) {
    try {
      schemas = join(work, 'kubeconform-schemas');
      const n = writeKubeconformSchemas(schemas, { root, openapi: openapiDir() });
      process.stderr.write(`bench: ${n} strict schemas for kubeconform in ${schemas}\n`);
    } catch (err) {
      kc.skip = `no schemas for kubeconform: ${err.message}`;
      delete kc.bin;
    }
  }
  if (kc.skip) process.stderr.write(`bench: kubeconform half skipped: ${kc.skip}\n`);
  const templates = corpusTemplates(root);
  const corpora = sizes.flatMap((objects) => [
    { id: `mixed-${objects}`, crOnly: false, ...writeCorpus(join(work, `corpus-mixed-${objects}`), { objects, seed: objects, templates }) },
    { id: `cr-${objects}`, crOnly: true, ...writeCorpus(join(work, `corpus-cr-${objects}`), { objects, seed: objects + 1, crOnly: true, templates }) },
  ]);
  const location = schemas && schemaLocation(schemas);
  const tools = [
    { id: 'agentplat', name: 'agentplat validate', cmd: (dir) => [agentplat, 'validate', dir], count: checkedBy.agentplat },
    ...(kc.bin
      ? [
          { id: 'kubeconform-n1', name: 'kubeconform -strict -summary -n 1', cmd: (dir) => [kc.bin, '-strict', '-summary', '-n', '1', '-schema-location', location, dir], count: checkedBy.kubeconform },
          { id: 'kubeconform', name: 'kubeconform -strict -summary (default -n 4)', cmd: (dir) => [kc.bin, '-strict', '-summary', '-schema-location', location, dir], count: checkedBy.kubeconform },
        ]
      : []),
  ];
  const samples = new Map();
  for (let round = 0; round < rounds; round++) {
    for (const corpus of corpora) {
      for (const tool of tools) {
        const r = timed(tool.cmd(corpus.dir), env, work);
        // Each corpus holds invalid objects: both tools exit 1; anything else is a failure of the run.
        if (r.status !== 1) throw new Error(`bench: ${tool.name} on ${corpus.id} exited ${r.status}: ${(r.stderr || r.stdout).slice(-600)}`);
        const key = `${corpus.id} ${tool.id}`;
        if (!samples.has(key)) samples.set(key, []);
        samples.get(key).push({ ...r, checked: tool.count(r, corpus), invalid: invalidCount(tool.id, r) });
      }
      process.stderr.write(`\rbench: validate at scale, round ${round + 1}/${rounds}, ${corpus.id}      `);
    }
  }
  process.stderr.write('\n');
  const rows = corpora.flatMap((corpus) =>
    tools.map((tool) => {
      const xs = samples.get(`${corpus.id} ${tool.id}`);
      const cpuMs = median(xs.map((x) => x.cpuMs));
      const checked = xs[0].checked;
      return {
        corpus: corpus.id,
        crOnly: corpus.crOnly,
        objects: corpus.objects,
        files: corpus.files,
        invalidWritten: corpus.invalid,
        tool: tool.id,
        name: tool.name,
        checked,
        invalidReported: xs[0].invalid,
        cpuMs,
        wallMs: median(xs.map((x) => x.wallMs)),
        peakMb: median(xs.map((x) => x.peakMb)),
        objectsPerCpuSecond: checked / (cpuMs / 1000),
      };
    }),
  );
  return { kubeconform: kc.bin ? { bin: kc.bin, version: basename(dirname(kc.bin)), schemas: location } : { skipped: kc.skip }, rounds, rows };
}

/** How many objects a tool called invalid (agentplat: distinct objects named in its problems). */
function invalidCount(tool, r) {
  if (tool !== 'agentplat') return Number(/Invalid: (\d+)/.exec(r.stdout)?.[1] ?? NaN);
  // Every problem of validate names its object after the file position: `Kind name: …`.
  const objects = new Set();
  for (const m of r.stdout.matchAll(/^(\S+):\d+:\d+ {2}error {2}(\w+ \S+?):/gm)) objects.add(`${m[1]} ${m[2]}`);
  return objects.size;
}

const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** The table, for the terminal and docs/performance.md. */
export function scaleTable(result) {
  const head = '| Corpus | Tool | Objects checked | CPU (user + sys) | Objects / CPU-second | Wall | Peak RSS |';
  const lines = [head, '|---|---|---|---|---|---|---|'];
  for (const r of result.rows) {
    const corpus = `${fmt(r.objects)} ${r.crOnly ? 'custom resources' : 'mixed objects'} (${fmt(r.files)} files)`;
    lines.push(`| ${corpus} | ${r.name} | ${fmt(r.checked)} (${fmt(r.invalidReported)} invalid) | ${fmt(r.cpuMs / 1000, 2)} s | ${fmt(r.objectsPerCpuSecond)} | ${fmt(r.wallMs / 1000, 2)} s | ${fmt(r.peakMb)} MB |`);
  }
  return lines.join('\n');
}
