// A render applied with server-side apply must be what the API server stores: a second field
// manager applying the very same render (`kubectl apply --server-side` under another name, as a
// pipeline or a person does without `--field-manager agentplat`) must meet no conflict. A field the
// render writes in a form the server rewrites (a quantity not in canonical form, a field the server
// defaults, an empty value the server drops) is stored differently from what the second manager
// sends, and the server refuses the second apply with a conflict on that field.
//
// Every fixture of fixtures/render and fixtures/subcharts is rendered for each revision whose lint
// accepts its values, with CRDs and without (the objects besides the CRDs must be the same), and
// applied under the field manager `agentplat`; then the same objects are applied again under
// `other` (as a dry run, so that `other` never owns a field and the next fixture's apply meets the
// cluster as `agentplat` left it): the test collects every conflict the server reports, and every
// rendered field the server stored in another form. An object already checked in the same form
// (the CRDs, RBAC and agents most fixtures share) is not sent again.
// The quantities of test/render/_quantity-cases.ts are asked of the same server.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectionPath, crdProblems, ensureNamespaces, forgetDiscovery, installCrds, type Obj } from './_api.ts';
import { QUANTITY_CASES } from '../render/_quantity-cases.ts';
import { agentplat } from './_cli.ts';
import { kfetch, startCluster, type Cluster } from './_cluster.ts';
import { record } from './_figures.ts';
import { FOREIGN_CRDS } from './_foreign-crds.ts';
import { VERSIONS } from './_versions.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

interface Case {
  name: string;
  values: string;
  /** The fixture's own revision when it names one (fixtures/render); else every revision that lints. */
  revisions: ('A' | 'B')[];
  namespace: string;
  releaseName?: string;
  apiVersions: string[];
  kubeVersion?: string;
}

interface Args {
  revision?: 'A' | 'B';
  namespace?: string;
  releaseName?: string;
  apiVersions?: string[];
  kubeVersion?: string;
}

const readArgs = (file: string): Args => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Args) : {});

function cases(): Case[] {
  const out: Case[] = [];
  const renderDir = join(FIXTURES, 'render');
  for (const d of readdirSync(renderDir).sort()) {
    if (!existsSync(join(renderDir, d, 'args.json'))) continue;
    const a = readArgs(join(renderDir, d, 'args.json'));
    out.push({ name: `render/${d}`, values: join(renderDir, d, 'values.yaml'), revisions: ['A', 'B'], namespace: a.namespace ?? 'default', releaseName: a.releaseName, apiVersions: a.apiVersions ?? [], kubeVersion: a.kubeVersion });
  }
  const subDir = join(FIXTURES, 'subcharts');
  for (const f of readdirSync(subDir).filter((x) => x.endsWith('.values.yaml')).sort()) {
    const name = f.slice(0, -'.values.yaml'.length);
    const a = readArgs(join(subDir, `${name}.args.json`));
    out.push({ name: `subcharts/${name}`, values: join(subDir, f), revisions: ['A', 'B'], namespace: 'agentplat', apiVersions: a.apiVersions ?? [] });
  }
  return out;
}

/**
 * The render of one case; `gated` when lint refuses it for the server's version only (every error
 * a --kube-version gate: revision B's substrate wiring below 1.37); undefined when lint refuses
 * its values for that revision.
 */
function render(cs: Case, revision: 'A' | 'B', withCrds: boolean, kubeVersion: string): Obj[] | 'gated' | undefined {
  const args = [
    'render', '--revision', revision, '-f', cs.values, '-n', cs.namespace,
    ...(cs.releaseName ? ['--release-name', cs.releaseName] : []),
    ...cs.apiVersions.flatMap((a) => ['--api-versions', a]),
    '--kube-version', cs.kubeVersion ?? kubeVersion,
    ...(withCrds ? [] : ['--skip-crds']),
    '-o', 'json',
  ];
  const r = agentplat(args);
  if (r.code === 1) {
    const rules = [...r.err.matchAll(/\[([\w-]+\/[\w-]+)\]$/gm)].map((m) => m[1]!);
    return rules.length > 0 && rules.every((rule) => rule.endsWith('-kube-version')) ? 'gated' : undefined;
  }
  if (r.code !== 0) throw new Error(`agentplat ${args.join(' ')} exited ${r.code}:\n${r.err}`);
  return (JSON.parse(r.out) as { items: Obj[] }).items;
}

