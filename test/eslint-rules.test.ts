// The checks `npm run lint` makes of the source text (eslint.config.mjs, eslint/plugin.mjs) each
// have a fixture under eslint/fixtures/ that breaks them: every line marked `✗ <rule>` must be
// reported by that rule, and no other line by any rule. A fixture is linted with the repository's
// own configuration as the file its first line names (`lint-as:`), so a rule that stopped
// matching, or a configuration that stopped applying it there, fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../eslint/plugin.mjs';

const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'eslint', 'fixtures');
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.txt')).sort();
const eslint = new ESLint({ cwd: ROOT });

interface Fixture {
  lintAs: string;
  text: string;
  expected: string[];
}

function readFixture(name: string): Fixture {
  const lines = readFileSync(join(FIXTURES, name), 'utf8').split('\n');
  const lintAs = /lint-as:\s*(\S+)/.exec(lines[0] ?? '')?.[1];
  if (!lintAs) throw new Error(`${name}: the first line names the file to lint it as (lint-as: path)`);
  // The first line is the fixture's own header: linted as an empty line.
  const text = ['', ...lines.slice(1)].join('\n');
  const expected = lines.flatMap((line, i) => [...line.matchAll(/✗ (\S+)/g)].map((m) => `${i + 1}: ${m[1]}`));
  return { lintAs, text, expected };
}

describe('eslint rules: each fixture is reported exactly on its marked lines', () => {
  it.each(fixtures)('%s', async (name) => {
    const { lintAs, text, expected } = readFixture(name);
    const [result] = await eslint.lintText(text, { filePath: join(ROOT, lintAs) });
    const found = result!.messages.map((m) => `${m.line}: ${m.ruleId ?? m.message}`);
    expect(found.sort()).toEqual(expected.sort());
  });

  it('every rule of the local plugin, and the clock-read ban, has a fixture line that breaks it', () => {
    const marked = new Set(fixtures.flatMap((name) => readFixture(name).expected.map((e) => e.replace(/^\d+: /, ''))));
    const rules = [...Object.keys(plugin.rules).map((r) => `agentplat/${r}`), 'no-restricted-properties'];
    expect(rules.filter((r) => !marked.has(r))).toEqual([]);
  });
});
