// The values template evaluator (extra-objects-templating) and the lint rule that reports, at
// lint time, every template it cannot evaluate.
import { describe, expect, it, vi } from 'vitest';
import { evaluateTpl, tplIncludeNames, TplError, type TplScope } from '../../src/model/tpl.ts';
import { expandExtraObjects } from '../../src/model/extra-objects.ts';
import { templatedValuesRules } from '../../src/lint/rules/templated-values.ts';
import type { RuleFinding } from '../../src/lint/rules/types.ts';
import { valuesFor } from './_render.ts';
import { signInChecksum } from '../../src/model/sign-in-template.ts';
import { tplScope } from '../../src/model/tpl-scope.ts';
import { buildRenderContext, releaseFacts } from '../../src/model/context.ts';

const scope: TplScope = {
  release: { name: 'prod', namespace: 'tenant' },
  chart: { name: 'agentplat', version: '0.11.0' },
  values: { registry: 'ghcr.io', ui: { service: { ports: { port: 8080 } } }, empty: '' },
  fullname: 'prod',
  namespace: 'tenant-override',
};

describe('tpl evaluator', () => {
  it.each([
    ['{{ .Release.Name }}', 'prod'],
    ['{{ .Release.Namespace }}', 'tenant'],
    ['{{ .Chart.Name }}-{{ .Chart.Version }}', 'agentplat-0.11.0'],
    ['{{ .Values.registry }}/x', 'ghcr.io/x'],
    ['http://{{ include "agentplat.fullname" . }}-ui:{{ .Values.ui.service.ports.port }}', 'http://prod-ui:8080'],
    ['{{ include "agentplat.namespace" . }}', 'tenant-override'],
    ['{{ .Values.registry | quote }}', '"ghcr.io"'],
    ['{{ quote .Release.Name }}', '"prod"'],
    ['{{ .Values.missing | default "fallback" }}', 'fallback'],
    ['{{ default "x" .Values.empty }}', 'x'],
    ['{{ .Values.registry | upper | quote }}', '"GHCR.IO"'],
    ['a  {{- " b " -}}  c', 'a b c'],
    ['{{/* a comment */}}kept', 'kept'],
    ['no template', 'no template'],
  ])('%s → %s', (text, expected) => {
    expect(evaluateTpl(text, scope)).toBe(expected);
  });

  it.each([
    ['{{ .Values.missing }}', 1, 1, /no value/],
    ['ok\n  {{ lookup "v1" "Secret" "" "" }}', 2, 6, /function "lookup" is not supported: it reads the cluster/],
    ['{{ include "nope" . }}', 1, 4, /unknown include "nope"/],
    ['{{ .Capabilities.KubeVersion }}', 1, 4, /unsupported field/],
    ['x {{ .Release.Name ', 1, 3, /unclosed/],
    ['{{ frobnicate .Values.ui }}', 1, 4, /unsupported function "frobnicate"/],
    ['{{ .Values.ui }}', 1, 1, /cannot print a map/],
  ])('%s fails with a TplError at line %i column %i', (text, line, column, message) => {
    let err: unknown;
    try {
      evaluateTpl(text, scope);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TplError);
    expect((err as TplError).line).toBe(line);
    expect((err as TplError).column).toBe(column);
    expect((err as TplError).message).toMatch(message);
  });

  it('the authproxy includes resolve wherever a values template is evaluated, with no other module imported first', async () => {
    expect(evaluateTpl('{{ include "agentplat.authproxy.signInChecksum" . }}', scope)).toBe(signInChecksum());
    // A fresh copy of tpl.ts alone: includes registered by another module's import would be missing here.
    vi.resetModules();
    const fresh = await import('../../src/model/tpl.ts');
    expect(fresh.evaluateTpl('{{ include "agentplat.authproxy.signInChecksum" . }}', scope)).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh.evaluateTpl('{{ include "agentplat.authproxy.templatesName" . }}', scope)).toBe('prod-authproxy-templates');
    expect(fresh.tplIncludeNames()).toEqual(tplIncludeNames());
  });
});

describe('extraObjects expansion (extra-objects-templating)', () => {
  it('map entries: every string and key is evaluated, structure is kept', () => {
    const { objects, problems } = expandExtraObjects([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '{{ .Release.Name }}-x' }, data: { '{{ .Release.Name }}': '{{ .Values.registry }}' } }], scope);
    expect(problems).toEqual([]);
    expect(objects[0]!.object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'prod-x', namespace: 'tenant-override' }, data: { prod: 'ghcr.io' } });
  });

  it('multi-line string entries: templated as a whole, several documents allowed', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include "agentplat.fullname" . }}-a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n';
    const { objects, problems } = expandExtraObjects([text], scope);
    expect(problems).toEqual([]);
    expect(objects.map((o) => o.object.metadata.name)).toEqual(['prod-a', 'b']);
  });

  it('a string entry that is not a Kubernetes object is reported, naming the entry', () => {
    const { problems } = expandExtraObjects([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' } }, 'just: text', 'a: [unclosed'], scope);
    expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(/^extraObjects\[1\] \(document 1\) has no apiVersion/), expect.stringMatching(/^extraObjects\[2\] is not valid YAML/)]);
  });
});

