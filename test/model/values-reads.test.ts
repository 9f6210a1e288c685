// The read record of issue 35 (model/values-access.ts, recordingView): every way the render can
// read the values is recorded, so a key nobody read is a key that changes nothing.
import { describe, expect, it } from 'vitest';
import { at, map, recordingView, str } from '../../src/model/values-access.ts';

const values = () => ({ a: { b: 'x', c: { d: 1 } }, labels: { team: 'x' }, top: 'y' });
const paths = (r: ReturnType<typeof recordingView>, owner = 'context') => {
  const reads = r.reads.get(owner)!;
  return { whole: [...reads.whole].sort(), entered: [...reads.entered].sort(), kept: [...reads.kept].sort() };
};

describe('the values read through a recording view', () => {
  it('records a scalar read through at as read whole, and a map as entered', () => {
    const r = recordingView(values());
    expect(str(r.view, 'a.b')).toBe('x');
    const c = map(r.view, 'a.c');
    expect(paths(r)).toEqual({ whole: ['a.b'], entered: ['a.c'], kept: [] });
    expect(c.d).toBe(1);
    expect(paths(r).whole).toEqual(['a.b', 'a.c.d']);
  });

  it('records a direct read of the values and a missing key looked up', () => {
    const r = recordingView(values());
    expect((r.view as Record<string, unknown>).top).toBe('y');
    expect(at(r.view, 'a.nothing.deeper')).toBeUndefined();
    expect(paths(r).whole).toEqual(['a.nothing.deeper', 'top']);
  });

  it('records a map whose keys are listed as read whole', () => {
    const r = recordingView(values());
    expect({ ...map(r.view, 'labels') }).toEqual({ team: 'x' });
    expect(paths(r).whole).toContain('labels');
  });

  it('records the maps a part puts into an object as they are, under that part', () => {
    const r = recordingView(values());
    r.owner('ui');
    const object = { metadata: { labels: map(r.view, 'labels') } };
    r.kept(object);
    expect(paths(r, 'ui')).toEqual({ whole: [], entered: ['labels'], kept: ['labels'] });
  });

  it('stops recording when the owner is cleared', () => {
    const r = recordingView(values());
    r.owner('ui');
    const labels = map(r.view, 'labels');
    r.owner(undefined);
    expect(Object.keys(labels)).toEqual(['team']);
    expect(paths(r, 'ui').whole).toEqual([]);
  });
});
