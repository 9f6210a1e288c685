// Which values keys each cross-field lint rule reads, and which rules a key can change the outcome
// of, found by running the rules themselves rather than kept in a table: a rule that starts
// reading a key shows up here without anyone remembering to declare it.
//
// Reading is not enough to list a rule for a key: a check that builds the revision model reads
// nearly every key, and one module reports several rule ids. `rulesChangedBy` runs each check
// that reads the key on each value set twice, with the key as the set has it and at each of a few
// other values, and lists the rule ids whose findings differ.
//
// A rule reads some keys only on some branches (the trusted-proxy checks read the forwarded
// headers only in that mode), so each rule runs on several value sets: the defaults, every
// switch on, every switch off, and every enum key at each of its values in turn. A branch that
// needs two unusual values at once that no set combines can still hide a read; the test of this
// module pins the reads a rule is known to make.

import { valuesSchema } from '../docs/embedded.ts';
import { keysOf } from '../docs/values-reference.ts';
import { RULES } from '../lint/rules/index.ts';
import type { RuleContext, ValuesRule } from '../lint/rules/types.ts';
import type { CheckObject } from '../lint/crd-check.ts';
import type { Revision } from '../chart/revisions.ts';
import { defaultsSource } from '../values/defaults.ts';
import { assignPath } from '../values/set-parser.ts';
import { readGenerated } from '../package-root.ts';
import { isPlainMap, ownValue, setOwn, type Values } from '../values/merge.ts';

export interface RuleReads {
  /** The rule ids the check reports. */
  ids: readonly string[];
  /** Dotted keys the check read (maps are entered, lists and scalars are read whole). */
  keys: ReadonlySet<string>;
  /** Each key of `keys` with the value sets (valueSets' order) it was read on, as bits: set s is bit s. */
  sets: ReadonlyMap<string, number>;
  /** The keys it read itself, not through the revision model it built. */
  direct: ReadonlySet<string>;
  /** Its findings on each value set of the revision (findingsOnApiLists), in valueSets' order. */
  base: readonly (readonly [readonly string[], readonly string[]])[];
}

/** Marks a map whose keys a check listed (walked through) rather than looked up by name. */
export const WALKED = '\0walked:';

/** The value sets each rule runs on, for one revision. */
export function valueSets(rev: Revision): Values[] {
  const leaves = keysOf(valuesSchema(rev)).filter((k) => !k.holdsKeys);
  const bools = leaves.filter((k) => k.node.type === 'boolean').map((k) => k.key);
  const enums = leaves.flatMap((k) => (k.node.enum ? [{ path: k.key, values: k.node.enum }] : []));
  // Each set shares with the defaults every map it does not change (checks only read values).
  const base = structuredClone(defaultsSource(rev).data) as Values;
  const withAll = (paths: readonly string[], value: (path: string) => unknown): Values => {
    const v: Values = { ...base };
    const copied = new Set<object>([v]);
    for (const p of paths) {
      const segs = p.split('.');
      let cur = v;
      for (const seg of segs.slice(0, -1)) {
        const next = ownValue(cur, seg);
        if (!isPlainMap(next)) break;
        const own: Values = copied.has(next) ? next : { ...next };
        if (own !== next) {
          copied.add(own);
          setOwn(cur, seg, own);
        }
        cur = own;
      }
      assignPath(v, segs, value(p));
    }
    return v;
  };
  // Every string key at an example: checks that compare two keys (a tag another tag shadows) need both set.
  const strings = leaves.filter((k) => k.node.type === 'string' && !k.node.enum).map((k) => k.key);
  const sets: Values[] = [base, withAll(bools, () => true), withAll(bools, () => false), withAll(strings, () => 'example-value')];
  const widest = Math.max(0, ...enums.map((e) => e.values.length));
  for (let i = 0; i < widest; i++) {
    const at = new Map(enums.map((e) => [e.path, e.values[i % e.values.length]]));
    sets.push(withAll([...at.keys()], (p) => at.get(p)));
  }
  return sets;
}

