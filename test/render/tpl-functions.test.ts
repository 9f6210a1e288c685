// The functions of the values template evaluator (src/model/tpl-functions.ts), each held to what
// Helm prints for the same expression (fixtures/tpl/: measured with helm 4.3.1, see its README),
// and the functions refused or missing named in the error.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { evaluateTpl, TplError, type TplScope } from '../../src/model/tpl.ts';
import { FUNCTIONS, REFUSED_FUNCTIONS } from '../../src/model/tpl-functions.ts';
import { expandExtraObjects } from '../../src/model/extra-objects.ts';

const values = parse(readFileSync('fixtures/tpl/helm-values.yaml', 'utf8')) as Record<string, unknown>;
const scope: TplScope = { release: { name: 'prod', namespace: 'tenant' }, chart: { name: 'agentplat', version: '0.11.0' }, values, fullname: 'prod', namespace: 'tenant' };
const cases = JSON.parse(readFileSync('fixtures/tpl/helm-measured.json', 'utf8')) as [string, string][];

function error(text: string): TplError {
  try {
    evaluateTpl(text, scope);
  } catch (err) {
    if (err instanceof TplError) return err;
    throw err;
  }
  throw new Error(`${text} evaluated`);
}

describe('every function agrees with helm template on the measured expressions', () => {
  it.each(cases)('%s', (expr, helm) => {
    expect(evaluateTpl(`{{ (${expr}) | toString }}`, scope)).toBe(helm);
  });

  it('the measured expressions use every function of the table (each has a helm-measured test)', () => {
    const used = new Set(cases.flatMap(([e]) => e.match(/[A-Za-z_]\w*/g) ?? []));
    // Functions measured nowhere above: their behaviour is plain (an alias or a one-line library call), pinned below.
    const pinnedBelow = ['fail', 'toRawJson', 'fromYamlArray', 'println', 'index', 'le', 'gt', 'untitle', 'toStrings', 'regexFindAll', 'regexReplaceAllLiteral', 'b32enc', 'sha512sum', 'adler32sum', 'int64', 'floor', 'ceil', 'round', 'untilStep', 'tuple', 'push', 'concat', 'slice', 'set', 'unset', 'values', 'pluck', 'deepCopy', 'typeIs', 'typeOf', 'split'];
    const missing = Object.keys(FUNCTIONS).filter((f) => !used.has(f) && !pinnedBelow.includes(f));
    expect(missing).toEqual([]);
  });

  it.each([
    ['index (dict "a" (list 1 2)) "a" 1', '2'],
    ['le 2 2', 'true'],
    ['gt 1 2', 'false'],
    ['untitle "Hello World"', 'hello world'],
    ['toStrings (list 1 "a") | join "+"', '1+a'],
    ['regexFindAll "[0-9]" "a1b2c3" 2 | join ","', '1,2'],
    ['regexReplaceAllLiteral "a" "banana" "$1"', 'b$1n$1n$1'],
    ['b32enc "hi"', 'NBUQ===='],
    ['adler32sum "abc"', '38600999'],
    ['int64 "12"', '12'],
    ['floor 1.7', '1'],
    ['ceil 1.2', '2'],
    ['round 3.14159 2', '3.14'],
    ['untilStep 0 10 4 | toJson', '[0,4,8]'],
    ['tuple 1 2 | toJson', '[1,2]'],
    ['push (list 1) 2 | toJson', '[1,2]'],
    ['concat (list 1) (list 2 3) | toJson', '[1,2,3]'],
    ['slice (list 1 2 3 4) 1 3 | toJson', '[2,3]'],
    ['set (dict "a" 1) "b" 2 | toJson', '{"a":1,"b":2}'],
    ['unset (dict "a" 1 "b" 2) "a" | toJson', '{"b":2}'],
    ['values (dict "b" 2 "a" 1) | toJson', '[1,2]'],
    ['pluck "a" (dict "a" 1) (dict "b" 2) (dict "a" 3) | toJson', '[1,3]'],
    ['deepCopy (dict "a" (list 1)) | toJson', '{"a":[1]}'],
    ['typeIs "string" "x"', 'true'],
    ['typeOf (list 1)', '[]interface {}'],
    ['dict "a" 1 "b" | toJson', '{"a":1,"b":""}'],
    ['split "," "a,b" | toJson', '{"_0":"a","_1":"b"}'],
    ['toRawJson "<a>"', '"<a>"'],
    ['fromYamlArray "[1, a]" | toJson', '[1,"a"]'],
    ['println "a" "b"', 'a b\n'],
  ])('%s → %j', (expr, want) => {
    expect(evaluateTpl(`{{ (${expr}) | toString }}`, scope)).toBe(want);
  });
});

describe('errors', () => {
  it('a function agentplat does not have is named in the error', () => {
    expect(error('{{ frobnicate .Values.x }}').message).toMatch(/unsupported function "frobnicate"/);
  });

  it.each(Object.keys(REFUSED_FUNCTIONS))('%s is refused with its reason (output stays deterministic)', (name) => {
    expect(error(`{{ ${name} }}`).message).toMatch(new RegExp(`function "${name}" is not supported: .*(clock|random|cluster|DNS|environment)`));
  });

  it('required and fail stop with the message the chart author wrote', () => {
    expect(error('{{ required "set .Values.host" .Values.host }}').reason).toBe('set .Values.host');
    expect(error('{{ fail "no" }}').reason).toBe('no');
  });

  it('actions (if, range, with) are named as unsupported rather than read as functions', () => {
    expect(error('{{ if .Values.x }}a{{ end }}').message).toMatch(/"if" actions are not supported/);
  });

  it('an action whose condition calls a function is named as the action, not as a misplaced argument', () => {
    expect(error('{{ if eq .Release.Namespace "prod" }}yes{{ end }}').message).toMatch(/"if" actions are not supported/);
    expect(error('{{ with default "x" .Values.nothere }}{{ . }}{{ end }}').message).toMatch(/"with" actions are not supported/);
    expect(error('{{ range until 3 }}x{{ end }}').message).toMatch(/"range" actions are not supported/);
  });

  it('tpl and include that loop end with an error, not a stack overflow', () => {
    const looping: TplScope = { ...scope, values: { ...values, self: '{{ tpl .Values.self . }}' } };
    expect(() => evaluateTpl('{{ tpl .Values.self . }}', looping)).toThrow(/nest more than/);
  });
});

describe('extraObjects written the Helm way', () => {
  it('renders a map entry with toYaml/nindent, b64enc, printf, include and tpl', () => {
    const entry = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: {{ printf "%s-creds" (include "agentplat.fullname" .) }}',
      '  namespace: {{ .Release.Namespace | quote }}',
      '  labels: {{- toYaml .Values.labels | nindent 4 }}',
      'data:',
      '  token: {{ "s3cr3t" | b64enc }}',
      '  url: {{ tpl .Values.tplText . | b64enc }}',
    ].join('\n');
    const { objects, problems } = expandExtraObjects([entry], scope);
    expect(problems).toEqual([]);
    expect(objects[0]!.object).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'prod-creds', namespace: 'tenant', labels: { a: 'one', b: '2', c: { y: [1, 'x'], z: true } } },
      data: { token: 'czNjcjN0', url: Buffer.from('prod-ghcr.io').toString('base64') },
    });
  });
});
