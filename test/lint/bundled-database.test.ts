// values/bundled-database: spec 2.7 `database.rdb.bundled.enabled` — "Bundled instance:
// development and evaluation only. Deployed when enabled and neither url nor urlFile is set".
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Problem } from '../../src/problems/problem.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';

function findings(revision: Revision, text?: string, showDefaultNote: (rule: string) => boolean = () => true): Problem[] {
  const layers = text === undefined ? [] : [parseValuesText(text, 'values.yaml').source!];
  return lintValues({ revision, layers, releaseNamespace: 'agentplat', showDefaultNote }).problems.filter((p) => p.rule === 'values/bundled-database');
}

describe('2.7 database.rdb.bundled: development and evaluation only', () => {
  it.each(['A', 'B'] as const)('revision %s, user values without a database: an info on bundled.enabled saying dev/evaluation only, fixed demo password, and how to use an external database', (revision) => {
    const [p, ...rest] = findings(revision, 'ipv6: true\n');
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ severity: 'info', path: 'database.rdb.bundled.enabled' });
    expect(p!.message).toMatch(/development and evaluation only/);
    expect(p!.message).toMatch(/fixed demo password/);
    expect(p!.hint).toMatch(/database\.rdb\.url\b/);
    expect(p!.hint).toMatch(/database\.rdb\.urlFile/);
  });

  it.each(['A', 'B'] as const)('revision %s: the note about the untouched default is left out unless asked for', (revision) => {
    expect(findings(revision, 'ipv6: true\n', () => false)).toEqual([]);
    expect(lintValues({ revision, layers: [parseValuesText('ipv6: true\n', 'values.yaml').source!] }).problems).toEqual([]);
  });

  it('a user who wrote the setting sees the note without asking', () => {
    const [p] = findings('B', 'database:\n  rdb:\n    bundled:\n      enabled: true\n', () => false);
    expect(p).toMatchObject({ severity: 'info', file: 'values.yaml', line: 4 });
  });

  it('linting the bare defaults (no user values) stays quiet: it is a smoke check', () => {
    for (const revision of ['A', 'B'] as const) expect(findings(revision)).toEqual([]);
  });

  it('points at the line where the user enabled it', () => {
    const [p] = findings('B', 'database:\n  rdb:\n    bundled:\n      enabled: true\n');
    expect(p).toMatchObject({ file: 'values.yaml', line: 4 });
  });

  it.each([
    ['url', 'database:\n  rdb:\n    url: postgres://db.example:5432/agentplat\n'],
    ['urlFile', 'database:\n  rdb:\n    urlFile: /etc/db/url\n'],
    ['bundled disabled', 'database:\n  rdb:\n    url: postgres://db.example:5432/agentplat\n    bundled:\n      enabled: false\n'],
  ])('no note when the bundled database is not deployed (%s)', (_, text) => {
    for (const revision of ['A', 'B'] as const) expect(findings(revision, text)).toEqual([]);
  });
});
