// lint decides what render decides: over values generated from each revision's schema and the
// configuration matrix (release name, namespace, declared APIs, Kubernetes version, --strict),
// `agentplat lint` and `agentplat render` with the same flags exit alike. lint renders the release
// it checks (nothing printed), so object names, duplicate objects and API gates fail both. Whether
// a key changes anything (values/no-effect, a render per key) is lint's own question, which render
// does not ask: lint runs here with --no-effects, and under --strict its warnings may refuse values
// render prints (docs/rules.md, "Keys that change nothing").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Revision } from '../../src/chart/revisions.ts';
import { runInProcess } from '../cli/in-process.ts';
import { fcParams, seedTitle } from './_seed.ts';
import { ValuesArbitraries, valuesSchema } from './_values-arb.ts';
import { RELEASE_ARBS } from './_values-property.ts';

const RUNS = 60;
const flags = fc.record({
  ...RELEASE_ARBS,
  kubeVersion: fc.constantFrom(undefined, '1.27', '1.34'),
  strict: fc.boolean(),
});

function argv(o: { release: string; namespace: string; apiVersions: string[]; kubeVersion: string | undefined; strict: boolean }): string[] {
  return [
    '--release-name', o.release, '-n', o.namespace,
    ...o.apiVersions.flatMap((a) => ['--api-versions', a]),
    ...(o.kubeVersion ? ['--kube-version', o.kubeVersion] : []),
    ...(o.strict ? ['--strict'] : []),
  ];
}

describe('lint decides what render decides', () => {
  for (const [revision, offset] of [['A', 41], ['B', 42]] as const) {
    it(`[${revision}] lint and render exit alike on generated values and flags ${seedTitle(offset, RUNS)}`, async () => {
      const values = new ValuesArbitraries(valuesSchema(revision as Revision)).values();
      let failed = 0;
      await fc.assert(
        fc.asyncProperty(values, flags, async (v, o) => {
          const text = stringify(v);
          const common = ['-r', revision, '-f', '-', ...argv(o)];
          const render = await runInProcess(['render', ...common], { stdin: text });
          const lint = await runInProcess(['lint', '--no-effects', ...common], { stdin: text });
          expect(lint.code, `lint ${common.join(' ')}\n${text}\nrender said:\n${render.stderr}\nlint said:\n${lint.stdout}${lint.stderr}`).toBe(render.code);
          if (render.code !== 0) failed++;
        }),
        fcParams(offset, RUNS),
      );
      // Not vacuous: some cases fail and some pass.
      expect(failed).toBeGreaterThan(0);
    });
  }

  it('a watched namespace that leaves out the release namespace fails lint as it fails render (-n given to both)', async () => {
    const text = 'global:\n  watchNamespaces: [team-a]\n';
    for (const ns of ['default', 'team-a']) {
      const render = await runInProcess(['render', '-f', '-', '-n', ns], { stdin: text });
      const lint = await runInProcess(['lint', '-f', '-', '-n', ns], { stdin: text });
      expect([ns, lint.code]).toEqual([ns, render.code]);
    }
    expect((await runInProcess(['lint', '-f', '-', '-n', 'default'], { stdin: text })).code).toBe(1);
  });

  it('names cut to 63 characters that meet fail lint with render/duplicate-object, as render fails', async () => {
    const args = ['--set', `fullnameOverride=${'a'.repeat(62)}`];
    expect((await runInProcess(['render', ...args])).code).toBe(1);
    const lint = await runInProcess(['lint', ...args]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('[render/duplicate-object]');
  });

  it('a ServiceMonitor without its declared API warns in lint as in render, and --api-versions clears both', async () => {
    const text = 'controller:\n  metrics:\n    enabled: true\n    serviceMonitor:\n      enabled: true\n';
    const lint = await runInProcess(['lint', '-f', '-', '--strict'], { stdin: text });
    const render = await runInProcess(['render', '-f', '-', '--strict'], { stdin: text });
    expect([lint.code, render.code]).toEqual([1, 1]);
    const declared = ['--api-versions', 'monitoring.coreos.com/v1', '--strict'];
    expect((await runInProcess(['lint', '-f', '-', ...declared], { stdin: text })).code).toBe(0);
    expect((await runInProcess(['render', '-f', '-', ...declared], { stdin: text })).code).toBe(0);
  });
});
