// security/database-url-password: a values file that writes database.rdb.url with its password
// in clear. The render keeps the URL out of the Deployment (a Secret of the release,
// test/render/database-url-secret.test.ts), so what lint warns about is the file itself, and the
// Deployment too when the URL must stay there ($(NAME) references the kubelet expands).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Problem } from '../../src/problems/problem.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { runInProcess } from '../cli/in-process.ts';
import { envOf, find, get, render, yamlValues } from '../render/_render.ts';

const RULE = 'security/database-url-password';

function found(revision: Revision, url: string, extra: { releaseName?: string; more?: string } = {}): Problem[] {
  const text = `${extra.more ?? ''}database:\n  rdb:\n    url: ${JSON.stringify(url)}\n`;
  const source = parseValuesText(text, 'values.yaml').source!;
  return lintValues({ revision, layers: [source], ...(extra.releaseName ? { releaseName: extra.releaseName } : {}) }).problems.filter((p) => p.rule === RULE);
}

describe('security/database-url-password: a password written in a values file', () => {
  it.each([
    ['A', 'postgres://app:s3cret-Pw@db.example.com:5432/agentplat', /the user:password part of the URL/],
    ['B', 'postgresql://app:s3cret-Pw@db-1:5432,db-2:5432/agentplat?sslmode=require', /the user:password part of the URL/],
    ['B', 'postgres://app@db/agentplat?sslmode=require&password=s3cret-Pw', /its password= parameter/],
    ['A', 'host=db user=app password=s3cret-Pw dbname=agentplat', /its password= setting/],
    ['B', "host=db user=app password = 's3cret Pw' dbname=agentplat", /its password= setting/],
  ] as const)('%s: %s is a warning at the key, naming where the password is and the Secret the URL renders into', (rev, url, where) => {
    const problems = found(rev, url);
    expect(problems.map((p) => [p.severity, p.path, p.file, p.line, p.column])).toEqual([['warning', 'database.rdb.url', 'values.yaml', 3, 5]]);
    const [p] = problems;
    expect(p!.message).toMatch(where);
    expect(p!.message).toContain('the Secret agentplat-database-url, not into the Deployment');
    expect(p!.hint).toMatch(/database\.rdb\.urlFile/);
    expect(p!.hint).toMatch(/controller\.volumes and controller\.volumeMounts/);
    expect(JSON.stringify(problems)).not.toContain('s3cret');
  });

  it.each([
    'postgres://app@db.example.com:5432/agentplat',
    'postgres://app:@db/agentplat',
    'postgres://db/agentplat?sslmode=require&password=',
    'host=db user=app dbname=agentplat sslmode=require',
    "host=db user=app password='' dbname=agentplat",
    'postgres://app:$(DB_PASSWORD)@db/agentplat',
    'postgres://app:$(DB_USER_PW)$(DB_SUFFIX)@db/agentplat?application_name=$(K8S_POD_NAME)',
  ])('%s carries no password in clear: nothing to report', (url) => {
    expect(found('B', url)).toEqual([]);
  });

  it('an escaped "$$(NAME)" is no reference: the password is written out', () => {
    expect(found('B', 'postgres://app:$$(DB_PASSWORD)@db/agentplat')).toHaveLength(1);
  });

  it('the Secret named is the one the release renders (--release-name, fullnameOverride)', () => {
    expect(found('B', 'postgres://app:pw12345@db/x', { releaseName: 'prod' })[0]!.message).toContain('the Secret prod-database-url');
    expect(found('A', 'postgres://app:pw12345@db/x', { more: 'fullnameOverride: plat\n' })[0]!.message).toContain('the Secret plat-database-url');
  });

  it('urlFile wins over url: the URL renders nowhere, so its password is not reported by this rule', () => {
    const text = 'database:\n  rdb:\n    urlFile: /db/url\n    url: postgres://app:pw12345@db/x\n';
    const problems = lintValues({ revision: 'B', layers: [parseValuesText(text, 'values.yaml').source!] }).problems;
    expect(problems.map((p) => p.rule)).toEqual(['values/database-url-and-file']);
  });

  it('a URL with $(NAME) references and a password in clear stays in the Deployment, and the warning says so', () => {
    const [p, ...rest] = found('B', 'postgres://app:s3cret-Pw@db/agentplat?application_name=$(K8S_POD_NAME)');
    expect(rest).toEqual([]);
    expect(p!.message).toMatch(/refers to other variables \(\$\(K8S_POD_NAME\)\), so it renders into the controller Deployment's environment as written/);
    expect(p!.message).toMatch(/whoever may read the Deployment reads the password/);
  });
});

describe('security/database-url-password on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentplat-dburl-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lint -f: the warning at file:line:col with the password masked; exit 0, and 1 under --strict', async () => {
    const file = join(dir, 'values.yaml');
    writeFileSync(file, 'database:\n  rdb:\n    url: postgres://app:s3cret-Pw@db/agentplat\n');
    const r = await runInProcess(['lint', '-f', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${file}:3:5  warning  database.rdb.url carries the database password in clear (the user:password part of the URL)`);
    expect(r.stdout).toContain('[security/database-url-password]');
    expect(r.stdout + r.stderr).not.toContain('s3cret');
    expect((await runInProcess(['lint', '--strict', '-f', file])).code).toBe(1);
    expect((await runInProcess(['lint', '--rule', 'security/database-url-password=off', '--strict', '-f', file])).code).toBe(0);
  });

  it('--set and --set-json: the pipeline takes the URL from where it keeps it, no file holds it: nothing to report', async () => {
    for (const args of [['--set', 'database.rdb.url=postgres://app:s3cret-Pw@db/agentplat'], ['--set-json', 'database={"rdb":{"url":"postgres://app:s3cret-Pw@db/agentplat"}}']]) {
      const r = await runInProcess(['lint', '--strict', ...args]);
      expect(r.stdout).not.toContain(RULE);
      expect(r.code).toBe(0);
    }
  });

  it('--set with $(NAME) references: the password reaches the Deployment, so it is reported whoever wrote it', async () => {
    const r = await runInProcess(['lint', '--set', 'database.rdb.url=postgres://app:s3cret-Pw@db/x?application_name=$(K8S_POD_NAME)']);
    expect(r.stdout).toMatch(/^--set #1:1:1 {2}warning {2}database\.rdb\.url carries the database password in clear/m);
    expect(r.stdout).not.toContain('s3cret');
  });
});

describe('the way out docs/security.md gives', () => {
  it('its values (urlFile, the URL in a Secret of your own mounted into the controller) lint clean and render no URL anywhere', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'security.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The database password stays out of the Deployment'));
    const text = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    expect(lintValues({ revision: 'B', layers: [parseValuesText(text, 'values.yaml').source!] }).problems).toEqual([]);
    const docs = render('B', yamlValues(text));
    const controller = get(docs, 'Deployment', 'agentplat-controller');
    expect(envOf(controller).POSTGRES_DATABASE_URL_FILE).toBe('/etc/agentplat/db/url');
    expect(envOf(controller).POSTGRES_DATABASE_URL).toBeUndefined();
    expect(controller.spec.template.spec.containers[0].volumeMounts).toContainEqual({ name: 'db-url', mountPath: '/etc/agentplat/db', readOnly: true });
    expect(find(docs, 'Secret', 'agentplat-database-url')).toBeUndefined();
  });
});
