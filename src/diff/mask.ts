// What a diff may show of two objects: the values of secret fields (a Secret's data, the
// credentials the Resource API model marks secret) replaced by the mask, and every secret value of
// the user's values (and every URL password) masked wherever else it appears. A secret that changed
// stays visible as a change without being shown: its two sides are marked old and new.
import { MASK, redact, SecretFields, type SecretCursor } from '../problems/secrets.ts';

/** A Secret's values, whatever their keys. */
const SECRET_KIND_FIELDS = new SecretFields([
  ['data', '*'],
  ['stringData', '*'],
]);

const NO_FIELDS = new SecretFields([]);

export interface Masker {
  /** The two objects as they may be shown; either may be undefined (an added or removed object). */
  pair(kind: { group: string; kind: string }, a: unknown, b: unknown): [unknown, unknown];
}

/**
 * `crdSecrets` gives the secret fields of a custom resource kind of the platform (undefined for a
 * kind it does not define); `secrets` are the secret values of the user's values, masked inside
 * any string.
 */
export function masker(secrets: ReadonlySet<string>, crdSecrets: (kind: string) => readonly (readonly string[])[] | undefined): Masker {
  const byKind = new Map<string, SecretFields>();
  const fieldsFor = (group: string, kind: string): SecretFields => {
    if (group === '') return kind === 'Secret' ? SECRET_KIND_FIELDS : NO_FIELDS;
    let f = byKind.get(kind);
    if (!f) byKind.set(kind, (f = new SecretFields(crdSecrets(kind) ?? [])));
    return f;
  };
  const text = (s: string): string => redact(s, secrets);
  return {
    pair(id, a, b) {
      const fields = fieldsFor(id.group, id.kind);
      return maskPair(a, b, fields.root, fields, text);
    },
  };
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Walks both objects together (maps by key, lists by index) so that a secret that differs between
 * them is marked on each side instead of masked into two equal lines.
 */
function maskPair(a: unknown, b: unknown, at: SecretCursor, fields: SecretFields, text: (s: string) => string): [unknown, unknown] {
  const leaf = (v: unknown): unknown => {
    if (v === undefined) return undefined;
    if (at.inside && (v === null || typeof v !== 'object')) return MASK;
    return typeof v === 'string' ? text(v) : v;
  };
  const aIsNode = a !== null && typeof a === 'object';
  const bIsNode = b !== null && typeof b === 'object';
  if (!aIsNode && !bIsNode) {
    const [ma, mb] = [leaf(a), leaf(b)];
    if (a !== undefined && b !== undefined && a !== b && ma === mb) return [`${String(ma)} (old value)`, `${String(mb)} (new value)`];
    return [ma, mb];
  }
  if (isMap(a) || isMap(b)) {
    const ma = isMap(a) ? a : undefined;
    const mb = isMap(b) ? b : undefined;
    const outA: Record<string, unknown> = {};
    const outB: Record<string, unknown> = {};
    for (const k of new Set([...Object.keys(ma ?? {}), ...Object.keys(mb ?? {})])) {
      const [x, y] = maskPair(ma?.[k], mb?.[k], fields.step(at, k), fields, text);
      if (ma && Object.hasOwn(ma, k)) outA[k] = x;
      if (mb && Object.hasOwn(mb, k)) outB[k] = y;
    }
    return [ma ? outA : maskPair(a, undefined, at, fields, text)[0], mb ? outB : maskPair(undefined, b, at, fields, text)[1]];
  }
  const la = Array.isArray(a) ? a : undefined;
  const lb = Array.isArray(b) ? b : undefined;
  const outA: unknown[] = [];
  const outB: unknown[] = [];
  for (let i = 0; i < Math.max(la?.length ?? 0, lb?.length ?? 0); i++) {
    const [x, y] = maskPair(la && i < la.length ? la[i] : undefined, lb && i < lb.length ? lb[i] : undefined, fields.step(at, i), fields, text);
    if (la && i < la.length) outA.push(x);
    if (lb && i < lb.length) outB.push(y);
  }
  return [la ? outA : maskPair(a, undefined, at, fields, text)[0], lb ? outB : maskPair(undefined, b, at, fields, text)[1]];
}
