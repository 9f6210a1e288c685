// A YAML syntax error is reported where the user must act, by every reader of YAML (values files,
// custom resources, .agentplat.yaml): an unclosed bracket or quote at the character that opened
// it, a line indented under a `key: value` line at that line, once.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/lint/config.ts';
import { UsageError } from '../../src/problems/errors.ts';
import { validateCustomResources } from '../../src/kube-check/validate.ts';
import { parseValuesText } from '../../src/values/source.ts';

/** [line, column, message] of each problem of a values text. */
function valuesErrors(text: string) {
  return parseValuesText(text, 'v.yaml').problems.map((p) => [p.line, p.column, p.message]);
}

describe('YAML syntax errors point at the line where the user must act', () => {
  it('an unclosed `[` is reported at the bracket, not where the file or the map goes on', () => {
    expect(valuesErrors('controller:\n  replicas: 2\n  image: [unclosed\n')).toEqual([[3, 10, 'invalid YAML: the list opened by `[` here is not closed']]);
    expect(valuesErrors('a: 1\nb: [1, 2\nc: 3\nd: 4\n')).toEqual([[2, 4, 'invalid YAML: the list opened by `[` here is not closed']]);
  });

  it('an unclosed `{` is reported at the brace; with a hint to close it', () => {
    const [p] = parseValuesText('ui:\n  nodeSelector: {disk: ssd\n  replicas: 1\n', 'v.yaml').problems;
    expect(p).toMatchObject({ rule: 'values/yaml-syntax', line: 2, column: 17, message: 'invalid YAML: the map opened by `{` here is not closed', excerpt: '  nodeSelector: {disk: ssd' });
    expect(p!.hint).toContain('close it with `}`');
  });

  it('nested unclosed brackets are each reported at their own bracket; a closed inner one is not', () => {
    expect(valuesErrors('a: [1, {x: 2\nb: 2\n')).toEqual([
      [1, 4, 'invalid YAML: the list opened by `[` here is not closed'],
      [1, 8, 'invalid YAML: the map opened by `{` here is not closed'],
    ]);
    expect(valuesErrors('a: [1, {x: 2}\nb: 2\n')).toEqual([[1, 4, 'invalid YAML: the list opened by `[` here is not closed']]);
  });

  it('a list whose next line is not indented is one error at its bracket, not a second one on that line', () => {
    expect(valuesErrors('a: [1,\n2]\nb: 1\n')).toEqual([[1, 4, 'invalid YAML: the list opened by `[` here is not closed']]);
  });

  it('an unclosed quote is reported at the quote', () => {
    expect(valuesErrors('a: "abc\nb: 2\n')).toEqual([[1, 4, 'invalid YAML: the string opened by `"` here is not closed']]);
    expect(valuesErrors("a: 'abc\nb: 2\n")).toEqual([[1, 4, "invalid YAML: the string opened by `'` here is not closed"]]);
  });

  it('`replicas: 2` followed by a deeper `ui: x` is one error, at the deeper line and its key', () => {
    const msg = 'invalid YAML: this line is indented deeper than the line above it, which already has its value';
    expect(valuesErrors('replicas: 2\n   ui: x\n')).toEqual([[2, 4, msg]]);
    expect(valuesErrors('controller:\n  replicas: 2\n    ui: x\nfoo: 1\n')).toEqual([[3, 5, msg]]);
    expect(valuesErrors('l:\n  - 2\n     ui: x\n')).toEqual([[3, 6, msg]]);
    // CRLF line ends put it at the same place.
    expect(valuesErrors('replicas: 2\r\n   ui: x\r\n')).toEqual([[2, 4, msg]]);
  });

  it('a key line without its colon, or two keys on one line, stay where the library found them', () => {
    expect(valuesErrors('foo\n  bar: 1\n')).toEqual([[1, 1, 'invalid YAML: Implicit keys need to be on a single line']]);
    expect(valuesErrors('a: b: c\n')).toEqual([[1, 4, 'invalid YAML: Nested mappings are not allowed in compact mappings']]);
  });

  it('validate reports a custom resource\'s unclosed bracket at the bracket', () => {
    const r = validateCustomResources([{ file: 'agent.yaml', text: 'apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nspec: [unclosed\nmetadata:\n  name: x\n' }]);
    expect(r.problems).toEqual([expect.objectContaining({ rule: 'crd/yaml-syntax', line: 3, column: 7, message: 'invalid YAML: the list opened by `[` here is not closed' })]);
  });

  it('.agentplat.yaml reports an unclosed bracket at the bracket', () => {
    let err: unknown;
    try {
      parseConfig('revision: B\nrules: [values/x\nstrict: true\n', '.agentplat.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('.agentplat.yaml:2:8: invalid YAML: the list opened by `[` here is not closed');
  });
});
