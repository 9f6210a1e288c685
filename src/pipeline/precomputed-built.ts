// The built implementation of the precomputed seam (src/precomputed.ts): each member reads what
// scripts/build.mjs wrote to dist/generated/ from the plain implementation, on first use. The
// file names are the contract between the two (BUILT_FILES); test/precomputed-parity.test.ts runs
// both in one process and compares every command's output.
//
// The folder is asked for at every read, not once: a start-up snapshot is built from dist.next/
// and run from dist/, and what a run reads after the snapshot was taken must come from dist/.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startupSnapshot } from 'node:v8';
import type { ValidateFunction } from 'ajv';
import { loadWithCodeCache } from '../code-cache.ts';
import { prebuiltCrdDocs, type PrebuiltCrds } from '../crds/prebuilt.ts';
import type { AjvSchemas, CrdValidationData } from '../crds/validation-model.ts';
import type { K8sObject, RenderedDoc } from '../model/objects.ts';
import type { Precomputed } from '../precomputed.ts';
import type { TemplateSet } from '../render/template-program.ts';
import type { Revision } from '../spec/revisions.ts';
import type { DefaultsPositions } from '../values/defaults-data.ts';

/** The files of dist/generated/ the built members read (scripts/build.mjs writes them). */
export const BUILT_FILES = {
  templates: 'templates.json',
  defaults: 'defaults.json',
  valuesValidator: (rev: string) => `values-validator-${rev}.cjs`,
  crdTexts: 'crds-texts.yaml',
  crdIndex: 'crds-index.json',
  crdObjects: 'crds-objects.json',
  crdValidationData: 'crd-validation-data.json',
  crdValidatorIndex: 'crd-validators-index.json',
  crdSchemas: (group: string) => `crd-schemas-${group}.json`,
  crdValidators: (group: string) => `crd-validators-${group}.cjs`,
} as const;

/** defaults.json: each revision's defaults and where each key is written. */
export interface BuiltDefaults {
  data: Record<string, Record<string, unknown>>;
  positions: Record<string, DefaultsPositions>;
}

/** crds-index.json: each list's CRDs, with the length of each one's text in crds-texts.yaml. */
export type BuiltCrdIndex = Record<keyof PrebuiltCrds, { source: string; head: PrebuiltCrds['chart'][number]['head']; length: number }[]>;

/** crd-validators-index.json: for each `Kind/version`, its group and the name of its validator in that group's script. */
export type BuiltValidatorIndex = Record<string, [group: string, name: string]>;

/** crd-schemas-<group>.json: the root schema of each kind in the group, and the core definitions they share. */
export interface BuiltSchemaGroup {
  roots: Record<string, AjvSchemas['root']>;
  defs: AjvSchemas['defs'];
}

// Truthiness, not `=== true`: Node 20 answers 1.
const building = (): boolean => Boolean(startupSnapshot?.isBuildingSnapshot?.());

/**
 * While a start-up snapshot is built the warm-up's output is thrown away: nothing is validated,
 * so no generated validator is loaded into the snapshot (a run loads it with its code cache).
 */
const notValidating = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;

