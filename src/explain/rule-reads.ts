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
import { revisionModel } from '../model/revisions/index.ts';
import type { RuleContext, ValuesRule } from '../lint/rules/types.ts';
import type { Revision } from '../spec/revisions.ts';
import { defaultsSource } from '../values/defaults.ts';
import { assignPath } from '../values/set-parser.ts';
import { isPlainMap, joinPath, type Values } from '../values/merge.ts';

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

/** Values wrapped so that every key looked up, at any depth, is recorded with its dotted path. */
function recording(values: Values, seen: Set<string>, on: { recording: boolean } = { recording: true }): Values {
  const proxies = new WeakMap<object, unknown>();
  const wrap = (target: Record<string, unknown>, prefix: string): unknown => {
    let p = proxies.get(target);
    if (p) return p;
    // Dotted the way problems name paths (joinPath): a dot inside a key (an annotation) is escaped.
    const child = (key: string) => (prefix ? `${prefix}.${joinPath([key])}` : joinPath([key]));
    const note = (key: string | symbol) => {
      if (typeof key === 'string' && on.recording) seen.add(child(key));
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
        if (prefix && on.recording) seen.add(prefix);
        if (on.recording) seen.add(`${WALKED}${prefix}`);
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
 * Runs one check on recording values; findings are dropped, a crash on odd values only ends that
 * run. With `direct`, the revision model is built before the check runs, unrecorded, so only
 * what the check reads itself is recorded.
 */
function readsOf(rule: ValuesRule, rev: Revision, sets: readonly Values[], direct = false): Set<string> {
  const seen = new Set<string>();
  for (const values of sets) {
    for (const apiVersions of [[], ['v1']]) {
      const on = { recording: !direct };
      const recorded = recording(values, seen, on);
      if (direct) {
        try {
          revisionModel(rev, recorded);
        } catch {
          // values the adapter cannot read; the check will say so or crash the same way
        }
        on.recording = true;
      }
      const ctx: RuleContext = {
        revision: rev,
        values: recorded,
        // An old cluster and a declared API list take the branches that only run when they are known.
        kubeVersion: '1.20.0',
        releaseNamespace: 'default',
        apiVersions,
        // As if the user wrote every key: some checks only look at what the user set.
        userSet: () => true,
        report: () => undefined,
      };
      try {
        rule.check(ctx);
      } catch {
        // values no user could pass the schema with; what was read before the crash still counts
      }
    }
  }
  return seen;
}

const cache = new Map<Revision, RuleReads[]>();

/** What every check of the linter reads in a revision, in the order the linter runs them. */
export function ruleReads(rev: Revision): RuleReads[] {
  let reads = cache.get(rev);
  if (!reads) {
    const sets = valueSets(rev);
    reads = RULES.map((rule) => ({ ids: rule.ids.map((i) => i.id), keys: readsOf(rule, rev, sets), direct: readsOf(rule, rev, sets, true) }));
    cache.set(rev, reads);
  }
  return reads;
}

/** Findings of one check on one value set, in a form two runs compare by. */
function findingsOf(rule: ValuesRule, rev: Revision, values: Values, apiVersions: string[]): string[] {
  const out: string[] = [];
  const ctx: RuleContext = {
    revision: rev,
    values,
    kubeVersion: '1.20.0',
    releaseNamespace: 'default',
    apiVersions,
    userSet: () => true,
    report: (f) => void out.push(JSON.stringify([f.rule, f.severity, f.path, f.message])),
  };
  try {
    rule.check(ctx);
  } catch (err) {
    out.push(`crash ${(err as Error).message}`);
  }
  return out.sort();
}

const setsCache = new Map<Revision, Values[]>();

/**
 * The rule ids, per check in the linter's order, whose findings change when `key` takes one of
 * `candidates` instead of what a value set has (checks that never read the key are skipped).
 */
export function rulesChangedBy(rev: Revision, key: string, candidates: readonly unknown[]): string[][] {
  let sets = setsCache.get(rev);
  if (!sets) setsCache.set(rev, (sets = valueSets(rev)));
  const segs = key.split('.');
  const out: string[][] = [];
  ruleReads(rev).forEach((reads, i) => {
    if (![...reads.keys].some((k) => k === key || k.startsWith(`${key}.`) || key.startsWith(`${k}.`))) return;
    const rule = RULES[i]!;
    const changed = new Set<string>();
    for (const base of sets!) {
      for (const apiVersions of [[], FULL_APIS]) {
        const before = findingsOf(rule, rev, base, apiVersions);
        for (const value of candidates) {
          const v = structuredClone(base);
          assignPath(v, segs, structuredClone(value));
          const after = findingsOf(rule, rev, v, apiVersions);
          for (const f of symmetricDifference(before, after)) changed.add(f.startsWith('crash') ? '' : (JSON.parse(f) as string[])[0]!);
        }
      }
    }
    let ids = reads.ids.filter((id) => changed.has(id));
    // A check that reads the key itself (not through the revision model) but whose findings no
    // single change moved compares it with other keys (replicas against a budget): all its rules.
    // A check that walks every key of a map (all registries, all annotations) reads them without looking for this one.
    const parent = segs.slice(0, -1).join('.');
    if (ids.length === 0 && !reads.direct.has(`${WALKED}${parent}`) && [...reads.direct].some((k) => k === key || k.startsWith(`${key}.`))) ids = [...reads.ids];
    if (ids.length > 0) out.push(ids);
  });
  return out;
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
