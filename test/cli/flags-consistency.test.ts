// Flags that a user reaches for the same way in every command, and answers that do not mislead.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { runInProcess } from './in-process.ts';

describe('flags and answers', () => {
  it('migrate takes exactly one -f file; a second one is a usage error, not silently dropped', async () => {
    const dir = tempDir('agentplat-mig-');
    writeFileSync(join(dir, 'a.yaml'), 'controller:\n  replicas: 2\n');
    writeFileSync(join(dir, 'b.yaml'), 'ui:\n  replicas: 2\n');
    const r = await runInProcess(['migrate', '--from', 'A', '--to', 'B', '-f', 'a.yaml', '-f', 'b.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/exactly one values file \(an argument or -f\), got 2/);
  });

  it('lint --quiet lists errors only but its summary still counts the warnings (they decide --strict)', async () => {
    const dir = tempDir('agentplat-quiet-');
    writeFileSync(join(dir, 'w.yaml'), 'controller:\n  streaming: "true"\n');
    const r = await runInProcess(['lint', 'w.yaml', '--quiet', '--no-color'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('streaming-deprecated');
    expect(r.stdout).toMatch(/1 file, 0 errors, 1 warning/);
  });

  it('crds accepts -r/--revision like every command (both revisions ship the same CRDs)', async () => {
    const a = await runInProcess(['crds', '-r', 'A']);
    const b = await runInProcess(['crds', '-r', 'B']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect((await runInProcess(['crds', '-r', 'C'])).code).toBe(2);
  });

  it('--show-only with a near miss suggests the source it probably means', async () => {
    const r = await runInProcess(['render', '--show-only', 'templates/controller-deploy.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean agentplat\/templates\/controller-deployment\.yaml\?/);
  });

  it('a number given through --set-string gets a hint that names --set', async () => {
    const r = await runInProcess(['lint', '--set-string', 'controller.replicas=2', '--no-color']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/--set, not --set-string/);
  });
});

describe('--version belongs to the program, not to a command', () => {
  it('--version or -V after a command is a usage error that runs nothing and points at --revision', async () => {
    const dir = tempDir('agentplat-version-');
    writeFileSync(join(dir, 'bad.yaml'), 'controller:\n  imagee: x\n');
    for (const args of [
      ['lint', '-f', 'bad.yaml', '--version'],
      ['lint', '-V', '-f', 'bad.yaml'],
      ['validate', 'bad.yaml', '--version'],
      ['migrate', '--version'],
      ['values', '-V'],
    ]) {
      const r = await runInProcess(args, { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(/--version is an option of agentplat itself/);
      expect(r.stderr, args.join(' ')).toMatch(/hint: --revision picks the chart revision \(A is chart 0\.10\.0, B is chart 0\.11\.0\)/);
    }
  });

  it('render --version 0.11.0 (how helm pins a chart) prints no manifest and names --revision B', async () => {
    const r = await runInProcess(['render', '--version', '0.11.0']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/hint: chart 0\.11\.0 is --revision B/);
  });

  it('--version before any command still prints the tool version', async () => {
    for (const args of [['--version'], ['-V'], ['-V', 'lint']]) {
      const r = await runInProcess(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('--no-color is accepted before and after the command', async () => {
    expect((await runInProcess(['--no-color', 'version', '-r', 'B'])).code).toBe(0);
    expect((await runInProcess(['version', '-r', 'B', '--no-color'])).code).toBe(0);
  });
});

describe('hints speak of the input the value came from', () => {
  const hintOf = async (args: string[], cwd?: string) => {
    const r = await runInProcess(['lint', '--no-color', ...args], { cwd });
    return /^ {2}hint: (.*)$/m.exec(r.stdout)?.[1];
  };

  it('an integer key given a fraction or leading zeros with --set: no "--set, not --set-string"', async () => {
    expect(await hintOf(['--set', 'controller.replicas=2.5'])).toBe('write a whole number, such as 2');
    expect(await hintOf(['--set', 'controller.replicas=007'])).toBe('write 7: --set keeps a number with leading zeros as a string');
  });

  it('a quoted number names the fix for where it was written: the file, --set-string or --set-json', async () => {
    const dir = tempDir('agentplat-hints-');
    writeFileSync(join(dir, 'q.yaml'), 'controller:\n  replicas: "2"\n');
    expect(await hintOf(['-f', 'q.yaml'], dir)).toBe('write the number without quotes');
    expect(await hintOf(['--set-string', 'controller.replicas=2'])).toBe('use --set, not --set-string: --set types whole numbers');
    expect(await hintOf(['--set-json', 'controller.replicas="2"'])).toBe('write the number without quotes in the JSON');
  });

  it('a string key given true with --set suggests --set-string; in a file, quotes', async () => {
    expect(await hintOf(['--set', 'labels.flag=true'])).toBe('use --set-string to keep it a string: --set types true, false, null and whole numbers');
    const dir = tempDir('agentplat-hints-');
    writeFileSync(join(dir, 'l.yaml'), 'labels:\n  flag: true\n');
    expect(await hintOf(['-f', 'l.yaml'], dir)).toBe('quote the value to make it a string');
  });

  it('--show-only of an object whose API is not declared names --api-versions', async () => {
    const metrics = ['--set', 'controller.metrics.enabled=true', '--set', 'controller.metrics.bindAddress=:8443', '--set', 'controller.metrics.serviceMonitor.enabled=true'];
    const r = await runInProcess(['render', ...metrics, '--show-only', 'templates/controller-servicemonitor.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: that source renders only when the cluster serves monitoring.coreos.com/v1: declare it with --api-versions monitoring.coreos.com/v1');
    const declared = await runInProcess(['render', ...metrics, '--api-versions', 'monitoring.coreos.com/v1', '--show-only', 'templates/controller-servicemonitor.yaml']);
    expect(declared.code).toBe(0);
    expect(declared.stdout).toContain('kind: ServiceMonitor');
  });

  it('--show-only of a CRD with --skip-crds names --skip-crds', async () => {
    const r = await runInProcess(['render', '--skip-crds', '--show-only', 'crds/agents.agentplat.dev.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hint: that source holds CustomResourceDefinitions, which --skip-crds leaves out/);
  });

  it('a directory instead of a file: lint suggests a pattern, -f a file that exists', async () => {
    const dir = tempDir('agentplat-dir-');
    mkdirSync(join(dir, 'envs', 'dev'), { recursive: true });
    writeFileSync(join(dir, 'envs', 'dev', 'values.yaml'), 'ui: {}\n');
    mkdirSync(join(dir, 'empty'));
    const positional = await runInProcess(['lint', 'envs'], { cwd: dir });
    expect(positional.code).toBe(2);
    expect(positional.stderr).toContain("hint: to lint each values file in it, quote a pattern: agentplat lint 'envs/**/*.yaml'");
    expect((await runInProcess(['lint', '-f', 'envs'], { cwd: dir })).stderr).toContain('hint: pass a file inside it, e.g. envs/dev/values.yaml');
    expect((await runInProcess(['lint', '-f', 'empty'], { cwd: dir })).stderr).toContain('hint: it holds no .yaml or .yml file');
  });
});

describe('help and option errors say one thing one way', () => {
  const COMMANDS = ['render', 'diff', 'plan', 'lint', 'validate', 'crds', 'values', 'schema', 'docs', 'migrate', 'version'];
  const helpOf = async (args: string[]) => (await runInProcess([...args, '--help'])).stdout;

  it('every default is written "(default: X)", in every help', async () => {
    for (const args of [[], ...COMMANDS.map((c) => [c])]) {
      // Help wraps long lines, sometimes right after "(default:".
      const help = (await helpOf(args)).replace(/\s+/g, ' ');
      for (const [written] of help.matchAll(/\(default\b[^)]*\)/g)) expect(written, `${args.join(' ') || 'agentplat'} --help`).toMatch(/^\(default: [^"]/);
    }
    const flat = async (args: string[]) => (await helpOf(args)).replace(/\s+/g, ' ');
    expect(await flat(['lint'])).toContain('chart revision (default: revision: of .agentplat.yaml, else B)');
    expect(await flat(['lint'])).toMatch(/problem format: [^(]* \(default: text\)/);
    expect(await flat(['migrate'])).toContain('revision the file was written for (default: A)');
  });

  it('every help that reads the revision from .agentplat.yaml says so as its default (migrate, which does not, says B)', async () => {
    const flat = async (args: string[]) => (await helpOf(args)).replace(/\s+/g, ' ');
    for (const c of ['render', 'template', 'lint', 'diff', 'plan', 'values', 'schema', 'docs', 'crds']) {
      expect(await flat([c]), `${c} --help`).toMatch(/-r, --revision <A\|B> .*?\(default: revision: of \.agentplat\.yaml, else B\)/);
    }
    expect(await flat(['migrate'])).toContain('chart revision to migrate to (default: B)');
  });

  it('no help pipes the CRDs and custom resources of a render into a client-side kubectl apply', async () => {
    for (const args of [[], ['render']]) {
      const pipes = (await helpOf(args)).split('\n').filter((l) => l.includes('| kubectl apply'));
      expect(pipes.length).toBeGreaterThan(0);
      for (const line of pipes) {
        expect(line).toContain('--server-side');
        if (line.includes('agentplat render')) expect(line).toContain('--skip-crds');
      }
    }
  });

  it('-r/--revision is taken by every command the top-level help says it is', async () => {
    const dir = tempDir('agentplat-r-');
    writeFileSync(join(dir, 'a.yaml'), 'controller:\n  replicas: 2\n');
    for (const c of COMMANDS.filter((x) => x !== 'validate')) {
      const r = await runInProcess([c, '-r', 'C', ...(c === 'migrate' ? ['-f', 'a.yaml'] : [])], { cwd: dir });
      expect(r.code, c).toBe(2);
      expect(r.stderr, c).toContain('--revision: unknown revision "C"');
    }
  });

  it('-o yml is refused in the same words by render, crds and version', async () => {
    const errs = await Promise.all([['render'], ['crds'], ['version']].map(async (c) => runInProcess([...c, '-o', 'yml'])));
    for (const r of errs) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^agentplat: --output: unknown format "yml"\n {2}hint: (did you mean yaml\? )?this command prints (yaml or json|text or json)\n$/);
    }
  });
});
