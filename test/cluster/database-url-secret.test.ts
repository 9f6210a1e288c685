// The database password out of the Deployment (issue 33, item 9), against a real kube-apiserver
// of every version of _versions.ts and the suite's kubectl. A release with `database.rdb.url`
// carrying a password is linted and rendered as a user does, and applied with the README's
// command line (`agentplat render … | kubectl apply --server-side --field-manager agentplat -f -`),
// first as the chart rendered it before (the URL as the variable's value), then as it renders now.
// A ServiceAccount that may read Deployments and not Secrets then reads the Deployment with its
// own token: before, the password is in it; now it is not, the Secret is refused to it, and the
// Secret (read as the administrator) holds the URL under the name and key the render predicted.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCluster, type Cluster } from './_cluster.ts';
import { toolsFor, type Tools } from './_tools.ts';
import { VERSIONS } from './_versions.ts';

const PASSWORD = 'Kx9-clear-Pw-4417';
const URL = `postgres://app:${PASSWORD}@db.example.com:5432/agentplat?sslmode=require`;
const NS = 'agentplat';

type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; data?: Record<string, string>; spec?: any };

const controllerEnv = (deployment: Obj): Env[] => (deployment.spec.template.spec.containers as { name: string; env: Env[] }[]).find((c) => c.name === 'controller')!.env;

/** The role a read-only operator often has: Deployments, and no Secrets; bound in a namespace with `bindReader`. */
const READER_RBAC = `
apiVersion: v1
kind: ServiceAccount
metadata: {name: deployment-reader, namespace: ${NS}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: deployment-reader}
rules:
  - {apiGroups: [apps], resources: [deployments], verbs: [get, list, watch]}
`;

/** The release as the chart rendered it before: no Secret, the URL written into the env, no checksum of a Secret. */
function oldRender(objects: Obj[], release = 'agentplat'): Obj[] {
  const old = structuredClone(objects).filter((o) => !(o.kind === 'Secret' && o.metadata.name === `${release}-database-url`));
  const deployment = old.find((o) => o.kind === 'Deployment' && o.metadata.name === `${release}-controller`)!;
  const env = controllerEnv(deployment).find((e) => e.name === 'POSTGRES_DATABASE_URL')!;
  delete env.valueFrom;
  env.value = URL;
  delete deployment.spec.template.metadata.annotations['checksum/database-url'];
  return old;
}

