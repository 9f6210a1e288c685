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

/**
 * What the server of each version-gate rule does with the output the rule keeps from it: a
 * render refused by the rule must show exactly that on the server when rendered without the gate.
 */
const GATE_EVIDENCE: Record<string, RegExp> = {
  'values/substrate-projections-kube-version': /projected/i,
  'values/pdb-eviction-policy-kube-version': /unhealthyPodEvictionPolicy/,
};

type Rendered = { docs: Obj[] } | { refusedBy: string[] };

/**
 * The configuration rendered for the server's version. A refusal is returned (not thrown) when
 * every error is a --kube-version gate: the test then checks the server agrees with the gate.
 */
function renderConfig(cfg: Config, kubeVersion?: string): Rendered {
  const file = join(work, `${cfg.name.replace(/\W+/g, '-')}.yaml`);
  writeFileSync(file, cfg.values);
  const args = ['render', '--revision', cfg.revision, '-f', file, '-n', cfg.namespace, '--skip-crds', ...(kubeVersion ? ['--kube-version', kubeVersion] : []), ...cfg.apiVersions.flatMap((a) => ['--api-versions', a])];
  const r = agentplat([...args, '-o', 'json']);
  if (r.code === 0) return { docs: (JSON.parse(r.out) as { items: Obj[] }).items };
  const rules = [...r.err.matchAll(/^\S+\s+error\s.*\[([\w-]+\/[\w-]+)\]$/gm)].map((m) => m[1]!);
  if (r.code === 1 && rules.length > 0 && rules.every((id) => id.endsWith('-kube-version'))) return { refusedBy: [...new Set(rules)] };
  throw new Error(`agentplat ${args.join(' ')} exited ${r.code}:\n${r.err}`);
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

    it(`rendered output of both revisions over ${MATRIX.length} configurations with --kube-version of the server: server-side dry-run apply with strict field validation, no rejection, no warning, no dropped field; a render refused by a --kube-version gate is one the server proves right`, async () => {
      const foreign = Object.values(FOREIGN_CRDS) as Obj[];
      // Our own kinds (the default ModelConfig, tool servers, revision A's agents) need our CRDs.
      expect(crdProblems(await installCrds(c, [...foreign, ...renderJson(['crds', '--revision', 'B'])]))).toEqual([]);

      /** What the server refuses, warns about or drops when the objects are dry-run applied. */
      const check = async (cfg: Config, docs: Obj[]): Promise<string[]> => {
        const found: string[] = [];
        await ensureNamespaces(c, [cfg.namespace, ...docs.flatMap((d) => (d.metadata.namespace ? [d.metadata.namespace] : []))]);
        for (const d of docs) {
          const r = await apply(c, d, { dryRun: true, namespace: cfg.namespace });
          if (r.error) {
            found.push(describeOutcome(d, r));
            continue;
          }
          // One line per warning and per dropped field: each must be evidence on its own.
          for (const w of r.warnings) found.push(`${d.kind} ${d.metadata.name}: ${w}`);
          for (const path of dropped(asStored(d), r.object)) found.push(`${d.kind} ${d.metadata.name}: the server dropped ${path}`);
        }
        return found;
      };

      const problems: string[] = [];
      const refusals: string[] = [];
      let objects = 0;
      let configurations = 0;
      const kinds = new Set<string>();
      for (const cfg of MATRIX) {
        const rendered = renderConfig(cfg, c.minor);
        if ('refusedBy' in rendered) {
          // The same values rendered with no target version: the server must object, and only
          // to what the gate is about, or the gate refused a configuration the server takes.
          const docs = renderConfig(cfg);
          if (!('docs' in docs)) throw new Error(`${cfg.name}: refused even with no --kube-version`);
          const found = await check(cfg, docs.docs);
          const evidence = (line: string) => rendered.refusedBy.some((id) => GATE_EVIDENCE[id]?.test(line));
          if (found.length === 0) problems.push(`${cfg.name}: render --kube-version ${c.minor} refused it (${rendered.refusedBy.join(', ')}), but the server takes the output without a problem`);
          for (const f of found) if (!evidence(f)) problems.push(`${cfg.name}: ${f}`);
          refusals.push(`${cfg.name} (${rendered.refusedBy.join(', ')}; the server: ${found.join('; ')})`);
          continue;
        }
        configurations++;
        const present = new Set(rendered.docs.map((d) => d.kind));
        for (const k of cfg.expectKinds) if (!present.has(k)) problems.push(`${cfg.name}: renders no ${k}`);
        for (const d of rendered.docs) kinds.add(`${d.apiVersion}/${d.kind}`);
        objects += rendered.docs.length;
        problems.push(...(await check(cfg, rendered.docs)).map((p) => `${cfg.name}: ${p}`));
      }
      record(`Kubernetes ${c.minor}: ${objects} rendered objects (${kinds.size} kinds) from ${configurations} configurations of revisions A and B passed server-side dry-run apply (strict): ${problems.length} problems`);
      if (refusals.length > 0) record(`Kubernetes ${c.minor}: ${refusals.length} configurations refused by render --kube-version ${c.minor}, each proven right by the server on the ungated output: ${refusals.join(' | ')}`);
      expect(problems).toEqual([]);
    });
  });
}
