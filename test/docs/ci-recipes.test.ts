// The CI and GitOps recipes of docs/ci.md work as written from what this repository provides: each
// recipe's commands, taken from the page's own code blocks, run against a pack of this
// repository (`npm pack`, installed the way the recipe installs it, into a private npm prefix).
// The recipes kept as files under recipes/ are run by test/recipes/.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../cli/binary.ts';
import { installOnce, sh, stepEnv, TARBALL, withPackInTools, type Ran } from '../helpers/pack.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const PAGE = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');


/** The text under a heading of docs/ci.md, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = PAGE.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/ci.md has no heading ${heading}`);
  const level = heading.split(' ')[0]!;
  const rest = PAGE.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Fenced code blocks of one language in `text`, in order. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);
}

function isInstall(command: string): boolean {
  return /\bnpm install\b/.test(command);
}

/** A values repository as the recipes expect it: the pack under tools/, and the given files. */
async function valuesRepo(files: Record<string, string>): Promise<string> {
  const dir = await withPackInTools(tempDir('agentplat-ci-repo-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const CLEAN = {
  'base.yaml': 'controller:\n  replicas: 2\n',
  'envs/dev/values.yaml': 'ui:\n  replicas: 2\n',
  'envs/prod/values.yaml': 'ui:\n  replicas: 3\n',
};
const TYPO = { ...CLEAN, 'envs/prod/values.yaml': 'ui:\n  replcas: 3\n' };

describe('the CI recipes of docs/ci.md run as written against a pack of this repository', () => {
  it('every recipe installs the file `npm pack` writes, not a package name no registry has', () => {
    const installLines = section('## CI and GitOps').split('\n').filter((l) => /npm install --global/.test(l) && !/git\+https/.test(l));
    expect(installLines.length).toBeGreaterThanOrEqual(3);
    for (const line of installLines) expect(line).toContain(TARBALL);
    expect(section('## CI and GitOps')).not.toMatch(/npm install (--global|-g) agentplat\b/);
  });

  describe('GitHub Actions', () => {
    const workflow = parse(blocks(section('### GitHub Actions'), 'yaml')[0]!) as { jobs: Record<string, { steps: { name?: string; run?: string }[] }> };
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps).filter((s) => s.run !== undefined);

    /** Runs every `run:` step in order (GitHub's shell is `bash -e`); the exit code of each. */
    async function runWorkflow(dir: string): Promise<Ran[]> {
      const installStep = steps.find((s) => isInstall(s.run!));
      expect(installStep, 'the workflow installs agentplat').toBeDefined();
      // Once per command text and test run (installOnce): the recipes that install alike share a prefix.
      const prefix = await installOnce(installStep!.run!, dir);
      return steps.filter((s) => s !== installStep).map((s) => sh('bash', s.run!, dir, stepEnv(prefix)));
    }

    it('on clean values every step passes, with annotations and a SARIF file', async () => {
      const dir = await valuesRepo(CLEAN);
      const ran = await runWorkflow(dir);
      expect(ran.map((r) => r.code)).toEqual(ran.map(() => 0));
      const sarif = JSON.parse(readFileSync(join(dir, 'agentplat.sarif'), 'utf8')) as { version: string; runs: { results: unknown[] }[] };
      expect(sarif.version).toBe('2.1.0');
      expect(sarif.runs[0]!.results).toEqual([]);
    });

    it('on a typo the annotation step fails the job and the SARIF step still passes, as docs/ci.md says', async () => {
      const dir = await valuesRepo(TYPO);
      const [annotate, sarifStep] = await runWorkflow(dir);
      expect(annotate!.code).toBe(1);
      expect(annotate!.stdout).toMatch(/^::error file=envs\/prod\/values\.yaml,line=2,col=3,title=values\/unknown-key::/m);
      expect(sarifStep!.code).toBe(0);
      const sarif = JSON.parse(readFileSync(join(dir, 'agentplat.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
      expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(['values/unknown-key']);
    });
  });

  describe('GitLab CI', () => {
    const job = Object.values(parse(blocks(section('### GitLab CI'), 'yaml')[0]!) as Record<string, { script: string[]; artifacts: { reports: { junit: string } } }>)[0]!;

    async function runJob(dir: string): Promise<Ran[]> {
      const [first, ...rest] = job.script;
      expect(isInstall(first!), 'the job installs agentplat first').toBe(true);
      const prefix = await installOnce(first!, dir);
      return rest.map((line) => sh('sh', line, dir, stepEnv(prefix)));
    }

    it('on clean values the job passes and writes the JUnit report it declares', async () => {
      const dir = await valuesRepo(CLEAN);
      expect((await runJob(dir)).map((r) => r.code)).toEqual([0]);
      const report = readFileSync(join(dir, job.artifacts.reports.junit), 'utf8');
      expect(report).toMatch(/^<\?xml/);
      expect(report).toContain('<testsuite name="envs/prod/values.yaml"');
      expect(report).not.toContain('<failure');
    });

    it('on a typo the job fails and the report holds the failed case', async () => {
      const dir = await valuesRepo(TYPO);
      expect((await runJob(dir)).map((r) => r.code)).toEqual([1]);
      expect(readFileSync(join(dir, job.artifacts.reports.junit), 'utf8')).toMatch(/<testcase classname="envs\/prod\/values\.yaml" name="values\/unknown-key">\s*<failure/);
    });
  });
});
