// A throwaway control plane for the cluster suite: etcd and kube-apiserver built from their Go
// modules (build.sh, cached outside the repository), started on 127.0.0.1 on free ports with a
// temporary directory for data, certificates and keys, and stopped again with that directory
// removed, whatever the tests did.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';

const HERE = import.meta.dirname;

/** Builds (or finds in the cache) the binaries of one Kubernetes version; returns their folder. */
export function buildBinaries(version: string): string {
  const r = spawnSync('bash', [join(HERE, 'build.sh'), version], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const bin = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !bin) throw new Error(`test/cluster/build.sh ${version} failed (exit ${r.status}); see its output above`);
  return bin;
}

/** Builds (or finds in the cache) kubectl of one Kubernetes version; returns the binary's path. */
export function buildKubectl(version: string): string {
  const r = spawnSync('bash', [join(HERE, 'build-kubectl.sh'), version], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const bin = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !bin) throw new Error(`test/cluster/build-kubectl.sh ${version} failed (exit ${r.status}); see its output above`);
  return bin;
}

/** Builds (or finds in the cache) helm of one version; returns the binary's path. */
export function buildHelm(version: string): string {
  const r = spawnSync('bash', [join(HERE, 'build-helm.sh'), version], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const bin = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !bin) throw new Error(`test/cluster/build-helm.sh ${version} failed (exit ${r.status}); see its output above`);
  return bin;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Cluster {
  version: string;
  server: string;
  token: string;
  /** The API server's self-signed serving certificate, the only one the client trusts. */
  ca: string;
  kc: k8s.KubeConfig;
  /** Kubernetes version reported by /version, e.g. "1.37". */
  minor: string;
  /** A kubeconfig file in the cluster's temporary folder. */
  kubeconfig: string;
  stop(): Promise<void>;
}

// A test worker that dies mid-run must not leave a control plane behind. The cluster suite runs
// its files one after another in one process, each with this module loaded afresh: one set and
// one exit listener for the process (a listener per file passed Node's limit of ten).
const RUNNING = Symbol.for('agentplat.test.cluster.running');
const shared = globalThis as { [RUNNING]?: Set<() => void> };
const running: Set<() => void> =
  shared[RUNNING] ??
  (shared[RUNNING] = (() => {
    const set = new Set<() => void>();
    process.once('exit', () => {
      for (const kill of set) kill();
    });
    return set;
  })());

function stopChild(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => p.kill('SIGKILL'), 10_000);
    p.once('exit', () => (clearTimeout(hard), resolve()));
    p.kill('SIGTERM');
  });
}

/** Starts etcd and kube-apiserver from `bin` and waits until /readyz answers ok. */
export async function startCluster(version: string, bin: string): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'agentplat-cluster-'));
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const killAll = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  running.add(killAll);
  const stop = async () => {
    // apiserver first: it holds connections to etcd.
    for (const c of [...children].reverse()) await stopChild(c);
    rmSync(dir, { recursive: true, force: true });
    running.delete(killAll);
  };
  const launch = (name: string, args: string[]) => {
    const log = join(dir, `${name}.log`);
    const fd = openSync(log, 'a');
    const child = spawn(join(bin, name), args, { stdio: ['ignore', fd, fd] });
    closeSync(fd);
    children.push(child);
    logs.push(log);
    return child;
  };
  const tail = (): string => logs.map((l) => `--- ${l}\n${safeRead(l).split('\n').slice(-40).join('\n')}`).join('\n');

  try {
    const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    launch('etcd', [
      '--name=agentplat', `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`, `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`, `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=agentplat=http://127.0.0.1:${etcdPeer}`,
      // Throwaway data: durability only costs time on a shared machine.
      '--unsafe-no-fsync', '--log-level=warn',
    ]);

    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const token = randomBytes(24).toString('hex');
    writeFileSync(join(dir, 'tokens.csv'), `${token},agentplat-admin,agentplat-admin,"system:masters"\n`);

    launch('kube-apiserver', [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${apiPort}`,
      // No serving certificate given: the server writes a self-signed one into cert-dir.
      `--cert-dir=${join(dir, 'certs')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      `--service-account-key-file=${join(dir, 'sa.pub')}`, `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      '--service-cluster-ip-range=10.96.0.0/16',
      '--enable-priority-and-fairness=false',
      // The kubernetes Service's endpoints would have to be a non-loopback address: nothing here needs them.
      '--endpoint-reconciler-type=none',
      '--v=1',
    ]);

    const server = `https://127.0.0.1:${apiPort}`;
    const ca = await waitForFile(join(dir, 'certs', 'apiserver.crt'), children);
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server, caData: Buffer.from(ca).toString('base64') }],
      users: [{ name: 'u', token }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kc.exportConfig());

    const conn = { server, token, ca };
    await waitReady(conn, children);
    const v = JSON.parse((await kfetch(conn, '/version')).body) as { major: string; minor: string };
    return { ...conn, version, kc, kubeconfig, minor: `${v.major}.${v.minor.replace(/\D.*$/, '')}`, stop };
  } catch (e) {
    const logText = tail();
    await stop();
    throw new Error(`${(e as Error).message}\n${logText}`);
  }
}

function safeRead(f: string): string {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
}

export interface KResponse {
  status: number;
  body: string;
  warnings: string[];
}

/** A request to the API server with the admin token, trusting only the server's own certificate. */
export function kfetch(c: { server: string; token: string; ca: string }, path: string, init: { method?: string; body?: string; contentType?: string } = {}): Promise<KResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      c.server + path,
      {
        method: init.method ?? 'GET',
        ca: c.ca,
        headers: { authorization: `Bearer ${c.token}`, accept: 'application/json', ...(init.contentType ? { 'content-type': init.contentType } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const w = res.headers.warning;
          const warnings = w === undefined ? [] : Array.isArray(w) ? w : [w];
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), warnings });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * Waits for kube-apiserver's serving certificate. No deadline: a server that fails exits, and that
 * ends the wait with its exit code; a server that hangs is caught by the suite's hang guard
 * (vitest.cluster.config.ts), not by a clock here.
 */
async function waitForFile(file: string, children: ChildProcess[]): Promise<string> {
  for (;;) {
    exitedEarly(children);
    const text = safeRead(file);
    if (text.includes('END CERTIFICATE')) return text;
    await sleep(200);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exitedEarly(children: ChildProcess[]): void {
  for (const c of children) if (c.exitCode !== null || c.signalCode !== null) throw new Error(`${c.spawnfile} exited (${c.exitCode ?? c.signalCode}) before the API server became ready`);
}

/** Waits until /readyz answers 200, or a process of the control plane exits (no deadline, as above). */
async function waitReady(conn: { server: string; token: string; ca: string }, children: ChildProcess[]): Promise<void> {
  for (;;) {
    exitedEarly(children);
    try {
      if ((await kfetch(conn, '/readyz')).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
}
