// Shell completion: the scripts come from @bomb.sh/tab, the candidates from the program itself.
// The candidates are checked in-process (`agentplat complete -- …`, what every script calls, run by
// the run() the executable calls), and in each real shell the machine has, where the scripts call
// the real executable.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './binary.ts';
import { runInProcess } from './in-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { createProgram } from '../../src/cli/program.ts';
import { createMemoryIo } from '../../src/cli/io.ts';
import { walkKeys } from '../../src/chart/values-model.ts';

beforeAll(() => ensureBuilt());

const program = () => createProgram({ io: createMemoryIo(), exitCode: 0 });

/** The candidates (values) and the directive for the words typed after `agentplat`. */
async function complete(...words: string[]): Promise<{ values: string[]; directive: number }> {
  const r = await runInProcess(['complete', '--', ...words]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  const directive = Number(lines.pop()!.replace(/^:/, ''));
  return { values: lines.filter((l) => l !== '').map((l) => l.split('\t')[0]!), directive };
}

const NO_SPACE = 2;
const NO_FILES = 4;

describe('completion scripts', () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    it(`completion ${shell} prints a ${shell} script that asks agentplat complete for candidates`, async () => {
      const r = await runInProcess(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`${shell} completion for agentplat`));
      expect(r.stdout).toContain('agentplat complete --');
    });
  }

  it('an unknown shell is a usage error that names the shells', async () => {
    const r = await runInProcess(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });

  it('the completion backend is hidden from --help', async () => {
    const r = await runInProcess(['--help']);
    expect(r.stdout).toMatch(/^ +completion /m);
    expect(r.stdout).not.toMatch(/^ +complete /m);
  });
});

