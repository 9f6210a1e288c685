import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { coalesceValues, getPath, joinPath, layerValues, mergeValues, splitPath, type Values } from '../src/values/merge.ts';
import { dataSource, parseValuesText, type ValuesSource } from '../src/values/source.ts';
import { loadUserLayers } from '../src/values/load.ts';

const yamlSource = (text: string, name: string): ValuesSource => {
  const { source, problems } = parseValuesText(text, name);
  expect(problems).toEqual([]);
  return source!;
};
const noStdin = { cwd: '/', readStdin: async () => '' };

describe('layering follows Helm', () => {
  test('maps merge key by key, at every depth', () => {
    expect(mergeValues({ a: { b: 1, c: { d: 1, e: 1 } } }, { a: { c: { e: 2, f: 2 } } })).toEqual({ a: { b: 1, c: { d: 1, e: 2, f: 2 } } });
  });

  test('lists replace, never merge', () => {
    expect(mergeValues({ a: [1, 2, 3] }, { a: [9] })).toEqual({ a: [9] });
  });

  test('a scalar replaces a map and a map replaces a scalar', () => {
    expect(mergeValues({ a: { b: 1 } }, { a: 'x' })).toEqual({ a: 'x' });
    expect(mergeValues({ a: 'x' }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
  });

  test('an explicit null deletes a default key', () => {
    expect(mergeValues({ a: { b: 1, c: 2 } }, { a: { b: null } })).toEqual({ a: { c: 2 } });
  });

  test('a null with no default below it stays null, as helm passes it to the templates', () => {
    expect(mergeValues({}, { a: { b: null, c: { d: null, e: 1 } } })).toEqual({ a: { b: null, c: { d: null, e: 1 } } });
  });

  test("the defaults' own nulls are left out where the user wrote nothing", () => {
    expect(mergeValues({ a: { b: null, c: 1 }, d: null }, {})).toEqual({ a: { c: 1 } });
  });

  test('a null inside a list is kept (lists are values, not layers)', () => {
    expect(mergeValues({}, { a: [null, 1] })).toEqual({ a: [null, 1] });
  });

  test('a null for a key the defaults do not have stays null', () => {
    expect(mergeValues({ a: 1 }, { b: null })).toEqual({ a: 1, b: null });
  });

  test('a null over a null default removes the key, as helm deletes a null wherever the defaults have the key', () => {
    expect(mergeValues({ a: { b: null, c: 1 } }, { a: { b: null } })).toEqual({ a: { c: 1 } });
  });

  test('a null on a key the chart declares and the defaults leave unset is removed, at any depth; other nulls stay', () => {
    const unset = { s: { name: {}, image: { tag: {} } } };
    const user = { s: { name: null, image: { tag: null, other: null }, own: null }, t: null };
    expect(coalesceValues(user, { s: { on: true } }, () => unset)).toEqual({ s: { on: true, image: { other: null }, own: null }, t: null });
    // A declared key below a key the defaults lack altogether.
    expect(coalesceValues({ s: { image: null } }, {}, () => unset)).toEqual({ s: {} });
    // Without the declared keys, as before: the nulls stay.
    expect(coalesceValues(user, { s: { on: true } })).toEqual({ s: { on: true, name: null, image: { tag: null, other: null }, own: null }, t: null });
  });

  test('the later layer wins', () => {
    const layers = [dataSource('d', { a: 1, b: 1 }), dataSource('f1', { a: 2 }), dataSource('f2', { a: 3 })];
    expect(layerValues(layers).values).toEqual({ a: 3, b: 1 });
  });

  test('a __proto__ key merges as a plain key', () => {
    const over = JSON.parse('{"__proto__": {"polluted": 1}}') as Values;
    const out = mergeValues({}, over);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  const tree = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(null, 1, 'x', true), fc.array(fc.integer(), { maxLength: 3 }), tie('map')),
    map: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4 }).map((d) => ({ ...d })),
  })).map as fc.Arbitrary<Values>;

  test('inputs are never mutated', () => {
    fc.assert(
      fc.property(tree, tree, (base, over) => {
        const before = structuredClone([base, over]);
        mergeValues(base, over);
        expect([base, over]).toEqual(before);
      }),
    );
  });

  test('without defaults the user tree is kept as it is, nulls included', () => {
    fc.assert(
      fc.property(tree, (over) => {
        expect(mergeValues({}, over)).toEqual(over);
      }),
    );
  });

  test('every key of the overlay that is not null wins; a null deletes a default that is not null', () => {
    fc.assert(
      fc.property(tree, tree, (base, over) => {
        const out = mergeValues(base, over);
        for (const [k, v] of Object.entries(over)) {
          if (v === null && base[k] !== undefined && base[k] !== null) expect(Object.keys(out)).not.toContain(k);
          else if (v !== null && (typeof v !== 'object' || Array.isArray(v))) expect(out[k]).toEqual(v);
        }
      }),
    );
  });

  test('files merge among themselves before the defaults: null in one file, a map in a later one keeps the default fields', () => {
    const defaults = { ...dataSource('defaults', { a: { x: 0, y: 2 } }), chartDefaults: true };
    const layers = [defaults, dataSource('f1', { a: null }), dataSource('f2', { a: { x: 1 } })];
    expect(layerValues(layers).values).toEqual({ a: { x: 1, y: 2 } });
  });

  test('the defaults coalesced under nothing lose their nulls; a default map with no null below it is the defaults\' own, not a copy, and the defaults are left as they were', () => {
    const data = { a: { x: 1, deep: { y: [1, null], z: 'z' } }, b: { x: null, keep: { q: 1 } }, c: null, d: 3 };
    const before = structuredClone(data);
    const values = layerValues([{ ...dataSource('defaults', data), chartDefaults: true }]).values;
    expect(values).toEqual({ a: { x: 1, deep: { y: [1, null], z: 'z' } }, b: { keep: { q: 1 } }, d: 3 });
    expect(values.a).toBe(data.a);
    expect((values.b as Values).keep).toBe(data.b.keep);
    expect(values.b).not.toBe(data.b);
    expect(data).toEqual(before);
  });
});

