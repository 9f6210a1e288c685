// Issue 8, injection: every string the user controls — each string-typed key of both revisions'
// schemas, each key and value of their string maps (labels, annotations …), each item of their
// string lists, and the strings inside the Kubernetes pass-through objects — set to hostile
// payloads (a newline and `kind: ClusterRoleBinding`, `---` documents, `{{ }}` templates, quotes,
// backslashes, RTL, emoji and zero-width characters, NUL, a 1 MB string) either is refused by lint
// with a problem, or renders the same number, kinds and names of objects as a benign string, and
// the value comes back exactly (through our YAML output and a YAML reader) wherever the benign
// string appears.
// (templates-safety.test.ts scans the templates themselves and checks a sample of keys; this
// walks every key.)
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { lintValues } from '../../src/lint/lint.ts';
import { TEMPLATED_PATHS } from '../../src/lint/rules/templated-values.ts';
import { checkObjectNames } from '../../src/render/names-check.ts';
import { RenderError } from '../../src/render/components/common.ts';
import { DuplicateObjectError } from '../../src/render/order.ts';
import { toYaml } from '../../src/render/manifests.ts';
import { renderChart } from '../../src/render/render.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText, YAML_LIMITS } from '../../src/values/source.ts';
import { breathe } from '../helpers/breathe.ts';
import { valuesSchema, type SchemaNode } from './_values-arb.ts';
// Provider config and tls are checked by validate's code, which a run loads only when needed: loaded here, as the commands load it.
import { checkModelConfig } from '../helpers/load-crd-check.ts';

const ONE_MB = 1_000_000;
const BENIGN = 'benign-marker-7q';

export const PAYLOADS: Record<string, string> = {
  'newline + kind: ClusterRoleBinding': 'x\nkind: ClusterRoleBinding',
  'a --- document': 'x\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: evil\nroleRef: {kind: ClusterRole, name: cluster-admin}',
  'a Go template': '{{ .Release.Name }}',
  'empty braces': '{{ }}',
  quotes: `"double" 'single' \`back\` ": '`,
  backslashes: 'C:\\path\\to\\new\\x00 \\u0041 \\',
  'yaml indicators': '- &a *a !!str | > % @ # : ? [ ] { } ,',
  'unicode: RTL, emoji, zero-width, line separators': '\u202Eevil\u202C 🤖👩‍💻 a\u200Bb\u200Dc\uFEFF \u2028\u2029 e\u0301',
  NUL: 'a\u0000b',
  'a multi-line text with leading spaces and trailing newlines': '  indented first line\n\nlast line\n\n',
};

type Site = { path: string; where: 'value' | 'key' | 'item' };

/** Every place a string goes: string leaves, map keys and values, list items. */
function stringSites(revision: Revision): Site[] {
  const out: Site[] = [];
  const walk = (n: SchemaNode, path: string) => {
    if (n.$ref) return;
    const types = Array.isArray(n.type) ? n.type : n.type ? [n.type] : [];
    const any = n.anyOf ?? [];
    if (n.enum) return;
    if (types.includes('string') || any.some((b) => b.type === 'string')) out.push({ path, where: 'value' });
    for (const [k, sub] of Object.entries(n.properties ?? {})) walk(sub, path ? `${path}.${k}` : k);
    if (n.items && (n.items.type === 'string' || n.items.anyOf?.some((b) => b.type === 'string'))) out.push({ path, where: 'item' });
    const ap = n.additionalProperties;
    if (ap && typeof ap === 'object') {
      out.push({ path, where: 'key' });
      if (ap.type === 'string' || ap.anyOf?.some((b) => b.type === 'string')) out.push({ path: `${path}.*`, where: 'value' });
    }
  };
  walk(valuesSchema(revision), '');
  // Strings inside Kubernetes pass-through objects.
  out.push({ path: 'controller.env', where: 'value' }, { path: 'tolerations', where: 'value' });
  return out;
}

/** Values that put `s` at the site, over `base`. */
function place(base: Record<string, unknown>, site: Site, s: string): Record<string, unknown> {
  const v = structuredClone(base);
  const segs = site.path.split('.');
  let cur: Record<string, unknown> = v;
  for (const seg of segs.slice(0, -1)) {
    if (seg === '*') break;
    cur = (cur[seg] = cur[seg] !== null && typeof cur[seg] === 'object' && !Array.isArray(cur[seg]) ? cur[seg] : {}) as Record<string, unknown>;
  }
  const last = segs[segs.length - 1]!;
  if (site.path === 'controller.env') cur[last] = [{ name: 'INJECTED', value: s }];
  else if (site.path === 'tolerations') cur[last] = [{ key: 'k', operator: 'Equal', value: s, effect: 'NoSchedule' }];
  else if (last === '*') Object.assign(cur, { injected: s });
  else if (site.where === 'key') cur[last] = { ...(cur[last] as object), [s]: 'v' };
  else if (site.where === 'item') cur[last] = [s];
  else cur[last] = s;
  return v;
}

