// A Language Server Protocol client over the stdio of the shipped `agentplat lsp` (bin/agentplat),
// speaking JSON-RPC through vscode-jsonrpc as an editor does: what the server sends is kept, and a
// test waits for the diagnostics it expects (no clock: the test runner's own timeout bounds a hang).
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { BIN } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';

export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  message: string;
  source: string;
  data?: unknown;
}

export interface TextEdit {
  range: Diagnostic['range'];
  newText: string;
}

export class LspClient {
  readonly connection: MessageConnection;
  private readonly child: ChildProcess;
  private readonly published = new Map<string, { version?: number; diagnostics: Diagnostic[] }[]>();
  private readonly waiters: (() => void)[] = [];
  private readonly versions = new Map<string, number>();
  stderr = '';

  constructor(cwd: string) {
    this.child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd, env: { ...process.env, XDG_CACHE_HOME: tempDir('agentplat-cache-') }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
      this.published.set(p.uri, [...(this.published.get(p.uri) ?? []), p]);
      for (const w of this.waiters.splice(0)) w();
    });
    this.connection.listen();
  }

  async initialize(rootPath: string): Promise<{ capabilities: Record<string, unknown> }> {
    const r = await this.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', { processId: process.pid, rootUri: pathToFileURL(rootPath).href, capabilities: {} });
    await this.connection.sendNotification('initialized', {});
    return r;
  }

  open(path: string, text: string): string {
    const uri = pathToFileURL(path).href;
    this.versions.set(uri, 1);
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    return uri;
  }

  /** Replaces the whole text, as a full-document change. */
  change(uri: string, text: string): number {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    void this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  /** Applies edits of one document the way an editor does (from the last to the first). */
  static applyEdits(text: string, edits: readonly TextEdit[]): string {
    const offset = (p: { line: number; character: number }) => {
      const lines = text.split('\n');
      return lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
    };
    const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
    let out = text;
    for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
    return out;
  }

  /** The diagnostics published for `uri` at `version` (the latest publication when none given), once they arrive. */
  async diagnostics(uri: string, version?: number): Promise<Diagnostic[]> {
    for (;;) {
      const list = this.published.get(uri) ?? [];
      const hit = version === undefined ? list[list.length - 1] : list.find((p) => p.version === version);
      if (hit) return hit.diagnostics;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest<T>(method, params);
  }

  async close(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.on('exit', (code) => resolve(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
