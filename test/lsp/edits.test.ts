// Editing a values file in `agentplat lsp` (issue 38): each open document keeps, between its
// edits, what values/no-effect rendered again for its keys and the render itself
// (src/pipeline/alike-memo.ts). What it gives again must be what a fresh lint finds: these
// tests lint each text of a run of edits twice, through the document's memory and afresh, and
// hold the two to each other, on edits chosen so that a kept answer would be wrong if it were given again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintDocument, type DocumentLint, type OpenDocument } from '../../src/lsp/request.ts';
import { alikeMemo } from '../../src/pipeline/alike-memo.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** A values file in a folder of its own (no .agentplat.yaml applies). */
function valuesFile(): string {
  const path = join(tempDir('agentplat-lsp-edits-'), 'values.yaml');
  writeFileSync(path, '');
  return path;
}

const nothingOpen = () => undefined;
const noEffect = (l: DocumentLint) => l.findings.filter((f) => f.data.rule === 'values/no-effect').map((f) => f.data.path);

/** Lints each text in turn through one memory, and each afresh: the findings must be the same. */
async function edits(path: string, texts: readonly string[]) {
  const memo = alikeMemo();
  const out: DocumentLint[] = [];
  for (const text of texts) {
    const doc: OpenDocument = { path, text };
    const kept = await lintDocument(doc, nothingOpen, memo);
    expect(kept).toEqual(await lintDocument(doc, nothingOpen));
    out.push(kept);
  }
  return { lints: out, counts: memo.counts };
}

// minAvailable decides the PodDisruptionBudget, so maxUnavailable (null) changes nothing: the
// chart reads it, and only rendering again without it tells (the answer the memory keeps).
const PDB = 'controller:\n  replicas: 3\n  pdb:\n    enabled: true\n    minAvailable: 1\n    maxUnavailable: null\n';

describe('the language server keeps answers between edits, and gives only what a fresh lint gives', () => {
  it('maxUnavailable beside minAvailable has no effect; an edit elsewhere that removes minAvailable gives it one, and the kept answer is not given again', async () => {
    const path = valuesFile();
    const { lints, counts } = await edits(path, [PDB, `${PDB}# a comment\n`, PDB.replace('    minAvailable: 1\n', ''), PDB]);
    expect(noEffect(lints[0]!)).toEqual(['controller.pdb.maxUnavailable']);
    // The comment changes no value: the answer is given again (the memory is used at all).
    expect(noEffect(lints[1]!)).toEqual(['controller.pdb.maxUnavailable']);
    expect(counts.reused).toBeGreaterThan(0);
    // Without minAvailable, maxUnavailable: null takes away the default's maxUnavailable: 1.
    expect(noEffect(lints[2]!)).toEqual([]);
    expect(noEffect(lints[3]!)).toEqual(['controller.pdb.maxUnavailable']);
  });

  it('authproxy.replicaCount has no effect while autoscaling decides the replicas; turning authproxy.autoscaling.enabled off, another key, gives it one', async () => {
    const scaled = 'authproxy:\n  enabled: true\n  config:\n    existingSecret: oidc\n  replicaCount: 2\n  autoscaling:\n    enabled: true\n    minReplicas: 2\n';
    const fixed = scaled.replace('    enabled: true\n    minReplicas', '    enabled: false\n    minReplicas');
    const { lints, counts } = await edits(valuesFile(), [scaled, `${scaled}# a comment\n`, fixed, scaled]);
    expect(noEffect(lints[0]!)).toEqual(['authproxy.replicaCount']);
    expect(noEffect(lints[1]!)).toEqual(['authproxy.replicaCount']);
    expect(counts.reused).toBeGreaterThan(0);
    expect(noEffect(lints[2]!)).toEqual(['authproxy.autoscaling.minReplicas']);
    expect(noEffect(lints[3]!)).toEqual(['authproxy.replicaCount']);
  });

  it('the authproxy keys have no effect while authproxy.enabled is false; turning it on makes them effective', async () => {
    const off = 'authproxy:\n  enabled: false\n  replicaCount: 3\n  config:\n    existingSecret: oidc\n';
    const on = off.replace('enabled: false', 'enabled: true');
    const { lints, counts } = await edits(valuesFile(), [off, `${off}# a comment\n`, on, off]);
    expect(noEffect(lints[0]!)).toEqual(['authproxy.replicaCount', 'authproxy.config.existingSecret']);
    expect(noEffect(lints[1]!)).toEqual(['authproxy.replicaCount', 'authproxy.config.existingSecret']);
    // The render itself was kept over the comment, and made anew when authproxy.enabled changed.
    expect(counts.rendersReused).toBeGreaterThan(0);
    expect(noEffect(lints[2]!)).toEqual([]);
    expect(noEffect(lints[3]!)).toEqual(['authproxy.replicaCount', 'authproxy.config.existingSecret']);
  });

  it('dashboards-mcp.grafana.apiKey has no effect beside a service-account token (made piece by piece); an edit that removes the token gives it one', async () => {
    const both = "dashboards-mcp:\n  grafana:\n    serviceAccountToken: glsa_token\n    apiKey: old-key\n";
    const keyOnly = both.replace('    serviceAccountToken: glsa_token\n', '');
    const { lints, counts } = await edits(valuesFile(), [both, `${both}# a comment\n`, keyOnly, both]);
    expect(noEffect(lints[0]!)).toEqual(['dashboards-mcp.grafana.apiKey']);
    expect(noEffect(lints[1]!)).toEqual(['dashboards-mcp.grafana.apiKey']);
    expect(counts.reused).toBeGreaterThan(0);
    expect(noEffect(lints[2]!)).toEqual([]);
    expect(noEffect(lints[3]!)).toEqual(['dashboards-mcp.grafana.apiKey']);
  });

  it('a value moved to another key, a key added and a map reordered: each edit finds what a fresh lint finds', async () => {
    const base = 'controller:\n  replicas: 3\n  pdb:\n    enabled: true\n    minAvailable: 1\n    maxUnavailable: null\nui:\n  replicas: 2\n  pdb:\n    enabled: true\n    minAvailable: "50%"\n';
    await edits(valuesFile(), [
      base,
      base.replace('controller:\n  replicas: 3\n', 'controller:\n  replicas: 1\n'),
      base.replace('    minAvailable: 1\n    maxUnavailable: null\n', '    maxUnavailable: null\n    minAvailable: 1\n'),
      base.replace('    minAvailable: 1\n', '    minAvailable: 2\n'),
      `${base}  unknownKey: 1\n`,
      base.replace('    enabled: true\n    minAvailable: 1\n', '    enabled: false\n    minAvailable: 1\n'),
      base,
    ]);
  });
});
