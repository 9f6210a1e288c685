// `--protect-crds`: a GitOps tool that syncs the render must never prune a CRD (removing it
// deletes every custom resource of its kind). render, template --include-crds and crds annotate
// every CRD with the annotations Flux and Argo CD honour, and nothing else changes.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';
import { objectsOf } from '../helpers/objects.ts';
import { protectCrds } from '../../src/render/crd-protect.ts';
import type { K8sObject } from '../../src/model/objects.ts';

const PROTECTED = {
  'kustomize.toolkit.fluxcd.io/prune': 'disabled',
  'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false',
  'argocd.argoproj.io/compare-options': 'IgnoreExtraneous',
};

async function out(args: string[]): Promise<K8sObject[]> {
  const r = await runInProcess(args);
  expect(r.code, r.stderr).toBe(0);
  return objectsOf<K8sObject>(r.stdout);
}

const isCrd = (o: K8sObject) => o.kind === 'CustomResourceDefinition';
/** An object without its annotations, to compare the rest. */
const bare = (o: K8sObject) => ({ ...o, metadata: { ...o.metadata, annotations: undefined } });

describe('--protect-crds', () => {
  it('render: every CRD carries the Flux and Argo CD no-prune annotations; every other object is as without the flag', async () => {
    const plain = await out(['render', '-n', 'agentplat']);
    const protectedRender = await out(['render', '-n', 'agentplat', '--protect-crds']);
    expect(protectedRender.filter(isCrd).length).toBe(7);
    for (const o of protectedRender.filter(isCrd)) expect(o.metadata.annotations, o.metadata.name).toEqual(expect.objectContaining(PROTECTED));
    expect(protectedRender.filter((o) => !isCrd(o))).toEqual(plain.filter((o) => !isCrd(o)));
    expect(protectedRender.map(bare)).toEqual(plain.map(bare));
    expect(plain.filter(isCrd).some((o) => (o.metadata.annotations as Record<string, string> | undefined)?.['kustomize.toolkit.fluxcd.io/prune'] !== undefined)).toBe(false);
  });

  it('crds: every CRD the command prints is annotated, and the same CRDs as without the flag', async () => {
    const plain = await out(['crds']);
    const annotated = await out(['crds', '--protect-crds']);
    expect(annotated.length).toBe(plain.length);
    for (const o of annotated) expect(o.metadata.annotations, o.metadata.name).toEqual(expect.objectContaining(PROTECTED));
    expect(annotated.map(bare)).toEqual(plain.map(bare));
  });

  it('template --include-crds --protect-crds annotates the CRDs; without --include-crds it is a usage error', async () => {
    const crds = (await out(['template', '--include-crds', '--protect-crds'])).filter(isCrd);
    expect(crds.length).toBe(7);
    for (const o of crds) expect(o.metadata.annotations).toEqual(expect.objectContaining(PROTECTED));
    const r = await runInProcess(['template', '--protect-crds']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--protect-crds annotates the CustomResourceDefinitions, which template leaves out unless --include-crds');
    expect(r.stderr).toContain('add --include-crds, or drop --protect-crds');
  });

  it('render --skip-crds --protect-crds is a usage error naming both flags, and prints nothing', async () => {
    const r = await runInProcess(['render', '--skip-crds', '--protect-crds']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--protect-crds annotates the CustomResourceDefinitions, which --skip-crds leaves out');
    expect(r.stderr).toContain('drop --skip-crds, or drop --protect-crds');
  });

  it("keeps a CRD's other annotations and Argo CD options already set, replacing only a Prune or Delete option", () => {
    const crd: K8sObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'x.example.com', annotations: { 'example.com/a': '1', 'argocd.argoproj.io/sync-options': 'ServerSideApply=true, Prune=true', 'kustomize.toolkit.fluxcd.io/prune': 'enabled' } },
    };
    const other: K8sObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    const [done, same] = protectCrds([
      { source: 'a', object: crd },
      { source: 'b', object: other },
    ]);
    expect(done!.object.metadata.annotations).toEqual({
      'example.com/a': '1',
      'argocd.argoproj.io/sync-options': 'ServerSideApply=true,Prune=false,Delete=false',
      'argocd.argoproj.io/compare-options': 'IgnoreExtraneous',
      'kustomize.toolkit.fluxcd.io/prune': 'disabled',
    });
    expect(same!.object).toBe(other);
    // The input is copied, never changed.
    expect((crd.metadata.annotations as Record<string, string>)['kustomize.toolkit.fluxcd.io/prune']).toBe('enabled');
  });
});
