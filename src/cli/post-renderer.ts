// `template --post-renderer CMD`: the rendered stream goes through a command, as helm does it
// (kustomize users rely on it): the manifests on its standard input, the manifests it prints on
// its standard output. Its output is read back into objects, so labels, --applyset and every
// output form apply to what it made; nothing is printed unless it succeeds.
import { isAbsolute, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { AgentplatError, EXIT_PROBLEMS, UsageError } from '../problems/errors.ts';
import type { K8sObject, RenderedDoc } from '../model/objects.ts';
import { toYaml } from '../render/manifests.ts';
import type { Io } from './io.ts';

/** Output beyond this is refused: a post-renderer that never stops must not fill the memory. */
export const MAX_POST_RENDER_BYTES = 64 * 1024 * 1024;
/** How much of the command's standard error a failure shows (its end, where the reason usually is). */
const STDERR_SHOWN = 4000;

/** The `# Source:` of an object the post-renderer made or renamed (no rendered object matches it). */
export const POST_RENDERER_SOURCE = 'agentplat/post-renderer.yaml';

/** A post-renderer that ran and failed: the release was not made (exit 1, like values with errors). */
export class PostRendererError extends AgentplatError {
  constructor(message: string, hint?: string) {
    super(message, EXIT_PROBLEMS, hint);
  }
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  overflow: boolean;
}

/** Runs the command with `input` on its standard input; throws UsageError when it cannot start. */
function runCommand(command: string, args: readonly string[], input: string, io: Io): Promise<Finished> {
  // A path is taken from where the user stands, a bare name from PATH (as a shell would).
  const file = command.includes('/') && !isAbsolute(command) ? resolve(io.cwd, command) : command;
  return new Promise((done, fail) => {
    // node:child_process only when a post-renderer runs: a render without one never loads it
    const child = process.getBuiltinModule('node:child_process').spawn(file, [...args], { cwd: io.cwd, env: { ...io.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let size = 0;
    let overflow = false;
    let stderr = '';
    child.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ENOENT' ? 'no such file, and no such command on PATH' : err.code === 'EACCES' ? 'it is not executable' : err.message;
      fail(new UsageError(`--post-renderer: cannot run "${command}": ${why}`, 'give the path of an executable (e.g. ./kustomize.sh) or a command on PATH; its arguments go in --post-renderer-args'));
    });
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_POST_RENDER_BYTES) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-STDERR_SHOWN);
    });
    // A command that exits without reading all of its input is not an error of ours; its exit
    // status says whether it worked.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('close', (code, signal) => done({ code, signal, stdout: Buffer.concat(out), stderr, overflow }));
  });
}

function objectKey(o: { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } }): string {
  return `${String(o.apiVersion)}|${String(o.kind)}|${String(o.metadata?.namespace ?? '')}|${String(o.metadata?.name)}`;
}

/**
 * The documents after the post-renderer: each object it printed, under the `# Source:` of the
 * rendered object with the same apiVersion, kind, namespace and name, or POST_RENDERER_SOURCE.
 */
export async function postRender(docs: readonly RenderedDoc[], command: string, args: readonly string[], io: Io): Promise<RenderedDoc[]> {
  const r = await runCommand(command, args, toYaml(docs), io);
  const who = `--post-renderer ${command}`;
  const tail = r.stderr.trim() === '' ? '' : `; its stderr:\n${r.stderr.trimEnd().replace(/^/gm, '    ')}`;
  if (r.overflow) throw new PostRendererError(`${who} printed more than ${MAX_POST_RENDER_BYTES / 1024 / 1024} MiB; it was stopped and nothing was printed`);
  if (r.signal) throw new PostRendererError(`${who} was killed by ${r.signal}; nothing was printed${tail}`);
  if (r.code !== 0) throw new PostRendererError(`${who} failed with exit status ${r.code}; nothing was printed${tail}`, 'run the command on `agentplat template` output by hand to see what it wants');
  const text = r.stdout.toString('utf8');
  const sources = new Map(docs.map((d) => [objectKey(d.object), d.source]));
  const out: RenderedDoc[] = [];
  const parsed = parseAllDocuments(text, { uniqueKeys: true, version: '1.2' });
  const list = Array.isArray(parsed) ? parsed : [parsed];
  list.forEach((doc, i) => {
    const where = `${who}: document ${i + 1} of its output`;
    if (doc.errors.length > 0) throw new PostRendererError(`${where} is not valid YAML: ${doc.errors[0]!.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    const o = value as Partial<K8sObject>;
    if (typeof o !== 'object' || Array.isArray(o) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') {
      throw new PostRendererError(`${where} is not a Kubernetes object (apiVersion, kind and metadata.name)`, 'a post-renderer prints the manifests it was given, changed: YAML documents separated by ---');
    }
    const object = o as K8sObject;
    out.push({ source: sources.get(objectKey(object)) ?? POST_RENDERER_SOURCE, object });
  });
  if (out.length === 0 && docs.length > 0) throw new PostRendererError(`${who} printed no objects; nothing was printed`, 'a post-renderer must print the manifests it was given on its standard output');
  return out;
}
