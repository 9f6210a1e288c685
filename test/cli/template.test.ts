// `agentplat template`: helm template's command line, run through the real binary, gives the
// release render gives; helm's CRD default, post-renderer, labels and the flags that cannot apply.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { ensureBuilt, runBin, STACK_TRACE } from './binary.ts';
import { runInProcess } from './in-process.ts';
import { objectsOf } from '../helpers/objects.ts';
import { IGNORED } from '../../src/cli/commands/template.ts';

ensureBuilt();



function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('agentplat template: helm template\'s spelling of render', () => {
  it('the helm command line of the issue works verbatim with the chart argument dropped', () => {
    const dir = tempDir('agentplat-template-');
    writeFileSync(join(dir, 'v.yaml'), 'controller:\n  replicas: 2\n');
    const r = runBin(['template', 'agentplat', '-f', 'v.yaml', '-n', 'ns', '--api-versions', 'a/v1,b/v1', '--include-crds'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const objs = objectsOf(r.stdout);
    expect(objs.some((o) => o.kind === 'CustomResourceDefinition')).toBe(true);
    const controller = objs.find((o) => o.kind === 'Deployment' && o.metadata.name === 'agentplat-controller');
    expect(controller?.metadata.namespace).toBe('ns');
    expect(controller?.metadata.labels?.['app.kubernetes.io/instance']).toBe('agentplat');
  });

  it('template and render are one pipeline: the same flags give byte-identical output', () => {
    const common = ['-n', 'team', '--set', 'controller.replicas=3', '-a', 'monitoring.coreos.com/v1'];
    const t = runBin(['template', 'rel', ...common]);
    const r = runBin(['render', '--release-name', 'rel', '--skip-crds', ...common]);
    expect(t.code).toBe(0);
    expect(t.stdout).not.toBe('');
    expect(t.stdout).toBe(r.stdout);
  });

  it('CRDs are left out unless --include-crds (helm\'s default), while render keeps its own default', async () => {
    const crds = (out: string) => objectsOf(out).filter((o) => o.kind === 'CustomResourceDefinition').length;
    const plain = await runInProcess(['template', 'agentplat']);
    const included = await runInProcess(['template', 'agentplat', '--include-crds']);
    const render = await runInProcess(['render']);
    expect(plain.code).toBe(0);
    expect(crds(plain.stdout)).toBe(0);
    expect(crds(included.stdout)).toBeGreaterThan(0);
    expect(crds(render.stdout)).toBe(crds(included.stdout));
  });

  it('without NAME the release is called release-name, as helm template calls it', async () => {
    const r = await runInProcess(['template']);
    expect(r.code).toBe(0);
    expect(objectsOf(r.stdout).find((o) => o.kind === 'Deployment')?.metadata.labels?.['app.kubernetes.io/instance']).toBe('release-name');
  });

  it('--is-upgrade and --dry-run=client are accepted (the output does not change)', async () => {
    const base = await runInProcess(['template', 'agentplat']);
    const r = await runInProcess(['template', 'agentplat', '--is-upgrade', '--dry-run=client']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(base.stdout);
  });

  describe("helm's install-time flags (Helm 3's and Helm 4's) change nothing in the output: accepted, each with a note", () => {
    it.each(IGNORED.map((i) => [i.flag, i.value ? [i.flag, '5m'] : [i.flag]] as const))('%s', async (flag, args) => {
      const base = await runInProcess(['template', 'agentplat', '-s', 'templates/controller-deployment.yaml']);
      const r = await runInProcess(['template', 'agentplat', ...args, '-s', 'templates/controller-deployment.yaml']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(base.stdout);
      expect(r.stderr).toBe(`agentplat: note: helm's ${flag} is ignored: ${IGNORED.find((i) => i.flag === flag)!.why}\n`);
    });

    it('a Helm 4 command line works as written: --server-side, --take-ownership, --force-replace, --rollback-on-failure, --hide-notes, --dry-run=client, --wait=watcher', async () => {
      const base = await runInProcess(['template', 'agentplat', '-n', 'apps']);
      const r = await runInProcess(['template', 'agentplat', '-n', 'apps', '--server-side=auto', '--take-ownership', '--force-replace', '--rollback-on-failure', '--hide-notes', '--dry-run=client', '--wait=watcher', '--timeout', '10m']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(base.stdout);
      expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(7);
    });

    it('as in helm, the word after an on/off flag is an argument (the release name), and a value after = must be one helm takes', async () => {
      const named = await runInProcess(['template', '--take-ownership', 'prod', '-s', 'templates/controller-service.yaml']);
      expect(named.code, named.stderr).toBe(0);
      expect(named.stdout).toMatch(/^ {2}name: prod-controller$/m);
      const off = await runInProcess(['template', 'prod', '--take-ownership=false', '--server-side=false', '-s', 'templates/controller-service.yaml']);
      expect(off.code, off.stderr).toBe(0);
      const bad = await runInProcess(['template', 'prod', '--server-side=bogus']);
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr).toContain('--server-side: helm takes auto, true or false after =, found "bogus"');
    });
  });

  it('a --show-only CRD source without --include-crds gets a hint naming --include-crds', async () => {
    const r = await runInProcess(['template', '-s', 'crds/agents.agentplat.dev.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hint: that source holds CustomResourceDefinitions, which template leaves out unless --include-crds: add --include-crds/);
  });

  it.each([
    [['--repo', 'https://charts.example.com'], /chart, built in/],
    [['--dependency-update'], /chart, built in/],
    [['--kube-context', 'prod'], /never contacts a cluster/],
    [['--validate'], /never contacts a cluster/],
    [['--dry-run=server'], /never contacts a cluster/],
    [['-g'], /NAME argument/],
    [['--name-template', 'x'], /NAME argument/],
    [['--release-name'], /--output-dir DIR\/NAME/],
    [['--skip-schema-validation'], /--rule ID=off/],
  ])('helm flag %j makes no sense here: a usage error whose hint says why, nothing rendered', async (flags, why) => {
    const r = await runInProcess(['template', 'agentplat', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/hint: /);
    expect(r.stderr).toMatch(why);
  });

  it('a chart argument, or a chart where NAME goes, is a usage error pointing at the built-in chart', async () => {
    for (const args of [['agentplat', './chart'], ['./chart'], ['agentplat-0.11.0.tgz']]) {
      const r = await runInProcess(['template', ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/the chart is built in/);
    }
  });

  it('the usage line advertises only what template takes: [name], not the chart argument it refuses', async () => {
    const r = await runInProcess(['template', '--help']);
    expect(r.stdout.split('\n')[0]).toBe('Usage: agentplat template [options] [name]');
    expect(r.stdout).not.toMatch(/\[chart\]/);
  });

  it('--include-crds with --skip-crds is a usage error', async () => {
    const r = await runInProcess(['template', '--include-crds', '--skip-crds']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/contradict/);
  });
});

describe('--api-versions takes comma-separated lists (render and template)', () => {
  it('render --api-versions a,b declares both APIs, as two flags do', async () => {
    const set = ['--set', 'controller.metrics.enabled=true', '--set', 'controller.metrics.serviceMonitor.enabled=true', '--skip-crds'];
    const list = await runInProcess(['render', ...set, '--api-versions', 'cert-manager.io/v1,monitoring.coreos.com/v1']);
    const two = await runInProcess(['render', ...set, '-a', 'cert-manager.io/v1', '-a', 'monitoring.coreos.com/v1']);
    expect(list.code).toBe(0);
    expect(objectsOf(list.stdout).some((o) => o.kind === 'ServiceMonitor')).toBe(true);
    expect(list.stdout).toBe(two.stdout);
  });

  it.each(['a/v1,', 'a/v1,,b/v1', 'a/v1,bogus'])('an empty or bad entry in %s is a usage error', async (v) => {
    const r = await runInProcess(['render', '--api-versions', v]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('--set-literal through the binary', () => {
  it('the text after "=" lands in the manifest as it is, commas, braces and backslashes included', () => {
    const r = runBin(['template', 'agentplat', '--set-literal', 'podAnnotations.note=a,b={c},d\\e']);
    expect(r.code).toBe(0);
    const controller = objectsOf(r.stdout).find((o) => o.kind === 'Deployment' && o.metadata.name === 'agentplat-controller') as unknown as { spec: { template: { metadata: { annotations: Record<string, string> } } } };
    expect(controller.spec.template.metadata.annotations.note).toBe('a,b={c},d\\e');
  });
});

describe('--post-renderer: the rendered stream goes through a command', () => {
  it('the command gets the manifests on stdin; what it prints (an object it adds included) is the output, labelled like the rest', () => {
    const dir = tempDir('agentplat-post-');
    script(dir, 'add.sh', 'cat > "$(dirname "$0")/seen.yaml"\ncat "$(dirname "$0")/seen.yaml"\nprintf -- "---\\napiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: $1\\n"');
    const r = runBin(['template', 'agentplat', '--post-renderer', './add.sh', '--post-renderer-args', 'from-kustomize', '-l', 'team=ml'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const objs = objectsOf(r.stdout);
    const added = objs.find((o) => o.metadata.name === 'from-kustomize');
    expect(added?.kind).toBe('ConfigMap');
    expect(r.stdout).toContain('# Source: agentplat/post-renderer.yaml');
    // The rendered objects keep their source path.
    expect(r.stdout).toContain('# Source: agentplat/templates/controller-deployment.yaml');
    expect(objs.every((o) => o.metadata.labels?.team === 'ml')).toBe(true);
    expect(objs.length).toBe(objectsOf(runBin(['template', 'agentplat']).stdout).length + 1);
  });

  it('a failing post-renderer is exit 1 with its exit status and stderr, and nothing on stdout', () => {
    const dir = tempDir('agentplat-post-');
    script(dir, 'fail.sh', 'cat > /dev/null\necho "kustomize: no kustomization.yaml" >&2\nexit 7');
    const r = runBin(['template', 'agentplat', '--post-renderer', './fail.sh'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--post-renderer \.\/fail\.sh failed with exit status 7; nothing was printed/);
    expect(r.stderr).toContain('kustomize: no kustomization.yaml');
    expect(r.stderr).not.toMatch(STACK_TRACE);
  });

  it('a post-renderer that prints something other than Kubernetes objects is refused (exit 1, nothing printed)', () => {
    const dir = tempDir('agentplat-post-');
    script(dir, 'junk.sh', 'cat > /dev/null\necho "just: text"');
    script(dir, 'broken.sh', 'cat > /dev/null\nprintf "a: [\\n"');
    for (const [cmd, why] of [['./junk.sh', /document 1 of its output is not a Kubernetes object/], ['./broken.sh', /document 1 of its output is not valid YAML/]] as const) {
      const r = runBin(['template', 'agentplat', '--post-renderer', cmd], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(why);
    }
  });

  it('a post-renderer that cannot be started is a usage error; --post-renderer-args alone too', async () => {
    const missing = await runInProcess(['template', '--post-renderer', './no-such-renderer']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/cannot run "\.\/no-such-renderer": no such file/);
    const argsOnly = await runInProcess(['template', '--post-renderer-args', 'x']);
    expect(argsOnly.code).toBe(2);
  });
});

describe('-l/--labels: extra labels on every object', () => {
  it('every object gets the labels in its metadata, selectors stay as the chart wrote them', async () => {
    const r = await runInProcess(['template', 'agentplat', '--include-crds', '-l', 'team=ml,example.com/cost-center=a1', '--labels', 'team=ai']);
    expect(r.code).toBe(0);
    const objs = objectsOf(r.stdout);
    expect(objs.every((o) => o.metadata.labels?.team === 'ai' && o.metadata.labels['example.com/cost-center'] === 'a1')).toBe(true);
    const deploy = objs.find((o) => o.kind === 'Deployment') as unknown as { spec: { selector: { matchLabels: Record<string, string> } } };
    expect(deploy.spec.selector.matchLabels.team).toBeUndefined();
  });

  it.each([
    ['bad key=x', /not a valid label key/],
    ['-team=x', /not a valid label key/],
    ['Example.com/team=x', /prefix "Example.com" is not a DNS subdomain/],
    [`${'a'.repeat(64)}=x`, /not a valid label key/],
    ['team=has space', /not a valid value/],
    [`team=${'v'.repeat(64)}`, /not a valid value/],
    ['team', /is not key=value/],
    ['applyset.kubernetes.io/part-of=x', /written by --applyset/],
  ])('-l %s is refused as the API server would refuse it (usage error)', async (label, why) => {
    const r = await runInProcess(['template', '-l', label]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(why);
  });

  it('a label the chart already sets to another value is a usage error naming the object', async () => {
    const r = await runInProcess(['template', 'agentplat', '-l', 'app.kubernetes.io/instance=other']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/already has label app\.kubernetes\.io\/instance=agentplat/);
  });
});
