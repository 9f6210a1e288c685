// Builds (or finds in the per-machine cache) kube-apiserver and etcd for every Kubernetes version
// of the suite, kubectl for the prune round trip and helm for the differential --set test, before any test runs, and prints the figures
// the tests recorded at the end.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildBinaries, buildHelm, buildKubectl } from './_cluster.ts';
import { HELM_VERSION, PRUNE_VERSION, VERSIONS } from './_versions.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    clusterBinaries: Record<string, string>;
    /** kubectl of PRUNE_VERSION. */
    kubectl: string;
    /** helm of HELM_VERSION, for the differential --set test. */
    helm: string;
    figuresFile: string;
  }
}

export default function setup(project: TestProject): () => void {
  const binaries: Record<string, string> = {};
  for (const v of VERSIONS) {
    binaries[v] = buildBinaries(v);
    console.log(`cluster suite: kube-apiserver and etcd for Kubernetes ${v}: ${binaries[v]}`);
  }
  const kubectl = buildKubectl(PRUNE_VERSION);
  console.log(`cluster suite: kubectl for Kubernetes ${PRUNE_VERSION}: ${kubectl}`);
  const helm = buildHelm(HELM_VERSION);
  console.log(`cluster suite: helm ${HELM_VERSION}: ${helm}`);
  const dir = mkdtempSync(join(tmpdir(), 'agentplat-cluster-figures-'));
  const figuresFile = join(dir, 'figures.txt');
  project.provide('clusterBinaries', binaries);
  project.provide('figuresFile', figuresFile);
  project.provide('kubectl', kubectl);
  project.provide('helm', helm);
  return () => {
    let text = '';
    try {
      text = readFileSync(figuresFile, 'utf8');
    } catch {
      /* no test recorded figures */
    }
    rmSync(dir, { recursive: true, force: true });
    if (text) console.log(`\ncluster suite figures:\n${text}`);
  };
}
