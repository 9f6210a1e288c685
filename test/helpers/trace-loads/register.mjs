// Preloaded with `node --import` (NODE_OPTIONS) by test/cluster-client/loading.test.ts: installs
// hooks.mjs, which writes every module a run resolves to the file AGENTPLAT_TRACE_LOADS names.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url, { data: { log: process.env.AGENTPLAT_TRACE_LOADS } });
