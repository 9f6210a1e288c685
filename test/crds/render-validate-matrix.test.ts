// `agentplat render | agentplat validate -` is clean: over the configuration matrix the cluster
// suite sends to the API server (test/cluster/_matrix.ts: every golden render fixture, every
// sub-chart off, every optional part on, both revisions), rendered and validated for each
// Kubernetes release validate has schemas of, validate checks every object of the render (core
// kinds against that release's OpenAPI, the platform's and the foreign CRDs' kinds against their
// schemas) and finds no problem; what it cannot check it names in its note, and never fails for.
import { describe, expect, it } from 'vitest';
import { MATRIX } from '../cluster/_matrix.ts';
import { runInProcess } from '../cli/in-process.ts';
import { DEFAULT_KUBE_VERSION, KUBE_VERSIONS } from '../../src/kube-check/kube-versions.ts';

describe('render | validate - is clean over the configuration matrix', () => {
  for (const config of MATRIX) {
    for (const kube of KUBE_VERSIONS) {
      it(`${config.name} (${config.revision}), Kubernetes ${kube}`, async () => {
        const flags = ['-r', config.revision, '-n', config.namespace, '--kube-version', kube, ...config.apiVersions.flatMap((a) => ['--api-versions', a]), '-f', '-'];
        const rendered = await runInProcess(['render', ...flags], { stdin: config.values });
        // A configuration an older release cannot serve is refused by render's --kube-version gate
        // (the cluster suite proves those right); the newest release renders every one.
        if (kube !== DEFAULT_KUBE_VERSION && rendered.code === 1 && /kube-version/.test(rendered.stderr)) return;
        expect(rendered.code, rendered.stderr).toBe(0);
        const validated = await runInProcess(['validate', '-', '-v', '--kube-version', kube, '--format', 'json'], { stdin: rendered.stdout });
        const report = JSON.parse(validated.stdout) as { files: { problems: unknown[] }[] };
        expect(report.files.flatMap((f) => f.problems)).toEqual([]);
        expect(validated.code).toBe(0);
        // Every object was checked, core kinds included; only kinds agentplat has no schema of
        // (OpenShift's Route, the substrate's WorkerPool) are skipped.
        expect(validated.stderr).toMatch(/^validate: checked [1-9]\d* resources? \(.*Deployment \d+.*\)/m);
        const skipped = [...validated.stderr.matchAll(/skipped \w+ \S+ \(agentplat has no schema of (\S+ \w+)\)/g)].map((m) => m[1]);
        expect(new Set(skipped)).toEqual(new Set(skipped.filter((k) => k === 'route.openshift.io/v1 Route' || k === 'ate.dev/v1alpha1 WorkerPool')));
      });
    }
  }
});
