// --show-only patterns mean what helm template gives them: Go's path.Match on the path after the
// chart name. The cases below are the rules of path.Match (Go's package documentation): `*` and `?`
// never match `/`, classes with ranges and `^`, `\` escapes, and the patterns it refuses.
import { describe, expect, it } from 'vitest';
import { sourceMatches, sourcePattern } from '../../src/render/manifests.ts';

describe('--show-only patterns match as helm (Go path.Match)', () => {
  it.each([
    ['abc', 'abc', true],
    ['*', 'abc', true],
    ['*c', 'abc', true],
    ['a*', 'a', true],
    ['a*/b', 'abc/b', true],
    ['a*/b', 'a/c/b', false],
    ['*', 'a/b', false],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['[abc]', 'b', true],
    ['[^abc]', 'd', true],
    ['[^abc]', 'a', false],
    ['[a-c]x', 'bx', true],
    ['[a-c]x', 'dx', false],
    ['[\\-]', '-', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['a.b', 'axb', false],
    ['(a|b)', 'a', false],
  ])('%s against %s: %s', (pattern, name, matches) => {
    expect(sourcePattern(pattern)?.test(name)).toBe(matches);
  });

  it.each(['[', '[]', '[-]', '[x-]', '[z-a]', '[^]', 'a\\', 'templates/[rbac/*.yaml'])('%s is refused, as path.Match refuses it', (pattern) => {
    expect(sourcePattern(pattern)).toBeUndefined();
  });

  it('a pattern matches the path after the chart name or the whole source; a plain name keeps its short forms', () => {
    const source = 'agentplat/templates/rbac/getter-role.yaml';
    expect(sourceMatches(source, 'templates/rbac/*.yaml')).toBe(true);
    expect(sourceMatches(source, 'agentplat/templates/rbac/*')).toBe(true);
    expect(sourceMatches(source, 'rbac/*.yaml')).toBe(false);
    expect(sourceMatches(source, 'rbac/getter-role.yaml')).toBe(true);
    expect(sourceMatches('agentplat/charts/mcpop/templates/service.yaml', 'charts/*/templates/service.yaml')).toBe(true);
  });
});
