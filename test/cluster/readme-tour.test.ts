// The README's tour, the whole of it and in order, against a real kube-apiserver with the kubectl
// of its version: the lines are taken from README.md (test/helpers/readme-tour.ts), run as written
// through bash with `agentplat` and that kubectl on PATH and KUBECONFIG at the test's control
// plane, each in the folder the lines before it wrote to (the cluster lines read files the offline
// lines make, e.g. values-b.yaml from the migrate line). Each line must end with the exit code its
// comment documents and print no internal error; what the cluster lines claim is read back from
// the server. test/docs/readme-tour.test.ts runs the offline lines alone against an installed pack.
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { STACK_TRACE } from '../cli/binary.ts';
import { CLUSTER_LINES, command, documentedExit, needsCluster, tourLines, writeTourFixtures } from '../helpers/readme-tour.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { toolsFor, type Tools } from './_tools.ts';
import { PRUNE_VERSION } from './_versions.ts';

describe(`the README's tour, every line in order, on Kubernetes ${PRUNE_VERSION}`, () => {
  let c: Cluster;
  let tools: Tools;
  let path: string;

  beforeAll(async () => {
    c = await startCluster(PRUNE_VERSION, inject('clusterBinaries')[PRUNE_VERSION]!);
    tools = toolsFor(c, 'agentplat-tour-');
    path = `${writeTourFixtures(tools.dir)}:${tools.bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  });
  afterAll(async () => {
    tools?.remove();
    await c?.stop();
  });

  it('ends each line with the exit code its comment documents, and the cluster holds what the lines claim', () => {
    const lines = tourLines();
    expect(lines.filter(needsCluster).map(command)).toEqual(CLUSTER_LINES);
    const kubectl = (args: string[]) => tools.run('kubectl', args, undefined, { PATH: path });
    const ran: { line: string; code: number; out: string; err: string }[] = [];
    for (const line of lines) {
      // A pipeline fails when any of its commands does, as the README asks of scripts.
      const r = tools.run('bash', ['-c', `set -o pipefail\n${line}`], undefined, { PATH: path });
      ran.push({ line: command(line), code: r.status, out: r.out, err: r.err });
      expect(r.err, command(line)).not.toMatch(/internal error/);
      expect(r.err, command(line)).not.toMatch(STACK_TRACE);
      if (line === lines.find((l) => l.includes('kubectl create namespace'))) {
        // The CRDs the first line applied are served before the release comes.
        const crds = kubectl(['get', 'crd', '-l', 'app.kubernetes.io/part-of=agentplat', '-o', 'name']);
        expect(crds.out.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(6);
      }
    }
    // The tour ends with a clean preflight: after the upgrade nothing is left to change or to delete.
    const last = ran.filter((r) => r.line.startsWith('agentplat diff --cluster')).at(-1)!;
    expect(last.out, last.line).toBe('');
    expect(last.err, last.line).toMatch(/^against context \S+ \(\S+\), field manager agentplat: 0 created, 0 changed, 0 are not in the render, \d+ unchanged; 0 refused, 0 conflicts, 0 drifted fields, 0 not checked yet\n$/);
    expect(ran.map((r) => `${r.line} → exit ${r.code}`)).toEqual(lines.map((l) => `${command(l)} → exit ${documentedExit(l)}`));

    // The release is installed into its namespace, under the field manager diff --cluster checks with.
    const deploy = kubectl(['get', 'deployment', 'agentplat-controller', '-n', 'agentplat', '-o', 'json', '--show-managed-fields']);
    expect(deploy.status).toBe(0);
    const managers = (JSON.parse(deploy.out) as { metadata: { managedFields: { manager: string }[] } }).metadata.managedFields.map((m) => m.manager);
    expect(managers).toContain('agentplat');
    // The prune line made the ApplySet parent kubectl keeps.
    expect(kubectl(['get', 'secret', 'agentplat', '-n', 'agentplat', '-o', 'name']).out.trim()).toBe('secret/agentplat');
    // The preflight of the upgrade compared with the live release, field by field: values-a.yaml
    // names no registry, so the images go back from the tour's registry to the defaults'.
    const preflight = ran.find((r) => r.line.startsWith('agentplat diff --cluster -f values-a.yaml'))!;
    expect(preflight.out).toMatch(/^changed Deployment\.apps agentplat\/agentplat-controller: .*spec\.template\.spec\.containers\[name=controller\]\.image/m);
    expect(preflight.out).toContain('-          image: registry.example.com/agentplat/controller:');
  });
});
