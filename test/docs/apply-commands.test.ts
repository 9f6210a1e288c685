// Every command line agentplat shows that pipes its output into `kubectl apply` (the README and docs/,
// every command's --help, the hints diff --cluster and plan print) names the field manager the release
// is applied under (`--field-manager agentplat`: under kubectl's own, the same render meets
// conflicts and the apply fails) and the revision it renders (`-r`/`--revision`: the default can
// differ from the revision installed). A user copies these lines as they are.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatPreflightText, type ClusterInfo } from '../../src/output/diff/live-format.ts';
import { runInProcess } from '../cli/in-process.ts';
import { ROOT } from '../cli/binary.ts';

/** agentplat's output into kubectl apply: through a pipe, or a file written and then applied. */
const APPLIES_OUTPUT = /\bagentplat (?:crds|render|template)\b[^|&]*(?:\||> *\S+ *&&)\s*(?:\w+=\S+\s+)*kubectl apply\b/;

/** The lines of `text` that apply agentplat's output without the field manager or the revision. */
function unnamed(lines: readonly string[]): string[] {
  return lines.filter((l) => APPLIES_OUTPUT.test(l) && !(/--field-manager[ =]agentplat\b/.test(l) && /(?:^|\s)(?:-r|--revision)[ =][AB]\b/.test(l)));
}

/** The commands of a Markdown page: each line of a code block (with its `\` continuations), and each inline code span. */
function readmeCommands(text: string): string[] {
  const out: string[] = [];
  let block = false;
  let joined = '';
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      block = !block;
      continue;
    }
    if (!block) continue;
    joined += line.replace(/\\$/, ' ');
    if (!line.endsWith('\\')) {
      out.push(joined);
      joined = '';
    }
  }
  for (const m of text.replace(/^\s*```.*$/gm, '').matchAll(/`([^`]+)`/g)) out.push(m[1]!.replace(/\n\s*/g, ' '));
  return out;
}

describe('lines that apply agentplat output with kubectl name --field-manager agentplat and the revision', () => {
  it('the README and every page of docs/', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const commands = pages.flatMap((page) => readmeCommands(readFileSync(join(ROOT, page), 'utf8')).map((c) => `${page}: ${c}`));
    expect(commands.filter((l) => APPLIES_OUTPUT.test(l)).length).toBeGreaterThan(5);
    // The tour's install, upgrade and prune lines are the README's own.
    expect(commands.filter((l) => l.startsWith('README.md: ') && APPLIES_OUTPUT.test(l)).length).toBeGreaterThanOrEqual(3);
    expect(unnamed(commands)).toEqual([]);
  });

  it('the help of agentplat and of every command', async () => {
    const top = await runInProcess(['--help']);
    const names = [...top.stdout.slice(top.stdout.indexOf('Commands:')).matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((n) => n !== 'help');
    expect(names).toEqual(expect.arrayContaining(['render', 'template', 'crds']));
    const lines = [top.stdout];
    for (const name of names) lines.push((await runInProcess([name, '--help'])).stdout);
    const all = lines.join('\n').split('\n');
    expect(all.filter((l) => APPLIES_OUTPUT.test(l)).length).toBeGreaterThanOrEqual(4);
    expect(unnamed(all)).toEqual([]);
  });

  it('diff --cluster\'s hint for a custom resource not checked yet: the CRDs of the revision applied, under the field manager of the preflight', () => {
    const info: ClusterInfo = { context: 'c', server: 'https://c', fieldManager: 'agentplat' };
    const empty = { comparison: { changes: [], unchanged: 0 }, conflicts: [], rejections: [], drift: [], notes: [], notAllowed: [] };
    const text = formatPreflightText([], { ...empty, unchecked: [{ group: 'agentplat.dev', kind: 'Agent', namespace: 'ns', name: 'a', crd: 'agents.agentplat.dev' }] }, info, new Chalk({ level: 0 }), { revision: 'A' });
    expect(text).toContain('apply the CRDs first (agentplat crds -r A | kubectl apply --server-side --field-manager agentplat -f -)');
    expect(unnamed(text.split('\n'))).toEqual([]);
  });

  it('plan\'s advice to keep a deleted object', async () => {
    const r = await runInProcess(['plan', '--from', 'A', '--to', 'B']);
    const keep = r.stdout.split('\n').filter((l) => l.includes('keep:'));
    expect(keep.length).toBeGreaterThan(0);
    expect(unnamed(keep)).toEqual([]);
  });
});
