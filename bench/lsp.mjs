// How long `agentplat lsp` takes to publish a values file's diagnostics after an edit (issue 38
// asks for 50 ms on a warm server). The largest values file of fixtures/ is opened in the shipped
// server (bin/agentplat lsp, over stdio, JSON-RPC through vscode-jsonrpc as an editor speaks it),
// edited a few times to warm it, then edited --rounds times, one edit at a time: each figure is
// the time from sending didChange to receiving the publishDiagnostics of that version. Run
// `node scripts/build.mjs` first. This script asserts nothing.
//
//   node bench/lsp.mjs [--rounds 30] [--warm 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg('rounds', 30);
const warm = arg('warm', 5);
// Node's own flags for the server (`--node-arg --cpu-prof` to profile it).
const nodeArgs = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--node-arg' ? [a] : []));

/** Every values file of fixtures/ (a YAML file named values or *.values), the largest first. */
function valuesFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return valuesFiles(path);
    return /(^|\.)values\.ya?ml$/.test(e.name) ? [path] : [];
  });
}
const largest = valuesFiles(join(root, 'fixtures')).sort((a, b) => statSync(b).size - statSync(a).size)[0];
const text = readFileSync(largest, 'utf8');

// The file in a folder of its own, so that no .agentplat.yaml of the repository applies.
const dir = mkdtempSync(join(tmpdir(), 'agentplat-lsp-bench-'));
const file = join(dir, 'values.yaml');
writeFileSync(file, text);
const uri = pathToFileURL(file).href;

const child = spawn(process.execPath, [...nodeArgs, join(root, 'bin', 'agentplat'), 'lsp', '--stdio'], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const waiting = new Map();
let last;
connection.onNotification('textDocument/publishDiagnostics', (p) => {
  if (p.uri !== uri) return;
  last = p;
  waiting.get(p.version)?.(p);
});
connection.listen();
await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
await connection.sendNotification('initialized', {});

const published = (version) => new Promise((resolve) => waiting.set(version, resolve));
let version = 1;
const opened = published(1);
const t0 = performance.now();
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
await opened;
const firstOpen = performance.now() - t0;

// An edit that changes the file's result each time: a trailing comment line with a counter, and
// every other edit a real key (controller.replicas) set to another number.
const edit = (n) => `${text.trimEnd()}\n# edit ${n}\n${n % 2 === 0 ? `controller:\n  replicas: ${2 + (n % 5)}\n` : ''}`;
// The server's own CPU time (user + system, from /proc on Linux): on a machine whose cores other
// work shares, the wall time of an edit also counts the time the server waited for a core.
const TICK_MS = 10; // USER_HZ is 100 on Linux
const cpuMs = () => {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
};
const times = [];
const cpu = [];
for (let n = 1; n <= warm + rounds; n++) {
  version += 1;
  const done = published(version);
  const cpu0 = cpuMs();
  const start = performance.now();
  await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: edit(n) }] });
  await done;
  const cpu1 = cpuMs();
  if (n > warm) {
    times.push(performance.now() - start);
    if (cpu0 !== undefined && cpu1 !== undefined) cpu.push(cpu1 - cpu0);
  }
}
await connection.sendRequest('shutdown');
await connection.sendNotification('exit');
connection.dispose();
rmSync(dir, { recursive: true, force: true });

const pctOf = (list) => (p) => list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];
const sorted = [...times].sort((a, b) => a - b);
const pct = pctOf(sorted);
const ms = (v) => `${v.toFixed(1)} ms`;
console.log(`file: ${relative(root, largest)} (${text.length} bytes; ${last?.diagnostics.length ?? 0} diagnostics)`);
console.log(`open (cold server, first lint): ${ms(firstOpen)}`);
console.log(`didChange → publishDiagnostics, warm server, ${rounds} edits after ${warm}: median ${ms(pct(50))}, p90 ${ms(pct(90))}, min ${ms(sorted[0])}, max ${ms(sorted[sorted.length - 1])}`);
if (cpu.length > 0) {
  const total = cpu.reduce((a, b) => a + b, 0);
  console.log(`the server's CPU time per edit (user + system, 10 ms ticks): mean ${ms(total / cpu.length)}, median ${ms(pctOf([...cpu].sort((a, b) => a - b))(50))}`);
}
console.log(`load average at the end: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(', ')} on ${(await import('node:os')).availableParallelism()} cores`);
