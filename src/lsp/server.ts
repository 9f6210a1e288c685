// `agentplat lsp`: the Language Server Protocol over standard input and output. Diagnostics as
// lint finds them (request.ts), hover, completion and quick fixes (features.ts). The only module
// that loads vscode-languageserver; `agentplat lsp`'s run file imports it when that command runs.

import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  CompletionItemKind,
  createConnection,
  DiagnosticSeverity,
  InsertTextFormat,
  MarkupKind,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { alikeMemo } from '../pipeline/alike-memo.ts';
import type { EffectMemo } from '../pipeline/render.ts';
import { otherRevision, type Revision } from '../chart/revisions.ts';
import { extentsIn, pathAt } from './positions.ts';
import { actionsFor, completionsAt, hoverText, migrationEdit, type Action } from './features.ts';
import { isGitopsDocument, isObjectsFile, lintDocument, revisionOf, settingsFor, valuesPathOf, type Finding, type FindingData, type OpenDocument } from './request.ts';

const SEVERITY: Record<Finding['severity'], DiagnosticSeverity> = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information };

/** Values files: YAML documents on disk (untitled buffers have no folder to find settings from). */
const isValuesFile = (doc: TextDocument) => doc.uri.startsWith('file:') && /\.ya?ml$/i.test(doc.uri);

