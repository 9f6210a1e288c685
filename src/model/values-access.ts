// Typed, defensive reads of the merged values. The linter has already checked types, so these
// only guard against keys a revision does not have (they read as the given fallback).

import type { Values } from '../values/merge.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonMap = { [k: string]: Json };

/** The value at a dotted path (`controller.image.tag`); undefined when any step is missing. */
const SEGMENTS = new Map<string, string[]>();

export function at(values: Values, path: string): unknown {
  let segs = SEGMENTS.get(path);
  if (!segs) {
    segs = path.split('.');
    // Paths are the chart's own constants; the bound only guards against a caller with many.
    if (SEGMENTS.size < 10_000) SEGMENTS.set(path, segs);
  }
  let cur: unknown = values;
  for (const seg of segs) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
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
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}
