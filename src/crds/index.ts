// The CRDs of the chart (the six Resource API kinds) and of the mcpop sub-chart, as a run serves
// them: the build writes their YAML texts and objects to data files (scripts/build.mjs, from
// ./model-docs.ts), so neither the CRD model nor its schemas are loaded at run time. A run that
// renders them without printing them (lint, which checks the release as render makes it) reads
// only their heads (crds-index.json); the texts (700 KB) are read when a command first prints a
// CRD, the whole objects when something reads more than a head (./prebuilt.ts).
// The validator lives in ../kube-check/validate.ts (it loads ajv and CEL: import it lazily).

import { readGenerated } from '../package-root.ts';
import type { K8sObject, RenderedDoc } from '../model/objects.ts';
import { prebuiltCrdDocs, type PrebuiltCrds } from './prebuilt.ts';

/** dist/generated/crds-index.json: each list's CRDs, with the length of each one's text in crds-texts.yaml. */
export type GeneratedCrdIndex = Record<keyof PrebuiltCrds, { source: string; head: PrebuiltCrds['chart'][number]['head']; length: number }[]>;

let crds: ReturnType<typeof prebuiltCrdDocs> | undefined;

function crdDocs(): ReturnType<typeof prebuiltCrdDocs> {
  return (crds ??= (() => {
    const index = JSON.parse(readGenerated('crds-index.json')) as GeneratedCrdIndex;
    // Each CRD's text is a slice of the one file: no copy, no JSON to parse.
    let all: string | undefined;
    let at = 0;
    const take = (list: GeneratedCrdIndex['chart']) =>
      list.map(({ source, head, length }) => {
        const from = at;
        at += length;
        return { source, head, text: () => (all ??= readGenerated('crds-texts.yaml')).slice(from, from + length) };
      });
    return prebuiltCrdDocs({ chart: take(index.chart), mcpop: take(index.mcpop) }, () => JSON.parse(readGenerated('crds-objects.json')) as Record<string, K8sObject>);
  })());
}

/** The six CRDs of the Resource API, one source file each, in a fixed order. */
export function chartCrdDocs(): RenderedDoc[] {
  return crdDocs().chart;
}

/** The MCP operator's MCPServer CRD. */
export function mcpopCrdDocs(): RenderedDoc[] {
  return crdDocs().mcpop;
}

/** The YAML the build wrote for a CRD object of chartCrdDocs or mcpopCrdDocs; undefined for any other object. */
export function crdYaml(object: object): string | undefined {
  // Before any CRD was asked for, no object is one: the texts are not read.
  return crds?.yaml.get(object)?.();
}