for (const version of VERSIONS) {
  describe(`the database password stays out of the Deployment, on Kubernetes ${version}`, () => {
    let c: Cluster;
    let tools: Tools;
    let token: string;
    const kubectl = (args: string[], input?: string) => tools.run('kubectl', args, input);
    /** kubectl as the ServiceAccount that may read Deployments only. */
    const asReader = (args: string[]) => tools.run('kubectl', [`--token=${token}`, ...args]);
    const render = (ns = NS, release = 'agentplat'): Obj[] => {
      const r = tools.run('agentplat', ['render', '-f', 'values.yaml', '-n', ns, '--release-name', release, '--skip-crds', '-o', 'json']);
      expect(r.status, r.err).toBe(0);
      return (JSON.parse(r.out) as { items: Obj[] }).items;
    };

    /** Lets the reader read Deployments in `ns`. */
    const bindReader = (ns: string) => {
      const r = kubectl(['create', 'rolebinding', 'deployment-reader', '--clusterrole=deployment-reader', `--serviceaccount=${NS}:deployment-reader`, '-n', ns]);
      expect(r.status, r.err).toBe(0);
    };
    /** The controller Deployment of release `release` in `ns` as the reader reads it. */
    const readerSees = (ns: string, release = 'agentplat'): string => {
      const read = asReader(['get', 'deployment', `${release}-controller`, '-n', ns, '-o', 'json']);
      expect(read.status, read.err).toBe(0);
      return read.out;
    };

    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      tools = toolsFor(c, 'agentplat-dburl-');
      writeFileSync(join(tools.dir, 'values.yaml'), `database:\n  rdb:\n    url: ${URL}\n`);
      const setup = tools.sh(
        [
          'agentplat crds | kubectl apply --server-side --field-manager agentplat -f - >/dev/null',
          'kubectl wait --for=condition=Established crd -l app.kubernetes.io/part-of=agentplat --timeout=120s >/dev/null',
          `kubectl create namespace ${NS} >/dev/null`,
        ].join('\n'),
      );
      expect(setup.status, setup.err).toBe(0);
      const rbac = kubectl(['apply', '-f', '-'], READER_RBAC);
      expect(rbac.status, rbac.err).toBe(0);
      bindReader(NS);
      const t = kubectl(['create', 'token', 'deployment-reader', '-n', NS]);
      expect(t.status, t.err).toBe(0);
      token = t.out.trim();
      // The token is the reader's: it may get the Deployment and not the Secret.
      expect(asReader(['auth', 'can-i', 'get', 'deployments.apps', '-n', NS]).out.trim()).toBe('yes');
      expect(asReader(['auth', 'can-i', 'get', 'secrets', '-n', NS]).out.trim()).toBe('no');
    });
    afterAll(async () => {
      tools?.remove();
      await c?.stop();
    });

    it('lint warns at the key that the values file holds the password, names the Secret the URL renders into, and shows no password', () => {
      const r = tools.run('agentplat', ['lint', '-f', 'values.yaml']);
      expect(r.status, r.err).toBe(0);
      expect(r.out).toMatch(/^values\.yaml:3:5 {2}warning {2}database\.rdb\.url carries the database password in clear \(the user:password part of the URL\): the chart renders the URL into the Secret agentplat-database-url, not into the Deployment/m);
      expect(r.out + r.err).not.toContain(PASSWORD);
    });

    it('before: with the URL as the value of the variable, as the chart rendered it, whoever may read the Deployment reads the password', () => {
      const r = kubectl(['apply', '--server-side', '--field-manager', 'agentplat', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: oldRender(render()) }));
      expect(r.status, r.err).toBe(0);
      expect(readerSees(NS)).toContain(PASSWORD);
    });

    it('render | kubectl apply (the upgrade): the reader reads the Deployment without the password and is refused the Secret, which holds the URL the render predicted', () => {
      const predicted = render();
      const secret = predicted.find((o) => o.kind === 'Secret' && o.metadata.name === 'agentplat-database-url')!;
      const ref = controllerEnv(predicted.find((o) => o.kind === 'Deployment' && o.metadata.name === 'agentplat-controller')!).find((e) => e.name === 'POSTGRES_DATABASE_URL')!;
      expect(ref).toEqual({ name: 'POSTGRES_DATABASE_URL', valueFrom: { secretKeyRef: { name: 'agentplat-database-url', key: 'POSTGRES_DATABASE_URL' } } });

      // The README's line, as a user runs it.
      const apply = tools.sh(`agentplat render -f values.yaml -n ${NS} --skip-crds | kubectl apply --server-side --field-manager agentplat -f -`);
      expect(apply.status, apply.err).toBe(0);
      expect(apply.out).toContain('secret/agentplat-database-url serverside-applied');

      // What the reader sees of the Deployment: the reference, not the URL, in any form.
      const read = asReader(['get', 'deployment', 'agentplat-controller', '-n', NS, '-o', 'json']);
      expect(read.status, read.err).toBe(0);
      for (const form of [PASSWORD, URL, Buffer.from(URL).toString('base64')]) expect(read.out).not.toContain(form);
      const live = JSON.parse(read.out) as Obj;
      expect(controllerEnv(live).find((e) => e.name === 'POSTGRES_DATABASE_URL')).toEqual(ref);
      expect(live.spec.template.metadata.annotations['checksum/database-url']).toBe(predicted.find((o) => o.kind === 'Deployment' && o.metadata.name === 'agentplat-controller')!.spec.template.metadata.annotations['checksum/database-url']);

      const refused = asReader(['get', 'secret', 'agentplat-database-url', '-n', NS, '-o', 'yaml']);
      expect(refused.status).toBe(1);
      expect(refused.err).toMatch(/Forbidden.*cannot get resource "secrets"/);
      expect(refused.out).toBe('');

      // The Secret, read as the administrator, holds the URL under the key the env names.
      const held = kubectl(['get', 'secret', ref.valueFrom!.secretKeyRef!.name, '-n', NS, '-o', `jsonpath={.data.${ref.valueFrom!.secretKeyRef!.key}}`]);
      expect(held.status, held.err).toBe(0);
      expect(Buffer.from(held.out, 'base64').toString()).toBe(URL);
      expect(held.out).toBe(secret.data!.POSTGRES_DATABASE_URL);
    });

    it('a release applied under another field manager: diff --cluster predicts the refusal kubectl apply meets, and applying once under that manager clears the password', () => {
      // A second release (its cluster-wide objects named apart from the first's) in its own namespace.
      const [ns, release] = ['legacy', 'legacy'];
      const flags = `-f values.yaml -n ${ns} --release-name ${release} --skip-crds`;
      expect(kubectl(['create', 'namespace', ns]).status).toBe(0);
      bindReader(ns);
      // The release as the chart rendered it before, applied under kubectl's own field manager.
      const first = kubectl(['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: oldRender(render(ns, release), release) }));
      expect(first.status, first.err).toBe(0);

      // The preflight: the controller Deployment is refused, and why.
      const d = tools.sh(`agentplat diff --cluster ${flags} -o json || test $? -eq 1`);
      expect(d.status, d.err).toBe(0);
      expect(d.out + d.err).not.toContain(PASSWORD);
      const refused = (JSON.parse(d.out) as { refused: { kind: string; namespace: string; name: string; code: number; message: string }[] }).refused;
      expect(refused.map((r) => [r.kind, r.namespace, r.name, r.code])).toEqual([['Deployment', ns, `${release}-controller`, 422]]);
      expect(refused[0]!.message).toMatch(/env\[\d+\]\.valueFrom: Invalid value: "": may not be specified when `value` is not empty/);

      // kubectl meets exactly that (conflicts forced aside): the value is kubectl's, so it stays beside valueFrom.
      const apply = tools.sh(`agentplat render ${flags} | kubectl apply --server-side --field-manager agentplat --force-conflicts -f -`);
      expect(apply.status).toBe(1);
      const cause = (m: string) => m.slice(m.indexOf(' is invalid: '));
      const failed = apply.err.split('\n').filter((l) => l.includes(' is invalid: '));
      expect(failed, apply.err).toEqual([`The Deployment "${release}-controller"${cause(refused[0]!.message)}`]);
      expect(readerSees(ns, release)).toContain(PASSWORD);

      // The way out: the upgrade once under the manager that set the value, which drops it.
      const again = tools.sh(`agentplat render ${flags} | kubectl apply --server-side --force-conflicts -f -`);
      expect(again.status, again.err).toBe(0);
      expect(readerSees(ns, release)).not.toContain(PASSWORD);
    });
  });
}
