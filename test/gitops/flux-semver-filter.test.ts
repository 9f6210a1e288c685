// An OCIRepository's spec.ref.semverFilter is a Go regular expression (RE2 syntax: source-controller
// compiles it with Go's regexp and keeps the tags it matches). agentplat reads it as RE2: the
// flag groups users write ((?i) and the rest) work, and what RE2 has no translation for here, or
// refuses itself, is refused at the filter with the feature named.
import { describe, expect, it } from 'vitest';
import { readGitopsFile } from '../../src/gitops/index.ts';
import { re2ToRegExp } from '../../src/gitops/re2.ts';
import { refusal } from './_reading.ts';

const FILE = (semver: string, filter: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: agentplat
  namespace: apps
spec:
  chartRef:
    kind: OCIRepository
    name: agentplat
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: agentplat
  namespace: apps
spec:
  url: oci://ghcr.io/example/charts/agentplat
  ref:
    semver: '${semver}'
    semverFilter: '${filter}'
`;

const revision = (semver: string, filter: string) => readGitopsFile({ name: 'hr.yaml', text: FILE(semver, filter) }, { neighbours: () => [], repoFile: () => undefined, repoRootText: '' }).releases[0]?.revision;

describe('spec.ref.semverFilter, read as RE2', () => {
  it('(?i) and the other flag groups RE2 takes are read, not refused', () => {
    expect(revision('>=0.10.0', '(?i)^0\\.10\\.')).toBe('A');
    expect(revision('>=0.10.0', '(?i:^0)\\.10\\.')).toBe('A');
    expect(revision('>=0.10.0', '(?s)^0\\.1[01]\\.')).toBe('B');
    expect(revision('>=0.10.0', '(?P<minor>^0\\.10)\\.')).toBe('A');
  });

  it('matches what Go matches: scoped and negated flags, \\A and \\z, \\Q…\\E, POSIX classes, ^ and $ without (?m)', () => {
    const re = (p: string) => re2ToRegExp(p);
    expect(re('(?i)abc').test('xABCx')).toBe(true);
    expect(re('a(?i)b').test('aB')).toBe(true);
    expect(re('a(?i)b').test('AB')).toBe(false);
    expect(re('(?i)a(?-i)b').test('Ab')).toBe(true);
    expect(re('(?i)a(?-i)b').test('AB')).toBe(false);
    expect(re('(?i:a)b').test('Ab')).toBe(true);
    expect(re('(?i:a)b').test('AB')).toBe(false);
    expect(re('(?i)[a-c]x').test('Bx')).toBe(true);
    expect(re('\\A0\\.11\\z').test('0.11')).toBe(true);
    expect(re('\\A0\\.11\\z').test('0.11\n')).toBe(false);
    expect(re('0\\.11$').test('0.11\n')).toBe(false);
    expect(re('(?m)0\\.11$').test('0.11\nx')).toBe(true);
    expect(re('\\Q0.11.\\E').test('0x11x')).toBe(false);
    expect(re('\\Q0.11.\\E').test('0.11.3')).toBe(true);
    expect(re('^[[:digit:]]+\\.').test('0.11.3')).toBe(true);
    expect(re('a.b').test('a\nb')).toBe(false);
    expect(re('(?s)a.b').test('a\nb')).toBe(true);
    // Go folds k with the Kelvin sign and s with the long s; other non-ASCII letters under (?i) are refused.
    expect(re('(?i)k').test('\u212A')).toBe(true);
    expect(re('(?i)[r-t]').test('\u017F')).toBe(true);
    expect(() => re('(?i)ß')).toThrow(/the letter ß under \(\?i\) folds by Unicode's rules/);
  });

  it('a lookahead, which RE2 does not have, is refused at the filter as Flux refuses it', () => {
    expect(refusal(() => revision('>=0.10.0', '^0\\.(?!12)'))).toBe(
      'hr.yaml:20:19: OCIRepository apps/agentplat: spec.ref.semverFilter "^0\\.(?!12)" is not a Go (RE2) regular expression agentplat can read: the lookaround (?! at character 5, which RE2 does not have (Flux refuses the pattern) | write a regular expression over the tags in RE2 syntax, e.g. ^0\\.11\\. or (?i)^v?0\\.11\\.',
    );
  });

  it('an RE2 feature agentplat does not translate is refused by name', () => {
    expect(refusal(() => revision('>=0.10.0', '^\\pN'))).toContain('the Unicode class \\p at character 2 is RE2 syntax agentplat does not translate');
  });
});
