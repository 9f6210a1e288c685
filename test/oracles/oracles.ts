// Runs the controllers' oracles (test/oracles/go/*, built by test/oracles/build.sh) and agentplat
// on the same input, and compares what they give. Used by test/cluster/gitops-oracles.test.ts.
import { runAsync } from '../helpers/run-async.ts';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

const HERE = import.meta.dirname;
export const ROOT = join(HERE, '..', '..');

export type OracleName = 'flux-values' | 'argocd-values' | 'kustomize-postrender';

/** Builds an oracle (or finds it in the cache) and returns its path; the build's time goes to stderr. */
export function buildOracle(name: OracleName): string {
  const r = spawnSync('bash', [join(HERE, 'build.sh'), name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const bin = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !bin) throw new Error(`test/oracles/build.sh ${name} failed (exit ${r.status}); see its output above`);
  return bin;
}

export type Outcome = { ok: true; values: unknown; user?: unknown; command?: string; chartVersion?: string } | { ok: false; error: string; chartError?: boolean };

export const run = runAsync;

/** Writes files (relative path → text) under dir. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** An oracle's answer: its JSON on stdout; a usage error (exit 2) is the harness's fault and throws. */
async function oracle(bin: string, args: string[], cwd?: string): Promise<Record<string, unknown>> {
  const r = await run(bin, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd ?? process.env.HOME ?? '/tmp' } });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/**
 * Flux: the values helm-controller hands to helm for the HelmRelease among `files` (with the
 * ConfigMaps and Secrets of every file), and with `defaults` the values helm renders from. With
 * `index` (a JSON file: each version the chart repository holds → the file of its defaults), the
 * chart version Flux installs is decided first (a chart from Git by its Chart.yaml under `repo`),
 * and the defaults are that version's.
 */
export async function fluxValues(bin: string, files: string[], opts: { defaults?: string; index?: string; repo?: string } = {}): Promise<Outcome> {
  const flags = [...(opts.defaults ? ['--defaults', opts.defaults] : []), ...(opts.index ? ['--index', opts.index] : []), ...(opts.repo ? ['--repo', opts.repo] : [])];
  const out = await oracle(bin, [...flags, ...files]);
  if (!out.ok) return { ok: false, error: String(out.error), ...(out.chartError ? { chartError: true } : {}) };
  const chart = out.chart as { version?: string } | undefined;
  return { ok: true, values: out.computed ?? out.user, user: out.user, ...(chart?.version ? { chartVersion: chart.version } : {}) };
}

/**
 * A chart whose only template prints its .Values as JSON, with `defaults` as its values.yaml: what
 * argocd-values reads back. Its Chart.yaml names agentplat at `version` (the revision's chart
 * version): for a Git source, Argo CD renders the chart at the source's path, and the chart's name
 * and version are that Chart.yaml's (targetRevision is a Git ref then), which agentplat reads too.
 */
export function writeValuesChart(dir: string, defaults: unknown, version: string): void {
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: agentplat\nversion: ${version}\n`);
  // JSON is YAML, and quoting every key keeps helm's YAML reader from turning `y` into true.
  writeFileSync(join(dir, 'values.yaml'), JSON.stringify(defaults));
  writeFileSync(join(dir, 'templates', 'values.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: values\ndata:\n  values.json: {{ toJson .Values | quote }}\n');
}

/** Argo CD: the values its repo-server renders the Application with (the chart at repo/<source path> must be writeValuesChart's). */
export async function argoValues(bin: string, helm: string, repo: string, application: string): Promise<Outcome> {
  const out = await oracle(bin, ['--helm', helm, '--repo', repo, application], repo);
  return out.ok ? { ok: true, values: out.computed, command: String(out.command) } : { ok: false, error: String(out.error) };
}

/** Flux's post-renderers of the HelmRelease in `release` applied by Kustomize to the stream in `rendered`. */
export async function kustomizeObjects(bin: string, release: string, rendered: string): Promise<{ ok: true; objects: unknown[] } | { ok: false; error: string }> {
  const out = await oracle(bin, [release, rendered]);
  return out.ok ? { ok: true, objects: out.objects as unknown[] } : { ok: false, error: String(out.error) };
}

/** `agentplat values --computed -o json` over the given arguments (the built CLI, bin/agentplat). */
export async function agentplatValues(args: string[], cwd: string): Promise<Outcome> {
  const r = await run(process.execPath, [join(ROOT, 'bin', 'agentplat'), 'values', '--computed', '-o', 'json', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  if (r.status === 0) return { ok: true, values: JSON.parse(r.stdout) };
  return { ok: false, error: `exit ${r.status}: ${r.stderr.trim()}` };
}

/**
 * Whole numbers as BigInt on both sides (Go prints a float64 that holds a whole number without a
 * fraction, and helm's --set typing gives int64), so that 3 and 3.0 compare alike and large
 * integers compare exactly.
 */
export function normalize(v: unknown): unknown {
  if (typeof v === 'number' && Number.isInteger(v)) return Math.abs(v) < 1e21 ? BigInt(String(v)) : BigInt(v);
  if (Array.isArray(v)) return v.map(normalize);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(x)]));
  return v;
}

/** The paths where two trees differ, with both values (at most `max`). */
export function differences(a: unknown, b: unknown, names: [string, string], path = '', out: string[] = [], max = 6): string[] {
  if (out.length >= max) return out;
  // Integers (BigInt after normalize) print as 3n, so that they cannot be taken for the string "3".
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `\u0000${x}n` : x)).replace(/"\\u0000(-?\d+n)"/g, '$1'));
  const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isMap(a) && isMap(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) differences(a[k], b[k], names, `${path}.${k}`, out, max);
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => differences(x, b[i], names, `${path}[${i}]`, out, max));
  } else if (show(a) !== show(b)) {
    out.push(`${path || '.'}: ${names[0]} ${show(a)}, ${names[1]} ${show(b)}`);
  }
  return out;
}

/** A committed difference: which oracle, how the case is recognised, and why the two may differ. */
export interface Allowed {
  oracle: 'flux' | 'argocd' | 'kustomize';
  /** A regular expression over the difference's text (as `compareOutcomes` words it). */
  difference: string;
  reason: string;
}

export function readAllowlist(): Allowed[] {
  const list = parseYaml(readFileSync(join(HERE, 'allowlist.yaml'), 'utf8')) as { differences?: Allowed[] } | null;
  const rows = list?.differences ?? [];
  for (const row of rows) {
    if (!['flux', 'argocd', 'kustomize'].includes(row.oracle) || !row.difference || !row.reason?.trim()) {
      throw new Error(`test/oracles/allowlist.yaml: every difference needs oracle (flux, argocd or kustomize), difference (a pattern) and reason: ${JSON.stringify(row)}`);
    }
  }
  return rows;
}

/** How agentplat's outcome differs from the oracle's, in words; undefined when they agree (both refusing counts as agreeing). */
export function compareOutcomes(agentplat: Outcome, controller: Outcome): string | undefined {
  if (agentplat.ok && controller.ok) {
    const diff = differences(normalize(agentplat.values), normalize(controller.values), ['agentplat', 'controller']);
    return diff.length > 0 ? diff.join('; ') : undefined;
  }
  if (!agentplat.ok && !controller.ok) return undefined;
  return agentplat.ok
    ? `agentplat accepts, the controller refuses: ${controller.ok ? '' : controller.error.split('\n')[0]}`
    : `agentplat refuses (${agentplat.error.split('\n')[0]}), the controller accepts`;
}
