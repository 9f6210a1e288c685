// `--set` integers past 2^53 render with their exact digits, as helm renders the int64 it keeps
// (issue 27, item 4); a values file's integer is a float64 in helm, and a number here, so both
// round it the same way. The helm outputs quoted in the comments were measured with helm 4.3.1
// (`helm template` of a chart whose template prints `.Values` with toJson, toYaml and as text).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';

/** x.yaml in `dir`: one extraObjects ConfigMap `big` whose data lines are templates. */
function writeExtraConfigMap(dir: string, data: readonly string[]): void {
  const lines = ['extraObjects:', '  - |', '    apiVersion: v1', '    kind: ConfigMap', '    metadata:', '      name: big', '    data:', ...data.map((l) => `      ${l}`), ''];
  writeFileSync(join(dir, 'x.yaml'), lines.join('\n'));
}

const BIG = '9007199254740993';
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'agentplat-int64-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('--set integers past 2^53', () => {
  it('an int64 field set with --set renders its exact digits in YAML and in JSON', async () => {
    const set = ['--set', `controller.podSecurityContext.runAsUser=${BIG}`, '--set', 'controller.podSecurityContext.fsGroup=-9223372036854775808'];
    const yaml = await runInProcess(['render', '-r', 'B', ...set, '--show-only', 'controller-deployment.yaml']);
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toContain(`      securityContext:\n        runAsUser: ${BIG}\n        fsGroup: -9223372036854775808\n`);
    const json = await runInProcess(['render', '-r', 'B', ...set, '--show-only', 'controller-deployment.yaml', '-o', 'json']);
    expect(json.code).toBe(0);
    expect(json.stdout).toContain(`"runAsUser": ${BIG}`);
    expect(json.stdout).toContain('"fsGroup": -9223372036854775808');
  });

  it('the int64 maximum passes the CRD check of a provider config and renders exactly', async () => {
    const r = await runInProcess(['render', '-r', 'B', '--set', 'providers.providerB.config.seed=9223372036854775807', '--show-only', 'modelconfig.yaml']);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('seed: 9223372036854775807\n');
  });

  it('templates in extraObjects print the digits as helm does (toJson, toYaml, plain text)', async () => {
    const d = tmp();
    writeExtraConfigMap(d, [
      'json: {{ toJson .Values.controller.podSecurityContext | quote }}',
      'yaml: {{ toYaml .Values.controller.podSecurityContext | quote }}',
      'plain: "{{ .Values.controller.podSecurityContext.runAsUser }}"',
    ]);
    const r = await runInProcess(['render', '-r', 'B', '-f', 'x.yaml', '--set', `controller.podSecurityContext.runAsUser=${BIG}`, '--show-only', 'extra-objects.yaml'], { cwd: d });
    expect(r.code).toBe(0);
    // helm 4.3.1 for --set a=9007199254740993: toJson {"a":9007199254740993}, toYaml a: 9007199254740993, text 9007199254740993.
    expect(r.stdout).toContain(`  json: "{\\"runAsUser\\":${BIG}}"\n  yaml: "runAsUser: ${BIG}"\n  plain: "${BIG}"\n`);
  });

  it('template functions treat it as helm treats the int64 (printf, kindOf, typeOf, add, int64, lt, toString)', async () => {
    const d = tmp();
    const v = '.Values.controller.podSecurityContext.runAsUser';
    // Each expression's helm 4.3.1 output for --set a=9007199254740993, measured with helm template.
    const helm: [string, string][] = [
      [`printf "%d" ${v}`, BIG],
      [`printf "%v" ${v}`, BIG],
      [`kindOf ${v}`, 'int64'],
      [`typeOf ${v}`, 'int64'],
      [`toString ${v}`, BIG],
      [`add ${v} 1`, '9007199254740994'],
      [`sub ${v} 2`, '9007199254740991'],
      [`int64 ${v}`, BIG],
      [`list ${v} 1 | toString`, `[${BIG} 1]`],
      [`lt 9007199254740992 ${v}`, 'true'],
    ];
    writeExtraConfigMap(d, helm.map(([expr], i) => `k${i}: {{ ${expr} | quote }}`));
    const r = await runInProcess(['render', '-r', 'B', '-f', 'x.yaml', '--set', `controller.podSecurityContext.runAsUser=${BIG}`, '--show-only', 'extra-objects.yaml', '-o', 'json'], { cwd: d });
    expect(r.code).toBe(0);
    const data = (JSON.parse(r.stdout) as { items: { data: Record<string, string> }[] }).items[0]!.data;
    expect(helm.map(([expr], i) => [expr, data[`k${i}`]])).toEqual(helm);
  });

  it('diff -o json writes the exact digits as a JSON number', async () => {
    const r = await runInProcess(['diff', '-r', 'B', '--to-set', `controller.podSecurityContext.runAsUser=${BIG}`, '-o', 'json']);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.stdout).toContain(`"to": ${BIG}\n`);
  });

  it('a string-typed key refuses it as it refuses any number', async () => {
    const r = await runInProcess(['render', '-r', 'B', '--set', `controller.env[0].name=X,controller.env[0].value=${BIG}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`\`controller.env[0].value\` must be a string, found ${BIG}`);
    expect(r.stderr).toContain('use --set-string');
  });

  it('past the int64 range the text stays a string, as in helm, and an integer key says so', async () => {
    const r = await runInProcess(['render', '-r', 'B', '--set', 'controller.podSecurityContext.runAsUser=9223372036854775808']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('`controller.podSecurityContext.runAsUser` must be an integer, found "9223372036854775808"');
  });

  it('a values file integer past 2^53 is a float64 in helm and a number here: both render 9007199254740992', async () => {
    const d = tmp();
    // helm 4.3.1 for a file with a: 9007199254740993: toJson {"a":9007199254740992}.
    writeFileSync(join(d, 'v.yaml'), `controller:\n  podSecurityContext:\n    runAsUser: ${BIG}\n`);
    const r = await runInProcess(['render', '-r', 'B', '-f', 'v.yaml', '--show-only', 'controller-deployment.yaml'], { cwd: d });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('        runAsUser: 9007199254740992\n');
  });
});
