// The render writes each object as the API server stores it, so that a second field manager
// applying the same render meets no conflict (test/cluster/second-manager.test.ts proves that
// against real servers; this file holds the rules to the facts offline).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedQuantity } from '../../src/render/quantity.ts';
import { storedForm } from '../../src/render/server-form.ts';
import { crdDocs } from '../../src/render/render.ts';
import { buildRenderContext } from '../../src/model/context.ts';
import type { K8sObject } from '../../src/model/objects.ts';
import { fcParams, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';
import { QUANTITY_CASES } from './_quantity-cases.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../cli/in-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { find, render, valuesFor } from './_render.ts';

const container = (o: any, name: string) => o.spec.template.spec.containers.find((c: any) => c.name === name);

describe('quantities are rendered in the form the API server stores', () => {
  it('each quantity a real API server was asked about is written as it stored it, in a resource list and in a plain Quantity field', () => {
    const got = QUANTITY_CASES.map(([q]) => [q, storedQuantity(q, true), storedQuantity(q, false)]);
    expect(got).toEqual(QUANTITY_CASES);
  });

  // Quantities as a values file writes them: an optional +, digits, a fraction, a suffix.
  const suffix = fc.constantFrom('', 'm', 'k', 'M', 'G', 'n', 'u', 'Ki', 'Mi', 'Gi', 'Ti', 'e3', 'E6', 'e-3', 'e+2');
  const quantityText = fc
    .tuple(fc.constantFrom('', '+'), fc.stringMatching(/^\d{0,7}$/), fc.option(fc.stringMatching(/^\d{0,4}$/), { nil: undefined }), suffix)
    .filter(([, int, frac]) => `${int}${frac ?? ''}` !== '')
    .map(([sign, int, frac, s]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}${s}`);

  it(`the stored form reads back as itself: the server keeps what it stored ${seedTitle(9310, 800)}`, async () => {
    await fc.assert(
      fc.asyncProperty(quantityText, fc.boolean(), breathing((q, list) => {
        const once = storedQuantity(q, list);
        expect(storedQuantity(once, list)).toBe(once);
      })),
      fcParams(9310, 800),
    );
  });

  /** The value of a quantity text, approximately (a double is enough to tell a changed value). */
  const approx = (q: string): number => {
    const m = /^([+-]?[\d.]*)(.*)$/.exec(q)!;
    const n = Number(m[1] === '' || m[1] === '+' || m[1] === '.' ? 0 : m[1]);
    const s = m[2]!;
    const pow: Record<string, number> = { '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
    return n * (s in pow ? pow[s]! : 10 ** Number(s.slice(1)));
  };

  it(`the stored form has the value written, to a nano (a milli in a resource list, rounded up) ${seedTitle(9311, 800)}`, async () => {
    await fc.assert(
      fc.asyncProperty(quantityText, fc.boolean(), breathing((q, list) => {
        const stored = storedQuantity(q, list) as string;
        const [a, b] = [approx(q), approx(stored)];
        const step = list ? 1e-3 : 1e-9;
        expect(b).toBeGreaterThanOrEqual(a - Math.abs(a) * 1e-12);
        expect(b - a).toBeLessThanOrEqual(step + Math.abs(a) * 1e-12);
      })),
      fcParams(9311, 800),
    );
  });

  it('what is not a quantity is left as it is (the server refuses it; lint and validate say why)', () => {
    for (const q of ['', 'abc', '1x', '1.2.3', '1Ki3', true, null, { cpu: 1 }]) expect(storedQuantity(q, true)).toBe(q);
  });

  it("the render writes the defaults' CPU limits as the server stores them (cpu: 2 as \"2\", 1000m as \"1\")", () => {
    const docs = render('A');
    expect(container(find(docs, 'Deployment', 'agentplat-controller'), 'controller').resources.limits.cpu).toBe('2');
    expect(container(find(docs, 'Deployment', 'agentplat-ui'), 'ui').resources.limits).toEqual({ cpu: '1', memory: '1Gi' });
  });

  it("the render writes a values file's quantities as the server stores them: numbers as strings, 1024Mi as 1Gi, 0.5 as 500m", () => {
    const docs = render('B', { controller: { resources: { limits: { cpu: 1.5, memory: '1024Mi' }, requests: { cpu: 0.5, memory: '0.5Gi' } } } });
    expect(container(find(docs, 'Deployment', 'agentplat-controller'), 'controller').resources).toEqual({ limits: { cpu: '1500m', memory: '1Gi' }, requests: { cpu: '500m', memory: '512Mi' } });
  });

  it("a custom resource's quantities stay as written: the server stores a custom resource's fields as sent", () => {
    const agent = find(render('A'), 'Agent', 'cluster-agent') as any;
    expect(agent.spec.declarative.deployment.resources.limits.cpu).toBe('1000m');
  });
});

describe('fields the API server defaults or drops are rendered as it stores them', () => {
  it('a downward-API fieldRef names apiVersion v1, which the server fills in', () => {
    const env = container(find(render('A'), 'Deployment', 'agentplat-controller'), 'controller').env as any[];
    const refs = env.filter((e) => e.valueFrom?.fieldRef).map((e) => e.valueFrom.fieldRef);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(r.apiVersion).toBe('v1');
  });

  const pod = (spec: Record<string, unknown>): K8sObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { template: { spec } } });

  it("an env var's empty value and a probe's zero initialDelaySeconds are left out, as the server leaves them out", () => {
    const o = storedForm(pod({ containers: [{ name: 'c', env: [{ name: 'A', value: '' }, { name: 'B', value: 'b' }], livenessProbe: { initialDelaySeconds: 0, periodSeconds: 10 }, readinessProbe: { initialDelaySeconds: 5 } }] })) as any;
    expect(o.spec.template.spec.containers[0]).toEqual({ name: 'c', env: [{ name: 'A' }, { name: 'B', value: 'b' }], livenessProbe: { periodSeconds: 10 }, readinessProbe: { initialDelaySeconds: 5 } });
  });

  it('quantities of every place the core API has one are written as stored: init containers, emptyDir, volume claim templates, a quota, an autoscaler target', () => {
    const ss = storedForm({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'x' },
      spec: {
        template: { spec: { initContainers: [{ name: 'i', resources: { requests: { cpu: '0.25' } } }], volumes: [{ name: 'v', emptyDir: { sizeLimit: '1024Mi' } }] } },
        volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: { resources: { requests: { storage: '2048Mi' } } } }],
      },
    }) as any;
    expect(ss.spec.template.spec.initContainers[0].resources.requests.cpu).toBe('250m');
    expect(ss.spec.template.spec.volumes[0].emptyDir.sizeLimit).toBe('1Gi');
    expect(ss.spec.volumeClaimTemplates[0].spec.resources.requests.storage).toBe('2Gi');
    expect((storedForm({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: 10, 'requests.cpu': '4000m' } } }) as any).spec.hard).toEqual({ pods: '10', 'requests.cpu': '4' });
    const hpa = storedForm({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { metrics: [{ type: 'Pods', pods: { target: { type: 'AverageValue', averageValue: 1000 } } }] } }) as any;
    expect(hpa.spec.metrics[0].pods.target.averageValue).toBe('1k');
  });

  it("a Secret's stringData is rendered as the server stores it, base64 under data; empty data maps are left out", () => {
    expect(storedForm({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'YQ==' }, stringData: { b: 'hé' } })).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'YQ==', b: Buffer.from('hé').toString('base64') } });
    expect(storedForm({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: {} })).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque' });
    expect(storedForm({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {}, binaryData: {} })).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
  });

  it('an object with nothing to rewrite is the same object (no copy), and a custom resource is never rewritten', () => {
    const d: K8sObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] } } } };
    expect(storedForm(d)).toBe(d);
    const cr: K8sObject = { apiVersion: 'example.com/v1', kind: 'Secret', metadata: { name: 'x' }, stringData: { a: 'b' }, data: {} };
    expect(storedForm(cr)).toBe(cr);
  });

  it('no CRD of the chart has an empty properties map, which the server drops from the stored CRD', () => {
    const ctx = buildRenderContext(valuesFor('B').values, { revision: 'B', releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: [] });
    const empty: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (v !== null && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === 'properties' && x !== null && typeof x === 'object' && Object.keys(x).length === 0) empty.push(path);
          walk(x, `${path}.${k}`);
        }
      }
    };
    for (const d of crdDocs(ctx)) walk(d.object, d.object.metadata.name);
    expect(empty).toEqual([]);
  });

  it('validate still names a field inside an object without fields (MCPServer stdioTransport, whose CRD has no properties) as an unknown field', async () => {
    const file = join(tempDir('agentplat-server-form-'), 'mcp.yaml');
    writeFileSync(file, 'apiVersion: agentplat.dev/v1alpha1\nkind: MCPServer\nmetadata: {name: x, namespace: default}\nspec:\n  transportType: stdio\n  stdioTransport: {foo: 1}\n  deployment: {image: x}\n');
    const io = await runInProcess(['validate', file, '--format', 'json']);
    expect(io.code).toBe(1);
    expect(io.stdout).toContain('unknown field spec.stdioTransport.foo');
  });
});