/** Runs `run` with no cluster APIs declared, then with ['v1'] when the first run looked at them. */
export function onApiLists(run: (apiVersions: readonly string[]) => boolean): void {
  if (run([])) run(['v1']);
}

/**
 * One run of a check on `values`, findings passed to `report`; true when it looked at the
 * cluster's APIs. An old cluster and a declared API list take the branches that only run when
 * they are known; every key counts as the user's, since some checks only look at what the user set.
 */
export function runCheck(rule: ValuesRule, rev: Revision, values: Values, apiVersions: readonly string[], check: CheckObject | undefined, report: RuleContext['report'] = () => undefined, onCrash: (err: Error) => void = () => undefined): boolean {
  let asked = false;
  const ctx: RuleContext = {
    revision: rev,
    values,
    kubeVersion: '1.20.0',
    releaseNamespace: 'default',
    get apiVersions() {
      asked = true;
      return apiVersions;
    },
    ...(check ? { checkModelConfig: check } : {}),
    userSet: () => true,
    report,
  };
  try {
    rule.check(ctx);
  } catch (err) {
    // values no user could pass the schema with; what was read before the crash still counts
    onCrash(err as Error);
  }
  return asked;
}

const setsCache = new Map<Revision, Values[]>();

/** The value sets of a revision, made once: nothing changes them (checks only read values). */
export function valueSetsOf(rev: Revision): Values[] {
  let sets = setsCache.get(rev);
  if (!sets) setsCache.set(rev, (sets = valueSets(rev)));
  return sets;
}

/** Which variant of the generated reads: the checks alone, or with validate's ModelConfig check (explain of a provider key). */
export const ruleReadsId = (rev: Revision, withCheck: boolean) => `${rev}${withCheck ? '+check' : ''}`;

/**
 * What the build writes to dist/generated/rule-reads.json for each variant: per check, in the
 * linter's order, what it reads and its findings on each value set (`base`, in the order of
 * valueSets: with no cluster APIs declared and with FULL_APIS), which do not depend on the key
 * explained.
 */
export type RuleReadsData = Record<string, { ids: string[]; keys: string[]; sets: number[]; direct: string[]; base: [string[], string[]][] }[]>;

let generated: RuleReadsData | undefined;
const cache = new Map<string, RuleReads[]>();

/**
 * What every check of the linter reads in a revision, in the order the linter runs them. It
 * depends only on the package, so the build finds it (./rule-reads-compute.ts, run by
 * scripts/build.mjs) and writes it to dist/generated/rule-reads.json; test/generated.test.ts
 * holds the file to a fresh computation.
 */
export function ruleReads(rev: Revision, check?: CheckObject): RuleReads[] {
  const id = ruleReadsId(rev, check !== undefined);
  let reads = cache.get(id);
  if (!reads) {
    generated ??= JSON.parse(readGenerated('rule-reads.json')) as RuleReadsData;
    const rows = generated[id];
    if (!rows || rows.length !== RULES.length || rows.some((r, i) => r.ids.join(' ') !== RULES[i]!.ids.map((x) => x.id).join(' '))) {
      throw new Error(`dist/generated/rule-reads.json does not match the lint rules of this build: run \`npm run build\` in the agentplat folder`);
    }
    reads = rows.map((r) => ({ ids: r.ids, keys: new Set(r.keys), sets: new Map(r.keys.map((k, i) => [k, r.sets[i]!])), direct: new Set(r.direct), base: r.base }));
    cache.set(id, reads);
  }
  return reads;
}

/** Findings of one check on one value set, in a form two runs compare by, and whether it looked at the cluster's APIs. */
function findingsOf(rule: ValuesRule, rev: Revision, values: Values, apiVersions: readonly string[], check: CheckObject | undefined): { findings: string[]; asked: boolean } {
  const out: string[] = [];
  const asked = runCheck(rule, rev, values, apiVersions, check, (f) => void out.push(JSON.stringify([f.rule, f.severity, f.path, f.message])), (err) => out.push(`crash ${err.message}`));
  return { findings: out.sort(), asked };
}

