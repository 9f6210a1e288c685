// `plan` against the upgrade it predicts, for a value the migration drops: revision A installed
// with `controller.toolRefreshInterval: 5m` (the controller reads it as TOOL_REFRESH_INTERVAL),
// `plan --from A --to B` must need attention (exit 1) and count one dropped setting, and after the
// upgrade as the README runs it (migrate, B's CRDs, the release under the same field manager) the
// live controller must no longer carry the setting: what plan warned of is what happened.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBench, type Bench } from './_tools.ts';
import { VERSIONS } from './_versions.ts';

const VALUES_A = '# the values revision A was installed with\ncontroller:\n  toolRefreshInterval: 5m\n';

for (const version of VERSIONS) {
  describe(`a setting the migration drops, on Kubernetes ${version}`, () => {
    let b: Bench;
    beforeAll(async () => {
      b = await startBench(version, 'agentplat-dropped-');
      writeFileSync(join(b.dir, 'values-a.yaml'), VALUES_A);
    });
    afterAll(async () => {
      await b?.stop();
    });

    const liveInterval = () => b.run('kubectl', ['get', 'configmap', 'agentplat-controller', '-n', 'agentplat', '-o', 'jsonpath={.data.TOOL_REFRESH_INTERVAL}']);

    it('plan needs attention for controller.toolRefreshInterval: 5m, and the upgrade indeed drops it from the live controller', () => {
      const install = b.sh(
        [
          'agentplat crds -r A | kubectl apply --server-side --field-manager agentplat -f -',
          'kubectl wait --for=condition=Established crd -l app.kubernetes.io/part-of=agentplat --timeout=120s',
          'kubectl create namespace agentplat',
          'agentplat render -r A -f values-a.yaml -n agentplat --skip-crds | kubectl apply --server-side --field-manager agentplat -f -',
        ].join('\n'),
      );
      expect(install.status, install.err).toBe(0);
      expect(liveInterval().out).toBe('5m');

      const plan = b.run('agentplat', ['plan', '--from', 'A', '--to', 'B', '-f', 'values-a.yaml', '-n', 'agentplat', '-o', 'json']);
      expect(plan.status, plan.err).toBe(1);
      const doc = JSON.parse(plan.out) as { attention: boolean; summary: { droppedSettings?: number } };
      expect(doc.attention).toBe(true);
      expect(doc.summary.droppedSettings).toBe(1);
      const text = b.run('agentplat', ['plan', '--from', 'A', '--to', 'B', '-f', 'values-a.yaml', '-n', 'agentplat']);
      expect(`${text.out}${text.err}`).toContain('1 value you set that the migration drops');

      const upgrade = b.sh(
        [
          'agentplat migrate --from A -r B -f values-a.yaml > values-b.yaml || test $? -eq 1',
          'agentplat crds -r B | kubectl apply --server-side --field-manager agentplat -f -',
          'kubectl wait --for=condition=Established crd -l app.kubernetes.io/part-of=agentplat --timeout=120s',
          'agentplat render -r B -f values-b.yaml -n agentplat --skip-crds | kubectl apply --server-side --field-manager agentplat -f -',
        ].join('\n'),
      );
      expect(upgrade.status, upgrade.err).toBe(0);
      const after = liveInterval();
      expect(after.status, after.err).toBe(0);
      expect(after.out).toBe('');
    });
  });
}