describe('completion candidates through the binary', () => {
  it('an empty command line offers every command --help lists', async () => {
    const p = program();
    const visible = p.createHelp().visibleCommands(p).map((c) => c.name());
    expect((await complete('')).values).toEqual(visible);
    expect((await complete('ren')).values).toEqual(['render']);
  });

  it("a partial flag offers the command's flags that start with it", async () => {
    const render = program().commands.find((c) => c.name() === 'render')!;
    const longs = render.options.filter((o) => !o.hidden && o.long?.startsWith('--re')).map((o) => o.long);
    expect((await complete('render', '--re')).values.sort()).toEqual(longs.sort());
    expect((await complete('render', '--')).values).toEqual(expect.arrayContaining(['--values', '--set', '--show-only', '--namespace', '--help']));
  });

  it('--revision and -r offer the chart revisions', async () => {
    expect((await complete('render', '--revision', '')).values).toEqual(['A', 'B']);
    expect((await complete('lint', '-r', '')).values).toEqual(['A', 'B']);
  });

  it('--set contr offers the controller keys of the revision, up to the = and without a space after it', async () => {
    const want = (rev: 'A' | 'B') => walkKeys(rev).filter((k) => k.node.kind === 'leaf' && k.path.startsWith('contr')).map((k) => `${k.path}=`);
    const b = await complete('render', '--set', 'contr');
    expect(b.values).toEqual(want('B'));
    expect(b.directive & NO_SPACE).toBe(NO_SPACE);
    // The revision on the command line picks the keys: controller.goAgentImage exists in A only.
    const a = await complete('render', '-r', 'A', '--set', 'contr');
    expect(a.values).toEqual(want('A'));
    expect(a.values).toContain('controller.goAgentImage.tag=');
    expect(b.values).not.toContain('controller.goAgentImage.tag=');
    expect((await complete('lint', '--set-string', 'ui.repl')).values).toEqual(['ui.replicas=']);
  });

  it('every option and argument that takes one of a fixed set of words completes with exactly those words, in every command', async () => {
    const p = program();
    let checked = 0;
    for (const cmd of p.createHelp().visibleCommands(p)) {
      for (const option of cmd.createHelp().visibleOptions(cmd)) {
        // The options whose value is one of a few words (a format, a revision) declare them.
        if (/<[^>]*\|[^>]*>/.test(option.flags) || option.long === '--output' || option.long === '--format') {
          expect(option.argChoices, `${cmd.name()} ${option.flags}`).toBeDefined();
        }
        if (!option.argChoices) continue;
        for (const flag of [option.long!, ...(option.short ? [option.short] : [])]) {
          expect((await complete(cmd.name(), flag, '')).values, `${cmd.name()} ${flag}`).toEqual(option.argChoices);
          checked++;
        }
      }
      for (const argument of cmd.registeredArguments.filter((a) => a.argChoices)) {
        expect((await complete(cmd.name(), '')).values, `${cmd.name()} <${argument.name()}>`).toEqual(argument.argChoices);
        checked++;
      }
    }
    // lint/validate --format, -o of render, crds, diff, version and explain, every revision flag, completion's shell.
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('explain ui. offers every key under ui', async () => {
    const want = walkKeys('B').map((k) => k.path).filter((k) => k.startsWith('ui.'));
    expect((await complete('explain', 'ui.')).values).toEqual(want);
  });

  it('a file name (after -f, --output-dir, or as lint and validate arguments) is left to the shell: no candidates, file completion allowed', async () => {
    for (const words of [['render', '-f', 'val'], ['render', '--output-dir', ''], ['lint', 'envs/'], ['validate', ''], ['migrate', '--values', 'a'], ['migrate', 'val']]) {
      expect(await complete(...words), words.join(' ')).toEqual({ values: [], directive: 0 });
    }
    // Not where a flag or a key is being typed.
    expect((await complete('lint', '--fo')).values).toEqual(['--format']);
    expect((await complete('lint', '--fo')).directive & NO_FILES).toBe(NO_FILES);
    expect((await complete('render', '--set', 'ui.repl')).directive & NO_FILES).toBe(NO_FILES);
  });

  it('--show-only offers the sources a render of the defaults prints, without the chart name', async () => {
    const rendered = await runInProcess(['render']);
    const sources = [...new Set([...rendered.stdout.matchAll(/^# Source: agentplat\/(.*)$/gm)].map((m) => m[1]!))];
    expect((await complete('render', '--show-only', '')).values.sort()).toEqual(sources.sort());
    expect((await complete('render', '-s', 'templates/controller-')).values).toEqual(expect.arrayContaining(['templates/controller-deployment.yaml']));
  });
});

/** Runs `script` in `shell` with bin/ on PATH (the scripts call `agentplat`). */
function inShell(shell: string, args: string[], script: string) {
  const dir = tempDir('agentplat-completion-');
  const file = join(dir, 'script');
  writeFileSync(file, script);
  const r = spawnSync(shell, [...args, file], { env: { PATH: `${join(ROOT, 'bin')}:${process.env.PATH}`, HOME: dir }, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

describe('completion in the real shells', () => {
  it.skipIf(!has('bash') || !existsSync(BASH_COMPLETION))('bash: the script completes commands, revisions and --set keys', async () => {
    const script = (await runInProcess(['completion', 'bash'])).stdout;
    const r = inShell('bash', [], `source ${BASH_COMPLETION}
source /dev/stdin <<'EOF'
${script}
EOF
comp() {
  COMP_LINE="$1"; COMP_POINT=\${#COMP_LINE}
  read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); COMPREPLY=()
  __agentplat_complete 2>/dev/null
  echo "$1 => \${COMPREPLY[*]}"
}
comp "agentplat ren"
comp "agentplat render --revision "
comp "agentplat render --set controller.repl"
comp "agentplat explain ui.httpRoute.en"
comp "agentplat render -f val"
comp "agentplat lint --format "
comp "agentplat render -o "
comp "agentplat completion "
comp "agentplat diff --from-revision "
comp "agentplat diff --to-revision "
complete -p agentplat
`);
    expect(r.err).toBe('');
    // No candidates for a file name, and the command is registered with -o default: bash then
    // completes file names itself.
    expect(r.out).toContain('agentplat render -f val => \n');
    expect(r.out).toMatch(/^complete -o default -F __agentplat_complete agentplat$/m);
    expect(r.out).toContain('agentplat ren => render\n');
    expect(r.out).toContain('agentplat render --revision  => A B\n');
    expect(r.out).toContain('agentplat render --set controller.repl => controller.replicas=\n');
    expect(r.out).toContain('agentplat explain ui.httpRoute.en => ui.httpRoute.enabled\n');
    expect(r.out).toContain('agentplat lint --format  => text json sarif github junit\n');
    expect(r.out).toContain('agentplat render -o  => yaml json\n');
    expect(r.out).toContain('agentplat completion  => bash zsh fish\n');
    expect(r.out).toContain('agentplat diff --from-revision  => A B\n');
    expect(r.out).toContain('agentplat diff --to-revision  => A B\n');
  });

  it.skipIf(!has('bash'))('bash: sourcing the script twice (re-reading ~/.bashrc) prints nothing and keeps it working', async () => {
    const script = (await runInProcess(['completion', 'bash'])).stdout;
    const r = inShell('bash', [], `source /dev/stdin <<'EOF'
${script}
EOF
source /dev/stdin <<'EOF'
${script}
EOF
echo "directive: $ShellCompDirectiveNoFileComp"
complete -p agentplat
`);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('directive: 4\n');
    expect(r.out).toMatch(/^complete -o default -F __agentplat_complete agentplat$/m);
  });

  it.skipIf(!has('zsh'))('zsh: the script registers with compinit and hands candidates to _describe', async () => {
    const script = (await runInProcess(['completion', 'zsh'])).stdout;
    // Outside a completion widget _describe and _arguments cannot show anything; these print what
    // they are given (and _describe fails on nothing, as the real one does).
    const r = inShell('zsh', ['-f'], `autoload -U compinit && compinit -u
source /dev/stdin <<'EOF'
${script}
EOF
print "registered: $_comps[agentplat]"
_describe() { (( \${#completions} )) || return 1; print -l -- "\${completions[@]}" }
compadd() { : }
words=(agentplat render --rev); CURRENT=3; _agentplat
words=(agentplat render --set controller.repl); CURRENT=4; _agentplat
_arguments() { print "file completion: $*" }
words=(agentplat render -f val); CURRENT=4; _agentplat
`);
    expect(r.out).toMatch(/^file completion: \*:filename:_files/m);
    expect(r.out).toContain('registered: _agentplat\n');
    expect(r.out).toContain('--revision:chart revision\n');
    expect(r.out).toContain('controller.replicas=:Number of controller pods\n');
  });

  it.skipIf(!has('fish'))('fish: `complete -C` with the script loaded offers commands, revisions and keys', async () => {
    const script = (await runInProcess(['completion', 'fish'])).stdout;
    const dir = tempDir('agentplat-fish-');
    writeFileSync(join(dir, 'agentplat.fish'), script);
    writeFileSync(join(dir, 'values-prod.yaml'), '');
    const r = inShell('fish', [], `cd ${dir}
source ${join(dir, 'agentplat.fish')}
complete -C "agentplat render -f values-p"
complete -C "agentplat ren"
complete -C "agentplat render --revision "
complete -C "agentplat explain ui.httpRoute.en"
`);
    expect(r.out).toMatch(/^render\trender the chart/m);
    expect(r.out).toMatch(/^A\tchart /m);
    expect(r.out).toMatch(/^B\tchart /m);
    expect(r.out).toMatch(/^ui\.httpRoute\.enabled\t/m);
    expect(r.out).toMatch(/^values-prod\.yaml$/m);
  });
});

describe('completion costs other commands nothing', () => {
  // That no other command runs the completion library is checked on the shipped bundle by
  // test/startup-set.test.ts.
  it('the keys offered are the values model\'s keys, in both revisions, and under a provider block\'s config and tls the ModelConfig CRD\'s fields', async () => {
    const { completionData } = await import('../../src/cli/completion-data.ts');
    const { ModelConfigSpec } = await import('../../src/crds/model.ts');
    const crdFields = /^providers\.(provider[A-J])\.(config|tls)\.([^.]+)$/;
    const belowCrd = (key: string) => /^providers\.provider[A-J]\.(config|tls)\..+$/.test(key);
    for (const rev of ['A', 'B'] as const) {
      const offered = completionData.keys(rev);
      // Outside the CRD's fields: exactly the model.
      expect(offered.filter((k) => !belowCrd(k.key)).map((k) => [k.key, k.leaf])).toEqual(walkKeys(rev).filter((k) => !belowCrd(k.path)).map((k) => [k.path, k.node.kind === 'leaf']));
      // Under config and tls: every field the CRD gives spec.provider<X> and spec.tls.
      const fields = offered.map((k) => crdFields.exec(k.key)).filter((m) => m !== null);
      const blocks = new Set(fields.map((m) => m![1]));
      expect(blocks.size).toBe(rev === 'A' ? 5 : 6);
      for (const block of blocks) {
        for (const [part, crdKey] of [['config', block], ['tls', 'tls']] as const) {
          const want = Object.keys(ModelConfigSpec.properties![crdKey!]!.properties ?? {}).sort();
          expect(fields.filter((m) => m![1] === block && m![2] === part).map((m) => m![3]).sort(), `${rev} ${block}.${part}`).toEqual(want);
        }
      }
    }
  });
});
