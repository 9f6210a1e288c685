// `agentplat explain`: each fact it prints comes from where the tool itself gets it (the values
// schema, the lint checks, the render), checked here against those sources, in-process (the run()
// the executable calls, with memory streams).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './binary.ts';
import { runInProcess } from './in-process.ts';
import { breathe } from '../helpers/breathe.ts';
import { ruleReads, rulesChangedBy, rulesReading, valueSetsOf } from '../../src/explain/rule-reads.ts';
import { RULES } from '../../src/lint/rules/index.ts';
import type { RuleContext } from '../../src/lint/rules/types.ts';
import { watchModels } from '../../src/model/revisions/index.ts';
import { allKeys, exampleValue, explainKey, schemaNodeAt, setFlag } from '../../src/explain/explain.ts';
import { lintValues } from '../../src/lint/lint.ts';
import { REVISION_IDS, type Revision } from '../../src/chart/revisions.ts';
import { describeKey, walkKeys } from '../../src/chart/values-model.ts';
import { applySetArgument } from '../../src/values/set-parser.ts';
import { dataSource } from '../../src/values/source.ts';
import type { SchemaNode } from '../../src/docs/values-reference.ts';
import { checkModelConfig } from '../helpers/load-crd-check.ts';
// Provider config and tls are checked by validate's code, which a run loads only when needed: loaded here, as the commands load it.

const schema = (rev: Revision) => JSON.parse(readFileSync(join(ROOT, 'schemas', `values-${rev.toLowerCase()}.schema.json`), 'utf8')) as SchemaNode;

