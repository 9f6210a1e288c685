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
import { watchModels } from '../model/revisions/index.ts';
import type { RuleContext, ValuesRule } from '../lint/rules/types.ts';
import type { CheckObject } from '../lint/crd-check.ts';
import type { Revision } from '../chart/revisions.ts';
import { defaultsSource } from '../values/defaults.ts';
import { assignPath } from '../values/set-parser.ts';
import { isPlainMap, joinPath, ownValue, setOwn, type Values } from '../values/merge.ts';

export interface RuleReads {
  /** The rule ids the check reports. */
  ids: readonly string[];
  /** Dotted keys the check read (maps are entered, lists and scalars are read whole). */
  keys: ReadonlySet<string>;
  /** The keys it read itself, not through the revision model it built. */
  direct: ReadonlySet<string>;
}

/** Marks a map whose keys a check listed (walked through) rather than looked up by name. */
const WALKED = '\0walked:';

/** Where a recording puts the keys read now; nowhere while undefined. */
interface Recorder {
  into: Set<string> | undefined;
}

/** Values wrapped so that every key looked up, at any depth, is recorded with its dotted path. */
function recording(values: Values, on: Recorder): Values {
  const proxies = new WeakMap<object, unknown>();
  const wrap = (target: Record<string, unknown>, prefix: string): unknown => {
    let p = proxies.get(target);
    if (p) return p;
    // Dotted the way problems name paths (joinPath): a dot inside a key (an annotation) is escaped.
    // Each path is made once per map: checks read the same keys over and over.
    const paths = new Map<string, string>();
    const child = (key: string) => {
      let path = paths.get(key);
      if (path === undefined) paths.set(key, (path = prefix ? `${prefix}.${joinPath([key])}` : joinPath([key])));
      return path;
    };
    const note = (key: string | symbol) => {
      if (typeof key === 'string') on.into?.add(child(key));
    };
    p = new Proxy(target, {
      get(t, key, receiver) {
        const v = Reflect.get(t, key, receiver);
        // A key looked up and missing is read too (a rule asking for `capabilities.add`); the
        // methods every object inherits are not keys.
        if (typeof key !== 'string' || (!Object.hasOwn(t, key) && key in Object.prototype)) return v;
        note(key);
        return isPlainMap(v) ? wrap(v, child(key)) : v;
      },
      has(t, key) {
        note(key);
        return Reflect.has(t, key);
      },
      // Listing a map's keys reads the map (annotations a rule walks through, whatever their names).
      ownKeys(t) {
        if (prefix) on.into?.add(prefix);
        on.into?.add(`${WALKED}${prefix}`);
        return Reflect.ownKeys(t);
      },
      getOwnPropertyDescriptor(t, key) {
        note(key);
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
    });
    proxies.set(target, p);
    return p;
  };
  return wrap(values, '') as Values;
}

/** The value sets each rule runs on, for one revision. */
function valueSets(rev: Revision): Values[] {
  const leaves = keysOf(valuesSchema(rev)).filter((k) => !k.holdsKeys);
  const bools = leaves.filter((k) => k.node.type === 'boolean').map((k) => k.key);
  const enums = leaves.flatMap((k) => (k.node.enum ? [{ path: k.key, values: k.node.enum }] : []));
  const defaults = () => structuredClone(defaultsSource(rev).data) as Values;
  const withAll = (paths: readonly string[], value: (path: string) => unknown): Values => {
    const v = defaults();
    for (const p of paths) assignPath(v, p.split('.'), value(p));
    return v;
  };
  // Every string key at an example: checks that compare two keys (a tag another tag shadows) need both set.
  const strings = leaves.filter((k) => k.node.type === 'string' && !k.node.enum).map((k) => k.key);
  const sets: Values[] = [defaults(), withAll(bools, () => true), withAll(bools, () => false), withAll(strings, () => 'example-value')];
  const widest = Math.max(0, ...enums.map((e) => e.values.length));
  for (let i = 0; i < widest; i++) {
    const v = defaults();
    for (const e of enums) assignPath(v, e.path.split('.'), e.values[i % e.values.length]);
    sets.push(v);
  }
  return sets;
}

/**
 * What each check reads on the value sets: every key (`keys`), and the keys it reads itself, not
 * through the revision model it asks for (`direct`). Findings are dropped; a crash on odd values
 * only ends that run, and what was read before it counts.
 *
 * Each set is recorded once for all the checks, so its model is built once (revisionModel keeps
 * it per values object); the model watch (model/revisions/index.ts) puts what building it reads
 * apart, and adds it to the keys of every check that asks for the model. A build that fails is
 * kept by no one: what it read counts as read by the check that asked, as would its next try.
 * Each check runs with an empty list of cluster APIs and then with ['v1'], the second only when
 * the first looked at the list (a run that never does runs the same with any list).
 */
function readsOf(rev: Revision, sets: readonly Values[], check: CheckObject | undefined): { keys: Set<string>; direct: Set<string> }[] {
  const out = RULES.map(() => ({ keys: new Set<string>(), direct: new Set<string>() }));
  for (const values of sets) {
    const on: Recorder = { into: undefined };
    const recorded = recording(values, on);
    let own = new Set<string>();
    let asked = false;
    let modelReads: Set<string> | undefined;
    watchModels({
      asked: (v) => {
        if (v === recorded) asked = true;
      },
      building: (v) => {
        if (v === recorded) on.into = new Set();
      },
      built: (v, ok) => {
        if (v !== recorded) return;
        if (ok) modelReads = on.into;
        else for (const k of on.into ?? []) own.add(k);
        on.into = own;
      },
    });
    try {
      RULES.forEach((rule, i) => {
        own = new Set();
        asked = false;
        on.into = own;
        onApiLists((apiVersions) => runCheck(rule, rev, recorded, apiVersions, check));
        for (const k of own) out[i]!.keys.add(k);
        for (const k of own) out[i]!.direct.add(k);
        if (asked) for (const k of modelReads ?? []) out[i]!.keys.add(k);
      });
    } finally {
      watchModels(undefined);
    }
  }
  return out;
}

/** Runs `run` with no cluster APIs declared, then with ['v1'] when the first run looked at them. */
function onApiLists(run: (apiVersions: readonly string[]) => boolean): void {
  if (run([])) run(['v1']);
}

/**
 * One run of a check on `values`, findings passed to `report`; true when it looked at the
 * cluster's APIs. An old cluster and a declared API list take the branches that only run when
 * they are known; every key counts as the user's, since some checks only look at what the user set.
 */
function runCheck(rule: ValuesRule, rev: Revision, values: Values, apiVersions: readonly string[], check: CheckObject | undefined, report: RuleContext['report'] = () => undefined, onCrash: (err: Error) => void = () => undefined): boolean {
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

const cache = new Map<string, RuleReads[]>();
const setsCache = new Map<Revision, Values[]>();

/** The value sets of a revision, made once: nothing changes them (checks only read values). */
function valueSetsOf(rev: Revision): Values[] {
  let sets = setsCache.get(rev);
  if (!sets) setsCache.set(rev, (sets = valueSets(rev)));
  return sets;
}

/** What every check of the linter reads in a revision, in the order the linter runs them. */
export function ruleReads(rev: Revision, check?: CheckObject): RuleReads[] {
  const id = `${rev}${check ? '+check' : ''}`;
  let reads = cache.get(id);
  if (!reads) {
    const sets = valueSetsOf(rev);
    const found = readsOf(rev, sets, check);
    reads = RULES.map((rule, i) => ({ ids: rule.ids.map((id) => id.id), ...found[i]! }));
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
function findingsOnApiLists(rule: ValuesRule, rev: Revision, values: Values, check: CheckObject | undefined): [string[], string[]] {
  const none = findingsOf(rule, rev, values, [], check);
  return [none.findings, none.asked ? findingsOf(rule, rev, values, FULL_APIS, check).findings : none.findings];
}

/**
 * The rule ids, per check in the linter's order, whose findings change when `key` takes one of
 * `candidates` instead of what a value set has (checks that never read the key are skipped).
 */
export function rulesChangedBy(rev: Revision, key: string, candidates: readonly unknown[], check?: CheckObject): string[][] {
  const sets = valueSetsOf(rev);
  const segs = key.split('.');
  const reading = ruleReads(rev, check).flatMap((reads, i) => ([...reads.keys].some((k) => k === key || k.startsWith(`${key}.`) || key.startsWith(`${k}.`)) ? [{ reads, rule: RULES[i]!, changed: new Set<string>() }] : []));
  // The same value twice changes nothing the first did not.
  const values = candidates.filter((c, i) => candidates.findIndex((o) => JSON.stringify(o) === JSON.stringify(c)) === i);
  // One values object per value set and candidate, which every check reads: the revision model
  // is built once for it (revisionModel keeps it per values object), as in a lint run.
  for (const base of sets) {
    const changedSets = values.map((value) => withValueAt(base, segs, value));
    for (const r of reading) {
      const before = findingsOnApiLists(r.rule, rev, base, check);
      for (const v of changedSets) {
        const after = findingsOnApiLists(r.rule, rev, v, check);
        for (const i of [0, 1]) for (const f of symmetricDifference(before[i]!, after[i]!)) r.changed.add(f.startsWith('crash') ? '' : (JSON.parse(f) as string[])[0]!);
      }
    }
  }
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
