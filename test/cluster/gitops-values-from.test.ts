// A Flux HelmRelease's valuesFrom read from a real cluster (`--cluster`, issue 36), on every
// version of _versions.ts: the ConfigMap and the Secret it names are created with kubectl, only
// the HelmRelease is in the folder, and the built CLI composes the values as helm-controller does:
// each valuesFrom in order (valuesKey, a targetPath into the values, an optional one that is
// missing skipped), spec.values over them. `values --computed --show-origin` names each value's
// origin in `cluster:<Kind>/<namespace>/<name>`, render and lint take the same values, and a
// missing source that is not optional is refused in one line at its place in the HelmRelease.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCluster, type Cluster } from './_cluster.ts';
import { toolsFor, type Tools } from './_tools.ts';
import { VERSIONS } from './_versions.ts';

const NS = 'apps';

const HELMRELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: agentplat
  namespace: ${NS}
spec:
  chart:
    spec:
      chart: agentplat
      version: 0.11.x
  valuesFrom:
    - kind: ConfigMap
      name: base-values
    - kind: Secret
      name: image
      valuesKey: tag
      targetPath: controller.image.tag
    - kind: ConfigMap
      name: not-there
      optional: true
    - kind: ConfigMap
      name: base-values
      valuesKey: logging.yaml
  values:
    ui:
      replicas: 5
`;

const SOURCES = `apiVersion: v1
kind: ConfigMap
metadata:
  name: base-values
  namespace: ${NS}
data:
  values.yaml: |
    controller:
      replicas: 3
    ui:
      replicas: 2
  logging.yaml: |
    controller:
      loglevel: debug
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: typo-values
  namespace: ${NS}
data:
  values.yaml: |
    ui:
      replica: 2
---
apiVersion: v1
kind: Secret
metadata:
  name: image
  namespace: ${NS}
stringData:
  tag: "0.11.5"