export function builtPrecomputed(folder: () => string): Precomputed {
  const file = (name: string) => join(folder(), name);
  const json = <T>(name: string): T => JSON.parse(readFileSync(file(name), 'utf8')) as T;

  let templates: TemplateSet | undefined;
  let defaults: BuiltDefaults | undefined;
  const valuesValidators: Partial<Record<string, ValidateFunction>> = {};

  let crds: { chart: RenderedDoc[]; mcpop: RenderedDoc[]; yaml: WeakMap<object, string> } | undefined;
  // The snapshot keeps code, not the CRD texts: a run reads them from disk when it prints a CRD.
  if (building()) startupSnapshot.addSerializeCallback(() => (crds = undefined));
  const crdDocs = () =>
    (crds ??= (() => {
      const all = readFileSync(file(BUILT_FILES.crdTexts), 'utf8');
      const index = json<BuiltCrdIndex>(BUILT_FILES.crdIndex);
      // Each CRD's text is a slice of the one file: no copy, no JSON to parse.
      let at = 0;
      const take = (list: BuiltCrdIndex['chart']) => list.map(({ source, head, length }) => ({ source, head, text: all.slice(at, (at += length)) }));
      const texts = { chart: take(index.chart), mcpop: take(index.mcpop) };
      return prebuiltCrdDocs(texts, () => json<Record<string, K8sObject>>(BUILT_FILES.crdObjects));
    })());

  let validationData: CrdValidationData | undefined;
  let validatorIndex: BuiltValidatorIndex | undefined;
  const schemaGroups: Partial<Record<string, BuiltSchemaGroup>> = {};
  const validatorGroups: Partial<Record<string, Record<string, ValidateFunction>>> = {};
  const where = (kind: string, version: string) => {
    const hit = (validatorIndex ??= json<BuiltValidatorIndex>(BUILT_FILES.crdValidatorIndex))[`${kind}/${version}`];
    if (!hit) throw new Error(`${kind} does not serve ${version}`);
    return hit;
  };

  // What each member saves over the plain one, first read in a fresh process (bench/precomputed.mjs,
  // idle 2-core machine, Node 20, medians), as a share of the command it serves when it starts from
  // the bundle (the in-process API, a run under NODE_OPTIONS) and, for members no snapshot warm-up
  // computes, from the snapshot. A member saving under 5% of its command in both ways goes back to
  // the plain implementation.
  return {
    // 27 → 4.5 ms: 8% of `render --skip-crds` from the bundle.
    templateSet: () => (templates ??= json<TemplateSet>(BUILT_FILES.templates)),
    // 546 → 25 ms (ajv compiling the schema): 180% of `lint -f values.yaml` from the bundle, 197% from the snapshot.
    valuesValidator: (revision: Revision) => {
      if (building()) return notValidating;
      const rev = revision.toLowerCase();
      return (valuesValidators[rev] ??= loadWithCodeCache(file(BUILT_FILES.valuesValidator(rev))) as ValidateFunction);
    },
    // 115 → 12 ms (parsing the commented defaults): 35% of `render --skip-crds` from the bundle.
    defaultsData: (revision: Revision) => structuredClone((defaults ??= json<BuiltDefaults>(BUILT_FILES.defaults)).data[revision]!),
    // With defaultsData (one file): a finding in the defaults is placed without parsing them.
    defaultsPositions: (revision: Revision) => (defaults ??= json<BuiltDefaults>(BUILT_FILES.defaults)).positions[revision],
    // 72 → 14 ms with their YAML (building the CRD model and writing it): 18% of `render` from the bundle.
    chartCrdDocs: () => crdDocs().chart,
    // With chartCrdDocs (one file, one figure), as is writtenYaml.
    mcpopCrdDocs: () => crdDocs().mcpop,
    // No read of the texts for objects that are not CRDs (before any CRD was asked for, none is one).
    writtenYaml: (object: object) => crds?.yaml.get(object),
    // 59 → 3.4 ms (building the CRD model): 17% of `validate` from the bundle, 20% from the snapshot.
    crdValidationData: () => (validationData ??= json<CrdValidationData>(BUILT_FILES.crdValidationData)),
    // 373 → 32 ms (ajv compiling a kind's schema): 103% of `validate` from the bundle, 122% from the snapshot.
    crdValidator: (kind: string, version: string) => {
      if (building()) return notValidating;
      const [group, name] = where(kind, version);
      return (validatorGroups[group] ??= loadWithCodeCache(file(BUILT_FILES.crdValidators(group))) as Record<string, ValidateFunction>)[name]!;
    },
    // With crdValidator: the schemas its code was generated from.
    crdSchemas: (kind: string, version: string) => {
      const [group] = where(kind, version);
      const s = (schemaGroups[group] ??= json<BuiltSchemaGroup>(BUILT_FILES.crdSchemas(group)));
      return { root: s.roots[`${kind}/${version}`]!, defs: s.defs };
    },
  };
}