interface Sent {
  status: number;
  message?: string;
  /** Fields in conflict (the server's causes of reason FieldManagerConflict). */
  conflicts: string[];
  /** The object as the server stored it (or would store it, in a dry run). */
  stored?: Obj;
}

/** Server-side apply of one object under `manager`, not forced, strict: what the server answered. */
async function applyAs(c: Cluster, o: Obj, manager: string, namespace: string, dryRun = false): Promise<Sent> {
  const path = await collectionPath(c, o, namespace);
  if (!path) return { status: 404, message: `the server does not serve ${o.apiVersion} ${o.kind}`, conflicts: [] };
  const q = new URLSearchParams({ fieldManager: manager, fieldValidation: 'Strict' });
  if (dryRun) q.set('dryRun', 'All');
  const r = await kfetch(c, `${path}/${encodeURIComponent(o.metadata.name ?? '')}?${q}`, { method: 'PATCH', body: JSON.stringify(o), contentType: 'application/apply-patch+yaml' });
  if (r.status >= 200 && r.status < 300) return { status: r.status, conflicts: [], stored: JSON.parse(r.body) as Obj };
  const body = JSON.parse(r.body) as { message?: string; details?: { causes?: { reason?: string; field?: string }[] } };
  const conflicts = (body.details?.causes ?? []).filter((x) => x.reason === 'FieldManagerConflict').map((x) => x.field ?? '?');
  return { status: r.status, message: body.message, conflicts };
}

