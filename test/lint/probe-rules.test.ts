// probe-replacement (values document 2.3, 2.6): a probe override replaces the default entirely,
// so without a handler (httpGet, exec, tcpSocket or grpc) the API server would reject it.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';

const lint = (yaml: string, revision: 'A' | 'B' = 'B') =>
  lintValues({ revision, layers: [parseValuesText(yaml, 'v.yaml').source!] }).problems.filter((p) => p.rule === 'values/probe-handler');

describe('values/probe-handler: a probe override needs exactly one handler', () => {
  for (const component of ['controller', 'ui'] as const) {
    for (const probe of ['readinessProbe', 'startupProbe'] as const) {
      it(`${component}.${probe} without a handler is an error (the default's httpGet does not carry over)`, () => {
        const hits = lint(`${component}:\n  ${probe}:\n    periodSeconds: 10\n`);
        expect(hits).toHaveLength(1);
        expect(hits[0]).toMatchObject({ severity: 'error', path: `${component}.${probe}`, file: 'v.yaml', line: 2, column: 3 });
        expect(hits[0]!.message).toMatch(/replaces the default entirely/);
      });
    }
  }
  it('an override with its own handler is fine, whatever the handler', () => {
    for (const handler of ['httpGet: {path: /ready, port: http}', 'exec: {command: [true]}', 'tcpSocket: {port: 8083}', 'grpc: {port: 8083}']) {
      expect(lint(`controller:\n  readinessProbe:\n    ${handler}\n    periodSeconds: 5\n`, 'A'), handler).toEqual([]);
    }
  });
  it('two handlers are an error', () => {
    expect(lint('ui:\n  startupProbe:\n    exec: {command: [true]}\n    tcpSocket: {port: 8080}\n').map((p) => p.message)).toEqual([expect.stringMatching(/2 handlers \(exec, tcpSocket\)/)]);
  });
  it('the defaults and an empty override (which keeps the default) are fine', () => {
    expect(lintValues({ revision: 'B', layers: [] }).problems.filter((p) => p.rule === 'values/probe-handler')).toEqual([]);
    expect(lint('controller:\n  readinessProbe: {}\n')).toEqual([]);
  });
});
