// database.rdb.url reaches the controller from a Secret of the release, never written into the
// Deployment, where whoever may read Deployments would read the password in it (issue 33, item 9).
// The variable keeps its name (POSTGRES_DATABASE_URL), so the controller image reads it as before.
import { describe, expect, it } from 'vitest';
import type { RenderedDoc } from '../../src/model/objects.ts';
import { REVISION_IDS } from '../../src/chart/revisions.ts';
import { runInProcess } from '../cli/in-process.ts';
import { envOf, find, get, render } from './_render.ts';

const URL = 'postgres://app:Pa55-word-9@db.example.com:5432/agentplat?sslmode=require';
const SECRET = 'agentplat-database-url';
const ctrl = (docs: RenderedDoc[]) => get(docs, 'Deployment', 'agentplat-controller');
const decoded = (secret: Record<string, any>) => Buffer.from((secret.data as Record<string, string>).POSTGRES_DATABASE_URL!, 'base64').toString();
const urlChecksum = (docs: RenderedDoc[]) => ctrl(docs).spec.template.metadata.annotations['checksum/database-url'] as string | undefined;

describe('the database URL lives in a Secret of the release', () => {
  it.each(REVISION_IDS)('%s: the controller reads POSTGRES_DATABASE_URL from the Secret <fullname>-database-url, which holds the URL; the Deployment does not', (rev) => {
    const docs = render(rev, { database: { rdb: { url: URL } } });
    expect(JSON.stringify(ctrl(docs))).not.toContain('Pa55-word-9');
    expect(JSON.parse(envOf(ctrl(docs)).POSTGRES_DATABASE_URL!)).toEqual({ secretKeyRef: { name: SECRET, key: 'POSTGRES_DATABASE_URL' } });
    const secret = get(docs, 'Secret', SECRET);
    expect(decoded(secret)).toBe(URL);
    expect(Object.keys(secret.data)).toEqual(['POSTGRES_DATABASE_URL']);
    expect(secret.type).toBe('Opaque');
    // Owned by the release as the controller's ConfigMap is: same namespace and labels.
    const config = get(docs, 'ConfigMap', 'agentplat-controller');
    expect(secret.metadata.namespace).toBe(config.metadata.namespace);
    expect(secret.metadata.labels).toEqual(config.metadata.labels);
    expect(docs.find((d) => d.object === secret)!.source).toBe('agentplat/templates/controller-database-secret.yaml');
  });

  it('the Secret is named from the chart fullname (release name, fullnameOverride) and in the chart namespace', () => {
    const docs = render('B', { database: { rdb: { url: URL } }, namespaceOverride: 'data' }, { releaseName: 'prod' });
    expect(get(docs, 'Secret', 'prod-database-url').metadata.namespace).toBe('data');
    expect(JSON.parse(envOf(get(docs, 'Deployment', 'prod-controller')).POSTGRES_DATABASE_URL!).secretKeyRef.name).toBe('prod-database-url');
    const over = render('A', { database: { rdb: { url: URL } }, fullnameOverride: 'plat' });
    expect(find(over, 'Secret', 'plat-database-url')).toBeDefined();
  });

  it('a changed URL rolls the controller: the pod template carries the checksum of the Secret, and only then changes', () => {
    const a = urlChecksum(render('B', { database: { rdb: { url: URL } } }));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(urlChecksum(render('B', { database: { rdb: { url: URL } } }))).toBe(a);
    expect(urlChecksum(render('B', { database: { rdb: { url: URL.replace('Pa55', 'Pa56') } } }))).not.toBe(a);
    expect(urlChecksum(render('B', { database: { rdb: { url: URL } }, controller: { loglevel: 'debug' } }))).toBe(a);
  });

  it('urlFile and the bundled database render no URL Secret and no checksum of one', () => {
    for (const values of [{ database: { rdb: { urlFile: '/db/url' } } }, { database: { rdb: { urlFile: '/db/url', url: URL } } }, {}]) {
      const docs = render('B', values);
      expect(find(docs, 'Secret', SECRET)).toBeUndefined();
      expect(urlChecksum(docs)).toBeUndefined();
    }
  });

  it('a URL with $(NAME) references stays in the Deployment: the kubelet expands them only in a value, never in one read from a Secret', () => {
    const url = 'postgres://app:$(DB_PASSWORD)@db/agentplat';
    const docs = render('B', { database: { rdb: { url } }, controller: { envFrom: [{ secretRef: { name: 'db' } }] } });
    expect(envOf(ctrl(docs)).POSTGRES_DATABASE_URL).toBe(url);
    expect(find(docs, 'Secret', SECRET)).toBeUndefined();
  });

  it('"$$" writes a "$" in a value the kubelet expands: the Secret holds the URL as the controller read it from the value', () => {
    const docs = render('B', { database: { rdb: { url: 'postgres://app:pa$$word@db/agentplat' } } });
    expect(decoded(get(docs, 'Secret', SECRET))).toBe('postgres://app:pa$word@db/agentplat');
  });

  it('agentplat render prints the URL nowhere in clear; diff shows a changed URL as changed without showing it', async () => {
    const r = await runInProcess(['render', '--skip-crds', '--set', `database.rdb.url=${URL}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Pa55-word-9');
    expect(r.stdout).toContain(Buffer.from(URL).toString('base64'));
    const d = await runInProcess(['diff', '--skip-crds', '--set', `database.rdb.url=${URL}`, '--to-set', `database.rdb.url=${URL.replace('Pa55', 'Pa56')}`]);
    expect(d.code).toBe(1);
    expect(d.stdout).toContain('-  POSTGRES_DATABASE_URL: "******** (old value)"\n+  POSTGRES_DATABASE_URL: "******** (new value)"\n');
    expect(d.stdout).toMatch(/^changed Deployment\.apps default\/agentplat-controller: spec\.template\.metadata\.annotations\["checksum\/database-url"\]$/m);
    for (const out of [d.stdout, d.stderr]) {
      for (const secret of ['Pa55-word-9', 'Pa56-word-9', Buffer.from(URL).toString('base64')]) expect(out).not.toContain(secret);
    }
  });
});