export function startServer(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Connection {
  const connection = createConnection(ProposedFeatures.all, input, output);
  const documents = new TextDocuments(TextDocument);
  const open = (path: string) => documents.get(pathToFileURL(path).href)?.getText();
  const asOpen = (doc: TextDocument): OpenDocument => ({ path: fileURLToPath(doc.uri), text: doc.getText() });

  // Files a GitOps document published findings to (a ConfigMap's file beside a HelmRelease), to clear them when they go.
  const publishedTo = new Map<string, Set<string>>();
  const publish = async (uri: string, version: number | undefined, text: string, findings: readonly Finding[]) => {
    const target = documents.get(uri);
    if (!target) return;
    const extent = extentsIn(text);
    await connection.sendDiagnostics({ uri, ...(version !== undefined ? { version } : {}), diagnostics: findings.map((f) => diagnosticOf(target, f, extent)) });
  };

  // Each open document's memory of the no-effect judgement between its edits (its answers are a
  // fresh lint's: pipeline/alike-memo.ts keeps one only while everything it rests on holds).
  const memos = new Map<string, EffectMemo>();
  const memoOf = (uri: string) => {
    let memo = memos.get(uri);
    if (!memo) memos.set(uri, (memo = alikeMemo()));
    return memo;
  };

  // One lint at a time per document; an edit during a lint asks for one more run afterwards.
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const lint = (uri: string) => {
    if (running.has(uri)) {
      again.add(uri);
      return;
    }
    const run = (async () => {
      do {
        again.delete(uri);
        const doc = documents.get(uri);
        if (!doc || !isValuesFile(doc)) return;
        const version = doc.version;
        const opened = asOpen(doc);
        // A file of Kubernetes objects (a ConfigMap) is not a values file: what a HelmRelease reads from it is shown by the HelmRelease's lint.
        if (!isGitopsDocument(opened) && isObjectsFile(opened.text)) return;
        const { findings, elsewhere } = await lintDocument(opened, open, memoOf(uri));
        if (again.has(uri)) continue;
        await publish(uri, version, doc.getText(), findings);
        const before = publishedTo.get(uri) ?? new Set<string>();
        const now = new Set<string>();
        for (const [path, found] of elsewhere) {
          const other = documents.get(pathToFileURL(path).href);
          if (!other) continue;
          now.add(other.uri);
          await publish(other.uri, other.version, other.getText(), found);
        }
        for (const gone of before) if (!now.has(gone)) await publish(gone, undefined, documents.get(gone)?.getText() ?? '', []);
        publishedTo.set(uri, now);
      } while (again.has(uri));
    })()
      .catch((err: unknown) => connection.console.error(`agentplat lsp: linting ${uri} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`))
      .finally(() => running.delete(uri));
    running.set(uri, run);
  };
  /** A document and the open GitOps documents of its folder, which may read it (a ConfigMap's values). */
  const lintWithReaders = (uri: string) => {
    lint(uri);
    const dir = uri.slice(0, uri.lastIndexOf('/') + 1);
    for (const other of documents.all()) {
      if (other.uri !== uri && other.uri.startsWith(dir) && !other.uri.slice(dir.length).includes('/') && isValuesFile(other) && isGitopsDocument(asOpen(other))) lint(other.uri);
    }
  };

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      completionProvider: { triggerCharacters: [':', ' ', '-'] },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source] },
    },
    serverInfo: { name: 'agentplat' },
  }));

  documents.onDidOpen((e) => lintWithReaders(e.document.uri));
  documents.onDidChangeContent((e) => lintWithReaders(e.document.uri));
  documents.onDidClose((e) => {
    memos.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover(async ({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    if (!doc || !isValuesFile(doc)) return null;
    const text = await hoverText(asOpen(doc), doc.offsetAt(position), open);
    return text === undefined ? null : { contents: { kind: MarkupKind.Markdown, value: text } };
  });

  connection.onCompletion(({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    if (!doc || !isValuesFile(doc)) return [];
    const opened = asOpen(doc);
    const revision = revisionOf(opened, open);
    return completionsAt(opened.text, doc.offsetAt(position), revision, (p) => valuesPathOf(opened, p)?.path).map((c) => ({
      label: c.label,
      kind: c.kind === 'key' ? CompletionItemKind.Property : CompletionItemKind.Value,
      detail: c.detail,
      documentation: { kind: MarkupKind.Markdown, value: c.documentation },
      ...(c.snippet ? { insertText: c.snippet, insertTextFormat: InsertTextFormat.Snippet } : c.kind === 'key' ? { insertText: `${c.label}: ` } : {}),
    }));
  });

  connection.onCodeAction(async ({ textDocument, context }) => {
    const doc = documents.get(textDocument.uri);
    if (!doc || !isValuesFile(doc)) return [];
    const out: CodeAction[] = [];
    const toAction = (a: Action, kind: string, diagnostic?: Diagnostic): CodeAction => ({
      title: a.title,
      kind,
      ...(diagnostic ? { diagnostics: [diagnostic] } : {}),
      ...(a.preferred ? { isPreferred: true } : {}),
      edit: { changes: { [doc.uri]: a.edits.map((e) => ({ range: { start: doc.positionAt(e.start), end: doc.positionAt(e.end) }, newText: e.text })) } },
    });
    const opened = asOpen(doc);
    const { text } = opened;
    const gitops = isGitopsDocument(opened);
    let migrateFrom: Revision | undefined;
    for (const d of context.diagnostics) {
      if (d.source !== 'agentplat' || !d.data) continue;
      const data = d.data as FindingData;
      const offset = doc.offsetAt(d.range.start);
      // In a GitOps object the values start below spec.values (or helm.valuesObject).
      const written = gitops ? pathAt(text, offset) : undefined;
      const prefix = written ? (valuesPathOf(opened, written.path)?.prefix ?? []) : [];
      for (const a of actionsFor(text, offset, data, prefix)) out.push(toAction(a, CodeActionKind.QuickFix, d));
      if (data.onlyInRevision) migrateFrom = data.onlyInRevision as Revision;
    }
    // A values file written for the other revision: the migration, as `agentplat migrate` writes it.
    const { revision } = settingsFor(fileURLToPath(doc.uri));
    if (!gitops && migrateFrom !== undefined && migrateFrom === otherRevision(revision)) {
      const migration = await migrationEdit(asOpen(doc), migrateFrom, revision).catch(() => undefined);
      if (migration) out.push(toAction(migration, CodeActionKind.QuickFix));
    }
    return out;
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}

/** A finding as the editor shows it: from where the problem points to the end of that key or value. */
function diagnosticOf(doc: TextDocument, f: Finding, extent: (offset: number) => number): Diagnostic {
  const start = { line: f.line ?? 0, character: f.column ?? 0 };
  const offset = doc.offsetAt(start);
  const end = f.line === undefined ? { line: 0, character: 0 } : doc.positionAt(extent(offset));
  return { range: { start, end }, severity: SEVERITY[f.severity], source: 'agentplat', code: f.data.rule, message: f.message, data: f.data };
}
