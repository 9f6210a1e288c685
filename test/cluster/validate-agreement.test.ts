// `agentplat validate` decides the way the API server does: every resource of the corpus
// (_corpus.ts) goes through one `agentplat validate DIR --format json` run and through a
// server-side dry-run create with strict field validation; the verdicts must agree for all of
// them, and `validate` must name the very field the server names for at least 95% of the resources
// both reject.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { create, crdProblems, ensureNamespaces, installCrds, type Obj, type Outcome } from './_api.ts';
import { agentplat } from './_cli.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { CORPUS_NAMESPACE, corpus } from './_corpus.ts';
import { record } from './_figures.ts';
import { NEWEST, VERSIONS } from './_versions.ts';

const work = mkdtempSync(join(tmpdir(), 'agentplat-cluster-corpus-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `a.b[3].c`: no leading dot, map keys written `["k"]` as `.k`, the way the server writes them. */
const norm = (p: string): string => p.replace(/^\./, '').replace(/\["((?:[^"\\]|\\.)*)"\]/g, (_, k: string) => `.${JSON.parse(`"${k}"`) as string}`);

/** The server names the same field, or a field inside it (a looser figure, printed beside). */
const within = (server: string, mine: string): boolean => server === mine || server.startsWith(`${mine}.`) || server.startsWith(`${mine}[`);

/** The field paths a refusal names: its causes, or the fields of a strict-decoding message. */
export function serverPaths(r: Outcome): string[] {
  const out = new Set<string>();
  for (const c of r.error?.details?.causes ?? []) {
    if (c.field) out.add(norm(c.field));
    // Strict decoding lists unknown fields in the message of one cause without a field.
    for (const m of (c.message ?? '').matchAll(/unknown field "([^"]+)"/g)) out.add(norm(m[1]!));
    for (const m of (c.message ?? '').matchAll(/duplicate field "([^"]+)"/g)) out.add(norm(m[1]!));
  }
  const message = r.error?.message ?? '';
  for (const m of message.matchAll(/unknown field "([^"]+)"/g)) out.add(norm(m[1]!));
  // Metadata that does not decode at all: the Go decoder names the struct field, or only the type.
  for (const m of message.matchAll(/into Go struct field ObjectMeta\.([\w.]+) of type/g)) out.add(m[1]!);
  if (/into Go value of type v1\.ObjectMeta/.test(message)) out.add('metadata');
  return [...out];
}

interface Verdict {
  accepted: boolean;
  paths: string[];
  messages: string[];
}

// Where the corpus runs: every version of the suite, unless AGENTPLAT_CLUSTER_CORPUS=newest.
const corpusVersions = process.env.AGENTPLAT_CLUSTER_CORPUS === 'newest' ? VERSIONS.filter((v) => v === NEWEST) : VERSIONS;

for (const version of corpusVersions) {
  describe(`Kubernetes ${version}`, () => {
    let c: Cluster;
    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      const problems = crdProblems(await installCrds(c, (JSON.parse(agentplat(['crds', '-o', 'json']).out) as { items: Obj[] }).items));
      if (problems.length > 0) throw new Error(`the CRDs were not installed:\n${problems.join('\n')}`);
      await ensureNamespaces(c, [CORPUS_NAMESPACE]);
    });
    afterAll(async () => {
      await c?.stop();
    });

    it('agentplat validate and a server-side dry-run create agree on every generated resource, and name the very same field for at least 95% of the rejected ones', async () => {
      const resources = corpus();
      const dir = join(work, version);
      mkdirSync(dir, { recursive: true });
      const files = resources.map((r, i) => {
        const f = join(dir, `${String(i).padStart(5, '0')}.yaml`);
        writeFileSync(f, stringify(r.object, { lineWidth: 0 }));
        return f;
      });

      // One process over the whole folder, the way a repository of manifests is checked.
      const run = agentplat(['validate', dir, '--format', 'json']);
      expect(run.code, run.err).toBeOneOf([0, 1]);
      const report = JSON.parse(run.out) as { files: { file: string; problems: { severity: string; path?: string; message: string }[] }[] };
      const ours = new Map<string, Verdict>(files.map((f) => [f, { accepted: true, paths: [], messages: [] }]));
      for (const g of report.files) {
        const errors = g.problems.filter((p) => p.severity === 'error');
        ours.set(g.file, { accepted: errors.length === 0, paths: errors.flatMap((p) => (p.path ? [norm(p.path)] : [])), messages: errors.map((p) => p.message) });
      }

      let verdictAgree = 0;
      let bothRejected = 0;
      let pathAgree = 0;
      let exactPath = 0;
      let serverAccepted = 0;
      const verdictDiffs: string[] = [];
      const pathDiffs: string[] = [];
      for (const [i, r] of resources.entries()) {
        const res = await create(c, r.object as Obj, { dryRun: true, namespace: CORPUS_NAMESPACE });
        const server: Verdict = { accepted: !res.error, paths: serverPaths(res), messages: res.error ? [res.error.message] : [] };
        const mine = ours.get(files[i]!)!;
        if (server.accepted) serverAccepted++;
        const what = `#${i} ${r.id}`;
        if (server.accepted !== mine.accepted) {
          verdictDiffs.push(`${what}\n    server: ${server.accepted ? 'accepted' : server.messages.join(' | ')}\n    validate: ${mine.accepted ? 'accepted' : mine.messages.join(' | ')}\n    ${JSON.stringify(r.object.spec)}`);
          continue;
        }
        verdictAgree++;
        if (server.accepted) continue;
        bothRejected++;
        if (server.paths.some((p) => mine.paths.some((q) => within(p, q)))) pathAgree++;
        if (server.paths.some((p) => mine.paths.includes(p))) exactPath++;
        else pathDiffs.push(`${what}\n    server: ${JSON.stringify(server.paths)} ${server.messages.join(' | ')}\n    validate: ${JSON.stringify(mine.paths)} ${mine.messages.join(' | ')}`);
      }

      const pct = (a: number, b: number) => (b === 0 ? '100.0' : ((100 * a) / b).toFixed(1));
      record(
        `Kubernetes ${c.minor}: ${resources.length} custom resources compared (${serverAccepted} accepted, ${resources.length - serverAccepted} rejected by the API server): ` +
          `verdicts agree ${verdictAgree}/${resources.length} (${pct(verdictAgree, resources.length)}%), field path agrees ${pathAgree}/${bothRejected} (${pct(pathAgree, bothRejected)}%; the very same path ${exactPath}, ${pct(exactPath, bothRejected)}%)`,
      );
      if (verdictDiffs.length > 0) console.log(`verdict differences (${verdictDiffs.length}):\n${verdictDiffs.join('\n')}`);
      if (pathDiffs.length > 0) console.log(`field path differences (${pathDiffs.length}):\n${pathDiffs.join('\n')}`);
      expect(verdictDiffs, `${verdictDiffs.length} verdict disagreements`).toEqual([]);
      expect(exactPath / Math.max(bothRejected, 1), `${pathDiffs.length} resources where validate names another field than the server`).toBeGreaterThanOrEqual(0.95);
    });
  });
}
