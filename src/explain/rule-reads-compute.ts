// What each lint check reads (explain's `ruleReads`), found by running the checks on the value
// sets of ./rule-reads.ts through a recording view of the values. It depends only on the
// package, so the build runs this (scripts/build.mjs) and writes the result to
// dist/generated/rule-reads.json, which explain reads; no run imports this module.
// test/generated.test.ts holds the generated file to what this computes.

import { RULES } from '../lint/rules/index.ts';
import type { CheckObject } from '../lint/crd-check.ts';
import { watchModels } from '../model/revisions/index.ts';
import type { Revision } from '../chart/revisions.ts';
import { isPlainMap, joinPath, type Values } from '../values/merge.ts';
import { findingsOnApiLists, onApiLists, ruleReadsId, runCheck, valueSets, WALKED, type RuleReadsData } from './rule-reads.ts';

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
function readsOf(rev: Revision, sets: readonly Values[], check: CheckObject | undefined): { keys: Map<string, number>; direct: Set<string> }[] {
  const out = RULES.map(() => ({ keys: new Map<string, number>(), direct: new Set<string>() }));
  sets.forEach((values, s) => {
    // Each key with the value sets it was read on, as bits (set s is bit s).
    const readOn = (into: Map<string, number>, k: string) => void into.set(k, (into.get(k) ?? 0) | (1 << s));
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
        for (const k of own) readOn(out[i]!.keys, k);
        for (const k of own) out[i]!.direct.add(k);
        if (asked) for (const k of modelReads ?? []) readOn(out[i]!.keys, k);
      });
    } finally {
      watchModels(undefined);
    }
  });
  return out;
}

/** What every check reads in each revision, without and with validate's ModelConfig check, and its findings on each value set, as the build writes it. */
export function computeRuleReads(check: CheckObject): RuleReadsData {
  const out: RuleReadsData = {};
  for (const rev of ['A', 'B'] as const satisfies readonly Revision[]) {
    for (const withCheck of [false, true]) {
      const found = readsOf(rev, valueSets(rev), withCheck ? check : undefined);
      // The findings on the value sets themselves, which explain compares each changed set with:
      // on sets of their own, not the recorded ones.
      const sets = valueSets(rev);
      if (sets.length > 31) throw new Error(`${sets.length} value sets: the reads record each key's sets as the bits of a 32-bit number`);
      out[ruleReadsId(rev, withCheck)] = RULES.map((rule, i) => ({
        ids: rule.ids.map((x) => x.id),
        keys: [...found[i]!.keys.keys()].sort(),
        sets: [...found[i]!.keys.keys()].sort().map((k) => found[i]!.keys.get(k)!),
        direct: [...found[i]!.direct].sort(),
        base: sets.map((values) => findingsOnApiLists(rule, rev, values, withCheck ? check : undefined)),
      }));
    }
  }
  return out;
}
