// The README and docs/ are reviewed like code: their generated parts (the rule table of
// docs/rules.md, docs/values-reference-a.md and -b.md) must match what the tool produces, and the
// README's set-up commands must be the ones CI runs.
// Regenerate: UPDATE_README=1 npx vitest run test/docs/readme.test.ts
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.ts';
import { ruleCatalog } from '../../src/lint/config.ts';
import { runInProcess } from '../cli/in-process.ts';
import { RENDER_RULES } from '../../src/render/rules.ts';
import { CRD_RULES } from '../../src/kube-check/rules.ts';
import { GITOPS_ERROR_RULES, GITOPS_RULES } from '../../src/gitops/rules.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const UPDATE = process.env.UPDATE_README === '1';
const readmePath = join(ROOT, 'README.md');
const rulesPath = join(ROOT, 'docs', 'rules.md');

/** The README and every page of docs/, by path from the repository root. */
function pages(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

async function docs(revision: 'A' | 'B'): Promise<string> {
  const io = await runInProcess(['docs', '--revision', revision]);
  expect(io.code).toBe(0);
  return io.stdout;
}

/** Replaces the text between `<!-- name:start … -->` and `<!-- name:end -->`. */
function section(text: string, name: string, body?: string): string {
  const re = new RegExp(`(<!-- ${name}:start[^>]*-->\\n)([\\s\\S]*?)(<!-- ${name}:end -->)`);
  const m = re.exec(text);
  expect(m, `the page has a ${name} section`).not.toBeNull();
  return body === undefined ? m![2]! : text.replace(re, (_, a: string, _b: string, c: string) => `${a}${body}${c}`);
}

/** The linter's catalog (tunable with --rule) and the render's own checks (always errors). */
function rulesTable(): string {
  const failing = [...Object.entries(RENDER_RULES), ...Object.entries(GITOPS_RULES).filter(([id]) => (GITOPS_ERROR_RULES as readonly string[]).includes(id))];
  const render = failing.map(([id, d]): [string, string] => [id, `${d} (always an error: nothing is rendered; not set by --rule)`]);
  const rows = [...ruleCatalog(), ...render].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, d]) => `| \`${id}\` | ${d.replace(/\|/g, '\\|')} |`);
  return `| Rule | What it checks |\n|---|---|\n${rows.join('\n')}\n`;
}

describe('the README and docs/', () => {
  it('opens with the two set-up commands CI runs (npm ci + render on the defaults, npm test)', () => {
    const text = readFileSync(readmePath, 'utf8');
    const setup = text.slice(text.indexOf('## Set up'), text.indexOf('## A tour'));
    expect(setup).toContain('npm ci && npx agentplat render --revision B');
    expect(setup).toContain('npm test');
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/npm ci[\s\S]*npm test/);
  });

  it("states the Node.js versions package.json's engines accepts: the floor it names is the engines floor, and every supported line is above it", () => {
    const text = readFileSync(readmePath, 'utf8');
    const setup = text.slice(text.indexOf('## Set up'), text.indexOf('## A tour')).replace(/\s+/g, ' ');
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const m = /Node\.js ((?:\d+(?:, | or ))*\d+): the supported lines\. It still runs on Node (\d+) from (\d+\.\d+) on \(package\.json: `"engines": \{ "node": "([^"]+)" \}`\)/.exec(setup);
    expect(m, 'the set-up section says which Node.js lines are supported and which still run').not.toBeNull();
    const [, supported, oldLine, floor, quoted] = m!;
    expect(quoted).toBe(engines);
    expect(engines).toBe(`>=${floor}`);
    expect(floor!.split('.')[0]).toBe(oldLine);
    for (const line of supported!.split(/, | or /)) expect(Number(line), line).toBeGreaterThan(Number(oldLine));
  });

  it('prunes no CRD: every `kubectl apply --prune` in the code blocks of the README and docs/ applies a render without CRDs', () => {
    const text = pages().map((p) => readFileSync(join(ROOT, p), 'utf8')).join('\n');
    // The fenced code blocks, of any language: a fence opens a block and the next one closes it.
    const blocks: string[] = [];
    let open: string[] | undefined;
    for (const line of text.split('\n')) {
      if (!line.startsWith('```')) open?.push(line);
      else if (open) [blocks[blocks.length], open] = [open.join('\n'), undefined];
      else open = [];
    }
    // A command continued over lines (a trailing backslash) is one command; comments dropped.
    const commands = blocks.flatMap((b) => b.replace(/\\\n\s*/g, ' ').split('\n')).map((l) => l.replace(/\s+#.*$/, ''));
    const pruning = commands.filter((c) => /\bkubectl apply\b.*--prune\b/.test(c));
    expect(pruning.length).toBeGreaterThanOrEqual(3);
    for (const c of pruning) {
      const producer = c.slice(0, c.indexOf('|'));
      expect(producer, c).toMatch(/^\s*agentplat (render|template)\b/);
      // render prints the CRDs unless --skip-crds; template leaves them out unless --include-crds.
      if (/^\s*agentplat render\b/.test(producer)) expect(producer, c).toMatch(/\s--skip-crds\b/);
      else expect(producer, c).not.toMatch(/--include-crds\b/);
    }
  });

  it('docs/rules.md lists every lint rule id with its description', () => {
    let text = readFileSync(rulesPath, 'utf8');
    if (UPDATE) writeFileSync(rulesPath, (text = section(text, 'lint-rules', rulesTable())));
    expect(section(text, 'lint-rules')).toBe(rulesTable());
  });

  it('every rule id the code can report is in a rule table: lint and render ids in docs/rules.md, crd/ ids in the validate section of docs/resource-api.md', () => {
    // The ids are the rule-shaped string literals of src/, whatever module reports them, so an id
    // reported without a catalog entry is found too.
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    const ids = new Set<string>();
    for (const file of sources(join(ROOT, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`]((?:values|security|render|crd|gitops)\/[a-z0-9-]+)['"`]/g)) ids.add(m[1]!);
    }
    const rules = section(readFileSync(rulesPath, 'utf8'), 'lint-rules');
    const resources = readFileSync(join(ROOT, 'docs', 'resource-api.md'), 'utf8');
    const from = resources.indexOf('\n## Validating resources before you apply them\n');
    const to = resources.indexOf('\n## Rules checked at admission (CEL)\n');
    expect(from, 'docs/resource-api.md has its validate section').toBeGreaterThan(0);
    expect(to).toBeGreaterThan(from);
    const crdTable = resources.slice(from, to);
    expect(ids).toContain('render/duplicate-object');
    expect(ids.size).toBeGreaterThan(ruleCatalog().size);
    for (const id of ids) {
      const table = id.startsWith('crd/') ? crdTable : rules;
      expect(table.includes(`\`${id}\``), `${id} is missing from the ${id.startsWith('crd/') ? 'docs/resource-api.md' : 'docs/rules.md'} table`).toBe(true);
    }
    for (const id of Object.keys(CRD_RULES)) expect(ids).toContain(id);
  });

  it.each(['A', 'B'] as const)('the values reference of revision %s (docs/values-reference-<revision>.md) is exactly `agentplat docs` of that revision', async (revision) => {
    const file = join(ROOT, 'docs', `values-reference-${revision.toLowerCase()}.md`);
    const want = await docs(revision);
    if (UPDATE) writeFileSync(file, want);
    expect(readFileSync(file, 'utf8')).toBe(want);
  });
});
