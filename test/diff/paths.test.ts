// Field paths in one spelling (src/diff/paths.ts): the server's spelling of a conflict's field read
// against the object it was sent, the output's spelling read back, and --ignore paths matched in
// either spelling.
import { describe, expect, it } from 'vitest';
import { covers, formatPath, parsePath, serverPath, serverSteps, type PathStep } from '../../src/diff/paths.ts';

const deployment = {
  metadata: { labels: { app: 'x', 'app.kubernetes.io/name': 'agentplat' } },
  spec: {
    replicas: 1,
    template: {
      spec: {
        containers: [
          { name: 'ui', image: 'ui:1', ports: [{ containerPort: 80 }, { containerPort: 81, protocol: 'UDP' }], args: ['--a', '--b'] },
          { name: 'side car', image: 's:1', ports: [{ name: 'http', containerPort: 8080 }] },
        ],
      },
    },
  },
};
const configMap = { data: { 'config.json': '{}', config: 'x' } };

describe('the server\'s field paths in the output\'s spelling', () => {
  it('a dotted key of the object reads as one key in brackets; a key under a key stays dotted', () => {
    expect(serverPath('.data.config.json', configMap)).toBe('data["config.json"]');
    expect(serverPath('.data.config', configMap)).toBe('data.config');
    expect(serverPath('.metadata.labels.app.kubernetes.io/name', deployment)).toBe('metadata.labels["app.kubernetes.io/name"]');
    expect(serverPath('.metadata.labels.app', deployment)).toBe('metadata.labels.app');
    expect(serverPath('.spec.replicas', deployment)).toBe('spec.replicas');
  });

  it('a list entry by its key fields reads as its name in a list of named entries, else as its position; a key field the server defaulted may be missing from the object', () => {
    expect(serverPath('.spec.template.spec.containers[name="ui"].image', deployment)).toBe('spec.template.spec.containers[name=ui].image');
    expect(serverPath('.spec.template.spec.containers[name="ui"].ports[containerPort=80,protocol="TCP"]', deployment)).toBe('spec.template.spec.containers[name=ui].ports[0]');
    expect(serverPath('.spec.template.spec.containers[name="ui"].ports[containerPort=81,protocol="UDP"].containerPort', deployment)).toBe('spec.template.spec.containers[name=ui].ports[1].containerPort');
    expect(serverPath('.spec.template.spec.containers[name="side car"].ports[containerPort=8080,protocol="TCP"].name', deployment)).toBe('spec.template.spec.containers[name="side car"].ports[name=http].name');
    expect(serverPath('.spec.template.spec.containers[name="ui"].args[="--b"]', deployment)).toBe('spec.template.spec.containers[name=ui].args[1]');
  });

  it('a field the object does not hold is read as plain names, and what cannot be read is left as the server wrote it', () => {
    expect(serverPath('.spec.paused', deployment)).toBe('spec.paused');
    expect(serverPath('.spec.template.spec.containers[name="gone"].image', deployment)).toBe('spec.template.spec.containers[name=gone].image');
    expect(serverSteps('.spec[', deployment)).toBeUndefined();
    expect(serverPath('.spec[', deployment)).toBe('spec[');
  });
});

describe('the output\'s spelling read back', () => {
  it('every path the output writes reads back to the same steps', () => {
    const paths = ['spec.replicas', 'data["config.json"]', 'metadata.labels["app.kubernetes.io/name"]', 'spec.template.spec.containers[name=ui].image', 'spec.template.spec.containers[name="side car"].ports[0].name', 'spec.ports[12]'];
    for (const p of paths) expect(formatPath(parsePath(p)!), p).toBe(p);
    expect(parsePath('data["config.json"]')).toEqual([{ key: 'data' }, { key: 'config.json' }]);
    expect(parsePath('a..b')).toBeUndefined();
  });
});

describe('--ignore paths in either spelling', () => {
  const label: PathStep[] = [{ key: 'metadata' }, { key: 'labels' }, { key: 'app.kubernetes.io/name' }];
  const image: PathStep[] = [{ key: 'spec' }, { key: 'template' }, { key: 'spec' }, { key: 'containers' }, { name: 'ui', item: { name: 'ui' } }, { key: 'image' }];
  const port: PathStep[] = [{ key: 'spec' }, { key: 'ports' }, { index: 0, item: { port: 80, protocol: 'TCP' } }, { key: 'port' }];

  it('a dotted or bracketed key, with or without the server\'s leading dot, covers the field and what is under it', () => {
    for (const rule of ['metadata.labels.app.kubernetes.io/name', 'metadata.labels["app.kubernetes.io/name"]', '.metadata.labels.app.kubernetes.io/name', 'metadata.labels', 'metadata']) expect(covers(rule, label), rule).toBe(true);
    for (const rule of ['metadata.labels.app', 'metadata.labels["app"]', 'metadata.labels.app.kubernetes.io/name.x', 'metadata.label']) expect(covers(rule, label), rule).toBe(false);
  });

  it('a named entry as [name=ui] or the server\'s [name="ui"]; an entry by position, or by its key fields as the server writes them', () => {
    for (const rule of ['spec.template.spec.containers[name=ui].image', 'spec.template.spec.containers[name="ui"].image', '.spec.template.spec.containers[name="ui"]']) expect(covers(rule, image), rule).toBe(true);
    expect(covers('spec.template.spec.containers[name=api].image', image)).toBe(false);
    for (const rule of ['spec.ports[0]', 'spec.ports[port=80,protocol="TCP"].port', '.spec.ports[port=80]']) expect(covers(rule, port), rule).toBe(true);
    for (const rule of ['spec.ports[1]', 'spec.ports[port=81,protocol="TCP"]']) expect(covers(rule, port), rule).toBe(false);
  });
});
