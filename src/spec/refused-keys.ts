// Keys a chart this product reimplements reads, that agentplat refuses on purpose, with why and
// what to use instead. They stay unknown keys (rule values/unknown-key); this is their hint.

/**
 * Keys of the proxy chart that stay refused, with why: they drive the proxy chart's own redis
 * sub-chart, which is not vendored. Read by the unknown-key hint (lint/schema.ts).
 */
export const REFUSED_KEY_HINTS: Readonly<Record<string, string>> = {
  'authproxy.initContainers': 'the wait-for-redis init container belongs to the proxy chart\'s own redis sub-chart, which agentplat does not ship; point the proxy at an external redis with authproxy.sessionStorage.type: redis and authproxy.sessionStorage.redis.*',
  'authproxy.redis-ha': 'the proxy chart\'s bundled redis sub-chart is not shipped by agentplat; run redis yourself and set authproxy.sessionStorage.type: redis with authproxy.sessionStorage.redis.standalone.connectionUrl (or .cluster / .sentinel)',
};
