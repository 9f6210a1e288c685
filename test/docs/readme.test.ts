// The README is reviewed like code: its generated sections (lint rules, values reference) must
// match what the tool produces, and its set-up commands must be the ones CI runs.
// Regenerate: UPDATE_README=1 npx vitest run test/docs/readme.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.ts';
import { ruleCatalog } from '../../src/lint/config.ts';
import { runInProcess } from '../cli/in-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const UPDATE = process.env.UPDATE_README === '1';
const readmePath = join(ROOT, 'README.md');

async function docs(revision: 'A' | 'B'): Promise<string> {
  const io = await runInProcess(['docs', '--revision', revision]);
  expect(io.code).toBe(0);
  return io.stdout;
}

/** Replaces the text between `<!-- name:start … -->` and `<!-- name:end -->`. */
function section(text: string, name: string, body?: string): string {
  const re = new RegExp(`(<!-- ${name}:start[^>]*-->\\n)([\\s\\S]*?)(<!-- ${name}:end -->)`);
  const m = re.exec(text);
  expect(m, `README has a ${name} section`).not.toBeNull();
  return body === undefined ? m![2]! : text.replace(re, (_, a: string, _b: string, c: string) => `${a}${body}${c}`);
}

function rulesTable(): string {
  const rows = [...ruleCatalog()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, d]) => `| \`${id}\` | ${d.replace(/\|/g, '\\|')} |`);
  return `| Rule | What it checks |\n|---|---|\n${rows.join('\n')}\n`;
}

/** The revision B reference inside the README: its title dropped, its headings one level down. */
function embedded(reference: string): string {
  return reference.replace(/^# .*\n+/, '').replace(/^(#+) /gm, '$1# ');
}

describe('README', () => {
  it('opens with the two set-up commands CI runs (npm ci + render on the defaults, npm test)', () => {
    const text = readFileSync(readmePath, 'utf8');
    const setup = text.slice(text.indexOf('## Set up'), text.indexOf('## A tour'));
    expect(setup).toContain('npm ci && npx agentplat render --revision B');
    expect(setup).toContain('npm test');
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/npm ci[\s\S]*npm test/);
  });

  it('lists every lint rule id with its description', () => {
    let text = readFileSync(readmePath, 'utf8');
    if (UPDATE) writeFileSync(readmePath, (text = section(text, 'lint-rules', rulesTable())));
    expect(section(text, 'lint-rules')).toBe(rulesTable());
  });

  it('carries the values reference of revision B exactly as `agentplat docs --revision B` prints it', async () => {
    const want = embedded(await docs('B'));
    let text = readFileSync(readmePath, 'utf8');
    if (UPDATE) writeFileSync(readmePath, (text = section(text, 'values-reference', want)));
    expect(section(text, 'values-reference')).toBe(want);
  });

  it('docs/values-reference-a.md is exactly `agentplat docs --revision A`', async () => {
    const file = join(ROOT, 'docs', 'values-reference-a.md');
    const want = await docs('A');
    if (UPDATE) writeFileSync(file, want);
    expect(readFileSync(file, 'utf8')).toBe(want);
  });
});