describe('locate points at the layer that last wrote a key', () => {
  test('file, line and column of the last file that wrote it', async () => {
    const defaults = dataSource('defaults (revision B)', { controller: { replicas: 1, image: 'x' } });
    const prod = yamlSource('controller:\n  replicas: 2\n', 'prod.yaml');
    const overrides = yamlSource('# override\ncontroller:\n    replicas: 3\n', 'overrides.yaml');
    const layered = layerValues([defaults, prod, overrides]);
    expect(layered.values).toEqual({ controller: { replicas: 3, image: 'x' } });
    expect(layered.locate(['controller', 'replicas'])).toEqual({ file: 'overrides.yaml', line: 3, column: 5, excerpt: '    replicas: 3' });
    expect(layered.locate(['controller', 'image'])).toEqual({ file: 'defaults (revision B)' });
    expect(layered.originOf(['controller', 'replicas'])?.name).toBe('overrides.yaml');
  });

  test('a key below what a file wrote points at the deepest part it did write (here the list item)', () => {
    const layered = layerValues([yamlSource('tools:\n  list: [a, b]\n', 'v.yaml')]);
    expect(layered.locate(['tools', 'list', 1, 'name'])).toMatchObject({ file: 'v.yaml', line: 2, column: 13 });
  });

  test('a key set by a flag points at the flag number and the key column', async () => {
    const { sources, problems } = await loadUserLayers({ set: ['a=1', 'controller.image=x,controller.replicas=5'] }, noStdin);
    expect(problems).toEqual([]);
    const layered = layerValues([yamlSource('controller:\n  replicas: 2\n', 'prod.yaml'), ...sources]);
    expect(layered.values).toEqual({ a: 1, controller: { replicas: 5, image: 'x' } });
    expect(layered.locate(['controller', 'replicas'])).toEqual({ file: '--set #2', line: 1, column: 20, excerpt: 'controller.image=x,controller.replicas=5', origin: '--set' });
    expect(layered.locate(['a'])).toMatchObject({ file: '--set #1', column: 1 });
  });

  test('a flag that deletes a key with null still leads back to itself', async () => {
    const { sources } = await loadUserLayers({ set: ['controller.image=null'] }, noStdin);
    const defaults = { ...yamlSource('controller:\n  image: x\n  replicas: 2\n', 'v.yaml'), chartDefaults: true };
    const layered = layerValues([defaults, ...sources]);
    expect(layered.values).toEqual({ controller: { replicas: 2 } });
    expect(layered.locate(['controller', 'image'])).toMatchObject({ file: '--set #1', column: 1 });
  });
});

describe('dotted paths', () => {
  test.each([
    { text: 'a.b[0].c', path: ['a', 'b', 0, 'c'] },
    { text: 'a[1][2]', path: ['a', 1, 2] },
    { text: 'podAnnotations.prometheus\\.io/scrape', path: ['podAnnotations', 'prometheus.io/scrape'] },
    { text: 'a\\[0]', path: ['a[0]'] },
    { text: '', path: [] },
    { text: 'controller.image.tag', path: ['controller', 'image', 'tag'] },
  ])('$text <-> $path', ({ text, path }) => {
    expect(splitPath(text)).toEqual(path);
    expect(joinPath(path)).toBe(text);
  });

  test('joinPath and splitPath are inverses for non-empty keys', () => {
    const seg = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.nat(99));
    fc.assert(
      fc.property(fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), fc.array(seg, { maxLength: 5 })), ([first, rest]) => {
        const path = [first, ...rest];
        expect(splitPath(joinPath(path))).toEqual(path);
      }),
    );
  });

  test('a path of dotted names alone splits as the full reading splits it (an index at its end takes that reading): empty names are dropped alike', () => {
    const dotted = fc.array(fc.constantFrom('a', 'b', '.', 'x1'), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(dotted, (text) => {
        expect(splitPath(text)).toEqual(splitPath(`${text}[0]`).slice(0, -1));
      }),
    );
  });

  test('getPath reads own keys only', () => {
    expect(getPath({ a: { b: 1 } }, ['a', 'b'])).toBe(1);
    expect(getPath({ a: {} }, ['a', 'constructor'])).toBeUndefined();
    expect(getPath({ a: [5] }, ['a', 0])).toBe(5);
  });
});
