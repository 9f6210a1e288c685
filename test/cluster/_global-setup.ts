// Builds (or finds in the per-machine cache) kube-apiserver and etcd for every Kubernetes version
// of the suite before any test runs, and prints the figures the tests recorded at the end.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildBinaries } from './_cluster.ts';
import { VERSIONS } from './_versions.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    clusterBinaries: Record<string, string>;
    figuresFile: string;
  }
}

export default function setup(project: TestProject): () => void {
  const binaries: Record<string, string> = {};
  for (const v of VERSIONS) {
    binaries[v] = buildBinaries(v);
    console.log(`cluster suite: kube-apiserver and etcd for Kubernetes ${v}: ${binaries[v]}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'agentplat-cluster-figures-'));
  const figuresFile = join(dir, 'figures.txt');
  project.provide('clusterBinaries', binaries);
  project.provide('figuresFile', figuresFile);
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
