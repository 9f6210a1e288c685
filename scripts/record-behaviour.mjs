#!/usr/bin/env node
// Records what the built tree does, for a refactor that must not change behaviour: stdout, stderr
// and the exit code of every offline command over every values fixture (both revisions where the
// file does not name one), and what the in-process API returns on the same inputs. Two records, one
// made before a change and one after, are compared with `diff` (one JSON line per run, in a fixed
// order). Nothing here measures time.
//
//   node scripts/build.mjs && node scripts/record-behaviour.mjs /tmp/before.jsonl
//   (change, build) && node scripts/record-behaviour.mjs /tmp/after.jsonl && diff /tmp/before.jsonl /tmp/after.jsonl
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node scripts/record-behaviour.mjs OUT.jsonl\n');
  process.exit(2);
}

function walk(dir) {
  return readdirSync(dir).sort().flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

// Every values file of fixtures/ (the expected outputs and resource streams aside).
const valuesFiles = walk(join(root, 'fixtures'))
  .filter((f) => /\.ya?ml$/.test(f) && !/(expected|golden)/.test(f) && !f.includes('/resources/') && !f.includes('/tpl/'))
  .map((f) => relative(root, f));
const resources = walk(join(root, 'fixtures/resources')).map((f) => relative(root, f));

const scratch = mkdtempSync(join(tmpdir(), 'agentplat-record-'));
const env = { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: scratch, HOME: scratch };
delete env.FORCE_COLOR;

const hash = (s) => (s.length > 400 ? `sha256:${createHash('sha256').update(s).digest('hex').slice(0, 16)} (${s.length} chars)` : s);

function run(args, input) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(root, 'bin/agentplat'), ...args], { cwd: root, env });
    let so = '';
    let se = '';
    p.stdout.on('data', (d) => (so += d));
    p.stderr.on('data', (d) => (se += d));
    p.on('close', (code) => resolve({ args, code, stdout: hash(so), stderr: se }));
    p.stdin.end(input ?? '');
  });
}

const runs = [];
for (const f of valuesFiles) {
  for (const rev of ['A', 'B']) {
    const r = ['-r', rev];
    runs.push(['lint', ...r, '-f', f], ['render', ...r, '-f', f], ['values', '--computed', '--show-origin', ...r, '-f', f],
      ['diff', ...r, '-f', f, '--to-values', 'fixtures/render/defaults-b/values.yaml'], ['render', ...r, '-f', f, '--applyset', 'agentplat', '-l', 'team=x', '--skip-crds']);
  }
  runs.push(['lint', f], ['lint', '-f', f, '--strict', '--format', 'json'], ['template', 'x', '-f', f], ['render', '-f', f, '--skip-crds', '-o', 'json'],
    ['plan', '--from', 'A', '--to', 'B', '-f', f]);
  runs.push(['migrate', f], ['values', '--computed', '--from-revision', 'A', '-f', f]);
}
runs.push(['render', '--set', `fullnameOverride=${'a'.repeat(62)}`], ['lint', '--set', `fullnameOverride=${'a'.repeat(62)}`]);
for (const f of resources) runs.push(['validate', f], ['validate', f, '-o', 'json']);
for (const k of ['controller', 'controller.replicas', 'authproxy.config.emailDomains', 'providers', 'nosuch.key']) runs.push(['explain', k], ['explain', k, '-r', 'A']);

const lines = [];
for (let i = 0; i < runs.length; i += 2) {
  const batch = await Promise.all(runs.slice(i, i + 2).map((a) => run(a)));
  for (const b of batch) lines.push(JSON.stringify(b));
}

// The API on the same inputs.
const api = await import(pathToFileURL(join(root, 'dist/api.mjs')).href);
const settle = async (f) => {
  try {
    const r = await f();
    if (r && typeof r.yaml === 'string') r.yaml = hash(r.yaml);
    if (r && Array.isArray(r.objects)) r.objects = hash(JSON.stringify(r.objects));
    return r;
  } catch (e) {
    return { threw: `${e.constructor.name}: ${e.message}` };
  }
};
for (const f of valuesFiles) {
  for (const revision of ['A', 'B']) {
    lines.push(JSON.stringify({ api: 'lint', f, revision, r: await settle(() => api.lint({ revision, values: f, cwd: root })) }));
    lines.push(JSON.stringify({ api: 'render', f, revision, r: await settle(() => api.render({ revision, values: f, cwd: root })) }));
  }
}
lines.push(JSON.stringify({ api: 'lint', set: 'fullnameOverride', r: await settle(() => api.lint({ set: `fullnameOverride=${'a'.repeat(62)}` })) }));
for (const f of resources) lines.push(JSON.stringify({ api: 'validate', f, r: await settle(() => api.validate([{ file: f, text: readFileSync(join(root, f), 'utf8') }])) }));

writeFileSync(out, lines.join('\n') + '\n');
rmSync(scratch, { recursive: true, force: true });
process.stderr.write(`recorded ${lines.length} runs into ${out}\n`);