/** Paths of rendered fields the stored object lacks or holds with another value. */
function storedOtherwise(sent: unknown, got: unknown, path = ''): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(got)) return [`${path}: sent ${JSON.stringify(sent)}, stored ${JSON.stringify(got)}`];
    return sent.flatMap((x, i) => storedOtherwise(x, got[i], `${path}[${i}]`));
  }
  if (sent !== null && typeof sent === 'object') {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) return [`${path}: sent ${JSON.stringify(sent)}, stored ${JSON.stringify(got)}`];
    return Object.entries(sent).flatMap(([k, v]) => storedOtherwise(v, (got as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return sent === got ? [] : [`${path}: sent ${JSON.stringify(sent)}, stored ${JSON.stringify(got)}`];
}

/** Applies CRDs under `manager` and waits until each is Established; the refusals. */
async function installAs(c: Cluster, crds: Obj[], manager: string): Promise<string[]> {
  const problems: string[] = [];
  for (const crd of crds) {
    const r = await applyAs(c, crd, manager, 'default');
    if (r.status >= 300) problems.push(`${id(crd)}: ${r.status} ${r.message}`);
  }
  for (const crd of crds) {
    for (;;) {
      const got = JSON.parse((await kfetch(c, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`)).body) as { status?: { conditions?: { type: string; status: string }[] } };
      const cond = Object.fromEntries((got.status?.conditions ?? []).map((x) => [x.type, x.status]));
      if (cond.Established === 'True') break;
      if (cond.NamesAccepted === 'False') {
        problems.push(`${id(crd)}: names not accepted`);
        break;
      }
      await new Promise((res) => setTimeout(res, 200));
    }
  }
  forgetDiscovery(c);
  return problems;
}

const id = (o: Obj): string => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

for (const version of VERSIONS) {
  describe(`Kubernetes ${version}`, () => {
    let c: Cluster;
    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      expect(crdProblems(await installCrds(c, Object.values(FOREIGN_CRDS) as Obj[]))).toEqual([]);
    });
    afterAll(async () => {
      await c?.stop();
    });

    it('every fixture, rendered for each revision with CRDs and without, applied under agentplat: the server stores every rendered field as rendered, and a second field manager applying the same render meets no conflict', async () => {
      const conflicts: string[] = [];
      const otherwise: string[] = [];
      const refused: string[] = [];
      const rendered = new Set<string>();
      const gated = new Set<string>();
      const checked = new Set<string>();
      let applied = 0;
      for (const cs of cases()) {
        for (const revision of cs.revisions) {
          const docs = render(cs, revision, true, c.minor);
          if (docs === 'gated') gated.add(cs.name);
          if (docs === undefined || docs === 'gated') continue;
          rendered.add(cs.name);
          const label = `${cs.name} (revision ${revision})`;
          // --skip-crds leaves out the CRDs and nothing else: the same objects are checked once.
          const crds = docs.filter((d) => d.kind === 'CustomResourceDefinition');
          const rest = docs.filter((d) => d.kind !== 'CustomResourceDefinition');
          expect(render(cs, revision, false, c.minor), label).toEqual(rest);
          await ensureNamespaces(c, [cs.namespace, ...docs.flatMap((d) => (d.metadata.namespace ? [d.metadata.namespace] : []))]);
          // The CRDs are served before their objects come (the README applies them first).
          refused.push(...(await installAs(c, crds, 'agentplat')).map((p) => `${label}: ${p}`));
          for (const d of docs) {
            const key = JSON.stringify([cs.namespace, d]);
            if (checked.has(key)) continue;
            checked.add(key);
            const first = await applyAs(c, d, 'agentplat', cs.namespace);
            if (first.status >= 300) {
              refused.push(`${label}: ${id(d)}: ${first.status} ${first.message}`);
              continue;
            }
            for (const p of storedOtherwise(d, first.stored)) otherwise.push(`${label}: ${id(d)}: ${p}`);
            const second = await applyAs(c, d, 'other', cs.namespace, true);
            applied++;
            if (second.status === 409) for (const f of second.conflicts) conflicts.push(`${label}: ${id(d)}: ${f}`);
            else if (second.status >= 300) refused.push(`${label}: ${id(d)} (second apply): ${second.status} ${second.message}`);
          }
        }
      }
      record(`Kubernetes ${c.minor}: ${applied} distinct rendered objects of ${rendered.size} fixtures applied under agentplat, then under another field manager${gated.size ? ` (${[...gated].join(', ')}: refused by a --kube-version gate for ${c.minor})` : ''}`);
      expect(refused).toEqual([]);
      // Every fixture is checked, unless the server's version is one its values are refused for.
      expect([...new Set([...rendered, ...gated])].sort()).toEqual(cases().map((x) => x.name).sort());
      expect({ otherwise, conflicts }).toEqual({ otherwise: [], conflicts: [] });
    });

    it('each quantity of the offline table is stored by the server as the table says, in a resource list and in a plain Quantity field', async () => {
      const got: [string | number, string, string][] = [];
      for (const [q] of QUANTITY_CASES) {
        const spec = { containers: [{ name: 'c', image: 'x', resources: { limits: { memory: q }, requests: { memory: q } } }], volumes: [{ name: 'v', emptyDir: { sizeLimit: q } }] };
        const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'quantity' }, spec: { selector: { matchLabels: { a: 'q' } }, template: { metadata: { labels: { a: 'q' } }, spec } } };
        // A number goes as a JSON number, as kubectl sends a YAML number.
        const r = await applyAs(c, d, 'agentplat', 'default', true);
        if (!r.stored) throw new Error(`${JSON.stringify(q)}: ${r.status} ${r.message}`);
        const s = (r.stored as any).spec.template.spec;
        got.push([q, s.containers[0].resources.limits.memory, s.volumes[0].emptyDir.sizeLimit]);
      }
      expect(got).toEqual(QUANTITY_CASES);
    });
  });
}
