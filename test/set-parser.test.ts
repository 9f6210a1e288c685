import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  applySetArgument,
  assignPath,
  inferType,
  maskSetArgument,
  MAX_SET_DEPTH,
  MAX_SET_INDEX,
  parseSetFileArgument,
  SetSyntaxError,
  type SetKind,
} from '../src/values/set-parser.ts';
import type { Values } from '../src/values/merge.ts';

function apply(arg: string, kind: SetKind = 'set', target: Values = {}): Values {
  applySetArgument(target, arg, kind);
  return target;
}

function syntaxError(fn: () => unknown): SetSyntaxError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SetSyntaxError) return err;
    throw err;
  }
  throw new Error('expected a SetSyntaxError');
}

describe('--set: paths', () => {
  test.each([
    { name: 'a dotted path builds nested maps', arg: 'a.b.c=v', want: { a: { b: { c: 'v' } } } },
    { name: 'an escaped dot stays inside the key', arg: 'a\\.b=v', want: { 'a.b': 'v' } },
    { name: 'an annotation key with an escaped dot and a slash', arg: 'podAnnotations.prometheus\\.io/scrape=true', want: { podAnnotations: { 'prometheus.io/scrape': true } } },
    { name: 'a key with dashes', arg: 'agentplat-tools.enabled=false', want: { 'agentplat-tools': { enabled: false } } },
    { name: 'a list index then a key', arg: 'a[0].b=v', want: { a: [{ b: 'v' }] } },
    { name: 'a list index grows the list and fills gaps with null', arg: 'a[2]=v', want: { a: [null, null, 'v'] } },
    { name: 'nested list indices', arg: 'a[1][0]=v', want: { a: [null, ['v']] } },
    { name: 'comma-separated pairs', arg: 'a=1,b=2', want: { a: 1, b: 2 } },
    { name: 'an escaped comma stays in the value', arg: 'a=x\\,y', want: { a: 'x,y' } },
    { name: 'an "=" inside a value is kept', arg: 'a=b=c', want: { a: 'b=c' } },
    { name: 'an empty value is an empty string', arg: 'a=', want: { a: '' } },
    { name: 'a trailing comma is allowed', arg: 'a=1,', want: { a: 1 } },
    { name: 'pairs write into the same map', arg: 'a.b=1,a.c=2', want: { a: { b: 1, c: 2 } } },
    { name: 'a later pair overrides an earlier one', arg: 'a=1,a=2', want: { a: 2 } },
    { name: 'a later scalar replaces a map', arg: 'a.b=1,a=2', want: { a: 2 } },
    { name: 'an index path and a later key of the same item merge', arg: 'a[0].b=1,a[0].c=2', want: { a: [{ b: 1, c: 2 }] } },
    { name: 'a key named __proto__ is a plain key', arg: '__proto__.polluted=yes', want: JSON.parse('{"__proto__":{"polluted":"yes"}}') },
  ])('$name: $arg', ({ arg, want }) => {
    expect(apply(arg)).toEqual(want);
  });

  test('a __proto__ key never changes the prototype of any object', () => {
    const target = apply('__proto__.polluted=yes');
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('assignments report the 1-based column of each key', () => {
    const got = applySetArgument({}, 'a.b=1,c[0]=x,d\\.e={1,2}', 'set');
    expect(got).toEqual([
      { path: ['a', 'b'], column: 1 },
      { path: ['c', 0], column: 7 },
      { path: ['d.e'], column: 14 },
    ]);
  });

  test('flags applied in order to one tree: a later flag wins, others merge', () => {
    const target: Values = {};
    applySetArgument(target, 'a.b=1,a.c=2', 'set');
    applySetArgument(target, 'a.b=3', 'set');
    expect(target).toEqual({ a: { b: 3, c: 2 } });
  });
});

describe('--set: typing follows Helm (bools, null, integers only)', () => {
  test.each([
    ['true', true],
    ['FALSE', false],
    ['True', true],
    ['null', null],
    ['NULL', null],
    ['0', 0],
    ['42', 42],
    ['-5', -5],
    ['+7', 7],
    ['-007', -7],
    ['007', '007'],
    ['00', '00'],
    ['1.5', '1.5'],
    ['0x1', '0x1'],
    ['1e3', '1e3'],
    ['9007199254740991', 9007199254740991],
    // Past int64 the text stays a string, as in helm.
    ['9223372036854775808', '9223372036854775808'],
    ['-9223372036854775809', '-9223372036854775809'],
    ['99999999999999999999', '99999999999999999999'],
    ['yes', 'yes'],
    [' 1', ' 1'],
    ['', ''],
  ])('%j becomes %j', (text, want) => {
    expect(inferType(text)).toStrictEqual(want);
    expect(apply(`k=${text}`)).toStrictEqual({ k: want });
  });

  test.each(['9007199254740992', '9007199254740993', '-9007199254740992', '9223372036854775807', '-9223372036854775808', '+9007199254740993'])(
    'an int64 past 2^53 (%s) stays an integer with its exact digits (a BigInt), as helm keeps an int64',
    (text) => {
      expect(inferType(text)).toStrictEqual(BigInt(text));
      expect(apply(`k=${text}`)).toStrictEqual({ k: BigInt(text) });
      expect(apply(`k={1,${text}}`)).toStrictEqual({ k: [1, BigInt(text)] });
      expect(apply(`k=${text}`, 'set-string')).toStrictEqual({ k: text });
    },
  );

  test('an explicit null is kept in the layer so the merge can delete the key', () => {
    expect(apply('a.b=null')).toStrictEqual({ a: { b: null } });
  });
});

describe('--set: brace lists', () => {
  test.each([
    { arg: 'a={x,y}', want: { a: ['x', 'y'] } },
    { arg: 'a={1,true,z}', want: { a: [1, true, 'z'] } },
    { arg: 'a={}', want: { a: [''] } },
    { arg: 'a={x\\,y,z}', want: { a: ['x,y', 'z'] } },
    { arg: 'a={x},b=2', want: { a: ['x'], b: 2 } },
    { arg: 'a[1]={x}', want: { a: [null, ['x']] } },
    { arg: 'a={x,}', want: { a: ['x', ''] } },
  ])('$arg is a list', ({ arg, want }) => {
    expect(apply(arg)).toStrictEqual(want);
  });

  test('--set-string keeps every item a string', () => {
    expect(apply('a={1,true}', 'set-string')).toStrictEqual({ a: ['1', 'true'] });
  });
});

describe('--set-string', () => {
  test.each(['true', 'null', '42', '1.5', ''])('%j stays a string', (v) => {
    expect(apply(`a.b=${v}`, 'set-string')).toStrictEqual({ a: { b: v } });
  });
});

describe('--set-json', () => {
  test.each([
    { arg: 'a={"b":1}', want: { a: { b: 1 } } },
    { arg: 'a.b=[1,"x",null]', want: { a: { b: [1, 'x', null] } } },
    { arg: 'a="x,y",b=2', want: { a: 'x,y', b: 2 } },
    { arg: 'a={"b":"}"},c=true', want: { a: { b: '}' }, c: true } },
    { arg: 'a=1.5', want: { a: 1.5 } },
    { arg: 'a=null', want: { a: null } },
    { arg: 'a=', want: { a: null } },
    { arg: 'a= {"b":1} ,c=2', want: { a: { b: 1 }, c: 2 } },
    { arg: 'a[1]={"x":1}', want: { a: [null, { x: 1 }] } },
    { arg: 'a={"__proto__":{"p":1}}', want: { a: JSON.parse('{"__proto__":{"p":1}}') } },
  ])('$arg', ({ arg, want }) => {
    expect(apply(arg, 'set-json')).toStrictEqual(want);
  });
});

describe('--set-file arguments', () => {
  test('reads key and file path in --set grammar: "\\," is a comma in a path, "," separates assignments', () => {
    expect(parseSetFileArgument('config.script\\.sh=dir/a\\,b.sh,x=y.txt')).toEqual([
      { path: ['config', 'script.sh'], columns: [1, 8], value: 'dir/a,b.sh' },
      { path: ['x'], columns: [31], value: 'y.txt' },
    ]);
  });
  test('a missing file path is an error at the key', () => {
    const e = syntaxError(() => parseSetFileArgument('a.b='));
    expect([e.message, e.column]).toEqual(['no file path for "a.b"', 1]);
  });
});

describe('--set: errors carry a message and the 1-based column', () => {
  test.each([
    { name: 'missing "="', arg: 'a.b', kind: 'set', message: 'key "a.b" has no value; expected "=" at the end', column: 4 },
    { name: 'missing "=" before a comma', arg: 'a=1,b,c=2', kind: 'set', message: 'key "b" has no value; expected "=" before ","', column: 6 },
    { name: 'empty key', arg: '=1', kind: 'set', message: 'empty key before "="', column: 1 },
    { name: 'empty key after a comma', arg: 'a=1,=2', kind: 'set', message: 'empty key before "="', column: 5 },
    { name: 'empty assignment', arg: 'a=1,,b=2', kind: 'set', message: 'empty assignment between commas', column: 5 },
    { name: 'empty key segment', arg: 'a..b=1', kind: 'set', message: 'empty key segment', column: 3 },
    { name: 'trailing dot', arg: 'a.=1', kind: 'set', message: 'empty key segment', column: 3 },
    { name: 'index without a key', arg: '[0]=1', kind: 'set', message: 'a list index needs a key before it; the top level is a map', column: 1 },
    { name: 'non-numeric index', arg: 'a[x]=1', kind: 'set', message: 'list index "x" is not a number', column: 3 },
    { name: 'negative index', arg: 'a[-1]=1', kind: 'set', message: 'list index -1 is negative', column: 3 },
    { name: 'index above the limit', arg: 'a[99999999]=1', kind: 'set', message: `list index 99999999 is larger than the limit of ${MAX_SET_INDEX}`, column: 3 },
    { name: 'a 400-digit index', arg: `a[${'9'.repeat(400)}]=1`, kind: 'set', message: `list index ${'9'.repeat(400)} is larger than the limit of ${MAX_SET_INDEX}`, column: 3 },
    { name: 'unclosed index', arg: 'a[0=1', kind: 'set', message: '"[" is not closed with "]"', column: 2 },
    { name: 'text after an index', arg: 'a[0]b=1', kind: 'set', message: 'unexpected "b" after a list index; expected ".", "[" or "="', column: 5 },
    { name: 'index without a value', arg: 'a[0]', kind: 'set', message: 'key "a[0]" has no value; expected "=" at the end', column: 5 },
    { name: 'unterminated "{"', arg: 'a={x,y', kind: 'set', message: '"{" is not closed with "}"', column: 3 },
    { name: 'text after "}"', arg: 'a={x}y', kind: 'set', message: 'unexpected "y" after "}"; expected "," or the end', column: 6 },
    { name: 'trailing backslash in a key', arg: 'a\\', kind: 'set', message: 'key "a" has no value; expected "=" at the end', column: 3 },
    { name: 'empty argument', arg: '', kind: 'set', message: 'empty argument', column: 1 },
    { name: 'bad JSON', arg: 'a=1,b={"x":}', kind: 'set-json', message: 'invalid JSON value', column: 7 },
    { name: 'bare word is not JSON', arg: 'a=hello', kind: 'set-json', message: 'invalid JSON value', column: 3 },
    { name: 'unterminated JSON object', arg: 'a={"x":1', kind: 'set-json', message: '"{" is not closed with "}"', column: 3 },
    { name: 'unterminated JSON string', arg: 'a="abc', kind: 'set-json', message: 'the JSON string is not closed with \'"\'', column: 3 },
    { name: 'text after a JSON value', arg: 'a={"x":1}y=2', kind: 'set-json', message: 'unexpected "y" after the JSON value; expected "," or the end', column: 10 },
    { name: 'map key then list index', arg: 'a.b=1,a[0]=2', kind: 'set', message: 'cannot set a[0]: a already holds a map, not a list', column: 9 },
    { name: 'list then map key', arg: 'a[0]=1,a.b=2', kind: 'set', message: 'cannot set a.b: a already holds a list, not a map', column: 10 },
    { name: 'scalar then map key', arg: 'a=1,a.b=2', kind: 'set', message: 'cannot set a.b: a already holds an integer, not a map', column: 7 },
    { name: 'too deep', arg: `${Array.from({ length: MAX_SET_DEPTH + 1 }, () => 'k').join('.')}=1`, kind: 'set', message: `the key nests deeper than ${MAX_SET_DEPTH} levels`, column: 2 * MAX_SET_DEPTH + 1 },
    { name: 'too deep by indices', arg: `a${'[0]'.repeat(MAX_SET_DEPTH)}=1`, kind: 'set', message: `the key nests deeper than ${MAX_SET_DEPTH} levels`, column: 3 * MAX_SET_DEPTH },
  ] as const)('$name: $arg', ({ arg, kind, message, column }) => {
    const e = syntaxError(() => apply(arg, kind));
    expect({ message: e.message, column: e.column }).toEqual({ message, column });
  });

  test('every syntax error carries a hint or a specific message, never a stack', () => {
    const e = syntaxError(() => apply('a.b'));
    expect(e.hint).toMatch(/key=value/);
  });

  test('a syntax error leaves the target untouched', () => {
    const target: Values = { keep: 1 };
    syntaxError(() => applySetArgument(target, 'a=1,b[x]=2', 'set'));
    expect(target).toEqual({ keep: 1 });
  });

  test('a list at the index limit is allowed; one past it is not', () => {
    expect((apply(`a[${MAX_SET_INDEX}]=1`).a as unknown[]).length).toBe(MAX_SET_INDEX + 1);
    expect(syntaxError(() => apply(`a[${MAX_SET_INDEX + 1}]=1`)).column).toBe(3);
  });

  test('a null written earlier may be replaced by a map', () => {
    expect(apply('a=null,a.b=1')).toEqual({ a: { b: 1 } });
  });
});

describe('assignPath', () => {
  test('points a conflict at the column of the failing segment', () => {
    const e = syntaxError(() => assignPath({ a: 'x' }, ['a', 'b'], 1, [4, 6]));
    expect([e.message, e.column]).toEqual(['cannot set a.b: a already holds a string, not a map', 6]);
  });
});

describe('masking secret values for excerpts: the fields the values model marks secret, never a mistake of the user', () => {
  test.each([
    { kind: 'set', arg: 'providers.providerB.apiKey=s3cr3t,replicas=2', want: 'providers.providerB.apiKey=********,replicas=2' },
    { kind: 'set', arg: 'auth.token=visible,controller.maxTokens=9', want: 'auth.token=visible,controller.maxTokens=9' },
    { kind: 'set', arg: 'a={x,y},b=c\\,d', want: 'a={x,y},b=c\\,d' },
    { kind: 'set-json', arg: 'authproxy={"config":{"clientSecret":"x"}},b=1', want: 'authproxy=********,b=1' },
    { kind: 'set-json', arg: 'controller={"pw":"x"},b=1', want: 'controller={"pw":"x"},b=1' },
    { kind: 'set-string', arg: 'authproxy.config.clientSecret=abc,providers.providerA.apiKey=k', want: 'authproxy.config.clientSecret=********,providers.providerA.apiKey=********' },
    { kind: 'set', arg: 'database.rdb.url=hunter2,y[x]=z', want: 'database.rdb.url=********,y[x]=z' },
    { kind: 'set', arg: 'controller..replicas=2', want: 'controller..replicas=2' },
    { kind: 'set', arg: 'controller..replicas=2,database.rdb.url=pg://u:p@h,x=1', want: 'controller..replicas=2,database.rdb.url=********,x=1' },
    { kind: 'set', arg: 'database.rdb.url=abc\\', want: 'database.rdb.url=********' },
    { kind: 'set-json', arg: 'database.rdb.url={"unterminated', want: 'database.rdb.url=********' },
    { kind: 'set', arg: 'a={unterminated', want: 'a={unterminated' },
  ] as const)('$arg', ({ kind, arg, want }) => {
    expect(maskSetArgument(arg, kind).text).toBe(want);
  });
});

describe('properties', () => {
  const kinds = fc.constantFrom<SetKind>('set', 'set-string', 'set-json');

  test('any argument either applies or throws SetSyntaxError, nothing else', () => {
    const alphabet = fc.constantFrom(...'ab.[]{}=,\\0123-"x: '.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }).map((a) => a.join('')), kinds, (arg, kind) => {
        try {
          applySetArgument({}, arg, kind);
        } catch (err) {
          expect(err).toBeInstanceOf(SetSyntaxError);
          const e = err as SetSyntaxError;
          expect(e.column).toBeGreaterThanOrEqual(1);
          expect(e.column).toBeLessThanOrEqual(arg.length + 1);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('a mask never reveals the length of the secret: secrets of any length give the same excerpt, and columns past them map to the same place', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{1,30}$/), fc.stringMatching(/^[a-z0-9]{1,30}$/), kinds, (a, b, kind) => {
        const value = (s: string) => (kind === 'set-json' ? JSON.stringify(s) : s);
        const arg = (s: string) => `providers.providerA.apiKey=${value(s)},x=1`;
        const [ma, mb] = [maskSetArgument(arg(a), kind), maskSetArgument(arg(b), kind)];
        expect(ma.text).toBe(mb.text);
        expect(ma.column(arg(a).length)).toBe(mb.column(arg(b).length));
        expect(ma.text.slice(ma.column(arg(a).length) - 1)).toBe('1');
      }),
    );
  });

  // Formats a flat map of string values as one --set-string argument, escaping what the grammar needs.
  const escapeKey = (k: string) => k.replace(/[\\.[=,]/g, (c) => `\\${c}`);
  const escapeValue = (v: string) => v.replace(/[\\,]/g, (c) => `\\${c}`);

  test('--set-string parses back what was formatted with escapes', () => {
    const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__');
    const value = fc.string({ maxLength: 8 }).filter((v) => !v.startsWith('{'));
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), (dict) => {
        const arg = Object.entries(dict)
          .map(([k, v]) => `${escapeKey(k)}=${escapeValue(v)}`)
          .join(',');
        expect(apply(arg, 'set-string')).toStrictEqual({ ...dict });
      }),
    );
  });
});
