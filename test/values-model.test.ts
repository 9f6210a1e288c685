// The values model and what is generated from it: the committed files are the generator's
// output, the defaults pass their schema, the schema rejects what the spec says is wrong, and
// every key of a defaults file is commented.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, parse, parseDocument, type Pair, type YAMLMap } from 'yaml';
import { generatedFiles } from '../scripts/gen-values.ts';
import { REVISION_IDS, type Revision } from '../src/chart/revisions.ts';
import { VALUES_SCHEMA_KEYWORDS } from '../src/chart/values-generate.ts';
import { describeKey, VALUES_KEYS, walkKeys } from '../src/chart/values-model.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const x = (rev: Revision) => rev.toLowerCase();
const schemaOf = (rev: Revision) => JSON.parse(read(`schemas/values-${x(rev)}.schema.json`)) as Record<string, unknown>;
const defaultsOf = (rev: Revision) => parse(read(`values/revision-${x(rev)}.yaml`)) as Record<string, any>;

type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; params: Record<string, unknown> }[] | null };
const validators = new Map<Revision, Validate>();
/** Ajv 8 in full strict mode: only the declared annotation keywords are tolerated. */
function validator(rev: Revision): Validate {
  let v = validators.get(rev);
  if (!v) {
    const ajv = new Ajv.default({ strict: true, allErrors: true });
    for (const k of VALUES_SCHEMA_KEYWORDS) ajv.addKeyword(k);
    v = ajv.compile(schemaOf(rev)) as Validate;
    validators.set(rev, v);
  }
  return v;
}

/** Defaults of a revision with one change applied. */
function withChange(rev: Revision, change: (v: Record<string, any>) => void): Record<string, any> {
  const v = defaultsOf(rev);
  change(v);
  return v;
}

