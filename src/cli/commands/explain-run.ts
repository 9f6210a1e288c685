// The work of `agentplat explain`, loaded only when that command runs: text for people, JSON for tools.
import type { App } from '../app.ts';
import { layerOptionsFrom, outputFormat, REPORT_FORMATS, revisionOption, type LayerFlags } from '../options.ts';
import { explainKey, keyInValues, topLevelKeys, type Explanation, type InConfiguration, type Landing } from '../../explain/explain.ts';
import { REVISION_IDS, type Revision } from '../../chart/revisions.ts';
import { EXIT_PROBLEMS } from '../../problems/errors.ts';

export interface ExplainFlags extends LayerFlags {
  revision?: string;
  output: string;
  /** -a/--api-versions as given (each entry one API or a comma-separated list). */
  apiVersions: string[];
}

const MAX_FIELDS = 6;

export async function runExplain(key: string | undefined, flags: ExplainFlags, app: App): Promise<void> {
  const output = outputFormat(flags.output, REPORT_FORMATS);
  const revisions: Revision[] = flags.revision !== undefined ? [revisionOption(flags.revision)] : [...REVISION_IDS];
  if (key === undefined || key === '') {
    const keys = topLevelKeys(revisions);
    if (output === 'json') app.io.stdout(`${JSON.stringify({ keys }, null, 2)}\n`);
    else {
      const width = Math.max(...keys.map((k) => k.key.length));
      const typeWidth = Math.max(...keys.map((k) => k.type.length));
      const lines = keys.map((k) => `  ${k.key.padEnd(width)}  ${k.type.padEnd(typeWidth)}  ${k.description}${k.revisions.length < revisions.length ? ` (revision ${k.revisions.join(', ')} only)` : ''}`);
      app.io.stdout(`Top-level values keys (revision ${revisions.join(', ')}):\n${lines.join('\n')}\nRun \`agentplat explain <key>\` for one of them.\n`);
    }
    app.exitCode = 0;
    return;
  }
  const layers = layerOptionsFrom(flags);
  const configured = Object.values(layers).some((l: string[] | undefined) => (l ?? []).length > 0) || flags.apiVersions.length > 0;
  const inValues = configured ? await configuration(key.trim(), flags, layers, app) : undefined;
  if (inValues === null) return;
  const e = await explainKey(key.trim(), inValues ? [inValues.revision] : revisions);
  const whole = inValues ? { ...e, configuration: inValues } : e;
  app.io.stdout(output === 'json' ? `${JSON.stringify(whole, null, 2)}\n` : explanationText(e) + (inValues ? configurationText(inValues, flags) : ''));
  app.exitCode = 0;
}

/**
 * The key in the render of the user's values (-f/--set), for the revision of -r, else of
 * .agentplat.yaml, else B; null when the values have errors (reported, exit 1).
 */
async function configuration(key: string, flags: ExplainFlags, layers: ReturnType<typeof layerOptionsFrom>, app: App): Promise<InConfiguration | null> {
  const { lintSettings } = await import('../lint-settings.ts');
  const { computeValues } = await import('../../pipeline/operations.ts');
  const { problemReporter } = await import('../problem-report.ts');
  const { parseApiVersionList } = await import('../../pipeline/request.ts');
  const apiVersions = parseApiVersionList(flags.apiVersions);
  const settings = lintSettings(app.io.cwd, { revision: flags.revision });
  const outcome = await computeValues({
    revision: settings.revision,
    layers,
    reader: { cwd: app.io.cwd, readStdin: (maxBytes: number) => app.io.readStdin(maxBytes) },
    releaseName: 'agentplat',
    namespace: 'default',
    apiVersions,
    rules: settings.rules,
    ...(settings.ignoreKeys ? { ignoreKeys: settings.ignoreKeys } : {}),
  });
  if (!outcome.layered) {
    (await problemReporter(app, outcome.problemsRevision, outcome.inputs))(outcome.problems);
    app.exitCode = EXIT_PROBLEMS;
    return null;
  }
  return keyInValues(key, settings.revision, outcome.loaded.sources, outcome.layered, outcome.problems, apiVersions);
}