/**
 * Findings of one check with no cluster APIs declared and with FULL_APIS; the second run only
 * when the first looked at the APIs (a run that never does finds the same with any list).
 */
export function findingsOnApiLists(rule: ValuesRule, rev: Revision, values: Values, check: CheckObject | undefined): [string[], string[]] {
  const none = findingsOf(rule, rev, values, [], check);
  return [none.findings, none.asked ? findingsOf(rule, rev, values, FULL_APIS, check).findings : none.findings];
}

/**
 * The rule ids, per check in the linter's order, whose findings change when `key` takes one of
 * `candidates` instead of what a value set has. Only what depends on the key runs: a check's
 * findings on the value sets themselves are read from the build (RuleReads.base); a check that
 * does not touch the key (touches) is skipped, since it runs the same with any value of it; a
 * value equal to what the set has is the same set; and a check stops once every rule of it has
 * changed, since more runs cannot add to what is listed.
 */
export function rulesChangedBy(rev: Revision, key: string, candidates: readonly unknown[], check?: CheckObject): string[][] {
  const sets = valueSetsOf(rev);
  const segs = key.split('.');
  const mapsAbove = ancestorsMapsInEvery(sets, segs);
  const notMap = notMapsAbove(sets, segs);
  const reading = ruleReads(rev, check).flatMap((reads, i) => (touches(reads.keys, key, mapsAbove) ? [{ reads, rule: RULES[i]!, changed: new Set<string>(), done: false, on: touchedSets(reads.sets, key, notMap) }] : []));
  // The same value twice changes nothing the first did not.
  const values = candidates.filter((c, i) => candidates.findIndex((o) => JSON.stringify(o) === JSON.stringify(c)) === i);
  // One values object per value set and candidate, which every check reads: the revision model
  // is built once for it (revisionModel keeps it per values object), as in a lint run.
  sets.forEach((base, s) => {
    if (!reading.some((r) => (r.on & (1 << s)) !== 0)) return;
    const here = JSON.stringify(valueAt(base, segs));
    const changedSets = values.filter((value) => JSON.stringify(value) !== here).map((value) => withValueAt(base, segs, value));
    for (const r of reading) {
      // A check that did not see the key on this set runs on it the same with any value of the key.
      if ((r.on & (1 << s)) === 0) continue;
      const before = r.reads.base[s]!;
      for (const v of changedSets) {
        if (r.done) break;
        const after = findingsOnApiLists(r.rule, rev, v, check);
        for (const i of [0, 1]) for (const f of symmetricDifference(before[i]!, after[i]!)) r.changed.add(f.startsWith('crash') ? '' : (JSON.parse(f) as string[])[0]!);
        r.done = r.reads.ids.every((id) => r.changed.has(id));
      }
    }
  });
  const out: string[][] = [];
  for (const { reads, changed } of reading) {
    let ids = reads.ids.filter((id) => changed.has(id));
    // A check that reads the key itself (not through the revision model) but whose findings no
    // single change moved compares it with other keys (replicas against a budget): all its rules.
    // A check that walks every key of a map (all registries, all annotations) reads them without looking for this one.
    const parent = segs.slice(0, -1).join('.');
    if (ids.length === 0 && !reads.direct.has(`${WALKED}${parent}`) && [...reads.direct].some((k) => k === key || k.startsWith(`${key}.`))) ids = [...reads.ids];
    if (ids.length > 0) out.push(ids);
  }
  return out;
}

/** The checks of the linter that can see `key` change (touches), by their recorded reads. */
export function checksReading(rev: Revision, key: string, check?: CheckObject): ReadonlySet<ValuesRule> {
  const mapsAbove = ancestorsMapsInEvery(valueSetsOf(rev), key.split('.'));
  return new Set(ruleReads(rev, check).flatMap((reads, i) => (touches(reads.keys, key, mapsAbove) ? [RULES[i]!] : [])));
}