/** The release with every optional component on, so most strings reach some object. */
function base(revision: Revision): Record<string, unknown> {
  return {
    authproxy: { enabled: true, config: { existingSecret: 'oidc-credentials' } },
    controller: { replicas: 2, metrics: { enabled: true, ...(revision === 'B' ? { serviceMonitor: { enabled: true } } : {}) }, pdb: { enabled: true }, substrate: { enabled: true } },
    substrate: { enabled: true },
    substrateWorkerPool: { create: true, [revision === 'A' ? 'ateomImage' : 'workerImage']: 'registry.example.com/worker:1' },
    ui: { pdb: { enabled: true }, httpRoute: { enabled: true, parentRefs: [{ name: 'gw' }] } },
  };
}
const API_VERSIONS = ['monitoring.coreos.com/v1', 'route.openshift.io/v1', 'gateway.networking.k8s.io/v1'];

type Outcome = { refused: string[] } | { docs: RenderedDoc[] };

/** What `agentplat render -f values.yaml` does, in-process: refuse with problems, or the objects. */
function renderLikeCli(revision: Revision, values: Record<string, unknown>): Outcome {
  const text = stringify(values, { lineWidth: 0 });
  const parsed = parseValuesText(text, 'values.yaml');
  if (!parsed.source) return { refused: parsed.problems.map((p) => p.rule) };
  const lint = lintValues({ checkModelConfig, revision, layers: [parsed.source], releaseNamespace: 'default', apiVersions: API_VERSIONS });
  const errors = lint.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) return { refused: errors.map((p) => p.rule) };
  let docs: RenderedDoc[];
  try {
    docs = renderChart(lint.layered.values, { revision, releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: API_VERSIONS, skipCrds: true });
  } catch (err) {
    if (err instanceof RenderError || err instanceof DuplicateObjectError) return { refused: ['render'] };
    throw err;
  }
  const names = checkObjectNames(docs);
  return names.length > 0 ? { refused: names.map((p) => p.rule) } : { docs };
}

const identity = (docs: RenderedDoc[]) => docs.map((d) => `${d.object.kind}/${d.object.metadata.namespace ?? ''}/${d.object.metadata.name}`);

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

/** Every string (map keys too) of the documents, read back from our YAML by the yaml library. */
function stringsOf(docs: RenderedDoc[]): string[] {
  const out: string[] = [];
  for (const d of docs) {
    const back = parseDocument(toYaml([d]), { version: '1.2' }).toJS() as unknown;
    expect(back).toEqual(d.object);
    const stack: unknown[] = [back];
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v === 'string') {
        // A JSON document inside a string (a config file in a ConfigMap): its strings are the values.
        const json = /^\s*[[{]/.test(v) ? tryJson(v) : undefined;
        // The proxy's legacy config file: lines `key = <JSON list>`; the list items are the values.
        const cfg = json === undefined ? legacyConfigLists(v) : undefined;
        if (json !== undefined) stack.push(json);
        else if (cfg !== undefined) stack.push(...cfg);
        else out.push(v);
      }
      else if (Array.isArray(v)) stack.push(...v);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(k), stack.push(x);
    }
  }
  return out;
}

/** The lists of a config text whose every line is `name = [JSON list]` (the proxy's oauth2_proxy.cfg), else undefined. */
function legacyConfigLists(text: string): unknown[] | undefined {
  const lines = text.split('\n');
  const lists = lines.map((l) => /^[a-z_]+ = (\[.*\])$/s.exec(l)?.[1]).map((j) => (j === undefined ? undefined : tryJson(j)));
  return lines.length > 0 && lists.every((x) => Array.isArray(x)) ? lists : undefined;
}

/** Rules that refuse a label or annotation the API server would refuse: those sites never round-trip. */
const METADATA_RULES = new Set(['values/metadata', 'render/object-name']);