function objectLine(o: InConfiguration['feeds'][number]): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}   ${o.source}`;
}

function configurationText(c: InConfiguration, flags: ExplainFlags): string {
  const given = [...c.apiVersions.map((a) => `-a ${a}`), ...flags.values.map((f) => `-f ${f}`), ...(flags.set ?? []).map((s) => `--set ${s}`), ...(flags.setString ?? []).map((s) => `--set-string ${s}`), ...(flags.setJson ?? []).map((s) => `--set-json ${s}`), ...(flags.setFile ?? []).map((s) => `--set-file ${s}`), ...(flags.setLiteral ?? []).map((s) => `--set-literal ${s}`)];
  const lines: string[] = [];
  if (c.unreadBecause) lines.push(`nothing this configuration renders reads it: ${c.unreadBecause}`);
  else {
    const by = c.readBy.includes('context') ? 'the render context (every object rests on it)' : c.readBy.join(', ');
    lines.push(`read by ${by}, for ${c.feeds.length === 1 ? 'this object' : `these ${c.feeds.length} objects`} (the key feeds one or more of them):`);
    for (const o of c.feeds) lines.push(`  ${objectLine(o)}`);
  }
  if (c.needsApi) {
    const n = c.needsApi;
    lines.push(`its objects render only when the cluster serves ${n.apiVersion}, which this render did not declare: with -a ${n.apiVersion} it feeds ${n.feeds.length === 1 ? 'this object' : `these ${n.feeds.length} objects`}:`);
    for (const o of n.feeds) lines.push(`  ${objectLine(o)}`);
  }
  for (const s of c.set) lines.push(s.effect ? `the values set \`${s.key}\`: it changes the output` : `the values set \`${s.key}\`: ${s.rule === 'values/same-as-default' ? 'it is the value it has without it' : 'it has no effect'}: ${s.why}  [${s.rule}]`);
  if (c.changes) {
    if (c.changes.length === 0) lines.push('without what the values set of it, the output is the same');
    else {
      lines.push('without what the values set of it, these objects change:');
      for (const l of c.changes) lines.push(`  ${landingLine(l)}`);
    }
  }
  return section(`IN THIS CONFIGURATION:  (revision ${c.revision}, ${given.join(' ')})`, lines);
}

/** The answer once when every revision gives the same one, else each revision's under its name. */
function perRevision(e: Explanation, pick: (rev: Revision) => string | undefined): string[] {
  const groups = new Map<string, Revision[]>();
  for (const rev of e.revisions) {
    const v = pick(rev);
    if (v === undefined) continue;
    groups.set(v, [...(groups.get(v) ?? []), rev]);
  }
  if (groups.size <= 1) return [...groups.keys()];
  return [...groups].map(([v, revs]) => `revision ${revs.join(', ')}:\n    ${v.replace(/\n {2}/g, '\n    ')}`);
}

function section(title: string, lines: readonly string[], inline = false): string {
  if (lines.length === 0) return '';
  if (inline && lines.length === 1 && !lines[0]!.includes('\n')) return `${title.padEnd(13)}${lines[0]}\n`;
  return `${title}\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

function landingLine(l: Landing): string {
  const what = `${l.kind} ${l.namespace ? `${l.namespace}/` : ''}${l.name}`;
  if (l.change !== 'changed') return `${l.change === 'added' ? '+' : '-'} ${what} (${l.change})   ${l.source}`;
  const fields = l.fields.length > MAX_FIELDS ? [...l.fields.slice(0, MAX_FIELDS), `… ${l.fields.length - MAX_FIELDS} more`] : l.fields;
  return `${what}: ${fields.join(', ')}   ${l.source}`;
}

function explanationText(e: Explanation): string {
  const f = (rev: Revision) => e.byRevision[rev]!;
  let out = section('KEY:', [e.key], true);
  out += section('TYPE:', perRevision(e, (r) => f(r).type), true);
  out += section('REVISIONS:', [e.revisions.join(', ')], true);
  out += section('DEFAULT:', perRevision(e, (r) => (f(r).default === undefined ? 'unset' : JSON.stringify(f(r).default))), true);
  out += section('DESCRIPTION:', perRevision(e, (r) => f(r).description));
  out += section('ONE OF:', perRevision(e, (r) => f(r).enum?.map((v) => JSON.stringify(v)).join(', ')), true);
  out += section('FIELDS:', perRevision(e, (r) => f(r).fields?.map((x) => `${x.key.split('.').pop()}  ${x.type}  ${x.description}`).join('\n  ')));
  const rules = perRevision(e, (r) => (f(r).rules.length === 0 ? 'none' : f(r).rules.map((ids) => ids.join(', ')).join('\n  ')));
  out += section('LINT RULES:  (whose findings it can change)', rules);
  const renders = perRevision(e, (r) => {
    const facts = f(r);
    if (!facts.renders) return facts.rendersNote;
    const on = Object.entries(facts.renders.with).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    const head = on.length > 0 ? `(with ${on.join(', ')})\n  ` : facts.renders.note ? `(${facts.renders.note})\n  ` : '';
    const apis = facts.renders.apiVersions.map((a) => `-a ${a}`).join(' ');
    const declared = apis ? `(${on.length > 0 ? 'and' : 'with'} ${apis}: its objects render only when the cluster serves ${facts.renders.apiVersions.join(', ')})\n  ` : '';
    const alongside = Object.entries(facts.renders.alongside ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    const needs = alongside.length > 0 ? `(the example value needs ${alongside.join(', ')}: set with it, not in the defaults' render)\n  ` : '';
    return head + declared + needs + (facts.renders.objects.length === 0 ? 'no rendered object changes' : facts.renders.objects.map(landingLine).join('\n  '));
  });
  out += section(`RENDERS INTO:${e.example ? `  (${e.example.flag}, compared with the defaults)` : ''}`, renders);
  if (e.example) out += section('EXAMPLE:', [e.example.command]);
  return out;
}
