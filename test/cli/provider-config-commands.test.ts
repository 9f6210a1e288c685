// The ModelConfig check of provider config/tls lives in validate's code, which a run loads only
// when its values set a provider block's config or tls (src/lint/crd-check.ts). Every command line
// that reads values is run here as its own process (the bundle, nothing preloaded: the in-process
// tests preload the check, so only a real process can show a path that forgot to load it), with
// values that need the check, in the revision each path reads. A table row per path through the
// values (plain layers, positional files, a migration from A, origins, both sides of a diff or plan),
// and a test that holds the table to the program: a command or a values-reading flag added later
// without a row here fails.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from './binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { objectsOf } from '../helpers/objects.ts';
import { createMemoryIo } from '../../src/cli/io.ts';
import { createProgram } from '../../src/cli/program.ts';

beforeAll(() => ensureBuilt());

// Revision B's default provider is providerB; revision A's is providerA. Each file makes the
// default provider's ModelConfig break the CRD (maxTokens below its minimum of 1).
const BAD_B = 'providers:\n  providerB:\n    config:\n      maxTokens: 0\n';
const BAD_A = 'providers:\n  default: providerB\n  providerB:\n    config:\n      maxTokens: 0\n';
const GOOD = 'providers:\n  providerB:\n    config:\n      baseUrl: https://gateway.example/v1\n';
const MESSAGE = 'ModelConfig default-model-config: spec.providerB.maxTokens must be at least 1, found 0';

const dir = tempDir('agentplat-provider-config-');
for (const [name, text] of Object.entries({ 'bad.yaml': BAD_B, 'bad-a.yaml': BAD_A, 'good.yaml': GOOD })) writeFileSync(join(dir, name), text);
const at = (name: string) => join(dir, name);

interface Row {
  /** The command line after `agentplat`. */
  args: string[];
  /** The exit code: the check's error is a problem found (1); a plan whose values do not render exits 2 (docs/commands.md, "Exit codes"). */
  code: number;
}

/** Every path through the values that lints them, by command; the first word is the command. */
const ROWS: Record<string, Row> = {
  'lint -f': { args: ['lint', '-f', at('bad.yaml')], code: 1 },
  'lint --set': { args: ['lint', '--set', 'providers.providerB.config.maxTokens=0'], code: 1 },
  'lint FILE (each file on its own)': { args: ['lint', at('bad.yaml')], code: 1 },
  'lint -r A FILE': { args: ['lint', '-r', 'A', at('bad-a.yaml')], code: 1 },
  'render -f': { args: ['render', '-f', at('bad.yaml')], code: 1 },
  'render -f --show-only': { args: ['render', '-f', at('bad.yaml'), '--show-only', 'templates/modelconfig.yaml'], code: 1 },
  'render --set': { args: ['render', '--set', 'providers.providerB.config.maxTokens=0'], code: 1 },
  'template --set': { args: ['template', 'agentplat', '--set', 'providers.providerB.config.maxTokens=0'], code: 1 },
  'template -f': { args: ['template', 'agentplat', '-f', at('bad.yaml')], code: 1 },
  'values --computed -f': { args: ['values', '--computed', '-f', at('bad.yaml')], code: 1 },
  'values --computed --show-origin -f': { args: ['values', '--computed', '--show-origin', '-f', at('bad.yaml')], code: 1 },
  'values --computed --from-revision A -f (the values migrated first)': { args: ['values', '--computed', '--from-revision', 'A', '-f', at('bad-a.yaml')], code: 1 },
  'values --computed --from A --set': { args: ['values', '--computed', '--from', 'A', '--set', 'providers.default=providerB', '--set', 'providers.providerB.config.maxTokens=0'], code: 1 },
  'migrate FILE (the migrated file is linted)': { args: ['migrate', '--from', 'A', '-r', 'B', at('bad-a.yaml')], code: 1 },
  'migrate -f': { args: ['migrate', '--from', 'A', '-r', 'B', '-f', at('bad-a.yaml')], code: 1 },
  'diff -f --to-values': { args: ['diff', '-f', at('good.yaml'), '--to-values', at('bad.yaml')], code: 1 },
  'diff --to-set': { args: ['diff', '-f', at('good.yaml'), '--to-set', 'providers.providerB.config.maxTokens=0'], code: 1 },
  'diff --from-revision A --to-revision B': { args: ['diff', '-f', at('bad-a.yaml'), '--from-revision', 'A', '--to-revision', 'B'], code: 1 },
  'diff --set (both sides)': { args: ['diff', '--set', 'providers.providerB.config.maxTokens=0', '--against', at('good.yaml')], code: 1 },
  'diff --from A --to B (plan\'s spelling)': { args: ['diff', '-f', at('bad-a.yaml'), '--from', 'A', '--to', 'B'], code: 1 },
  'diff --against': { args: ['diff', '-f', at('bad.yaml'), '--against', at('good.yaml')], code: 1 },
  'plan -r B --to-values': { args: ['plan', '-r', 'B', '-f', at('good.yaml'), '--to-values', at('bad.yaml')], code: 2 },
  'plan --set --to-set': { args: ['plan', '-r', 'B', '--set', 'providers.providerB.config.baseUrl=https://gateway.example/v1', '--to-set', 'providers.providerB.config.maxTokens=0'], code: 2 },
  'plan --from-revision A --to-revision B (diff\'s spelling)': { args: ['plan', '--from-revision', 'A', '--to-revision', 'B', '-f', at('bad-a.yaml')], code: 2 },
  'plan --from A --to B': { args: ['plan', '--from', 'A', '--to', 'B', '-f', at('bad-a.yaml')], code: 2 },
  'explain KEY -f (in that configuration)': { args: ['explain', 'providers.providerB.config.maxTokens', '-f', at('bad.yaml')], code: 1 },
  'explain KEY --set': { args: ['explain', 'providers.providerB.config.maxTokens', '--set', 'providers.providerB.config.maxTokens=0'], code: 1 },
};

