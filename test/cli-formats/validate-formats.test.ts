// `agentplat validate` prints its problems in every format lint prints, through the same
// formatters, run as the real binary: SARIF that code scanning accepts and that points at the
// resource's file:line:column under a described, stable rule id; GitHub annotations; JUnit XML.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRD_RULES } from '../../src/kube-check/rules.ts';
import { FORMAT_NAMES } from '../../src/problems/format-names.ts';
import { ensureBuilt, ROOT, runBin } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// A ModelConfig with a schema problem (line 7) and an unknown field (line 8), and a valid Agent.
const BAD = [
  'apiVersion: agentplat.dev/v1alpha2',
  'kind: ModelConfig',
  'metadata:',
  '  name: fast',
  'spec:',
  '  model: m',
  '  provider: NotAProvider',
  '  bogus: 1',
  '',
].join('\n');

const cwd = tempDir('agentplat-validate-formats-');
beforeAll(() => {
  ensureBuilt();
  mkdirSync(join(cwd, 'agents'));
  writeFileSync(join(cwd, 'agents', 'bad.yaml'), BAD);
  writeFileSync(join(cwd, 'agents', 'good.yaml'), readFileSync(join(ROOT, 'fixtures/resources/agent-declarative.yaml'), 'utf8'));
});

function validate(format: string, ...paths: string[]) {
  return runBin(['validate', ...(paths.length ? paths : ['agents']), '--format', format], { cwd });
}

describe('validate --format: every format lint has', () => {
  it.each(FORMAT_NAMES)('%s is accepted, exits 1 on problems and 0 on valid resources', (format) => {
    const bad = validate(format);
    expect(bad.stderr).toBe('');
    expect(bad.code).toBe(1);
    const good = validate(format, 'agents/good.yaml');
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
  });

  it('an unknown format is a usage error listing the same formats as lint', () => {
    const r = validate('xml');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`valid formats: ${FORMAT_NAMES.join(', ')}`);
  });

  it('docs/resource-api.md lists every validate rule id', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'resource-api.md'), 'utf8');
    for (const id of Object.keys(CRD_RULES)) expect(readme).toContain(`\`${id}\``);
  });

  it('--help names every format and every rule id', () => {
    const help = runBin(['validate', '--help']).stdout.replace(/\s+/g, ' ');
    for (const f of FORMAT_NAMES) expect(help).toContain(f);
    for (const id of Object.keys(CRD_RULES)) expect(help).toContain(id);
  });
});

describe('validate --format sarif', () => {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  const schemaCheck = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'fixtures/formats/sarif-2.1.0.schema.json'), 'utf8')));

  it('is a SARIF 2.1.0 log by its schema', () => {
    const log = JSON.parse(validate('sarif').stdout);
    const ok = schemaCheck(log);
    expect(schemaCheck.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('points each result at the custom resource file, line and column of the field', () => {
    const results = JSON.parse(validate('sarif').stdout).runs[0].results;
    const where = results.map((r: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: unknown } }[] }) => [
      r.ruleId,
      r.locations[0]!.physicalLocation.artifactLocation.uri,
      r.locations[0]!.physicalLocation.region,
    ]);
    expect(where).toEqual([
      ['crd/schema', 'agents/bad.yaml', { startLine: 7, startColumn: 3 }],
      ['crd/unknown-field', 'agents/bad.yaml', { startLine: 8, startColumn: 3 }],
    ]);
    expect(results[1].properties).toEqual({ fieldPath: 'spec.bogus' });
  });

  it('describes every rule id it uses in the rule table, with the description of the validate rule catalog', () => {
    const run = JSON.parse(validate('sarif').stdout).runs[0];
    const rules = run.tool.driver.rules as { id: keyof typeof CRD_RULES; shortDescription: { text: string }; help: { text: string } }[];
    expect(rules.map((r) => r.id)).toEqual(['crd/schema', 'crd/unknown-field']);
    for (const r of rules) {
      expect(r.shortDescription.text).toBe(CRD_RULES[r.id]);
      // Validate has no --rule flag: the help must not offer one.
      expect(r.help.text).not.toContain('--rule');
    }
    for (const r of run.results) expect(rules[r.ruleIndex]!.id).toBe(r.ruleId);
  });
});

describe('validate --format github', () => {
  it('prints one well-formed error annotation per problem, at file, line and column', () => {
    const lines = validate('github').stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^::error file=[^,:]+,line=\d+,col=\d+,title=crd\/[a-z-]+::[^\n\r]+$/);
    expect(lines[0]).toMatch(/^::error file=agents\/bad\.yaml,line=7,col=3,title=crd\/schema::ModelConfig fast: spec\.provider /);
    expect(lines[1]).toMatch(/^::error file=agents\/bad\.yaml,line=8,col=3,title=crd\/unknown-field::.*%0Ahint: known fields: /);
  });
});

describe('validate --format junit', () => {
  /** Parses with a real XML parser (Python's, on every machine this project runs on); the element tree as JSON. */
  function parseXml(xml: string): { tag: string; attrs: Record<string, string>; children: unknown[] } {
    const script = [
      'import json, sys, xml.etree.ElementTree as ET',
      'def walk(e): return {"tag": e.tag, "attrs": dict(e.attrib), "children": [walk(c) for c in e]}',
      'print(json.dumps(walk(ET.fromstring(sys.stdin.buffer.read()))))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script], { input: xml, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  }

  it('is well-formed XML: a suite per file, a failed case per rule, a passing case for a valid file', () => {
    const tree = parseXml(validate('junit').stdout);
    expect(tree.tag).toBe('testsuites');
    expect(tree.attrs).toMatchObject({ name: 'agentplat validate', tests: '3', failures: '2' });
    const suites = tree.children as { attrs: Record<string, string>; children: { attrs: Record<string, string>; children: { tag: string }[] }[] }[];
    expect(suites.map((s) => s.attrs.name)).toEqual(['agents/bad.yaml', 'agents/good.yaml']);
    expect(suites[0]!.children.map((c) => [c.attrs.name, c.children.map((x) => x.tag)])).toEqual([
      ['crd/schema', ['failure']],
      ['crd/unknown-field', ['failure']],
    ]);
    expect(suites[1]!.children.map((c) => [c.attrs.name, c.children.length])).toEqual([['resources', 0]]);
  });

  it('the XML check can fail: a cut report does not parse', () => {
    const xml = validate('junit').stdout;
    const r = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as ET; ET.fromstring(sys.stdin.buffer.read())'], { input: xml.slice(0, -20), encoding: 'utf8' });
    expect(r.status).not.toBe(0);
  });
});
