// `agentplat validate` decides the way the API server does. Every case of the corpus (custom
// resources of the six kinds from _corpus.ts; core objects, rendered and written, their variants
// and metadata variants on core objects and custom resources from _core-corpus.ts) goes through one
// `agentplat validate DIR --format json` run and through a server-side dry-run create with strict
// field validation. For each case the verdicts (accepted or refused) must agree, and where both
// refuse and the server names a field, `validate` must name that field (or a field inside it).
// Differences that are understood and kept are listed in KNOWN_DIFFERENCES, each with its reason;
// any other difference fails the test, and so does a listed one that no longer happens.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { create, crdProblems, ensureNamespaces, installCrds, type Obj, type Outcome } from './_api.ts';
import { agentplat } from './_cli.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { coreCorpus, EXTRA_NAMESPACES } from './_core-corpus.ts';
import { CORPUS_NAMESPACE, corpus } from './_corpus.ts';
import { record } from './_figures.ts';
import { NEWEST, VERSIONS } from './_versions.ts';

const work = mkdtempSync(join(tmpdir(), 'agentplat-cluster-corpus-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * `a.b[3].c`: no leading dot, map keys written `["k"]` (validate) or `[k]` (the server's Go
 * validation, e.g. `limits[cpu]`) as `.k`; list indices stay.
 */
const norm = (p: string): string =>
  p
    .replace(/^\./, '')
    .replace(/\["((?:[^"\\]|\\.)*)"\]/g, (_, k: string) => `.${JSON.parse(`"${k}"`) as string}`)
    .replace(/\[([^\]"]*[^\]\d"][^\]"]*)\]/g, (_, k: string) => `.${k}`);

/** The field paths a refusal names: its causes, or the fields of a strict-decoding message. */
export function serverPaths(r: Outcome): string[] {
  const out = new Set<string>();
  const fromMessage = (message: string) => {
    for (const m of message.matchAll(/unknown field "([^"]+)"/g)) out.add(norm(m[1]!));
    for (const m of message.matchAll(/duplicate field "([^"]+)"/g)) out.add(norm(m[1]!));
    // The Go decoder names the struct field by its JSON path without list indices, and newer Go
    // releases put the names of embedded structs in it (`ProbeHandler`, `VolumeSource`; JSON
    // names start in lower case). In a custom resource metadata is decoded alone and the path
    // starts below it.
    for (const m of message.matchAll(/into Go struct field (\w+)\.([\w./-]+) of type/g)) {
      const path = m[2]!.split('.').filter((seg) => !/^[A-Z]/.test(seg));
      const metaOnly = (m[1] === 'ObjectMeta' || m[1] === 'OwnerReference') && !path.includes('metadata');
      out.add((metaOnly ? ['metadata', ...path] : path).join('.'));
    }
    if (/into Go value of type v1\.ObjectMeta/.test(message)) out.add('metadata');
  };
  for (const c of r.error?.details?.causes ?? []) {
    if (c.field) out.add(norm(c.field));
    fromMessage(c.message ?? '');
  }
  fromMessage(r.error?.message ?? '');
  return [...out];
}

/**
 * `validate` names the server's field: the same path, or a field inside it (a label key inside
 * `metadata.labels`). A path the server writes without list indices (the Go decoder's, or
 * `metadata.ownerReferences.uid`) is compared with the indices of validate's path left out.
 */
export function sameField(server: string, mine: string): boolean {
  const m = server.includes('[') ? mine : mine.replace(/\[\d+\]/g, '');
  return m === server || m.startsWith(`${server}.`) || m.startsWith(`${server}[`);
}

interface Verdict {
  accepted: boolean;
  paths: string[];
  messages: string[];
}

interface KnownDifference {
  /** Matched against `category: id` of a case. */
  match: RegExp;
  /** What differs: the verdict, or (both refusing) the field named. */
  differs: 'verdict' | 'field';
  why: string;
}

/**
 * Differences between `validate` and the API server that are understood and kept. Each entry must
 * still happen (an entry nothing matches fails the test), so the list only shrinks when
 * `validate` gets closer to the server.
 */
const KNOWN_DIFFERENCES: KnownDifference[] = [
  // Where validate names another field than the server, on purpose.
  {
    match: /^metadata: name: Job name with (64|253) characters/,
    differs: 'field',
    why: 'the server refuses a Job name over 63 characters at spec.template.labels (the job-name label it adds to the pod template); validate points at metadata.name, the field the user wrote',
  },
  {
    match: /^metadata: generateName: CronJob generateName a prefix of (62|70|254) characters$/,
    differs: 'field',
    why: 'the server names metadata.name, the name it generated (cut to 58 characters plus 5, over the 52 a CronJob may have); validate points at metadata.generateName, the field the user wrote',
  },
  {
    match: /^core: (missing required field|bad quantity): PersistentVolumeClaim (spec\.resources\.requests\.storage (missing|-1Gi|0)|spec missing)$/,
    differs: 'field',
    why: 'the server names spec.resources[storage], leaving out the requests map the storage request belongs in; validate names spec.resources.requests.storage',
  },
  {
    match: /^core: missing required field: Secret stringData key with a space$/,
    differs: 'field',
    why: 'the server checks stringData after merging it into data and names data[key]; validate names stringData.key, where the user wrote it',
  },
  {
    match: /^core: missing required field: (ClusterRoleBinding|RoleBinding) roleRef missing$/,
    differs: 'field',
    why: 'a required object left out: validate names roleRef; the server decodes it as empty and names the required fields inside it (roleRef.kind and roleRef.name)',
  },
];

/** Runs `fn` over `items` with at most `n` at a time, keeping the order of the results. */
async function pool<T, R>(items: readonly T[], n: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

// Where the corpus runs: every version of the suite, unless AGENTPLAT_CLUSTER_CORPUS=newest.
const corpusVersions = process.env.AGENTPLAT_CLUSTER_CORPUS === 'newest' ? VERSIONS.filter((v) => v === NEWEST) : VERSIONS;
/** validate takes the server's version when it has the option (core kinds are checked per version). */
const validateKnowsKubeVersion = /--kube-version/.test(agentplat(['validate', '--help']).out);

for (const version of corpusVersions) {
  describe(`Kubernetes ${version}`, () => {
    let c: Cluster;
    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      const problems = crdProblems(await installCrds(c, (JSON.parse(agentplat(['crds', '-o', 'json']).out) as { items: Obj[] }).items));
      if (problems.length > 0) throw new Error(`the CRDs were not installed:\n${problems.join('\n')}`);
      await ensureNamespaces(c, [CORPUS_NAMESPACE, ...EXTRA_NAMESPACES]);
    });
    afterAll(async () => {
      await c?.stop();
    });

    it('agentplat validate and a server-side dry-run create agree on every case of the corpus, and name the field the server names, but for the differences listed with their reasons', async () => {
      const cases = [...corpus(), ...(await coreCorpus())];
      const dir = join(work, version);
      mkdirSync(dir, { recursive: true });
      const files = cases.map((r, i) => {
        const f = join(dir, `${String(i).padStart(5, '0')}.yaml`);
        writeFileSync(f, stringify(r.object, { lineWidth: 0 }));
        return f;
      });

      // One process over the whole folder, the way a repository of manifests is checked.
      const run = agentplat(['validate', dir, '--format', 'json', ...(validateKnowsKubeVersion ? ['--kube-version', c.minor] : [])]);
      expect(run.code, run.err).toBeOneOf([0, 1]);
      const report = JSON.parse(run.out) as { files: { file: string; problems: { severity: string; path?: string; message: string }[] }[] };
      const ours = new Map<string, Verdict>(files.map((f) => [f, { accepted: true, paths: [], messages: [] }]));
      for (const g of report.files) {
        const errors = g.problems.filter((p) => p.severity === 'error');
        ours.set(g.file, { accepted: errors.length === 0, paths: errors.flatMap((p) => (p.path ? [norm(p.path)] : [])), messages: errors.map((p) => p.message) });
      }

      // The server's verdicts, a few requests at a time.
      const outcomes = await pool(cases, 4, (r) => create(c, r.object as Obj, { dryRun: true, namespace: CORPUS_NAMESPACE }));

      interface Tally {
        cases: number;
        accepted: number;
        verdictAgree: number;
        named: number;
        fieldAgree: number;
        known: number;
      }
      const tallies = new Map<string, Tally>();
      const tally = (k: string): Tally => {
        let t = tallies.get(k);
        if (!t) tallies.set(k, (t = { cases: 0, accepted: 0, verdictAgree: 0, named: 0, fieldAgree: 0, known: 0 }));
        return t;
      };
      const unexplained: string[] = [];
      const used = new Set<KnownDifference>();
      for (const [i, r] of cases.entries()) {
        const res = outcomes[i]!;
        const server: Verdict = { accepted: !res.error, paths: serverPaths(res), messages: res.error ? [res.error.message] : [] };
        const mine = ours.get(files[i]!)!;
        const ts = [tally('all'), tally(r.category)];
        for (const t of ts) t.cases++;
        if (server.accepted) for (const t of ts) t.accepted++;
        const what = `${r.category}: ${r.id}`;
        let differs: KnownDifference['differs'] | undefined;
        if (server.accepted !== mine.accepted) differs = 'verdict';
        else {
          for (const t of ts) t.verdictAgree++;
          if (!server.accepted && server.paths.length > 0) {
            for (const t of ts) t.named++;
            if (server.paths.some((p) => mine.paths.some((q) => sameField(p, q)))) for (const t of ts) t.fieldAgree++;
            else differs = 'field';
          }
        }
        if (!differs) continue;
        const known = KNOWN_DIFFERENCES.find((k) => k.differs === differs && k.match.test(what));
        if (known) {
          used.add(known);
          for (const t of ts) t.known++;
          continue;
        }
        unexplained.push(
          `#${i} ${what} (${differs})\n    server: ${server.accepted ? 'accepted' : `${JSON.stringify(server.paths)} ${server.messages.join(' | ')}`}\n    validate: ${mine.accepted ? 'accepted' : `${JSON.stringify(mine.paths)} ${mine.messages.join(' | ')}`}`,
        );
      }

      // AGENTPLAT_AGREEMENT_DUMP=FILE keeps every case with both verdicts, for study.
      const dump = process.env.AGENTPLAT_AGREEMENT_DUMP;
      if (dump) {
        const rows = cases.map((r, i) => ({ i, category: r.category, id: r.id, object: r.object, server: { accepted: !outcomes[i]!.error, paths: serverPaths(outcomes[i]!), message: outcomes[i]!.error?.message }, validate: ours.get(files[i]!) }));
        writeFileSync(`${dump}.${version}.json`, JSON.stringify(rows));
      }

      const pct = (a: number, b: number) => (b === 0 ? '100.0' : ((100 * a) / b).toFixed(1));
      const line = (label: string, t: Tally) =>
        `Kubernetes ${c.minor}: ${label}: ${t.cases} compared (${t.accepted} accepted, ${t.cases - t.accepted} refused by the API server): ` +
        `verdicts agree ${t.verdictAgree}/${t.cases} (${pct(t.verdictAgree, t.cases)}%), field named by both ${t.fieldAgree}/${t.named} (${pct(t.fieldAgree, t.named)}%)` +
        (t.known > 0 ? `, ${t.known} known differences` : '');
      record(line('validate agreement, all cases', tally('all')));
      for (const [k, t] of [...tallies].filter(([k]) => k !== 'all')) record(line(k, t));
      const stale = KNOWN_DIFFERENCES.filter((k) => !used.has(k)).map((k) => `${k.match} (${k.differs}): ${k.why}`);
      if (unexplained.length > 0) console.log(`differences not in KNOWN_DIFFERENCES (${unexplained.length}):\n${unexplained.join('\n')}`);
      // Both lists at once: a difference not listed, and a listed one that no longer happens.
      expect({ unexplained, stale }, `${unexplained.length} differences not in KNOWN_DIFFERENCES, ${stale.length} listed that no longer happen`).toEqual({ unexplained: [], stale: [] });
    });
  });
}
