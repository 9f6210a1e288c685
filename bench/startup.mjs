// Measures whole-process wall time of the main jobs against a bare `node -e 0` in the same run,
// and prints medians and ratios. Usage: npm run bench [-- --runs 15]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 11;
const bin = join(root, 'bin', 'agentplat');

const cases = [
  ['node -e 0 (floor)', ['-e', '0']],
  ['agentplat --version', [bin, '--version']],
  ['agentplat lint --revision A', [bin, 'lint', '--revision', 'A']],
  ['agentplat lint --revision B', [bin, 'lint', '--revision', 'B']],
  ['agentplat render --revision A', [bin, 'render', '--revision', 'A']],
  ['agentplat render --revision B', [bin, 'render', '--revision', 'B']],
  ['agentplat validate fixtures/resources', [bin, 'validate', 'fixtures/resources']],
];

function time(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  return { ms, status: r.status };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
// Interleave the cases so machine noise spreads evenly over them.
const samples = cases.map(() => []);
const status = cases.map(() => 0);
for (let i = 0; i < runs; i++) {
  cases.forEach(([, args], k) => {
    const { ms, status: s } = time(args);
    samples[k].push(ms);
    status[k] = s;
  });
}
const floor = median(samples[0]);
for (const [k, [name]] of cases.entries()) results.push({ name, median: median(samples[k]), exit: status[k] });
console.log(`runs per case: ${runs}; node ${process.version}`);
for (const r of results) {
  console.log(`${r.name.padEnd(40)} ${r.median.toFixed(1).padStart(7)} ms  ${(r.median / floor).toFixed(2)}x floor  (exit ${r.exit})`);
}
