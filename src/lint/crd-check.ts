// Validate's check of one custom resource, for the objects values generate (a provider block's
// ModelConfig, values/provider-modelconfig). crds/validate.ts brings the CEL evaluator and ajv, far
// more code than lint needs otherwise, so it is loaded only by runs whose values need it: each
// command (and the API) awaits prepareCrdCheck(layers) before linting, and the rule takes the
// loaded function from crdCheck().

import type { ObjectFinding } from '../crds/validate.ts';

type CheckObject = (data: unknown) => ObjectFinding[];

let loaded: CheckObject | undefined;

export async function loadCrdCheck(): Promise<void> {
  loaded ??= (await import('../crds/validate.ts')).checkObject;
}

/** True when a layer writes a provider block's `config` or `tls`: the rule then checks that block. */
export function layersNeedCrdCheck(layers: readonly { data: unknown }[]): boolean {
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  return layers.some((l) => {
    const providers = isMap(l.data) ? l.data.providers : undefined;
    return isMap(providers) && Object.values(providers).some((b) => isMap(b) && (Object.hasOwn(b, 'config') || Object.hasOwn(b, 'tls')));
  });
}

/** Loads the check when the layers need it. */
export async function prepareCrdCheck(layers: readonly { data: unknown }[]): Promise<void> {
  if (layersNeedCrdCheck(layers)) await loadCrdCheck();
}

/** The loaded check; a run that lints such values without preparing is a bug of that run's code. */
export function crdCheck(): CheckObject {
  if (!loaded) throw new Error('the values set a provider block\'s config or tls, but the ModelConfig check was not loaded (call prepareCrdCheck before lintValues)');
  return loaded;
}