function errorsOf(rev: Revision, data: unknown): string[] {
  const v = validator(rev);
  if (v(data)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`);
}

describe('generated files', () => {
  const files = generatedFiles();
  for (const [path, text] of Object.entries(files)) {
    it(`${path} is what scripts/gen-values.mjs writes from the model (no hand edits)`, () => {
      expect(read(path) === text, `${path} differs from the model: run node scripts/gen-values.mjs`).toBe(true);
    });
  }
});

for (const rev of REVISION_IDS) {
  describe(`revision ${rev}`, () => {
    it('the defaults validate against the schema (ajv strict)', () => {
      expect(errorsOf(rev, defaultsOf(rev))).toEqual([]);
    });

    it('closed Kubernetes types: a typo inside securityContext fails', () => {
      const errs = errorsOf(rev, withChange(rev, (v) => { v.securityContext.runAsNonroot = true; }));
      expect(errs.some((e) => e.startsWith('/securityContext additionalProperties') && e.includes('runAsNonroot'))).toBe(true);
    });

    it('unknown keys are errors: an unknown top-level key fails', () => {
      const errs = errorsOf(rev, withChange(rev, (v) => { v.controllr = {}; }));
      expect(errs.some((e) => e.startsWith(' additionalProperties') && e.includes('controllr'))).toBe(true);
    });

    it('chart-owned maps are closed: an unknown key under controller.service fails', () => {
      expect(errorsOf(rev, withChange(rev, (v) => { v.controller.service.prot = 1; }))).not.toEqual([]);
    });

    it('every key of the defaults file has a comment line', () => {
      const doc = parseDocument(read(`values/revision-${x(rev)}.yaml`));
      const missing: string[] = [];
      const visit = (map: YAMLMap, prefix: string) => {
        (map.items as Pair[]).forEach((pair, index) => {
          if (!isScalar(pair.key)) return;
          const path = prefix ? `${prefix}.${String(pair.key.value)}` : String(pair.key.value);
          // Keys inside a value (a security context, a probe) are data, not values keys.
          if (!describeKey(rev, path)) return;
          // The parser hangs the comment above the first key of a nested map on the map itself.
          const comment = pair.key.commentBefore ?? (index === 0 && prefix ? map.commentBefore : undefined);
          if (!comment?.trim()) missing.push(path);
          if (isMap(pair.value)) visit(pair.value, path);
        });
      };
      visit(doc.contents as YAMLMap, '');
      expect(missing).toEqual([]);
    });

    it('the defaults file holds exactly the model keys that have a default', () => {
      const want = walkKeys(rev).filter((k) => !k.node.optional && !hasOptionalParent(rev, k.path)).map((k) => k.path).sort();
      const got: string[] = [];
      const visit = (obj: Record<string, unknown>, prefix: string) => {
        for (const [k, v] of Object.entries(obj)) {
          const path = prefix ? `${prefix}.${k}` : k;
          const d = describeKey(rev, path);
          if (!d) continue;
          got.push(path);
          if (d.type === 'object' && v && typeof v === 'object' && !Array.isArray(v) && walkKeys(rev).some((w) => w.path.startsWith(`${path}.`))) visit(v as Record<string, unknown>, path);
        }
      };
      visit(defaultsOf(rev), '');
      expect(got.sort()).toEqual(want);
    });

    it('VALUES_KEYS lists dotted leaf paths, each described by describeKey', () => {
      expect(VALUES_KEYS[rev].length).toBeGreaterThan(100);
      for (const path of VALUES_KEYS[rev]) expect(describeKey(rev, path), path).toBeDefined();
    });

    it('quantity-and-duration-notation: quantities 128Mi, 50m, 1, 0.5, 2Gi pass; 128MB and 1 Gi fail (ui.volumes.tmp)', () => {
      for (const ok of ['128Mi', '50m', '1', '0.5', '2Gi', 0.5, 2]) expect(errorsOf(rev, withChange(rev, (v) => { v.ui.volumes.tmp = ok; })), String(ok)).toEqual([]);
      for (const bad of ['128MB', '1 Gi', '', '-1']) expect(errorsOf(rev, withChange(rev, (v) => { v.ui.volumes.tmp = bad; })), bad).not.toEqual([]);
    });

    it('controller.resources.limits.cpu: int in the spec, so ints and quantity strings pass', () => {
      for (const ok of [4, '1500m', '2']) expect(errorsOf(rev, withChange(rev, (v) => { v.controller.resources.limits.cpu = ok; }))).toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.controller.resources.limits.cpu = 'two'; }))).not.toEqual([]);
    });

    it('quantity-and-duration-notation: durations 30m, 1h, 1800s, 168h, 250ms, 0 pass; 1 hour and 10 fail (controller.a2aClientTimeout)', () => {
      for (const ok of ['30m', '1h', '1800s', '168h', '250ms', '0', '1h30m', '']) {
        expect(errorsOf(rev, withChange(rev, (v) => { v.controller.a2aClientTimeout = ok; })), ok).toEqual([]);
      }
      for (const bad of ['1 hour', '10', 'h']) expect(errorsOf(rev, withChange(rev, (v) => { v.controller.a2aClientTimeout = bad; })), bad).not.toEqual([]);
    });

    it('bounds: replicas >= 0 and ports 1..65535', () => {
      expect(errorsOf(rev, withChange(rev, (v) => { v.controller.replicas = 0; }))).toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.controller.replicas = -1; }))).not.toEqual([]);
      for (const bad of [0, 65536]) expect(errorsOf(rev, withChange(rev, (v) => { v.ui.service.ports.port = bad; }))).not.toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.ui.service.ports.port = 65535; }))).toEqual([]);
    });

    it('pdb-threshold-format: controller/ui pdb.maxUnavailable and pdb.minAvailable take an integer or a percentage string', () => {
      for (const component of ['controller', 'ui']) {
        for (const key of ['maxUnavailable', 'minAvailable']) {
          const at = `${component}.pdb.${key}`;
          for (const ok of [0, 1, 3, '50%', '100%']) expect(errorsOf(rev, withChange(rev, (v) => { v[component].pdb[key] = ok; })), `${at}: ${ok}`).toEqual([]);
          for (const bad of ['half', '%', '150%', '-1', -1, 1.5, true]) expect(errorsOf(rev, withChange(rev, (v) => { v[component].pdb[key] = bad; })), `${at}: ${bad}`).not.toEqual([]);
        }
      }
    });

    it('probes are Kubernetes Probes: httpGet.port takes a name or a number, a typo fails', () => {
      for (const port of ['http', 8083]) {
        expect(errorsOf(rev, withChange(rev, (v) => { v.controller.readinessProbe = { httpGet: { path: '/health', port } }; }))).toEqual([]);
      }
      expect(errorsOf(rev, withChange(rev, (v) => { v.controller.readinessProbe = { httpget: { path: '/health', port: 1 } }; }))).not.toEqual([]);
    });

    it('imagePullSecrets take {name} objects or bare names', () => {
      expect(errorsOf(rev, withChange(rev, (v) => { v.imagePullSecrets = [{ name: 'a' }, 'b']; }))).toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.imagePullSecrets = [{ nam: 'a' }]; }))).not.toEqual([]);
    });

    it('controller.metrics.bindAddress: [host]:port, or "0"/"" as the disable signal', () => {
      for (const ok of [':8443', '127.0.0.1:9443', '[::1]:9443', '0', '']) {
        expect(errorsOf(rev, withChange(rev, (v) => { v.controller.metrics.bindAddress = ok; })), ok).toEqual([]);
      }
      for (const bad of ['8443', 'localhost', ':port']) expect(errorsOf(rev, withChange(rev, (v) => { v.controller.metrics.bindAddress = bad; })), bad).not.toEqual([]);
    });

    it('extraObjects take maps and strings', () => {
      expect(errorsOf(rev, withChange(rev, (v) => { v.extraObjects = [{ apiVersion: 'v1', kind: 'ConfigMap' }, 'apiVersion: v1\nkind: Secret\n']; }))).toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.extraObjects = [1]; }))).not.toEqual([]);
    });

    it('providers: the set of blocks is fixed per revision (section 2.8): A has providerA to providerE, B adds providerH; no other block names', () => {
      const blocks = Object.keys((schemaOf(rev) as any).properties.providers.properties).filter((k) => k.startsWith('provider')).sort();
      expect(blocks).toEqual(rev === 'A' ? ['providerA', 'providerB', 'providerC', 'providerD', 'providerE'] : ['providerA', 'providerB', 'providerC', 'providerD', 'providerE', 'providerH']);
      expect(errorsOf(rev, withChange(rev, (v) => { v.providers.providerF = { provider: 'ProviderF', model: 'm' }; }))).not.toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.providers.providerZ = { provider: 'ProviderF' }; }))).not.toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.providers.providerB.provider = 'ProviderZ'; }))).not.toEqual([]);
      expect(errorsOf(rev, withChange(rev, (v) => { v.providers.providerD.apiKeySecretRef = 'x'; })), 'no API key keys on the local runtime').not.toEqual([]);
    });

    it('secret-valued keys carry x-agentplat-secret', () => {
      const s = schemaOf(rev) as any;
      const p = s.properties;
      expect(p.authproxy.properties.config.properties.clientSecret['x-agentplat-secret']).toBe(true);
      expect(p.authproxy.properties.config.properties.cookieSecret['x-agentplat-secret']).toBe(true);
      expect(p.authproxy.properties.config.properties.clientID['x-agentplat-secret']).toBeUndefined();
      expect(p['dashboards-mcp'].properties.grafana.properties.serviceAccountToken['x-agentplat-secret']).toBe(true);
      for (const block of ['providerA', 'providerB', 'providerC', 'providerE']) expect(p.providers.properties[block].properties.apiKey['x-agentplat-secret'], block).toBe(true);
    });

    it('authproxy.extraArgs.skip-auth-regex keeps its backslash through YAML', () => {
      const prefix = rev === 'A' ? '_next/static/|_next/image' : 'assets/';
      expect(defaultsOf(rev).authproxy.extraArgs['skip-auth-regex']).toBe(`^/(login|${prefix}|login-bg\\.(jpg|png|webp)|logo-.*\\.png|favicon\\.ico|api/agentharnesses/.*/gateway)`);
    });
  });
}

function hasOptionalParent(rev: Revision, path: string): boolean {
  const segs = path.split('.');
  for (let i = 1; i < segs.length; i++) {
    const parent = walkKeys(rev).find((k) => k.path === segs.slice(0, i).join('.'));
    if (parent?.node.optional) return true;
  }
  return false;
}

describe('revision-specific shapes', () => {
  it('ui.env is a map in A and a list of EnvVar in B', () => {
    expect(errorsOf('A', withChange('A', (v) => { v.ui.env = { FOO: 'bar' }; }))).toEqual([]);
    expect(errorsOf('A', withChange('A', (v) => { v.ui.env = [{ name: 'FOO', value: 'bar' }]; }))).not.toEqual([]);
    expect(errorsOf('B', withChange('B', (v) => { v.ui.env = [{ name: 'FOO', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }]; }))).toEqual([]);
    expect(errorsOf('B', withChange('B', (v) => { v.ui.env = { FOO: 'bar' }; }))).not.toEqual([]);
  });

  it('rbac: A holds namespaces; in B the key is optional and an explicit [] is allowed', () => {
    expect(defaultsOf('A').rbac).toEqual({ namespaces: [] });
    expect(defaultsOf('B').rbac).toEqual({});
    expect(errorsOf('B', withChange('B', (v) => { v.rbac = { namespaces: [] }; }))).toEqual([]);
    expect(errorsOf('B', withChange('B', (v) => { v.rbac = { namespaces: ['team-a'] }; }))).toEqual([]);
    expect(errorsOf('B', withChange('B', (v) => { v.rbac = { namespace: ['team-a'] }; }))).not.toEqual([]);
  });

  it('otel.exporter.otlp.endpoint (B) is an http or https URL, or empty', () => {
    for (const ok of ['', 'http://collector:4317', 'https://otel.example:4318']) expect(errorsOf('B', withChange('B', (v) => { v.otel.exporter.otlp.endpoint = ok; })), ok).toEqual([]);
    expect(errorsOf('B', withChange('B', (v) => { v.otel.exporter.otlp.endpoint = 'collector:4317'; }))).not.toEqual([]);
  });

  it('otel-protocol-values-b: otel.exporter.otlp.protocol is grpc or http/protobuf', () => {
    for (const ok of ['grpc', 'http/protobuf']) expect(errorsOf('B', withChange('B', (v) => { v.otel.exporter.otlp.protocol = ok; })), ok).toEqual([]);
    for (const bad of ['http', 'http/json', 'GRPC', '', 'grpc ']) expect(errorsOf('B', withChange('B', (v) => { v.otel.exporter.otlp.protocol = bad; })), bad).not.toEqual([]);
    expect(defaultsOf('B').otel.exporter.otlp.protocol).toBe('grpc');
  });

  it('default-differences: among the keys both revisions share, the defaults differ exactly in controller.auth.mode, imagePullPolicy and database.rdb.bundled.image.pullPolicy', () => {
    const leaves = (node: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> => {
      if (node !== null && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length > 0) {
        for (const [k, v] of Object.entries(node)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
      } else out.set(prefix, node);
      return out;
    };
    const a = leaves(defaultsOf('A'));
    const b = leaves(defaultsOf('B'));
    const differing = [...a.keys()].filter((k) => b.has(k) && JSON.stringify(a.get(k)) !== JSON.stringify(b.get(k))).sort();
    // Keys in both files whose rows (or rules) are revision-marked, so they are not "shared" rows:
    const REVISION_MARKED: Record<string, string> = {
      'controller.agentImage.repository': 'separate [A] and [B] agentImage rows (agent runtime of each revision)',
      'ui.env': '[A] a map, [B] a list of EnvVar (both empty)',
      'authproxy.extraArgs.skip-auth-regex': 'authproxy-static-prefix-a / authproxy-static-prefix-b',
    };
    expect(differing.filter((k) => !(k in REVISION_MARKED))).toEqual(['controller.auth.mode', 'database.rdb.bundled.image.pullPolicy', 'imagePullPolicy']);
    expect(differing).toEqual(expect.arrayContaining(Object.keys(REVISION_MARKED)));
    expect([a.get('controller.auth.mode'), b.get('controller.auth.mode')]).toEqual(['unsecure', 'insecure']);
    // B's empty pull policies fall back to global.imagePullPolicy, then IfNotPresent (image-pull-policy-fallback-b)
    expect([a.get('imagePullPolicy'), b.get('imagePullPolicy')]).toEqual(['IfNotPresent', '']);
    expect([a.get('database.rdb.bundled.image.pullPolicy'), b.get('database.rdb.bundled.image.pullPolicy')]).toEqual(['IfNotPresent', '']);
  });

  it('controller.auth.mode: B allows insecure and trusted-proxy only', () => {
    expect(errorsOf('B', withChange('B', (v) => { v.controller.auth.mode = 'trusted-proxy'; }))).toEqual([]);
    expect(errorsOf('B', withChange('B', (v) => { v.controller.auth.mode = 'unsecure'; }))).not.toEqual([]);
  });

  it('keys of one revision are unknown in the other (controller.sandbox, goAgentImage)', () => {
    expect(errorsOf('A', withChange('A', (v) => { v.controller.sandbox = { cpu: '1' }; }))).not.toEqual([]);
    expect(errorsOf('B', withChange('B', (v) => { v.controller.goAgentImage = { repository: 'x' }; }))).not.toEqual([]);
  });
});
