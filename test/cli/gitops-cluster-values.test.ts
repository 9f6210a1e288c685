// A Flux HelmRelease's valuesFrom read from the cluster with --cluster (issue 36), in-process
// against a fake API server on loopback HTTP that serves ConfigMaps and Secrets and records every
// request: a source no file holds is read in the HelmRelease's namespace, one a file holds is not
// asked for, and without --cluster nothing reaches the server.
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { runInProcess } from './in-process.ts';

let server: Server;
const seen: string[] = [];
/** Objects by API path. */
const store = new Map<string, unknown>([
  ['/api/v1/namespaces/flux-system/configmaps/agentplat-cluster-values', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'agentplat-cluster-values', namespace: 'flux-system', managedFields: [{ manager: 'x' }] }, data: { 'values.yaml': 'ui:\n  replicas: 4\n' } }],
  ['/api/v1/namespaces/flux-system/secrets/agentplat-cluster-secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'agentplat-cluster-secret', namespace: 'flux-system' }, data: { 'values.yaml': Buffer.from('controller:\n  replcas: 3\n').toString('base64') } }],
]);
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push(`${req.method} ${path}`);
    const answer = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/version') return answer(200, { major: '1', minor: '37' });
    if (path === '/api/v1') return answer(200, { kind: 'APIResourceList', resources: [{ name: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['get'] }, { name: 'secrets', kind: 'Secret', namespaced: true, verbs: ['get'] }] });
    const o = store.get(path);
    return o ? answer(200, o) : answer(404, { kind: 'Status', code: 404, message: 'not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  dir = tempDir('agentplat-gitops-cluster-');
  writeFileSync(
    join(dir, 'kubeconfig'),
    ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: fake', '  cluster:', `    server: http://127.0.0.1:${port}`, '    insecure-skip-tls-verify: true', 'users:', '- name: u', '  user:', '    token: t', 'contexts:', '- name: fake', '  context:', '    cluster: fake', '    user: u', 'current-context: fake', ''].join('\n'),
  );
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const HR = (refs: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: agentplat
  namespace: flux-system
spec:
  chart:
    spec:
      chart: agentplat
      version: 0.11.x
  valuesFrom:
${refs}`;

const run = (args: string[]) => runInProcess(args, { cwd: dir, env: { KUBECONFIG: join(dir, 'kubeconfig'), NO_COLOR: '1' } });

describe('valuesFrom from the cluster with --cluster', () => {
  it('a ConfigMap no file holds is read from the cluster in the HelmRelease namespace, and its values are rendered', async () => {
    writeFileSync(join(dir, 'helmrelease.yaml'), HR('    - kind: ConfigMap\n      name: agentplat-cluster-values\n'));
    seen.length = 0;
    const r = await run(['values', '--computed', '--show-origin', '-f', 'helmrelease.yaml', '--cluster']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ui\.replicas +4 +cluster:ConfigMap\/flux-system\/agentplat-cluster-values:\d+:\d+ spec\.valuesFrom\[0\] ConfigMap flux-system\/agentplat-cluster-values key values\.yaml line 2$/m);
    expect(seen).toContain('GET /api/v1/namespaces/flux-system/configmaps/agentplat-cluster-values');
  });

  it('a problem in a Secret read from the cluster fails lint, named by the Secret', async () => {
    writeFileSync(join(dir, 'helmrelease.yaml'), HR('    - kind: Secret\n      name: agentplat-cluster-secret\n'));
    const r = await run(['lint', '-f', 'helmrelease.yaml', '--cluster']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('cluster:Secret/flux-system/agentplat-cluster-secret');
    expect(r.stdout).toContain('[values/unknown-key]');
  });

  it('a source a file beside the HelmRelease holds is not asked for; without --cluster nothing reaches the server', async () => {
    writeFileSync(join(dir, 'helmrelease.yaml'), `${HR('    - kind: ConfigMap\n      name: beside\n')}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: beside\n  namespace: flux-system\ndata:\n  values.yaml: "ui:\\n  replicas: 2\\n"\n`);
    seen.length = 0;
    expect((await run(['render', '-f', 'helmrelease.yaml', '--cluster'])).code).toBe(0);
    expect(seen.filter((s) => s.includes('configmaps'))).toEqual([]);
    writeFileSync(join(dir, 'helmrelease.yaml'), HR('    - kind: ConfigMap\n      name: agentplat-cluster-values\n'));
    const r = await run(['render', '-f', 'helmrelease.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('spec.valuesFrom[0] names ConfigMap flux-system/agentplat-cluster-values, which is not in this file nor beside it');
    expect(seen.filter((s) => s.includes('configmaps'))).toEqual([]);
  });
});
