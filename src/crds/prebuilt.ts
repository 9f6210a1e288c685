// The CRDs as YAML text and object heads, written at build time. In development this is empty
// and the CRDs are built from the model; the build (scripts/build.mjs) replaces this module with
// the texts, so a render prints the large CRDs without building or serializing them.

import type { K8sObject } from '../render/engine.ts';

export interface PrebuiltCrd {
  /** The object's YAML body as `render` prints it. */
  text: string;
  /** apiVersion, kind and metadata: what ordering and checks read without the whole object. */
  head: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>;
}

export const PREBUILT_CRDS: Readonly<Record<string, PrebuiltCrd>> = {};
