// The bundled database (development and evaluation only): rendered when
// database.rdb.bundled.enabled and neither url nor urlFile is set (bundled-db-condition).
// Its password is a fixed demo value (derive.ts), never random, so output stays deterministic.

import type { Component, RenderContext } from '../../model/context.ts';
import { chartLabels, composeImage, databaseName, nodeSelectorOr, pullPolicy, selectorLabels, stringMap, tolerationsOr } from '../chart.ts';
import { BUNDLED_DB, BUNDLED_DB_DEMO_PASSWORD, databaseSource } from '../../model/derive.ts';
import { bool, firstOf, map, str } from '../../model/values-access.ts';
import { chartDocs, meta } from './common.ts';

/** The PostgreSQL image the bundled database runs when no tag is given (pinned). */
export const POSTGRES_DEFAULT_TAG = '18.3-alpine';
/** vectorEnabled: a pgvector build of the same PostgreSQL major, pinned to a pgvector release. */
export const PGVECTOR_IMAGE = { registry: 'docker.io', repository: 'pgvector', name: 'pgvector', version: '0.8.1' } as const;

export function bundledDatabaseImage(ctx: RenderContext): string {
  const p = 'database.rdb.bundled.image';
  const images = ctx.model.images;
  if (bool(ctx.values, 'database.rdb.vectorEnabled')) {
    const major = /^(\d+)/.exec(firstOf(str(ctx.values, `${p}.tag`), POSTGRES_DEFAULT_TAG))?.[1] ?? '18';
    // the configured registry still applies (a mirror serves the pgvector build too)
    return composeImage({ registry: images.registry(str(ctx.values, `${p}.registry`, PGVECTOR_IMAGE.registry)), repository: `${PGVECTOR_IMAGE.repository}/${PGVECTOR_IMAGE.name}`, tag: `${PGVECTOR_IMAGE.version}-pg${major}` });
  }
  const repository = [str(ctx.values, `${p}.repository`, 'library'), str(ctx.values, `${p}.name`, 'postgres')].filter(Boolean).join('/');
  return composeImage({ registry: images.registry(str(ctx.values, `${p}.registry`, 'docker.io')), repository, tag: firstOf(str(ctx.values, `${p}.tag`), POSTGRES_DEFAULT_TAG) });
}

export const databaseComponent: Component = {
  id: 'database',
  render(ctx) {
    if (databaseSource(ctx).kind !== 'bundled') return [];
    const v = ctx.values;
    const name = databaseName(ctx);
    const labels = chartLabels(ctx, 'database');
    const b = 'database.rdb.bundled';
    const docs = chartDocs('postgresql-secret.yaml', 'secret.yaml.hbs', {
      meta: meta(ctx, name, labels, { 'agentplat.dev/note': 'fixed demo password of the bundled development database; use database.rdb.url or urlFile in production' }),
      data: { POSTGRES_PASSWORD: Buffer.from(BUNDLED_DB_DEMO_PASSWORD).toString('base64') },
    });
    const own = ctx.model.database;
    docs.push(
      ...chartDocs('postgresql.yaml', 'postgresql.yaml.hbs', {
        meta: meta(ctx, name, labels),
        storageClassName: str(v, `${b}.storageClassName`),
        storage: firstOf(str(v, `${b}.storage`), '500Mi'),
        selectorLabels: selectorLabels(ctx, 'database'),
        podLabels: { ...stringMap(own.podLabels), ...selectorLabels(ctx, 'database') },
        // the chart's pull secrets like every pod of the chart (an air-gapped mirror of the
        // database image needs them in revision A too), then [B] global ones (union).
        imagePullSecrets: ctx.model.images.pullSecrets(),
        podSecurityContext: map(v, `${b}.podSecurityContext`),
        scheduling: {
          nodeSelector: nodeSelectorOr(ctx, own.nodeSelector),
          tolerations: tolerationsOr(ctx, own.tolerations),
          affinity: own.affinity,
          topologySpreadConstraints: [],
        },
        image: bundledDatabaseImage(ctx),
        imagePullPolicy: pullPolicy(ctx, `${b}.image`),
        database: BUNDLED_DB.database,
        user: BUNDLED_DB.user,
        probeCommand: ['pg_isready', '-U', BUNDLED_DB.user, '-d', BUNDLED_DB.database],
        resources: map(v, `${b}.resources`),
        securityContext: map(v, `${b}.securityContext`),
      }),
    );
    return docs;
  },
};
