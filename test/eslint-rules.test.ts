// The checks `npm run lint` makes of the source text (eslint.config.mjs, eslint/plugin.mjs) each
// have a fixture under eslint/fixtures/ that breaks them: every line marked `✗ <rule>` must be
// reported by that rule, and no other line by any rule. A fixture is linted with the repository's
// own configuration as the file its first line names (`lint-as:`), so a rule that stopped
// matching, or a configuration that stopped applying it there, fails here.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../eslint/plugin.mjs';
import { lintInputs } from '../eslint/lint-inputs.mjs';
import { tempDir } from './helpers/temp-dir.ts';

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

// `npm run lint` keeps ESLint's cache: a file's result is kept while its text and its settings are
// unchanged, so what the rules read besides the file is a setting (eslint/lint-inputs.mjs).
describe("eslint's cache: a file is linted again when what the rules read besides it changes", () => {
  it('the fingerprint changes when a file a comment may name goes or comes, or the rules or the lock file change; not when a text changes', () => {
    const root = tempDir('agentplat-lint-inputs-');
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('scripts/a.mjs', '// reads scripts/b.mjs\n');
    write('scripts/b.mjs', 'export {};\n');
    write('eslint/plugin.mjs', 'export default {};\n');
    write('package-lock.json', '{}\n');
    const first = lintInputs(root);
    expect(lintInputs(root)).toBe(first);
    write('scripts/a.mjs', '// reads scripts/b.mjs, twice\n');
    expect(lintInputs(root)).toBe(first);
    rmSync(join(root, 'scripts/b.mjs'));
    const removed = lintInputs(root);
    expect(removed).not.toBe(first);
    write('templates/new.hbs', '');
    expect(lintInputs(root)).not.toBe(removed);
    const added = lintInputs(root);
    write('eslint/plugin.mjs', 'export default { rules: {} };\n');
    const rules = lintInputs(root);
    expect(rules).not.toBe(added);
    write('package-lock.json', '{ "lockfileVersion": 3 }\n');
    expect(lintInputs(root)).not.toBe(rules);
  });

  it('every file ESLint lints carries the fingerprint in its settings: code, templates and shell scripts', async () => {
    for (const file of ['src/api.ts', 'eslint.config.mjs', 'templates/agents/agent.yaml.hbs', 'test/oracles/build.sh']) {
      const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as { settings?: Record<string, unknown> } | undefined;
      expect(config?.settings?.agentplatLintInputs, file).toBe(lintInputs(ROOT));
    }
  });
});