/**
 * Whether a check whose recorded reads are `keys` can see `key` change: it read the key, a key
 * under it, listed the keys of a map above it, or read a key above it that is not a map in every
 * value set (a list or a value read whole, or a missing map that setting the key creates). A map
 * above the key that it only entered is no read of the key: every key looked up in it is recorded
 * on its own (rule-reads-compute.ts records through a view of the values), so a check that looked
 * up nothing at or under the key runs the same with any value of it.
 */
function touches(keys: ReadonlySet<string>, key: string, mapsAbove: ReadonlySet<string>): boolean {
  if (keys.has(key)) return true;
  const segs = key.split('.');
  for (let i = 0; i < segs.length; i++) {
    const above = segs.slice(0, i).join('.');
    if (keys.has(`${WALKED}${above}`)) return true;
    if (i > 0 && keys.has(above) && !mapsAbove.has(above)) return true;
  }
  for (const k of keys) if (k.startsWith(`${key}.`)) return true;
  return false;
}

/**
 * The value sets (as bits, set s is bit s) on which a check whose reads are `sets` (each key with
 * the sets it was read on) saw `key`: touches, set by set. On a set where it did not, it read
 * neither the key, nor a key under it, nor the keys of a map above it, nor a key above it that is
 * not a map there: its run on that set is the same with any value of the key.
 */
function touchedSets(sets: ReadonlyMap<string, number>, key: string, notMap: ReadonlyMap<string, number>): number {
  const segs = key.split('.');
  let on = sets.get(key) ?? 0;
  for (let i = 0; i < segs.length; i++) {
    const above = segs.slice(0, i).join('.');
    on |= sets.get(`${WALKED}${above}`) ?? 0;
    if (i > 0) on |= (sets.get(above) ?? 0) & (notMap.get(above) ?? 0);
  }
  for (const [k, bits] of sets) if (k.startsWith(`${key}.`)) on |= bits;
  return on;
}

/** Each key above `segs` (dotted) with the value sets on which it is not a map, as bits. */
function notMapsAbove(sets: readonly Values[], segs: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 1; i < segs.length; i++) {
    let bits = 0;
    sets.forEach((v, s) => {
      if (!isPlainMap(valueAt(v, segs.slice(0, i)))) bits |= 1 << s;
    });
    out.set(segs.slice(0, i).join('.'), bits);
  }
  return out;
}

/** The keys above `segs` (dotted as the reads are) that are maps in every value set. */
function ancestorsMapsInEvery(sets: readonly Values[], segs: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < segs.length; i++) {
    if (sets.every((v) => isPlainMap(valueAt(v, segs.slice(0, i))))) out.add(segs.slice(0, i).join('.'));
  }
  return out;
}

function valueAt(values: Values, segs: readonly string[]): unknown {
  let cur: unknown = values;
  for (const seg of segs) cur = isPlainMap(cur) ? ownValue(cur, seg) : undefined;
  return cur;
}

/**
 * `base` with the key at `segs` set to `value`: the maps on the key's path are copies, the rest
 * is shared with `base` (checks only read values, as a lint run's checks share them).
 */
function withValueAt(base: Values, segs: readonly string[], value: unknown): Values {
  const v: Values = { ...base };
  let cur = v;
  for (const seg of segs.slice(0, -1)) {
    const next = ownValue(cur, seg);
    if (!isPlainMap(next)) break;
    const copy = { ...next };
    setOwn(cur, seg, copy);
    cur = copy;
  }
  assignPath(v, segs, structuredClone(value));
  return v;
}

const FULL_APIS = ['v1', 'route.openshift.io/v1', 'monitoring.coreos.com/v1', 'gateway.networking.k8s.io/v1'];

function symmetricDifference(a: readonly string[], b: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const x of a) count.set(x, (count.get(x) ?? 0) + 1);
  for (const x of b) count.set(x, (count.get(x) ?? 0) - 1);
  return [...count].filter(([, n]) => n !== 0).map(([x]) => x);
}

/** The checks that read `key` or anything under it. */
export function rulesReading(rev: Revision, key: string): RuleReads[] {
  return ruleReads(rev).filter((r) => [...r.keys].some((k) => k === key || k.startsWith(`${key}.`)));
}