async function explainJson(args: string[]) {
  const r = await runInProcess(['explain', ...args, '-o', 'json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('explain KEY through the binary', () => {
  it('prints type, default, revisions, meaning, the rules that read it, where it renders and an example --set', async () => {
    const r = await runInProcess(['explain', 'controller.replicas', '-r', 'B']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^KEY: +controller\.replicas$/m);
    expect(r.stdout).toMatch(/^TYPE: +int$/m);
    expect(r.stdout).toMatch(/^DEFAULT: +1$/m);
    expect(r.stdout).toMatch(/^REVISIONS: +B$/m);
    expect(r.stdout).toContain(schemaNodeAt(schema('B'), 'controller.replicas')!.description!);
    expect(r.stdout).toMatch(/values\/pdb-blocks-eviction/);
    expect(r.stdout).toMatch(/Deployment default\/agentplat-controller: spec\.replicas/);
    expect(r.stdout).toMatch(/agentplat render --set controller\.replicas=2/);
  });

  it('gives each revision its own default and allowed values where they differ', async () => {
    const e = await explainJson(['imagePullPolicy']);
    expect(e.revisions).toEqual(['A', 'B']);
    expect(e.byRevision.A.default).toBe('IfNotPresent');
    expect(e.byRevision.B.default).toBe('');
    expect(e.byRevision.B.enum).toContain('');
    expect(e.byRevision.A.enum).not.toContain('');
  });

  it('-o json: the objects and fields a key lands in come from rendering it changed (the sentinel lands where the template puts it)', async () => {
    const e = await explainJson(['controller.loglevel', '-r', 'B']);
    expect(e.example.flag).toBe('--set controller.loglevel=example-value');
    const changed = e.byRevision.B.renders.objects as { kind: string; source: string; change: string; fields: string[] }[];
    expect(changed.length).toBeGreaterThan(0);
    // Every object listed really holds the value: rendering with the flag shows it at that source.
    const rendered = await runInProcess(['render', '-r', 'B', '-n', 'agentplat', '--skip-crds', ...e.example.flag.split(' ')]);
    expect(rendered.code).toBe(0);
    for (const o of changed.filter((c) => c.change === 'changed')) {
      const doc = rendered.stdout.split(/^---$/m).find((d) => d.includes(`# Source: ${o.source}\n`) && d.includes(`kind: ${o.kind}\n`));
      expect(doc, o.source).toBeDefined();
    }
    expect(changed.some((o) => o.fields.some((f) => f.startsWith('data.') || f.includes('env')))).toBe(true);
  });

  it('turns on the enabled switch above a key so that its objects render, and says so', async () => {
    const e = await explainJson(['controller.metrics.bindAddress', '-r', 'B']);
    const renders = e.byRevision.B.renders;
    expect(renders).toBeDefined();
    // controller.metrics.enabled is off by default: without it nothing of the metrics renders.
    expect(describeKey('B', 'controller.metrics.enabled')?.default).toBe(false);
    expect(renders.with).toEqual({ 'controller.metrics.enabled': true });
    expect(renders.objects.length).toBeGreaterThan(0);
  });

  it('a switch that needs another key to render (bundled database off needs a URL) shows what it renders: that key set only with the example, not in the defaults\' render', async () => {
    for (const rev of REVISION_IDS) {
      const e = await explainKey('database.rdb.bundled.enabled', [rev], { rules: false });
      const renders = e.byRevision[rev]!.renders!;
      expect(renders.with).toEqual({});
      expect(renders.alongside).toEqual({ 'database.rdb.url': expect.stringMatching(/^postgres:\/\//) });
      const removed = renders.objects.filter((o) => o.change === 'removed').map((o) => `${o.kind}/${o.name}`);
      expect(removed, rev).toEqual(expect.arrayContaining(['Deployment/agentplat-postgresql', 'Service/agentplat-postgresql', 'Secret/agentplat-postgresql']));
    }
  });

  it('a key that is itself a companion of its switch is compared with its example value against the companion\'s (authproxy.config.clientID)', async () => {
    const renders = (await explainKey('authproxy.config.clientID', ['B'], { rules: false })).byRevision.B!.renders!;
    expect(renders.note).toBeUndefined();
    expect(renders.with['authproxy.enabled']).toBe(true);
    expect(renders.objects.some((o) => o.kind === 'Secret' && o.fields.some((f) => f.startsWith('data.')))).toBe(true);
  });

  it('a key whose objects render only when the cluster serves an API (a ServiceMonitor) names the object and field, with the API declared: "-a" in the example', async () => {
    const r = await runInProcess(['explain', 'controller.metrics.serviceMonitor.labels', '-r', 'B']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('no rendered object changes');
    expect(r.stdout).toMatch(/^ {2}\(and -a monitoring\.coreos\.com\/v1: its objects render only when the cluster serves monitoring\.coreos\.com\/v1\)$/m);
    expect(r.stdout).toMatch(/^ {2}ServiceMonitor default\/agentplat-controller-metrics: metadata\.labels\.example {3}agentplat\/templates\/controller-servicemonitor\.yaml$/m);
    expect(r.stdout).toMatch(/^ {2}agentplat render -a monitoring\.coreos\.com\/v1 --set controller\.metrics\.enabled=true --set controller\.metrics\.serviceMonitor\.enabled=true --set controller\.metrics\.serviceMonitor\.labels\.example=example-value$/m);
  });

  it('the proxy\'s and the tools server\'s ServiceMonitor keys, and the Route\'s, land in their objects with the API declared (-o json: renders.apiVersions)', async () => {
    const cases: [string, string, string][] = [
      ['authproxy.metrics.serviceMonitor.labels', 'monitoring.coreos.com/v1', 'ServiceMonitor'],
      ['agentplat-tools.tools.metrics.servicemonitor.labels', 'monitoring.coreos.com/v1', 'ServiceMonitor'],
      ['ui.altRoute.annotations', 'route.openshift.io/v1', 'Route'],
    ];
    for (const [key, api, kind] of cases) {
      const e = await explainJson([key, '-r', 'B']);
      const renders = e.byRevision.B.renders as { apiVersions: string[]; objects: { kind: string; fields: string[] }[] };
      expect(renders.apiVersions, key).toEqual([api]);
      expect(renders.objects.some((o) => o.kind === kind && o.fields.some((f) => f.startsWith('metadata.'))), key).toBe(true);
      expect(e.example.command, key).toMatch(new RegExp(`^agentplat render -a ${api.replace(/\./g, '\\.')} `));
    }
    // A key that changes objects without any API declares none.
    expect((await explainJson(['controller.replicas', '-r', 'B'])).byRevision.B.renders.apiVersions).toEqual([]);
  });

  it('a key holding other keys lists them (FIELDS) instead of rendering', async () => {
    const r = await runInProcess(['explain', 'controller.auth']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^FIELDS:$/m);
    for (const k of Object.keys(schemaNodeAt(schema('B'), 'controller.auth')!.properties!)) expect(r.stdout).toMatch(new RegExp(`^ +${k} `, 'm'));
  });

  it('without a key lists every top-level key of the schema, marking revision-only ones', async () => {
    const r = await runInProcess(['explain']);
    expect(r.code).toBe(0);
    for (const rev of REVISION_IDS) for (const k of Object.keys(schema(rev).properties!)) expect(r.stdout).toMatch(new RegExp(`^  ${k.replace(/[.-]/g, '\\$&')} `, 'm'));
    expect(r.stdout).toMatch(/^ +global .*\(revision B only\)$/m);
    const json = await explainJson(['-r', 'A']);
    expect(json.keys.map((k: { key: string }) => k.key)).toEqual(Object.keys(schema('A').properties!));
  });

  it('an unknown key exits 1 with the nearest key as a hint, like kubectl explain on a missing field', async () => {
    const r = await runInProcess(['explain', 'contoller.replicas']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown values key "contoller\.replicas"/);
    expect(r.stderr).toMatch(/hint: did you mean controller\.replicas\?/);
  });

  it('a key of the other revision only exits 1 and names the revision that has it', async () => {
    const r = await runInProcess(['explain', 'controller.goAgentImage.tag', '-r', 'B']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/exists only in revision A/);
    expect(r.stderr).toMatch(/--revision A/);
  });

  it('a bad revision or output format is a usage error (exit 2)', async () => {
    expect((await runInProcess(['explain', 'ui', '-r', 'C'])).code).toBe(2);
    expect((await runInProcess(['explain', 'ui', '-o', 'yaml'])).code).toBe(2);
  });
});

describe('explain: the lint rules listed are those whose findings the key can change', () => {
  const listed = async (rev: Revision, key: string) => (await explainKey(key, [rev])).byRevision[rev]!.rules.flat();

  it('a key every check reads through the revision model lists only the rules it moves (tag: not every values/* and security/* rule)', async () => {
    expect(await listed('B', 'tag')).toEqual(['values/image-tag-shadowed']);
    expect(await listed('B', 'global.imageRegistry')).toEqual(['values/image-registry-shadowed']);
    expect(await listed('B', 'ui.basePath')).toEqual(['values/base-path']);
    expect((await listed('B', 'controller.sandbox.cpu')).filter((id) => id.startsWith('security/'))).toEqual([]);
  });

  it('a key a check compares with another key lists that check (controller.replicas: the budget that blocks evictions)', async () => {
    expect(await listed('B', 'controller.replicas')).toContain('values/pdb-blocks-eviction');
    expect(await listed('B', 'authproxy.enabled')).toEqual(expect.arrayContaining(['values/authproxy-secret', 'security/route-bypasses-authproxy']));
  });
});

describe('explain answers within a few renders\' work: its checks share each values set and its model, as a lint run does', () => {
  /** The values objects each check ran on, and the values objects a revision model was built for, during `run`. */
  function watched(run: () => void): { seen: Map<number, Set<object>>; built: object[] } {
    const seen = new Map<number, Set<object>>();
    const checks = RULES.map((r) => r.check);
    const built: object[] = [];
    RULES.forEach((rule, i) => {
      const check = checks[i]!;
      rule.check = (ctx: RuleContext) => {
        if (!seen.has(i)) seen.set(i, new Set());
        seen.get(i)!.add(ctx.values);
        check.call(rule, ctx);
      };
    });
    watchModels({ asked: () => undefined, building: (values) => void built.push(values), built: () => undefined });
    try {
      run();
    } finally {
      watchModels(undefined);
      RULES.forEach((rule, i) => (rule.check = checks[i]!));
    }
    return { seen, built };
  }

  it('the checks run only on the value sets with the key changed, all of them on the same values objects, each one\'s revision model built once (not once per check)', () => {
    ruleReads('B');
    const { seen, built } = watched(() => expect(rulesChangedBy('B', 'controller.replicas', [2, 3, 0]).flat()).toContain('values/pdb-blocks-eviction'));
    const all = new Set([...seen.values()].flatMap((s) => [...s]));
    // Several checks read controller.replicas (the budget's, the model's readers) …
    expect(seen.size).toBeGreaterThan(1);
    // … on copies of the value sets with the key changed: their findings on the sets themselves come from the build.
    const sets = new Set<object>(valueSetsOf('B'));
    expect([...all].filter((v) => sets.has(v))).toEqual([]);
    // Every check ran on the same copies, until it had nothing left to find.
    const most = Math.max(...[...seen.values()].map((s) => s.size));
    for (const [i, s] of seen) if (s.size < most) expect(RULES[i]!.ids.length, `${RULES[i]!.ids[0]!.id} stopped early`).toBeGreaterThan(0);
    // A model is built for those values objects only, each once.
    expect(built.every((v) => all.has(v))).toBe(true);
    expect(new Set(built).size).toBe(built.length);
    expect(built.length).toBeGreaterThan(0);
  });

  it('a check that only looks up other keys of the maps above the key does not run for it (controller.replicas: the metrics and probe checks read controller.*, not its replicas)', () => {
    const { seen } = watched(() => rulesChangedBy('B', 'controller.replicas', [2, 3, 0]));
    const ran = new Set([...seen.keys()].map((i) => RULES[i]!.ids[0]!.id));
    const readsUnderController = ruleReads('B').filter((r) => [...r.keys].some((k) => k.startsWith('controller.')));
    // Most checks read some key under controller (through the revision model) …
    expect(readsUnderController.length).toBeGreaterThan(ran.size);
    // … and those that never read controller.replicas itself are not run for it.
    for (const r of ruleReads('B')) {
      if (!r.keys.has('controller.replicas') && ![...r.keys].some((k) => k.startsWith('\0walked:'))) expect(ran.has(r.ids[0]!), r.ids[0]).toBe(false);
    }
  });

  it('a check stops once every rule of it has changed: more value sets cannot add to what it lists', () => {
    ruleReads('B');
    // The auth check's two rules (values/auth-mode, values/trusted-proxy) both move with controller.auth.mode (a mode it does not know, a mode that needs a proxy).
    const authMode = RULES.findIndex((r) => r.ids.some((x) => x.id === 'values/auth-mode'));
    const modes = schemaNodeAt(schema('B'), 'controller.auth.mode')!.enum!;
    const { seen } = watched(() => expect(rulesChangedBy('B', 'controller.auth.mode', [...modes, '', 'latest'])).toContainEqual(RULES[authMode]!.ids.map((x) => x.id)));
    const all = new Set([...seen.values()].flatMap((s) => [...s]));
    expect(seen.get(authMode)!.size).toBeLessThan(all.size);
  });

  it('a check runs only on the value sets on which it saw the key (the proxy\'s session-storage check reads authproxy.config.* only where the proxy is on; the metadata walk reads it on every set)', () => {
    ruleReads('B');
    const id = (rule: string) => RULES.findIndex((r) => r.ids.some((x) => x.id === rule));
    const { seen } = watched(() => rulesChangedBy('B', 'authproxy.config.emailDomains', [['example-value'], ['example.com'], []]));
    const ranOn = (rule: string) => seen.get(id(rule))?.size ?? 0;
    const storage = ranOn('values/authproxy-session-storage');
    expect(storage).toBeGreaterThan(0);
    expect(storage).toBeLessThan(ranOn('values/metadata') / 2);
  });

  const sample = JSON.parse(readFileSync(join(ROOT, 'test', 'data', 'explain', 'rules-by-key.json'), 'utf8')) as { keys: Record<string, Partial<Record<Revision, string[][]>>> };
  it.each(Object.entries(sample.keys))('%s: the lint rules listed are those explain listed before the checks shared their values (test/data/explain/rules-by-key.json)', async (key, byRevision) => {
    const e = await explainKey(key, REVISION_IDS);
    expect(Object.fromEntries(e.revisions.map((rev) => [rev, e.byRevision[rev]!.rules]))).toEqual(byRevision);
  });
});

describe('explain descends into list items, as kubectl explain does', () => {
  it.each([
    ['controller.env.name', 'string'],
    ['controller.tolerations.effect', 'string'],
  ])('%s: its type, and where a list of one example item with it changed renders', async (key, type) => {
    const e = await explainJson([key, '-r', 'B']);
    expect(e.byRevision.B.type).toBe(type);
    const list = key.split('.').slice(0, -1).join('.');
    expect(e.example.flag).toMatch(new RegExp(`^--set-json '${list.replace('.', '\\.')}=\\[`));
    expect(e.byRevision.B.renders.objects.map((o: { kind: string }) => o.kind)).toContain('Deployment');
  });

  it('a field the items do not have is unknown', async () => {
    expect((await runInProcess(['explain', 'controller.env.nope'])).code).toBe(1);
  });
});

describe('explain: every EXAMPLE it prints renders', () => {
  for (const rev of REVISION_IDS) {
    it(`[${rev}] the command of every key's example exits 0 as printed, and every key is compared with its switches on unless the chart removed it`, async () => {
      const failed: string[] = [];
      const comparedWithout: string[] = [];
      let ran = 0;
      for (const key of allKeys([rev])) {
        await breathe();
        const e = await explainKey(key, [rev], { rules: false });
        // A key whose examples the linter refuses with its switch on is compared without it, where
        // it changes nothing: "no rendered object changes" would mislead. Only a removed key may be.
        if (/no example value .* passes the linter/.test(e.byRevision[rev]?.renders?.note ?? '')) comparedWithout.push(key);
        if (!e.example) continue;
        const args = splitCommand(e.example.command);
        expect(args.slice(0, 2)).toEqual(['agentplat', 'render']);
        const r = await runInProcess([...args.slice(1), '-r', rev]);
        ran++;
        if (r.code !== 0) failed.push(`${e.example.command}: ${r.stderr.split('\n')[0]}`);
      }
      expect(failed).toEqual([]);
      expect(ran).toBeGreaterThan(100);
      // authproxy.service.port: removed in the proxy chart (values/authproxy-removed-key), any value is an error.
      expect(comparedWithout).toEqual(['authproxy.service.port']);
    });
  }
});

/** The words of a command line as a POSIX shell splits them (single quotes only, as setFlag writes them). */
function splitCommand(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  // A word may mix quoted and plain parts (--set-json 'k=v'): rejoin what the shell would.
  return out;
}

describe('explain: the lint rules that read a key are found by running the checks', () => {
  it('a read on a branch the defaults do not take is found (forwarded headers are checked only in trusted-proxy mode)', () => {
    const ids = rulesReading('B', 'ui.additionalForwardedHeaders').flatMap((r) => r.ids);
    expect(ids).toContain('values/forwarded-header-stripped');
    expect(rulesReading('B', 'controller.auth.mode').flatMap((r) => r.ids)).toEqual(expect.arrayContaining(['values/auth-mode', 'values/forwarded-header-stripped']));
  });

  it('every key a lint finding points at, over all lint fixtures, is a key its check is found to read', async () => {
    const ownerOf = (rev: Revision, rule: string) => ruleReads(rev).find((r) => r.ids.includes(rule));
    const files = readdirSync(join(ROOT, 'fixtures', 'lint')).filter((f) => f.endsWith('.yaml')).map((f) => join('fixtures', 'lint', f));
    let checked = 0;
    for (const rev of REVISION_IDS) {
      // --no-effects: values/no-effect from the render's read record is no check of a rule module.
      const r = await runInProcess(['lint', '-r', rev, '--format', 'json', '--verbose', '--no-effects', ...files], { cwd: ROOT });
      const report = JSON.parse(r.stdout) as { files: { file: string; problems: { rule: string; path: string }[] }[] };
      for (const f of report.files) {
        for (const p of f.problems) {
          const owner = ownerOf(rev, p.rule);
          if (!owner || p.path === '') continue;
          // The values key the finding is about: the deepest prefix of its path the values model
          // declares (inside a list, a map of free keys or a Kubernetes object, the key holding it).
          const segs = p.path.replace(/\[.*$/, '').split(/(?<!\\)\./);
          let key = segs[0]!;
          for (let i = 2; i <= segs.length; i++) if (describeKey(rev, segs.slice(0, i).join('.'))) key = segs.slice(0, i).join('.');
          const read = [...owner.keys].some((k) => k === key || k.startsWith(`${key}.`));
          expect(read, `${rev} ${f.file}: ${p.rule} reports ${p.path}, which its check was not found to read`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('explain: example values', () => {
  for (const rev of REVISION_IDS) {
    it(`[${rev}] every key that holds a value gets an example its schema accepts, written as a flag that sets exactly it`, async () => {
      const s = schema(rev);
      const without: string[] = [];
      for (const { path } of walkKeys(rev)) {
        await breathe();
        const node = schemaNodeAt(s, path);
        if (!node || (node.properties && Object.keys(node.properties).length > 0)) continue;
        const value = exampleValue(path, node, describeKey(rev, path)!.default);
        if (value === undefined) {
          without.push(path);
          continue;
        }
        const flag = setFlag(path, value);
        const [, kind, arg] = /^--(set|set-string|set-json) (.*)$/.exec(flag)!;
        const data = {};
        applySetArgument(data, arg!.replace(/^'(.*)'$/, '$1'), kind as 'set');
        const { problems } = lintValues({ checkModelConfig, revision: rev, layers: [dataSource('--set', data)] });
        expect(problems.filter((p) => p.rule.startsWith('schema')).map((p) => `${p.path}: ${p.message}`), flag).toEqual([]);
      }
      // Keys with no type to follow (accepted and ignored).
      expect(without).toEqual(['controller.streaming']);
    });
  }
});
