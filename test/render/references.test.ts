// decisions.md "Cross-object references": every reference from one rendered object to another is
// computed from the release's fullname and namespace (namespaceOverride moves sub-chart objects
// too), so it resolves for any release name, namespace, nameOverride or fullnameOverride. This
// walks every reference kubectl would need to resolve after `render | kubectl apply`.
import { describe, expect, it } from 'vitest';
import type { RenderedDoc } from '../../src/model/objects.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { danglingReferences, namedStrings } from '../helpers/references.ts';
import { render, valuesFor } from './_render.ts';

/** References of the rendered objects that resolve to nothing; names written in the values count as provided. */
function dangling(docs: RenderedDoc[], revision: Revision = 'A', values: Values = {}): string[] {
  return danglingReferences(docs.map((d) => d.object), { named: namedStrings(valuesFor(revision, values).values) });
}

const EVERYTHING = (rev: Revision): Values => ({
  authproxy: { enabled: true, config: { existingSecret: 'oidc-credentials' } },
  controller: { replicas: 2, metrics: { enabled: true }, pdb: { enabled: true }, substrate: { enabled: true } },
  substrate: { enabled: true },
  substrateWorkerPool: { create: true, [rev === 'A' ? 'ateomImage' : 'workerImage']: 'registry.example.com/worker:1' },
  ui: { pdb: { enabled: true }, service: { ports: { port: 9090, targetPort: 9091 } } },
});

const CASES: { name: string; revision: Revision; values: Values; release: string; namespace: string }[] = [];
for (const revision of ['A', 'B'] as const) {
  CASES.push(
    { name: 'defaults', revision, values: {}, release: 'agentplat', namespace: 'default' },
    { name: 'release prod in team-x, everything on', revision, values: EVERYTHING(revision), release: 'prod', namespace: 'team-x' },
    { name: 'fullnameOverride and namespaceOverride', revision, values: { ...EVERYTHING(revision), fullnameOverride: 'fx', namespaceOverride: 'ns2' }, release: 'prod', namespace: 'team-x' },
    { name: 'nameOverride, custom controller port', revision, values: { ...EVERYTHING(revision), nameOverride: 'np', controller: { ...(EVERYTHING(revision).controller as Values), service: { ports: { port: 9083, targetPort: 9083 } } } }, release: 'r1', namespace: 'ops' },
  );
}

describe('cross-object references resolve for any release (decisions.md)', () => {
  for (const c of CASES) {
    it(`revision ${c.revision}: ${c.name}`, () => {
      const docs = render(c.revision, c.values, { releaseName: c.release, releaseNamespace: c.namespace });
      expect(docs.length).toBeGreaterThan(20);
      expect(dangling(docs, c.revision, c.values)).toEqual([]);
    });
  }

  it('the check is not vacuous: a renamed Service is reported by every object that references it', () => {
    const docs = render('A', {}, { releaseName: 'prod', releaseNamespace: 'team-x' });
    const svc = docs.find((d) => d.object.kind === 'Service' && d.object.metadata.name === 'prod-controller')!;
    (svc.object.metadata as any).name = 'renamed';
    const found = dangling(docs);
    expect(found.some((f) => f.startsWith('ConfigMap team-x/prod-controller A2A_BASE_URL'))).toBe(true);
    expect(found.some((f) => f.startsWith('Deployment team-x/prod-ui env BACKEND_INTERNAL_URL'))).toBe(true);
    expect(found.some((f) => f.startsWith('ConfigMap team-x/prod-ui-config edge.conf upstream'))).toBe(true);
  });
});
