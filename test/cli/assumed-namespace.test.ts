// Without -n, lint and render decide for the namespace `default`, as helm does. A finding that
// rests on the release namespace then says the namespace was assumed, and its fix offers
// -n NAMESPACE first: adding `default` to a list is the wrong fix for a release installed elsewhere.
import { describe, expect, it } from 'vitest';
import { render } from '../../src/api.ts';
import { runInProcess } from './in-process.ts';

interface JsonProblem {
  rule: string;
  path: string;
  message: string;
  hint?: string;
}

const NOTE = 'the release namespace was not given (-n), so agentplat assumed "default"';
const FIRST = 'give the namespace you install into with -n NAMESPACE; or, to install into "default", ';

/** Every finding that rests on the release namespace, with values that make it, and its fix in the values. */
const FINDINGS = [
  { rule: 'values/rbac-release-namespace', path: 'rbac.namespaces', values: 'rbac:\n  namespaces: [team-a]\n', fix: 'add "default" to `rbac.namespaces`' },
  {
    rule: 'values/subchart-rbac-namespace',
    path: 'agentplat-tools.rbac.namespaces',
    values: 'agentplat-tools:\n  rbac:\n    namespaces: [team-a]\n',
    fix: 'add "default" to `agentplat-tools.rbac.namespaces`, or leave the list empty for cluster-wide roles',
  },
  {
    rule: 'values/subchart-rbac-namespace',
    path: 'mcpop.rbac.namespaces',
    values: 'mcpop:\n  rbac:\n    namespaces: [team-a]\n',
    fix: 'add "default" to `mcpop.rbac.namespaces`, or leave the list empty for cluster-wide roles',
  },
];

async function lintJson(values: string, args: string[]): Promise<JsonProblem[]> {
  const r = await runInProcess(['lint', '-f', '-', '--format', 'json', ...args], { stdin: values });
  return (JSON.parse(r.stdout) as { files: { problems: JsonProblem[] }[] }).files.flatMap((f) => f.problems);
}

describe('a finding about the release namespace says when agentplat assumed it, and offers -n first', () => {
  for (const revision of ['A', 'B']) {
    describe.each(FINDINGS)(`[${revision}] $path`, ({ rule, path, values, fix }) => {
      it('without -n: the message says "default" was assumed and the fix starts with -n NAMESPACE', async () => {
        const hits = (await lintJson(values, ['-r', revision])).filter((p) => p.rule === rule && p.path === path);
        expect(hits).toHaveLength(1);
        expect(hits[0]!.message).toContain('"default"');
        expect(hits[0]!.message).toMatch(new RegExp(`; ${NOTE.replace(/[()]/g, '\\$&')}$`));
        expect(hits[0]!.hint).toBe(`${FIRST}${fix}`);
      });

      it('with -n default: the same finding, without the note, and the fix in the values alone', async () => {
        for (const flag of [['-n', 'default'], ['--namespace=default'], ['-n=default']]) {
          const hits = (await lintJson(values, ['-r', revision, ...flag])).filter((p) => p.rule === rule && p.path === path);
          expect(hits).toHaveLength(1);
          expect(hits[0]!.message).not.toContain('not given');
          expect(hits[0]!.hint).toBe(fix);
        }
      });

      it('with -n set to a namespace the list holds: no finding', async () => {
        expect((await lintJson(values, ['-r', revision, '-n', 'team-a'])).filter((p) => p.rule === rule)).toEqual([]);
      });
    });
  }

  it('a namespace from namespaceOverride is not the release namespace: no note, without -n either', async () => {
    const hits = (await lintJson('namespaceOverride: ops\nrbac:\n  namespaces: [team-a]\n', [])).filter((p) => p.rule === 'values/rbac-release-namespace');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.message).toContain('namespaceOverride "ops"');
    expect(hits[0]!.message).not.toContain('not given');
    expect(hits[0]!.hint).toBe('add "ops" to `rbac.namespaces`');
  });

  it.each([['render'], ['template'], ['values', '--computed'], ['diff', '--to-set', 'controller.replicas=2'], ['plan', '--to-set', 'controller.replicas=2']])(
    'every command with -n says it too: %s',
    async (...command) => {
      const values = FINDINGS[0]!.values;
      const without = await runInProcess([...command, '-f', '-'], { stdin: values });
      expect(without.code).not.toBe(0);
      expect(without.stderr).toContain(NOTE);
      expect(without.stderr).toContain(`hint: ${FIRST}`);
      const given = await runInProcess([...command, '-f', '-', '-n', 'default'], { stdin: values });
      expect(given.code).toBe(without.code);
      expect(given.stderr).toContain('values/rbac-release-namespace');
      expect(given.stderr).not.toContain(NOTE);
    },
  );

  it("the API's render without a namespace says it too; with namespace: 'default' it does not", async () => {
    const values = { name: 'v.yaml', text: FINDINGS[0]!.values };
    const without = (await render({ values })).problems.find((p) => p.rule === 'values/rbac-release-namespace');
    expect(without?.message).toContain(NOTE);
    expect(without?.hint).toBe(`${FIRST}${FINDINGS[0]!.fix}`);
    const given = (await render({ values, namespace: 'default' })).problems.find((p) => p.rule === 'values/rbac-release-namespace');
    expect(given?.message).not.toContain(NOTE);
    expect(given?.hint).toBe(FINDINGS[0]!.fix);
  });
});
