// Which values keys each cross-field lint rule reads, found by running the rules themselves on
// recording values rather than kept in a table: a rule that starts reading a key shows up here
// without anyone remembering to declare it.
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
import type { Revision } from '../spec/revisions.ts';
import { defaultsSource } from '../values/defaults.ts';
import { assignPath } from '../values/set-parser.ts';
import { isPlainMap, joinPath, type Values } from '../values/merge.ts';

export interface RuleReads {
  /** The rule ids the check reports. */
  ids: readonly string[];
  /** Dotted keys the check read (maps are entered, lists and scalars are read whole). */
  keys: ReadonlySet<string>;
}

/** Values wrapped so that every key looked up, at any depth, is recorded with its dotted path. */
function recording(values: Values, seen: Set<string>): Values {
  const proxies = new WeakMap<object, unknown>();
  const wrap = (target: Record<string, unknown>, prefix: string): unknown => {
    let p = proxies.get(target);
    if (p) return p;
    // Dotted the way problems name paths (joinPath): a dot inside a key (an annotation) is escaped.
    const child = (key: string) => (prefix ? `${prefix}.${joinPath([key])}` : joinPath([key]));
    const note = (key: string | symbol) => {
      if (typeof key === 'string') seen.add(child(key));
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
        if (prefix) seen.add(prefix);
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
  const sets: Values[] = [defaults(), withAll(bools, () => true), withAll(bools, () => false)];
  const widest = Math.max(0, ...enums.map((e) => e.values.length));
  for (let i = 0; i < widest; i++) {
    const v = defaults();
    for (const e of enums) assignPath(v, e.path.split('.'), e.values[i % e.values.length]);
    sets.push(v);
  }
  return sets;
}

/** Runs one check on recording values; findings are dropped, a crash on odd values only ends that run. */
function readsOf(rule: ValuesRule, rev: Revision, sets: readonly Values[]): Set<string> {
  const seen = new Set<string>();
  for (const values of sets) {
    for (const apiVersions of [[], ['v1']]) {
      const ctx: RuleContext = {
        revision: rev,
        values: recording(values, seen),
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
    reads = RULES.map((rule) => ({ ids: rule.ids.map((i) => i.id), keys: readsOf(rule, rev, sets) }));
    cache.set(rev, reads);
  }
  return reads;
}

/** The checks that read `key` or anything under it. */
export function rulesReading(rev: Revision, key: string): RuleReads[] {
  return ruleReads(rev).filter((r) => [...r.keys].some((k) => k === key || k.startsWith(`${key}.`)));
}
