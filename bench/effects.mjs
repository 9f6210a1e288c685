// CPU (user+sys) of lint with and without the values/no-effect judgement, and of explain, on
// installed packages, runs interleaved so that a loaded machine weighs on every row alike.
//
//   node bench/effects.mjs [--runs 20] [--only lint|explain] [--file values.yaml] label=/prefix [label2=/prefix2 ...]
//
// The values file linted is the largest of fixtures/ (the proxy's production file) unless --file
// names another (a path from the repository's root).
//
// Each prefix is an `npm install -g --prefix <prefix> <tarball>` of an `npm pack` of the
// repository. Every round runs each command of each install once, in turn; the table gives the
// mean and median of user+sys CPU (bash's time, to the millisecond) per install and command,
// and the ratio of lint to `lint --no-effects` within each install (compare ratios, not figures
// across runs).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './_shared.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let runs = 20;
let only;
let file = join(root, 'fixtures/subcharts/authproxy-production.values.yaml');
const installs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--only') only = args[++i];
  else if (args[i] === '--file') file = join(root, args[++i]);
  else {
    const [label, prefix] = args[i].split('=');
    installs.push({ label, bin: join(prefix, 'bin', 'agentplat') });
  }
}
if (installs.length === 0) {
  console.error('usage: node bench/effects.mjs [--runs 20] [--only lint|explain] [--file values.yaml] label=/install/prefix ...');
  process.exit(2);
}
const all = [
  { name: 'lint -f', argv: ['lint', '-f', file] },
  { name: 'lint --no-effects -f', argv: ['lint', '--no-effects', '-f', file] },
  { name: 'explain authproxy.config.emailDomains', argv: ['explain', 'authproxy.config.emailDomains'] },
  { name: 'explain controller.replicas -r B', argv: ['explain', 'controller.replicas', '-r', 'B'] },
];
const commands = only ? all.filter((c) => c.argv[0] === only) : all;

// bash's `time` reads the child's rusage to the millisecond (TIMEFORMAT %3U %3S); /usr/bin/time
// prints it in 10 ms ticks, which moved a median of about 100 ms by a tenth at a time.
const cpu = (bin, argv) => {
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time "$@" >/dev/null 2>/dev/null', 'bench', bin, ...argv], { encoding: 'utf8', cwd: root });
  const last = r.stderr.trim().split('\n').at(-1);
  const [u, s] = last.split(' ').map(Number);
  if (!Number.isFinite(u + s)) throw new Error(`no timing from ${bin} ${argv.join(' ')}: ${r.stderr}`);
  return (u + s) * 1000;
};

const times = new Map();
for (let round = 0; round < runs; round++) {
  for (const c of commands) {
    for (const i of installs) {
      const key = `${i.label}\u0000${c.name}`;
      if (!times.has(key)) times.set(key, []);
      times.get(key).push(cpu(i.bin, c.argv));
    }
  }
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ms = (x) => x.toFixed(1);
console.log(`${runs} interleaved runs; CPU ms (user+sys), mean / median; NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'}`);
const ratio = commands[0]?.name === 'lint -f' && commands[1]?.name === 'lint --no-effects -f';
console.log(`| install | ${commands.map((c) => c.name).join(' | ')} |${ratio ? ' lint ÷ --no-effects (mean / median) |' : ''}`);
console.log(`|---|${commands.map(() => '---|').join('')}${ratio ? '---|' : ''}`);
for (const i of installs) {
  const cols = commands.map((c) => times.get(`${i.label}\u0000${c.name}`));
  const r = ratio ? ` ${(mean(cols[0]) / mean(cols[1])).toFixed(2)} / ${(median(cols[0]) / median(cols[1])).toFixed(2)} |` : '';
  console.log(`| ${i.label} | ${cols.map((xs) => `${ms(mean(xs))} / ${ms(median(xs))}`).join(' | ')} |${r}`);
}
