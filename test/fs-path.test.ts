// Issue 7, validate: the path shortcuts give exactly what node:path gives.
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinEntry, resolveFrom } from '../src/fs-path.ts';
import { fcParams, seedTitle } from './hardening/_seed.ts';
import { breathing } from './helpers/breathe.ts';

const segment = fc.constantFrom('', '.', '..', 'a', 'b.yaml', '.hidden', '...', 'x y');
const path = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 5 }), fc.boolean()).map(([abs, segs, trailing]) => `${abs ? '/' : ''}${segs.join('/')}${trailing ? '/' : ''}`);

describe('paths without normalisation where there is nothing to normalise', () => {
  it(`joinEntry(dir, name) is path.join(dir, name) (${seedTitle(41, 20_000)})`, async () => {
    await fc.assert(fc.asyncProperty(path, segment, breathing((dir, name) => {
        expect(joinEntry(dir, name)).toBe(join(dir, name));
      })), fcParams(41, 20_000));
  });
  it(`resolveFrom(cwd, p) is path.resolve(cwd, p) (${seedTitle(42, 20_000)})`, async () => {
    const cwd = fc.oneof(fc.constantFrom('/', '/work', '/tmp/x'), path.map((p) => resolve('/', p)));
    await fc.assert(fc.asyncProperty(cwd, path, breathing((c, p) => {
        expect(resolveFrom(c, p)).toBe(resolve(c, p));
      })), fcParams(42, 20_000));
  });
  it('the usual paths take the shortcut', () => {
    expect(joinEntry('/tmp/res', 'r000.yaml')).toBe('/tmp/res/r000.yaml');
    expect(resolveFrom('/work', 'agents/a.yaml')).toBe('/work/agents/a.yaml');
  });
});