const commandOf = (row: Row) => row.args[0]!;

describe('every command line that reads values runs the ModelConfig check of provider config, in a process that preloads nothing', () => {
  it.each(Object.entries(ROWS))('%s: reports the broken ModelConfig, never an internal error', (_name, row) => {
    const r = runBin(row.args);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(`${r.stdout}${r.stderr}`).toContain(MESSAGE);
    expect(r.code).toBe(row.code);
  });

  it('render renders a good provider config into spec.providerB', () => {
    const good = runBin(['render', '-f', at('good.yaml'), '--show-only', 'templates/modelconfig.yaml']);
    expect(good.stderr).toBe('');
    expect((objectsOf(good.stdout)[0] as any).spec.providerB).toEqual({ baseUrl: 'https://gateway.example/v1' });
  });

  it.each(['providers', 'providers.providerB', 'providers.providerB.config.baseUrl', 'providers.providerC.config.azureEndpoint'])('explain %s renders with the check (no internal error)', (key) => {
    const r = runBin(['explain', key]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('the table covers every command that reads values and every flag that changes how they are read', () => {
    const program = createProgram({ io: createMemoryIo(), exitCode: 0 });
    const valuesFlags = ['--values', '--set', '--from-revision', '--from', '--to-values', '--to-set', '--against', '--show-origin'];
    const missing: string[] = [];
    for (const command of program.commands) {
      const name = command.name();
      const flags = command.options.map((o) => o.long).filter((f): f is string => f !== undefined && valuesFlags.includes(f));
      if (flags.length === 0) continue;
      const rows = Object.values(ROWS).filter((r) => commandOf(r) === name);
      if (rows.length === 0) missing.push(`${name} (no row)`);
      for (const flag of flags) {
        const short = command.options.find((o) => o.long === flag)?.short;
        if (!rows.some((r) => r.args.includes(flag) || (short !== undefined && r.args.includes(short)))) missing.push(`${name} ${flag}`);
      }
    }
    // explain without values renders each key it explains, with the check (above); with -f/--set it lints them as lint does.
    expect(missing).toEqual([]);
  });
});
