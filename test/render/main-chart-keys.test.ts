// Main-chart keys the reference chart honours and the specification is silent about (issue 27
// item 3; the facts are value-surface section 2.1): each is accepted by lint and changes exactly
// the object and field the reference changes, compared with the render without it.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { get, render } from './_render.ts';

/** `Kind/name path` of every leaf (or differing list) that differs between two renders. */
function changes(before: Values, after: Values, revision: Revision): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, path: string, id: string) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const bothMaps = a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
    const sameLists = Array.isArray(a) && Array.isArray(b) && a.length === b.length;
    if (bothMaps || sameLists) {
      const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
      for (const k of keys) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k, id);
      return;
    }
    out.push(`${id} ${path}`);
  };
  const byId = (docs: ReturnType<typeof render>) => new Map(docs.map((d) => [`${d.object.kind}/${d.object.metadata.name}`, d.object]));
  const x = byId(render(revision, before));
  const y = byId(render(revision, after));
  for (const id of new Set([...x.keys(), ...y.keys()])) walk(x.get(id), y.get(id), '', id);
  return out;
}

const errorsOf = (revision: Revision, values: Values) =>
  lintValues({ revision, layers: [parseValuesText(stringify(values), 'v.yaml').source!] }).problems.filter((p) => p.severity === 'error');

const POD = 'Deployment/agentplat-controller spec.template.spec';
const SUBSTRATE = { controller: { substrate: { enabled: true, substrateApiEndpoint: 'https://substrate.example' } } };

const CASES: { key: string; revisions: Revision[]; base: Values; set: Values; changed: string[]; check: (d: any) => void }[] = [
  {
    key: 'controller.imagePullSecrets replaces the top-level imagePullSecrets on the controller pod',
    revisions: ['A', 'B'],
    base: { imagePullSecrets: [{ name: 'top' }] },
    set: { controller: { imagePullSecrets: [{ name: 'controller-only' }] } },
    changed: [`${POD}.imagePullSecrets[0].name`],
    check: (d) => expect(d.spec.template.spec.imagePullSecrets).toEqual([{ name: 'controller-only' }]),
  },
  {
    key: 'controller.podSecurityContext replaces the top-level podSecurityContext on the controller pod',
    revisions: ['A', 'B'],
    base: {},
    set: { controller: { podSecurityContext: { runAsUser: 1001, fsGroup: 2000 } } },
    changed: [`${POD}.securityContext`],
    check: (d) => expect(d.spec.template.spec.securityContext).toEqual({ runAsUser: 1001, fsGroup: 2000 }),
  },
  {
    key: 'controller.securityContext replaces the top-level securityContext on the controller container',
    revisions: ['A', 'B'],
    base: {},
    set: { controller: { securityContext: { privileged: false, runAsNonRoot: true } } },
    changed: [`${POD}.containers[0].securityContext`],
    check: (d) => expect(d.spec.template.spec.containers[0].securityContext).toEqual({ privileged: false, runAsNonRoot: true }),
  },
  {
    key: 'controller.substrate.pauseImage sets SUBSTRATE_PAUSE_IMAGE on the controller container, after the worker pool variables',
    revisions: ['A'],
    base: SUBSTRATE,
    set: { controller: { substrate: { pauseImage: 'mirror.example/pause:3.10' } } },
    changed: [`${POD}.containers[0].env`],
    check: (d) => {
      const names = d.spec.template.spec.containers[0].env.map((e: { name: string }) => e.name);
      expect(names.slice(names.indexOf('SUBSTRATE_DEFAULT_WORKERPOOL_NAME'), names.indexOf('SUBSTRATE_DEFAULT_WORKERPOOL_NAME') + 2)).toEqual(['SUBSTRATE_DEFAULT_WORKERPOOL_NAME', 'SUBSTRATE_PAUSE_IMAGE']);
      expect(d.spec.template.spec.containers[0].env.find((e: { name: string }) => e.name === 'SUBSTRATE_PAUSE_IMAGE').value).toBe('mirror.example/pause:3.10');
    },
  },
];

const merge = (a: Values, b: Values): Values => {
  const out: Values = structuredClone(a);
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' ? merge(out[k] as Values, v as Values) : v;
  }
  return out;
};

describe('main-chart keys of value-surface 2.1', () => {
  for (const c of CASES) {
    for (const revision of c.revisions) {
      it(`${revision}: ${c.key}`, () => {
        const after = merge(c.base, c.set);
        expect(errorsOf(revision, after)).toEqual([]);
        // Every change lies inside the field the facts name, and that field did change.
        const found = changes(c.base, after, revision);
        expect(found.filter((f) => !c.changed.some((field) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[`)))).toEqual([]);
        for (const field of c.changed) expect(found.some((f) => f.startsWith(field)), field).toBe(true);
        c.check(get(render(revision, after), 'Deployment', 'agentplat-controller'));
      });
    }
  }

  it('A: an empty controller.substrate.pauseImage sets no SUBSTRATE_PAUSE_IMAGE', () => {
    expect(changes(SUBSTRATE, merge(SUBSTRATE, { controller: { substrate: { pauseImage: '' } } }), 'A')).toEqual([]);
  });

  it('B: controller.substrate.pauseImage is a revision-A key, refused with the hint that says so', () => {
    const [e] = errorsOf('B', { controller: { substrate: { pauseImage: 'p' } } });
    expect(e).toMatchObject({ rule: 'values/unknown-key', path: 'controller.substrate.pauseImage' });
    expect(e!.hint).toMatch(/only in revision A/);
  });
});
