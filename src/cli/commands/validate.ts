// `agentplat validate FILE…|-`: checks custom resources of the agentplat.dev group against the
// CRDs (schema and CEL rules). The validator (ajv, CEL) is imported only when this command runs.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { UsageError } from '../../errors.ts';
import { readUserFile } from '../../values/load.ts';
import type { Problem } from '../../lint/problem.ts';

interface Options {
  format: string;
  verbose?: boolean;
}

export function register(program: Command, app: App): void {
  program
    .command('validate')
    .description('validate agentplat.dev custom resources (Agent, ModelConfig, …) against the CRDs, CEL rules included')
    .argument('<files...>', 'YAML files, glob patterns (*, **) or - for standard input')
    .option('--format <format>', 'text or json', 'text')
    .option('-v, --verbose', 'say which documents were skipped (other API groups)')
    .action(async (files: string[], opts: Options) => {
      if (opts.format !== 'text' && opts.format !== 'json') throw new UsageError(`--format must be text or json, got ${JSON.stringify(opts.format)}`);
      const { expandGlob, hasGlob } = await import('../../crds/glob.ts');
      const paths: string[] = [];
      for (const f of files) {
        if (f !== '-' && hasGlob(f)) {
          const matched = expandGlob(f, app.io.cwd);
          if (matched.length === 0) throw new UsageError(`${f}: no file matches this pattern`);
          paths.push(...matched);
        } else paths.push(f);
      }
      if (paths.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
      const inputs: { file: string; text: string }[] = [];
      for (const p of [...new Set(paths)]) {
        const { name, text } = await readUserFile(p, app.io, 'resource file');
        inputs.push({ file: name, text });
      }
      const { validateCustomResources } = await import('../../crds/validate.ts');
      const { sortProblems } = await import('../../lint/problem.ts');
      const result = validateCustomResources(inputs, {
        onSkip: opts.verbose ? (d) => app.io.stderr(`${d.file}:${d.line}: skipped ${d.kind}${d.name ? ` ${d.name}` : ''} (${d.apiVersion} is not an agentplat.dev resource)\n`) : undefined,
      });
      const problems = sortProblems(result.problems);
      app.io.stdout(await format(problems, opts.format, result.checked));
      if (opts.verbose) app.io.stderr(`checked ${result.checked} resource(s), skipped ${result.skipped}\n`);
      app.exitCode = problems.some((p) => p.severity === 'error') ? 1 : 0;
    });
}

async function format(problems: Problem[], fmt: string, checked: number): Promise<string> {
  if (fmt === 'json') return `${JSON.stringify({ checked, problems }, null, 2)}\n`;
  if (problems.length === 0) return '';
  const lines: string[] = [];
  for (const p of problems) {
    const where = [p.file ?? '', p.line ?? '', p.column ?? ''].filter((x) => x !== '').join(':');
    lines.push(`${where}  ${p.severity}  ${p.message}  [${p.rule}]`);
    if (p.hint) lines.push(`  hint: ${p.hint}`);
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  lines.push(`${errors} error(s) in ${checked} resource(s)`);
  return `${lines.join('\n')}\n`;
}
