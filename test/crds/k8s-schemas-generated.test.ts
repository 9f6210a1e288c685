// The committed Kubernetes schemas (schemas/kubernetes/) are what scripts/gen-k8s-openapi.mjs
// makes from their recorded sources: regenerated from the Go module cache when it holds the
// modules (no network), else held to the hashes the script recorded.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script without declarations
import { CRDS_OUTPUT, FOREIGN_CRDS, generate, generateCrds, OUTPUT, RELEASES, SUMS } from '../../scripts/gen-k8s-openapi.mjs';
import { KUBE_VERSIONS } from '../../src/kube-check/kube-versions.ts';
import { GO_DEFAULTED, GO_REQUIRED, GO_VALIDATION } from '../../src/kube-check/core-rules.ts';

const cache = process.env.GOMODCACHE ?? join(process.env.GOPATH ?? join(homedir(), 'go'), 'pkg', 'mod');
/** A module's folder in the cache, as `go mod download` reports it (module paths here have no capitals). */
const cached = (module: string, version: string) => ({ dir: join(cache, `${module}@${version}`), sum: recordedSum(module, version) });

const openapi = JSON.parse(readFileSync(OUTPUT as string, 'utf8')) as { versions: Record<string, { source: string; sum: string }> };
const crds = JSON.parse(readFileSync(CRDS_OUTPUT as string, 'utf8')) as { sums: Record<string, string> };

function recordedSum(module: string, version: string): string {
  if (module === 'k8s.io/kubernetes') return Object.values(openapi.versions).find((v) => v.source.startsWith(`${module}@${version} `))!.sum;
  return crds.sums[`${module}@${version}`]!;
}

const modules: [string, string][] = [
  ...Object.values(RELEASES as Record<string, string>).map((v): [string, string] => ['k8s.io/kubernetes', v]),
  ...(FOREIGN_CRDS as { module: string; version: string }[]).map((f): [string, string] => [f.module, f.version]),
];
const haveModules = modules.every(([m, v]) => existsSync(join(cache, `${m}@${v}`)));

describe('the Kubernetes schemas are generated, not written', () => {
  it('validate supports the releases the script generates, and the file has each of them', () => {
    expect([...KUBE_VERSIONS]).toEqual(Object.keys(RELEASES as object));
    expect(Object.keys(openapi.versions)).toEqual([...KUBE_VERSIONS]);
  });

  it("every field the Go-validation tables name exists in every release's schemas", () => {
    const data = JSON.parse(readFileSync(OUTPUT as string, 'utf8')) as { versions: Record<string, { defs: Record<string, number> }>; defs: Record<string, { properties?: Record<string, unknown> }[]> };
    const missing: string[] = [];
    for (const [v, release] of Object.entries(data.versions)) {
      for (const [def, props] of Object.entries(GO_VALIDATION)) {
        const i = release.defs[def];
        const node = i === undefined ? undefined : data.defs[def]![i];
        for (const p of Object.keys(props)) if (node?.properties?.[p] === undefined) missing.push(`${v} ${def}.${p}`);
      }
      for (const [def, props] of Object.entries({ ...GO_REQUIRED, ...GO_DEFAULTED })) {
        const i = release.defs[def];
        const node = i === undefined ? undefined : data.defs[def]![i];
        for (const p of props) if (node?.properties?.[p] === undefined) missing.push(`${v} ${def}.${p}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the committed files hash to what the script recorded', () => {
    const sums = readFileSync(SUMS as string, 'utf8');
    for (const file of [OUTPUT, CRDS_OUTPUT] as string[]) {
      const hash = createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex');
      expect(sums).toContain(`${hash}  ${file.split('/').pop()}`);
    }
  });

  it.runIf(haveModules)('openapi.json and crds.json are what the script makes from the modules in the Go module cache', async () => {
    expect((generate as (d: typeof cached) => string)(cached)).toBe(readFileSync(OUTPUT as string, 'utf8'));
    expect(await (generateCrds as (d: typeof cached) => Promise<string>)(cached)).toBe(readFileSync(CRDS_OUTPUT as string, 'utf8'));
  });
});
