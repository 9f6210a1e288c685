// Section 7 admission rules (and the reference rules the spec implies): each with a resource that
// breaks it and one that keeps it, through `agentplat validate` in-process.
import { describe, expect, it } from 'vitest';
import { doc, marked, modelRules, validateYaml } from './helpers.ts';
import { CEL_CASES as CASES, modelConfig, remote } from './cel-cases.ts';

const rules = modelRules();

describe('section 7 admission rules as CEL', () => {
  for (const c of CASES) {
    it(`${c.id}: rejects a resource that breaks it, at the offending field`, async () => {
      const rule = rules.get(c.id);
      expect(rule, `model has CEL rule ${c.id}`).toBeDefined();
      const r = await validateYaml(c.bad);
      expect(r.code).toBe(1);
      const hit = r.problems.find((p) => p.rule === 'crd/cel' && p.message.endsWith(rule!.message));
      expect(hit, JSON.stringify(r.problems, null, 2)).toBeDefined();
      expect({ line: hit!.line, column: hit!.column }).toEqual(marked(c.bad));
      expect(hit!.file).toBe('<stdin>');
    });
    it(`${c.id}: accepts a resource that keeps it`, async () => {
      const r = await validateYaml(c.good);
      expect(r.problems).toEqual([]);
      expect(r.code).toBe(0);
    });
  }

  it('remotemcpserver-tls-forbidden-with-http-url: the scheme check ignores case', async () => {
    const r = await validateYaml(remote(`  url: HTTP://tools.example.com/mcp\n  tls: {}\n`));
    expect(r.problems.map((p) => p.rule)).toEqual(['crd/cel']);
  });

  it('every CEL rule is guarded: a minimal object of each kind evaluates without errors', async () => {
    const minimal = [
      doc('Agent', '  declarative: {}\n'),
      doc('SandboxAgent', '  declarative: {}\n'),
      doc('AgentHarness', '  backend: backendB\n  substrate: {}\n  channels:\n    - name: c\n      type: messengerB\n      messengerB:\n        botToken: {}\n        appToken: {}\n'),
      modelConfig('  providerB: {}\n  tls: {}\n'),
      doc('ModelProviderConfig', '  type: ProviderD\n'),
      remote('  url: https://x\n  allowedNamespaces: {}\n  tls: {}\n'),
    ];
    for (const y of minimal) {
      const r = await validateYaml(y);
      expect(r.problems, y).toEqual([]);
    }
  });
});
