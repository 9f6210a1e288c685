// The one way to read merged values: a path walker (`at`) and three kinds of typed reads on it.
// - `str`, `bool`, `num`, `map`, `list`: for render, where the linter has already checked types;
//   a key the revision does not have reads as the given fallback.
// - `optStr`, `optNum`, `optBool`, `optList`, `optMap`, `strings`: for lint rules, which may see
//   anything the user typed; a value of another type reads as undefined.
// - `asStr`, `asMap`, `asList`, `asBool`: the same coercions on a value already in hand (a
//   sub-chart's block).

import { isPlainMap, splitPath, type Values } from '../values/merge.ts';
import { jsonText } from '../values/big-integers.ts';
import type { PathSegment } from '../values/source.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonMap = { [k: string]: Json };

const SEGMENTS = new Map<string, PathSegment[]>();

/**
 * The value at a dotted path (`controller.image.tag`, `a.b[0]`, `podAnnotations.prometheus\.io/scrape`);
 * undefined when any step is missing. Only own keys of maps and indexes of lists are followed.
 */
export function at(values: unknown, path: string): unknown {
  let segs = SEGMENTS.get(path);
  if (!segs) {
    segs = splitPath(path);
    // Paths are the chart's own constants; the bound only guards against a caller with many.
    if (SEGMENTS.size < 10_000) SEGMENTS.set(path, segs);
  }
  let cur: unknown = values;
  for (const seg of segs) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) !== (typeof seg === 'number')) return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

export function str(values: Values, path: string, fallback = ''): string {
  const v = at(values, path);
  if (v === undefined || v === null) return fallback;
  return typeof v === 'string' ? v : String(v);
}

export function bool(values: Values, path: string, fallback = false): boolean {
  const v = at(values, path);
  return typeof v === 'boolean' ? v : v === undefined || v === null ? fallback : v === 'true';
}

export function num(values: Values, path: string, fallback: number): number {
  const v = at(values, path);
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return fallback;
}

export function map(values: Values, path: string): JsonMap {
  const v = at(values, path);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonMap) : {};
}

export function list(values: Values, path: string): Json[] {
  const v = at(values, path);
  return Array.isArray(v) ? (v as Json[]) : [];
}

// ------------------------------------------------------------------------------------------
// Reads for rules: the type asked for, else undefined.

export function optStr(values: unknown, path: string): string | undefined {
  const v = at(values, path);
  return typeof v === 'string' ? v : undefined;
}
export function optNum(values: unknown, path: string): number | undefined {
  const v = at(values, path);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
export function optBool(values: unknown, path: string): boolean | undefined {
  const v = at(values, path);
  return typeof v === 'boolean' ? v : undefined;
}
export function optList(values: unknown, path: string): unknown[] | undefined {
  const v = at(values, path);
  return Array.isArray(v) ? v : undefined;
}
export function optMap(values: unknown, path: string): Record<string, unknown> | undefined {
  const v = at(values, path);
  return isPlainMap(v) ? v : undefined;
}
/** The string entries of a list (others left out); [] when there is no list. */
export function strings(values: unknown, path: string): string[] {
  return (optList(values, path) ?? []).filter((x): x is string => typeof x === 'string');
}

// ------------------------------------------------------------------------------------------
// Coercions of a value in hand.

/** Strings as they are, numbers and booleans as text, anything else the fallback. */
export function asStr(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : fallback;
}
export function asMap(v: unknown): Values {
  return isPlainMap(v) ? v : {};
}
export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
export function asBool(v: unknown, fallback = false): boolean {
  return typeof v === 'boolean' ? v : fallback;
}

// ------------------------------------------------------------------------------------------

export function has(values: Values, path: string): boolean {
  return at(values, path) !== undefined;
}

/** Non-empty: not null/undefined/"" and not an empty list or map. */
export function present(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** First non-empty string. */
export function firstOf(...candidates: (string | undefined)[]): string {
  for (const c of candidates) if (c !== undefined && c !== '') return c;
  return '';
}

/** `k=v` pairs sorted by key (byte order), comma-joined: the format the controller parses for maps. */
export function sortedPairs(m: JsonMap): string {
  return Object.keys(m)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${scalarText(m[k])}`)
    .join(',');
}

/** Unique entries, first occurrence order kept. */
export function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : typeof v === 'object' ? (jsonText(v) as string) : String(v);
}
