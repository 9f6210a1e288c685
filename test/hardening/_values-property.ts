// Issue 8, property tests: values generated from each revision's schema (every key reachable,
// random legal values, components on and off, Kubernetes pass-through objects in small legal
// shapes) either lint with an error problem or render. Whatever renders parses back to the same
// objects, validates against the Kubernetes schema of its kind (unknown fields rejected),
// references only objects in the output or names written in the values, and renders
// byte-identically twice.
import { checkModelConfig } from '../helpers/load-crd-check.ts';
import fc from 'fast-check';
import { expect } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { lintValues } from '../../src/lint/lint.ts';
import { toYaml } from '../../src/render/manifests.ts';
import { renderChart } from '../../src/render/render.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { registerChartSchemas } from '../helpers/chart-schemas.ts';
import { k8sSchemaIssues } from '../helpers/k8s-schema.ts';
import { danglingReferences, namedStrings } from '../helpers/references.ts';
import { cli, expectRenderContract } from './_cli.ts';
import { fcParams, seedTitle } from './_seed.ts';
import { ValuesArbitraries, valuesSchema } from './_values-arb.ts';

registerChartSchemas();

// An everyday run; AGENTPLAT_FUZZ_RUNS scales it (docs/hardening.md).
const RUNS = 300;
const API_VERSIONS = ['monitoring.coreos.com/v1', 'route.openshift.io/v1', 'gateway.networking.k8s.io/v1'];

/** The release a generated case renders: name, namespace and declared APIs (the lint/render parity test adds its own flags). */
export const RELEASE_ARBS = {
  release: fc.constantFrom('agentplat', 'prod', 'r1', 'a-very-long-release-name-for-the-platform'),
  namespace: fc.constantFrom('default', 'team-x', 'agentplat'),
  apiVersions: fc.subarray(API_VERSIONS),
};

const options = fc.record(RELEASE_ARBS);

// Parsing YAML and validating against the Kubernetes schemas are the slow parts; most documents
// repeat from case to case, so each distinct document text is checked once.
const checkedDocs = new Map<string, string[]>();

/** Problems with one rendered document: its YAML must read back as the object and validate. */
function documentIssues(d: RenderedDoc): string[] {
  const text = toYaml([d]);
  let issues = checkedDocs.get(text);
  if (!issues) {
    issues = [];
    const doc = parseDocument(text, { version: '1.2', uniqueKeys: false, prettyErrors: false });
    if (doc.errors.length > 0) issues.push(`does not parse: ${doc.errors[0]!.message}`);
    else {
      const back = doc.toJS() as unknown;
      if (JSON.stringify(back) !== JSON.stringify(d.object)) issues.push('reads back as a different object');
    }
    for (const i of k8sSchemaIssues(d.object)) issues.push(`${i.path}: ${i.message}`);
    checkedDocs.set(text, issues);
  }
  return issues.map((i) => `${d.object.kind}/${d.object.metadata.name}: ${i}`);
}

interface Stats {
  rendered: number;
  refused: number;
}

async function property(revision: Revision, values: Record<string, unknown>, o: { release: string; namespace: string; apiVersions: string[] }, stats: Stats): Promise<void> {
  const text = stringify(values);
  const argv = ['render', '-r', revision, '-f', '-', '--skip-crds', '--release-name', o.release, '-n', o.namespace, ...o.apiVersions.flatMap((a) => ['--api-versions', a])];
  const what = `agentplat ${argv.join(' ')} <<'EOF'\n${text}EOF`;
  const first = await cli(argv, text);
  expectRenderContract(first, what);
  expect(first.code, `render exits 0 or 1 for values generated from the schema\n${what}\n${first.err}`).toBeOneOf([0, 1]);
  if (first.code === 1) {
    stats.refused++;
    return;
  }
  stats.rendered++;
  // The same objects in-process, as render-run.ts builds them, to check them one by one.
  const source = parseValuesText(text, '<stdin>').source!;
  const lint = lintValues({ checkModelConfig, revision, layers: [source], releaseNamespace: o.namespace, apiVersions: o.apiVersions });
  const docs = renderChart(lint.layered.values, { revision, releaseName: o.release, releaseNamespace: o.namespace, apiVersions: o.apiVersions, skipCrds: true });
  // Two renders of the same input (the CLI's and this one) are byte-identical.
  expect(toYaml(docs) === first.out, `two renders of the same values differ\n${what}`).toBe(true);
  const issues = docs.flatMap(documentIssues);
  expect(issues, what).toEqual([]);
  const named = namedStrings(lint.layered.values);
  // serviceAccount.create: false means "an externally managed account" (spec B), named <fullname>-controller by default.
  if ((lint.layered.values.controller as any)?.serviceAccount?.create === false) {
    for (const d of docs) if (d.object.kind === 'Deployment') named.add((d.object as any).spec.template.spec.serviceAccountName);
  }
  const dangling = danglingReferences(docs.map((d) => d.object), { named });
  expect(dangling, what).toEqual([]);
}

/** The property for one revision: two tests, the property itself and the generator's key coverage. */
/** Runs the property over generated values of `revision`; how many cases rendered and how many lint refused. */
export async function runValuesProperty(revision: Revision, offset: number): Promise<Stats> {
  const values = new ValuesArbitraries(valuesSchema(revision)).values();
  const stats: Stats = { rendered: 0, refused: 0 };
  await fc.assert(fc.asyncProperty(values, options, (v, o) => property(revision, v, o, stats)), fcParams(offset, RUNS));
  console.log(`revision ${revision}: ${stats.rendered} rendered, ${stats.refused} refused by lint`);
  return stats;
}

/** Leaf keys of the revision's schema, and those the generator never writes. */
export function generatorCoverage(revision: Revision): { leaves: string[]; missed: string[] } {
  const schema = valuesSchema(revision);
  const arbs = new ValuesArbitraries(schema);
  arbs.values(); // building the arbitrary records every path it can write
  const leaves: string[] = [];
  const walk = (n: typeof schema, path: string) => {
    if (n.properties) for (const [k, sub] of Object.entries(n.properties)) walk(sub, path ? `${path}.${k}` : k);
    else if (path) leaves.push(path);
  };
  walk(schema, '');
  return { leaves, missed: leaves.filter((p) => !arbs.paths.has(p)) };
}

/** The title of the property test of a revision, with its seed and number of runs. */
export const propertyTitle = (offset: number): string =>
  `lint reports an error or render succeeds; rendered objects parse back, validate, resolve and repeat byte for byte ${seedTitle(offset, RUNS)}`;