function checkSite(revision: Revision, site: Site, payload: string, benign: Outcome): 'refused' | 'metadata rule' | 'round-trip' | 'not shown' {
  const got = renderLikeCli(revision, place(base(revision), site, payload));
  if ('refused' in got) {
    expect(got.refused.length).toBeGreaterThan(0);
    return got.refused.every((r) => METADATA_RULES.has(r)) ? 'metadata rule' : 'refused';
  }
  if ('refused' in benign) throw new Error(`${site.path}: the benign value is refused (${benign.refused.join(', ')}) but the payload renders`);
  expect(identity(got.docs), `${site.path} (${site.where})`).toEqual(identity(benign.docs));
  const touched = benign.docs.map((d, i) => [d, got.docs[i]!] as const).filter(([b]) => JSON.stringify(b.object).includes(BENIGN));
  if (touched.length === 0) return 'not shown';
  const templated = TEMPLATED_PATHS.some((t) => site.path === t || site.path.startsWith(`${t}.`)) && payload.includes('{{');
  if (templated) return 'round-trip';
  const expected = stringsOf(touched.map(([b]) => b)).filter((s) => s.includes(BENIGN)).map((s) => s.split(BENIGN).join(payload));
  const actual = new Set(stringsOf(touched.map(([, g]) => g)));
  expect(expected.filter((s) => !actual.has(s)), `${site.path} (${site.where}): the value does not come back exactly`).toEqual([]);
  return 'round-trip';
}

describe('injection: hostile strings in every user-controlled string stay values', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`revision ${revision}: the base with every component on lints clean`, () => {
      const r = renderLikeCli(revision, base(revision));
      expect('docs' in r ? [] : r.refused).toEqual([]);
    });

    it(`revision ${revision}: every string site × the payloads: refused by lint, or the same objects and the value back exactly`, async () => {
      const sites = stringSites(revision);
      expect(sites.length).toBeGreaterThan(150);
      const tally = { refused: 0, 'metadata rule': 0, 'round-trip': 0, 'not shown': 0 };
      for (const site of sites) {
        await breathe();
        const benign = renderLikeCli(revision, place(base(revision), site, BENIGN));
        // Every payload at once at every site, and each payload alone at every ninth site (in turn).
        const names = Object.keys(PAYLOADS);
        const one = names[sites.indexOf(site) % names.length]!;
        for (const [name, payload] of [['all payloads together', Object.values(PAYLOADS).join(' ')], [one, PAYLOADS[one]!]] as const) {
          try {
            tally[checkSite(revision, site, payload, benign)]++;
          } catch (err) {
            (err as Error).message = `${site.path} (${site.where}) with ${name}: ${(err as Error).message}`;
            throw err;
          }
        }
      }
      console.log(`revision ${revision}: ${sites.length} sites`, tally);
      // Not vacuous: most payloads do reach the output and come back, or are refused only because
      // the site is a label or annotation, whose keys and values the API server restricts.
      expect(tally['round-trip'] + tally['metadata rule']).toBeGreaterThan(tally.refused);
      expect(tally['round-trip']).toBeGreaterThan(sites.length / 2);
    });
  }

  it(`a 1 MB string fits in a values file with one key (limit ${YAML_LIMITS.maxTextLength} characters) and comes back exactly from an env value; as an annotation or a label the API server's limits refuse it`, () => {
    const big = `${'a'.repeat(ONE_MB / 2 - 1)}\n${'é'.repeat(ONE_MB / 2)}`;
    expect(big.length).toBe(ONE_MB);
    const plain = (renderLikeCli('B', {}) as { docs: RenderedDoc[] }).docs;
    const cases: [Record<string, unknown>, (controller: any) => unknown][] = [
      [{ controller: { env: [{ name: 'BIG', value: big }] } }, (c) => c.spec.template.spec.containers[0].env.find((e: any) => e.name === 'BIG').value],
    ];
    // 256 KiB of annotations per object and 63 characters per label value: lint says so at the key.
    expect(renderLikeCli('B', { controller: { podAnnotations: { note: big } } })).toEqual({ refused: ['values/metadata'] });
    expect(renderLikeCli('B', { podLabels: { big } })).toEqual({ refused: ['values/metadata'] });
    for (const [values, read] of cases) {
      expect(stringify(values, { lineWidth: 0 }).length).toBeLessThan(YAML_LIMITS.maxTextLength);
      const r = renderLikeCli('B', values);
      if ('refused' in r) throw new Error(r.refused.join(', '));
      expect(identity(r.docs)).toEqual(identity(plain));
      const controller = r.docs.find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-controller')!;
      expect(read(parseDocument(toYaml([controller])).toJS()) === big).toBe(true);
    }
  });
});
