// Validate's check of one custom resource, for the objects values generate (a provider block's
// ModelConfig, values/provider-modelconfig). kube-check/object.ts brings the CEL evaluator and ajv, far
// more code than lint needs otherwise, so it is loaded only for values that need it: the operation
// that lints (src/pipeline/) asks modelConfigCheckFor(layers) and passes what it gets to lintValues
// as `checkModelConfig`. Nothing is kept here: a run that forgets to pass it fails on those values,
// in a test as in a user's run.

import type { ObjectFinding } from '../kube-check/object.ts';

export type CheckObject = (data: unknown) => ObjectFinding[];

/** True when a layer writes a provider block's `config` or `tls`: the rule then checks that block. */
export function layersNeedCrdCheck(layers: readonly { data: unknown }[]): boolean {
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  return layers.some((l) => {
    const providers = isMap(l.data) ? l.data.providers : undefined;
    return isMap(providers) && Object.values(providers).some((b) => isMap(b) && (Object.hasOwn(b, 'config') || Object.hasOwn(b, 'tls')));
  });
}

/** Validate's object check, loaded. */
export async function loadModelConfigCheck(): Promise<CheckObject> {
  return (await import('../kube-check/object.ts')).checkObject;
}

/** The check when any of these sets of layers needs it, else undefined (nothing loaded). */
export async function modelConfigCheckFor(...layerSets: readonly (readonly { data: unknown }[])[]): Promise<CheckObject | undefined> {
  return layerSets.some(layersNeedCrdCheck) ? loadModelConfigCheck() : undefined;
}