`;

/** The origin column of `key` in `values --computed --show-origin`'s table. */
function origin(table: string, key: string): string | undefined {
  const line = table.split('\n').find((l) => l.startsWith(`${key} `));
  return line ? /^\S+ +.*? {2,}(\S.*)$/.exec(line)![1] : undefined;
}

for (const version of VERSIONS) {
  describe(`a HelmRelease's valuesFrom read from the cluster (--cluster), on Kubernetes ${version}`, () => {
    let c: Cluster;
    let tools: Tools;
    const agentplat = (args: string[]) => tools.run('agentplat', args);

    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      tools = toolsFor(c, 'agentplat-values-from-');
      writeFileSync(join(tools.dir, 'helmrelease.yaml'), HELMRELEASE);
      const ns = tools.run('kubectl', ['create', 'namespace', NS]);
      expect(ns.status, ns.err).toBe(0);
      const applied = tools.run('kubectl', ['apply', '-f', '-'], SOURCES);
      expect(applied.status, applied.err).toBe(0);
    });
    afterAll(async () => {
      tools?.remove();
      await c?.stop();
    });

    it('values --computed --show-origin composes them in Flux\'s order and names each origin in the cluster object', () => {
      const r = agentplat(['values', '--computed', '--show-origin', '-f', 'helmrelease.yaml', '--cluster']);
      expect(r.status, r.err).toBe(0);
      // The ConfigMap's values.yaml, read from the cluster: the line inside its block.
      expect(origin(r.out, 'controller.replicas')).toMatch(/^cluster:ConfigMap\/apps\/base-values:\d+:\d+ spec\.valuesFrom\[0\] ConfigMap apps\/base-values key values\.yaml line 2$/);
      // The Secret's key, set at the targetPath, as a string.
      expect(r.out).toMatch(/^controller\.image\.tag +"0\.11\.5" /m);
      expect(origin(r.out, 'controller.image.tag')).toMatch(/^cluster:Secret\/apps\/image:\d+:\d+ spec\.valuesFrom\[1\] Secret apps\/image key tag at targetPath controller\.image\.tag$/);
      // The fourth reference: another key of the same ConfigMap.
      expect(r.out).toMatch(/^controller\.loglevel +"debug" /m);
      expect(origin(r.out, 'controller.loglevel')).toMatch(/^cluster:ConfigMap\/apps\/base-values:\d+:\d+ spec\.valuesFrom\[3\] ConfigMap apps\/base-values key logging\.yaml line 2$/);
      // spec.values goes over every valuesFrom.
      expect(r.out).toMatch(/^ui\.replicas +5 /m);
      // spec.values, with no note: 5 is not the default (a targetPath write carries spec.values along, and the verdict takes the key out of that copy too).
      expect(origin(r.out, 'ui.replicas')).toBe('helmrelease.yaml:26:7 spec.values');
      // The optional reference to a ConfigMap the cluster does not have is skipped, as Flux skips it.
      expect(r.err).toContain('helmrelease.yaml:18:7: HelmRelease apps/agentplat: spec.valuesFrom[2] ConfigMap apps/not-there is optional and not found beside the HelmRelease: Flux skips it');
    });

    it('lint points a problem of a cluster ConfigMap at its line in the ConfigMap as read from the cluster', () => {
      writeFileSync(join(tools.dir, 'typo.yaml'), HELMRELEASE.replace('name: base-values\n    - kind: Secret', 'name: typo-values\n    - kind: Secret'));
      const r = agentplat(['lint', '-f', 'typo.yaml', '--cluster']);
      expect(r.status, r.out + r.err).toBe(1);
      const lines = r.out.split('\n');
      const at = lines.findIndex((l) => /^cluster:ConfigMap\/apps\/typo-values:\d+:7 +error +unknown key `ui\.replica` in revision B/.test(l));
      expect(at, r.out).toBeGreaterThanOrEqual(0);
      // The excerpt under it is that line of the ConfigMap, the key's column marked.
      const line = /:(\d+):7 /.exec(lines[at]!)![1]!;
      const excerpt = lines.findIndex((l, i) => i > at && l.startsWith(`  ${line} |`));
      expect(lines[excerpt]).toBe(`  ${line} |       replica: 2`);
      expect(lines[excerpt + 1]).toBe(`  ${' '.repeat(line.length)} |       ^`);
    });

    it('render and lint take the same values', () => {
      const render = agentplat(['render', '-f', 'helmrelease.yaml', '--cluster', '-o', 'json', '--skip-crds']);
      expect(render.status, render.err).toBe(0);
      const items = (JSON.parse(render.out) as { items: { kind: string; metadata: { name: string }; spec?: any }[] }).items;
      const controller = items.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-controller'))!;
      expect(controller.spec.replicas).toBe(3);
      expect((controller.spec.template.spec.containers as { image: string }[])[0]!.image).toMatch(/:0\.11\.5$/);
      const ui = items.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-ui'))!;
      expect(ui.spec.replicas).toBe(5);
      const lint = agentplat(['lint', '-f', 'helmrelease.yaml', '--cluster']);
      expect(lint.status, lint.out + lint.err).toBe(0);
      expect(lint.out.trimEnd().split('\n').at(-1)).toMatch(/ 0 errors, 0 warnings/);
    });

    it('a ConfigMap the cluster does not have, and not optional, is refused in one line at its reference', () => {
      writeFileSync(join(tools.dir, 'missing.yaml'), HELMRELEASE.replace('      name: not-there\n      optional: true\n', '      name: not-there\n'));
      for (const cmd of [['render'], ['lint'], ['values', '--computed', '--show-origin']]) {
        const r = agentplat([...cmd, '-f', 'missing.yaml', '--cluster']);
        expect(r.status, cmd.join(' ')).toBe(2);
        expect(r.out).toBe('');
        const lines = r.err.trimEnd().split('\n');
        expect(lines[0]).toBe('agentplat: missing.yaml:18:7: HelmRelease apps/agentplat: spec.valuesFrom[2] names ConfigMap apps/not-there, which is not in this file nor beside it, and is not optional: Flux fails the release');
        expect(lines.slice(1)).toEqual(['  hint: put the ConfigMap in the HelmRelease\'s folder or pass its folder with --values-from DIR, read it from the cluster with --cluster, or mark the reference optional: true']);
      }
    });
  });
}
