// The OpenAPI walker behind validate's core and foreign kinds (src/kube-check/openapi-check.ts): the
// structural-schema extensions the API server honours, on small schemas.
import { describe, expect, it } from 'vitest';
import { checkOpenapi, isQuantity, type CheckContext, type OpenapiNode } from '../../src/kube-check/openapi-check.ts';
import { coreRelease } from '../../src/kube-check/core-kinds.ts';

const crd: CheckContext = { mode: 'crd', resolve: () => undefined };
const builtin: CheckContext = { mode: 'builtin', resolve: () => undefined };
const found = (node: OpenapiNode, data: unknown, ctx = crd) => checkOpenapi(node, data, ctx).map((i) => [i.rule, i.path.join('.')]);

describe('checkOpenapi', () => {
  const spec: OpenapiNode = { type: 'object', properties: { name: { type: 'string' } } };

  it('x-kubernetes-preserve-unknown-fields keeps unknown fields, at any depth, and still checks the known ones', () => {
    const keep = { ...spec, 'x-kubernetes-preserve-unknown-fields': true };
    expect(found(keep, { name: 'a', extra: { deep: [1, { x: null }] } })).toEqual([]);
    expect(found(keep, { name: 1, extra: true })).toEqual([['crd/schema', 'name']]);
    expect(found(spec, { name: 'a', extra: 1 })).toEqual([['crd/unknown-field', 'extra']]);
  });

  it('x-kubernetes-embedded-resource takes apiVersion, kind and metadata, metadata checked as ObjectMeta', () => {
    const ctx: CheckContext = { ...coreRelease('1.37').ctx, mode: 'crd' };
    const embedded: OpenapiNode = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
    expect(found(embedded, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: 'b' } }, data: {} }, ctx)).toEqual([]);
    expect(found(embedded, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { nmae: 'x' } }, ctx)).toEqual([['crd/unknown-field', 'metadata.nmae']]);
  });

  it('int-or-string takes an integer or a string; a map of typed values checks each value', () => {
    const node: OpenapiNode = { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true }, labels: { type: 'object', additionalProperties: { type: 'string' } } } };
    expect(found(node, { port: 'http', labels: { a: 'b' } })).toEqual([]);
    expect(found(node, { port: 1.5, labels: { a: 2 } })).toEqual([
      ['crd/schema', 'port'],
      ['crd/schema', 'labels.a'],
    ]);
  });

  it('null: the zero value to a built-in type, dropped from a custom resource field that is not nullable, refused in its list', () => {
    const node: OpenapiNode = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } };
    expect(found(node, { name: 'a', tags: null })).toEqual([]);
    expect(found(node, { name: 'a', tags: ['x', null] })).toEqual([['crd/schema', 'tags.1']]);
    expect(found(node, { name: 'a', tags: ['x', null] }, builtin)).toEqual([]);
    // Required, to the API server's Go validation, means not empty.
    expect(found(node, { name: '' }, builtin)).toEqual([['crd/schema', 'name']]);
    expect(found(node, { name: '' })).toEqual([]);
  });

  it('quantities as resource.Quantity parses them', () => {
    for (const q of ['1', '0.5', '.5', '500m', '128Mi', '2Gi', '1e3', '1E-2', '+1k', '-1', 1, 0.25]) expect(isQuantity(q), String(q)).toBe(true);
    for (const q of ['', '1.5x', 'Mi', '1 Gi', '1KiB', '1K', '0x10', 'e3', '1e', true]) expect(isQuantity(q), String(q)).toBe(false);
  });
});
