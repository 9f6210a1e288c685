// Integers past 2^53 from --set (helm keeps an int64; a JavaScript number would change the
// digits): the set parser gives a BigInt, and layering, the schema check, the YAML and JSON
// writers and the checksum keep its exact digits (issue 27, item 4).
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { bigIntsAsNumbers, hasBigInt, jsonText } from '../src/values/big-integers.ts';
import { applySetArgument } from '../src/values/set-parser.ts';
import { layerValues, type Values } from '../src/values/merge.ts';
import { dataSource } from '../src/values/source.ts';
import { emitYaml } from '../src/yaml/emit.ts';
import { toJson } from '../src/render/manifests.ts';
import { checksum } from '../src/model/checksum.ts';
import { checkSchema } from '../src/lint/schema.ts';
import type { RenderedDoc } from '../src/model/objects.ts';

const BIG = 9007199254740993n;
const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

describe('int64 values past 2^53', () => {
  test('a --set int64 survives layering over a file as the same BigInt', () => {
    const flag: Values = {};
    applySetArgument(flag, `a.b=${BIG},a.d.e=${MIN}`, 'set');
    const file = dataSource('f.yaml', { a: { b: 1, c: 2, d: { f: 3 } } });
    const { values } = layerValues([file, dataSource('--set', flag)]);
    expect(values).toStrictEqual({ a: { b: BIG, c: 2, d: { f: 3, e: MIN } } });
  });

  test('the YAML writer prints the exact digits as an integer', () => {
    const text = emitYaml({ a: BIG, l: [MAX, MIN] });
    expect(text).toBe('a: 9007199254740993\nl:\n  - 9223372036854775807\n  - -9223372036854775808\n');
    expect(parse(text, { intAsBigInt: true })).toStrictEqual({ a: BIG, l: [MAX, MIN] });
  });

  test('JSON text holds the exact digits as a number, in -o json and otherwise as JSON.stringify', () => {
    expect(jsonText({ a: BIG, l: [MIN, 'x'] })).toBe('{"a":9007199254740993,"l":[-9223372036854775808,"x"]}');
    expect(jsonText({ a: [MAX] }, 2)).toBe('{\n  "a": [\n    9223372036854775807\n  ]\n}');
    // A string that only looks like a number stays a string; data without a BigInt is JSON.stringify's.
    const plain = { s: '9007199254740993', n: 1.5, u: undefined, d: [null] };
    expect(jsonText({ ...plain, b: BIG })).toBe('{"s":"9007199254740993","n":1.5,"d":[null],"b":9007199254740993}');
    expect(jsonText(plain, 2)).toBe(JSON.stringify(plain, null, 2));
    const doc = { source: 'x', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { securityContext: { runAsUser: BIG } } } } as unknown as RenderedDoc;
    expect(toJson([doc])).toContain('"runAsUser": 9007199254740993\n');
  });

  test('the checksum hashes the exact digits', () => {
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    expect(checksum({ a: BIG })).toBe(sha('{"a":9007199254740993}'));
    expect(checksum({ a: 1 })).toBe(sha('{"a":1}'));
  });

  test('the schema sees an int64 as an integer (the int64 maximum too) and bounds still hold', () => {
    expect(hasBigInt({ a: [{ b: BIG }] })).toBe(true);
    expect(hasBigInt({ a: [{ b: 1 }] })).toBe(false);
    const typed = bigIntsAsNumbers({ a: MAX, b: MIN }) as { a: number; b: number };
    expect(typed.a).toBeLessThan(2 ** 63);
    expect(Number.isInteger(typed.a)).toBe(true);
    expect(typed.b).toBe(-(2 ** 63));
    expect(checkSchema('B', { controller: { podSecurityContext: { runAsUser: MAX, fsGroup: MIN } } })).toEqual([]);
    const [tooBig] = checkSchema('B', { controller: { replicas: BIG } });
    expect(tooBig?.message).toMatch(/`controller\.replicas` must be at most 2147483647 .*found 9007199254740993/);
    const [notString] = checkSchema('B', { controller: { env: [{ name: 'X', value: BIG }] } });
    expect(notString?.message).toBe('`controller.env[0].value` must be a string, found 9007199254740993');
  });
});
