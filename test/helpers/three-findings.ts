// The language-server issue's values file: a typo (an error), a cross-field error (two disruption
// budget thresholds at once) and a key with no effect (a hostname while the route is off). Lint,
// the language server and its GitOps documents are each held to the same three findings.
export const THREE_FINDINGS = `controller:
  replicass: 2
  pdb:
    enabled: true
    minAvailable: 1
ui:
  httpRoute:
    hostnames: [agents.example.com]
`;

/** The text with every line indented by `spaces` (a values file put under a key of another YAML document). */
export function indented(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text.split('\n').map((l) => (l === '' ? l : pad + l)).join('\n');
}
