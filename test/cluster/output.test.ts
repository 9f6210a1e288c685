// Against a real kube-apiserver of the oldest and the newest Kubernetes version the module proxy
// serves: `agentplat crds` of both revisions is applied with server-side apply and becomes
// Established (a CEL rule over the cost budget, a non-structural schema or a field the API does not
// know refuses the whole CRD), and the rendered output of both revisions over a matrix of
// configurations passes server-side dry-run apply with strict field validation, with no warning
// and no field dropped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apply, crdProblems, describeOutcome, ensureNamespaces, installCrds, type Obj } from './_api.ts';
import { agentplat } from './_cli.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { record } from './_figures.ts';
import { FOREIGN_CRDS } from './_foreign-crds.ts';
import { MATRIX, type Config } from './_matrix.ts';
import { VERSIONS } from './_versions.ts';

const work = mkdtempSync(join(tmpdir(), 'agentplat-cluster-output-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function renderJson(args: string[]): Obj[] {
  const r = agentplat([...args, '-o', 'json']);
  if (r.code !== 0) throw new Error(`agentplat ${args.join(' ')} exited ${r.code}:\n${r.err}`);
  return (JSON.parse(r.out) as { items: Obj[] }).items;
}

function renderConfig(cfg: Config, kubeVersion: string): Obj[] {
  const file = join(work, `${cfg.name.replace(/\W+/g, '-')}.yaml`);
  writeFileSync(file, cfg.values);
  return renderJson(['render', '--revision', cfg.revision, '-f', file, '-n', cfg.namespace, '--skip-crds', '--kube-version', kubeVersion, ...cfg.apiVersions.flatMap((a) => ['--api-versions', a])]);
}

/** Paths of non-empty values sent but missing from what the server returned (pruned fields). */
function dropped(sent: unknown, got: unknown, path = ''): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(got)) return [path];
    return sent.flatMap((x, i) => dropped(x, got[i], `${path}[${i}]`));
  }
  if (sent !== null && typeof sent === 'object') {
    if (got === null || typeof got !== 'object') return [path];
    return Object.entries(sent).flatMap(([k, v]) => {
      const has = Object.prototype.hasOwnProperty.call(got, k);
      // Go's omitempty leaves out empty and zero values of built-in types: not a pruned field.
      const empty = v === null || v === '' || v === false || v === 0 || (typeof v === 'object' && Object.keys(v).length === 0);
      if (!has) return empty ? [] : [`${path}.${k}`];
      return dropped(v, (got as Record<string, unknown>)[k], `${path}.${k}`);
    });
  }
  return [];
}

/** What the server stores for an object: a Secret's write-only stringData moves into data. */
function asStored(o: Obj): Obj {
  if (o.apiVersion !== 'v1' || o.kind !== 'Secret' || !o.stringData) return o;
  const { stringData, ...rest } = o as Obj & { stringData: Record<string, string>; data?: Record<string, string> };
  const data = { ...(rest.data ?? {}) };
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
  return { ...rest, data };
}

for (const version of VERSIONS) {
  describe(`Kubernetes ${version}`, () => {
    let c: Cluster;
    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
    });
    afterAll(async () => {
      await c?.stop();
    });

    it('agentplat crds of revisions A and B: server-side apply is accepted, strict, warning-free; every CRD becomes Established with its schema and CEL rules intact', async () => {
      const problems: string[] = [];
      let applied = 0;
      for (const revision of ['A', 'B'] as const) {
        const crds = renderJson(['crds', '--revision', revision]);
        expect(crds.length).toBeGreaterThan(0);
        for (const crd of crds) {
          const dry = await apply(c, crd, { dryRun: true });
          if (dry.error || dry.warnings.length > 0) problems.push(`revision ${revision}: ${describeOutcome(crd, dry)}`);
        }
        problems.push(...crdProblems(await installCrds(c, crds)).map((p) => `revision ${revision}: ${p}`));
        for (const crd of crds) {
          const got = await apply(c, crd, { dryRun: true });
          const sent = (crd.spec as { versions: unknown[] }).versions;
          const back = (got.object?.spec as { versions?: unknown[] } | undefined)?.versions;
          const lost = dropped(sent, back, `${crd.metadata.name}.spec.versions`);
          if (lost.length > 0) problems.push(`revision ${revision}: the server dropped ${lost.join(', ')}`);
        }
        applied += crds.length;
      }
      record(`Kubernetes ${c.minor}: ${applied} CRDs (agentplat crds, revisions A and B) applied with server-side apply, all Established`);
      expect(problems).toEqual([]);
    });

    it(`rendered output of both revisions over ${MATRIX.length} configurations: server-side dry-run apply with strict field validation, no rejection, no warning, no dropped field`, async () => {
      const foreign = Object.values(FOREIGN_CRDS) as Obj[];
      // Our own kinds (the default ModelConfig, tool servers, revision A's agents) need our CRDs.
      expect(crdProblems(await installCrds(c, [...foreign, ...renderJson(['crds', '--revision', 'B'])]))).toEqual([]);

      const problems: string[] = [];
      let objects = 0;
      const kinds = new Set<string>();
      for (const cfg of MATRIX) {
        const docs = renderConfig(cfg, c.minor);
        const present = new Set(docs.map((d) => d.kind));
        for (const k of cfg.expectKinds) if (!present.has(k)) problems.push(`${cfg.name}: renders no ${k}`);
        await ensureNamespaces(c, [cfg.namespace, ...docs.flatMap((d) => (d.metadata.namespace ? [d.metadata.namespace] : []))]);
        for (const d of docs) {
          const r = await apply(c, d, { dryRun: true, namespace: cfg.namespace });
          objects++;
          kinds.add(`${d.apiVersion}/${d.kind}`);
          if (r.error || r.warnings.length > 0) {
            problems.push(`${cfg.name}: ${describeOutcome(d, r)}`);
            continue;
          }
          const lost = dropped(asStored(d), r.object);
          if (lost.length > 0) problems.push(`${cfg.name}: ${d.kind} ${d.metadata.name}: the server dropped ${lost.join(', ')}`);
        }
      }
      record(`Kubernetes ${c.minor}: ${objects} rendered objects (${kinds.size} kinds) from ${MATRIX.length} configurations of revisions A and B passed server-side dry-run apply (strict): ${problems.length} problems`);
      expect(problems).toEqual([]);
    });
  });
}