describe('lint rule values/templated-values', () => {
  const lint = (revision: 'A' | 'B', user: Record<string, unknown>): RuleFinding[] => {
    const findings: RuleFinding[] = [];
    templatedValuesRules.check({ revision, values: valuesFor(revision, user).values, userSet: () => true, report: (f) => void findings.push(f) });
    return findings;
  };

  it('defaults of both revisions evaluate cleanly', () => {
    expect(lint('A', {})).toEqual([]);
    expect(lint('B', {})).toEqual([]);
  });

  it('reports every extraObjects entry that cannot be evaluated, naming the entry (extraObjects[2])', () => {
    const findings = lint('B', {
      extraObjects: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '{{ .Release.Name }}' } },
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n',
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '{{ frobnicate .Values.x }}' } },
        'kind: ConfigMap\nmetadata:\n  name: {{ .Values.nope }}\n',
      ],
    });
    expect(findings.map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['values/templated-values', 'error', ['extraObjects', 2, 'metadata', 'name']],
      ['values/templated-values', 'error', ['extraObjects', 3]],
    ]);
    expect(findings[0]!.message).toMatch(/^extraObjects\[2\]: unsupported function "frobnicate"/);
    expect(findings[1]!.message).toMatch(/^extraObjects\[3\]: .*no value/);
  });

  it('values/extra-object-scope: an extraObjects entry without a namespace whose kind scope is unknown is a warning naming it; known kinds are not', () => {
    const findings = lint('B', {
      extraObjects: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
        { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'x' } },
        'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w2\n',
      ],
    });
    expect(findings.map((f) => [f.rule, f.severity, f.path])).toEqual([['values/extra-object-scope', 'warning', ['extraObjects', 3]]]);
    expect(findings[0]!.message).toMatch(/Widget w2/);
  });

  it('reports templated authproxy extras and the dashboards URL that cannot be evaluated', () => {
    const findings = lint('A', {
      authproxy: { extraEnv: [{ name: 'UPSTREAM_URL', value: 'http://{{ include "agentplat.fullname" . }}-ui:8080' }, { name: 'BAD', value: '{{ .Files.Get "x" }}' }], extraArgs: { upstream: '{{ required "x" .Values.y }}' } },
      'dashboards-mcp': { grafana: { url: 'http://{{ .Release.Name }}-grafana.{{ .Release.Namespace }}:3000/api' } },
    });
    expect(findings.map((f) => f.path)).toEqual([
      ['authproxy', 'extraEnv', 1, 'value'],
      ['authproxy', 'extraArgs', 'upstream'],
    ]);
  });
});

describe('one scope for values templates', () => {
  it('lint evaluates values templates in the scope render builds: the same release, chart, fullname and namespace for the same values', () => {
    for (const values of [valuesFor('B', {}), valuesFor('B', { nameOverride: 'x', namespaceOverride: 'tenant' }), valuesFor('A', { fullnameOverride: 'platform' })]) {
      for (const revision of ['A', 'B'] as const) {
        const rendered = tplScope(buildRenderContext(values, { revision, releaseName: 'agentplat', releaseNamespace: 'ns1', apiVersions: [] }));
        expect(tplScope({ ...releaseFacts(values, revision, 'agentplat', 'ns1'), values })).toEqual(rendered);
      }
    }
  });
});

describe('a values template evaluated again (the cut of each text is kept across renders)', () => {
  it('the same text given other values prints the other values', () => {
    const text = 'https://{{ .Values.host }}:{{ .Values.port | default 443 }}';
    expect(evaluateTpl(text, { ...scope, values: { host: 'a.example.com' } })).toBe('https://a.example.com:443');
    expect(evaluateTpl(text, { ...scope, values: { host: 'b.example.com', port: 8443 } })).toBe('https://b.example.com:8443');
  });

  it('an action that fails to evaluate before one that cannot be read is the error, each time the text is evaluated', () => {
    const text = '{{ .Values.missing }} and {{ .Values.x ; }}';
    for (let i = 0; i < 2; i++) expect(() => evaluateTpl(text, { ...scope, values: {} })).toThrow(/no value.*line 1, column 1\)/);
    // With the first action's value, the second one's error is met, again on every evaluation.
    for (let i = 0; i < 2; i++) expect(() => evaluateTpl(text, { ...scope, values: { missing: 'm' } })).toThrow(/unexpected ";".*line 1, column 40\)/);
    expect(() => evaluateTpl('{{ .Values.host', scope)).toThrow(/unclosed action/);
    expect(() => evaluateTpl('{{ .Values.host', scope)).toThrow(/unclosed action/);
  });
});
