// The rewrite from revision A values to revision B values. Each step handles one family of
// differences listed in the values document (section 9): renamed keys, regrouped telemetry,
// keys revision B dropped. Defaults that changed between revisions (auth mode name, pull
// policies) need nothing when the user did not write them: B's fallbacks give the same result.

import { isMap, isScalar, Pair, Scalar, YAMLMap, YAMLSeq, type Document } from 'yaml';
import type { Change } from './changes.ts';
import { ensureMap, isEmptyValue, keyOf, mapAt, pairAt, pairOf, removeAt, renameKey, setScalar, setString, stringScalar, valueAt, type Path } from './document.ts';
import { AGENT_AREAS } from '../chart/revisions.ts';

type Report = (c: Change) => void;
const dotted = (p: Path) => p.join('.');

/** What the pipeline found out about the file before the rewrite. */
export interface MigrationInput {
  /**
   * The file holds a key, shape or word that only the source revision has. Without one it is valid
   * in both revisions (a file migrate already wrote can be such a file), and what a key common to
   * both means there cannot be told from the file.
   */
  hasSourceOnly: boolean;
}

export function migrateAToB(doc: Document, report: Report, input: MigrationInput): void {
  authMode(doc, report);
  bundledAgents(doc, report);
  agentDeployment(doc, report);
  agentImages(doc, report, input);
  droppedKeys(doc, report);
  substrate(doc, report);
  uiEnv(doc, report);
  telemetry(doc, report);
}

function authMode(doc: Document, report: Report): void {
  const path = ['controller', 'auth', 'mode'];
  if (valueAt(doc, path) !== 'unsecure') return;
  setScalar(doc, path, 'insecure');
  report({ path: dotted(path), kind: 'changed', what: 'unsecure → insecure', why: 'revision B renamed the mode; behaviour is unchanged', to: [dotted(path)] });
}

function bundledAgents(doc: Document, report: Report): void {
  for (const area of AGENT_AREAS) {
    const key = `${area}-agent`;
    const value = valueAt(doc, [key]);
    if (value === undefined) continue;
    removeAt(doc, [key]);
    const disabled = typeof value === 'object' && value !== null && (value as Record<string, unknown>).enabled === false;
    if (disabled || isEmptyValue(value)) {
      report({ path: key, kind: 'removed', what: 'removed', why: 'revision B bundles no agents, so there is nothing to disable or tune' });
    } else {
      report({
        path: key,
        kind: 'decide',
        what: 'removed',
        why: `revision B bundles no agents; to keep the ${area} agent, deploy your own Agent resource (its modelConfigRef, memory, resources, runtime, env, imagePullSecrets, security contexts and compaction go into the Agent spec)`,
      });
    }
  }
}

function agentDeployment(doc: Document, report: Report): void {
  const path = ['controller', 'agentDeployment'];
  const value = valueAt(doc, path);
  if (value === undefined) return;
  removeAt(doc, path);
  if (isEmptyValue(value)) {
    report({ path: dotted(path), kind: 'removed', what: 'removed', why: 'revision B has no chart-wide defaults for agent pods; these were empty' });
    return;
  }
  const fields = Object.entries(value as Record<string, unknown>).filter(([, v]) => !isEmptyValue(v)).map(([k]) => k);
  report({
    path: dotted(path),
    kind: 'decide',
    what: `removed (${fields.join(', ')})`,
    why: `revision B has no chart-wide defaults for agent pods; set ${fields.map((f) => `spec.declarative.deployment.${f}`).join(', ')} on each Agent resource`,
  });
}

/**
 * A's agentImage is the python runtime and goAgentImage the go one; B's agentImage is the go
 * runtime. In a file with nothing only revision A has, agentImage may already be B's (migrate
 * moves goAgentImage there): its repository and tag are kept, and a set one is left to the user.
 */
function agentImages(doc: Document, report: Report, input: MigrationInput): void {
  const agent = ['controller', 'agentImage'];
  const go = ['controller', 'goAgentImage'];
  const goMap = mapAt(doc, go);
  const parts = ['registry', 'repository', 'tag'] as const;
  if (goMap && !pairAt(doc, agent)) {
    // No python image settings: the go image block simply takes the new name (comments stay).
    for (const part of parts) {
      if (pairOf(goMap, part)) report({ path: dotted([...go, part]), kind: 'changed', what: `moved to ${dotted([...agent, part])}`, why: 'revision B\'s agentImage is the go runtime image', to: [dotted([...agent, part])] });
    }
    const pull = pairOf(goMap, 'pullPolicy');
    if (pull) {
      goMap.items.splice(goMap.items.indexOf(pull), 1);
      report({ path: dotted([...go, 'pullPolicy']), kind: 'removed', what: 'removed', why: 'revision B has no pull policy for the agent image' });
    }
    if (goMap.items.length > 0) renameKey(doc, go, 'agentImage');
    else removeAt(doc, go);
  } else if (goMap) {
    for (const part of parts) {
      const pair = pairOf(goMap, part);
      if (!pair) continue;
      const old = valueAt(doc, [...agent, part]);
      if (old !== undefined) {
        removeAt(doc, [...agent, part]);
        if (!isEmptyValue(old)) report({ path: dotted([...agent, part]), kind: 'removed', what: 'replaced', why: 'it named the python runtime image, which revision B does not use; B\'s agentImage is the go runtime, taken from controller.goAgentImage' });
      }
      goMap.items.splice(goMap.items.indexOf(pair), 1);
      ensureMap(doc, agent).items.push(pair);
      report({ path: dotted([...go, part]), kind: 'changed', what: `moved to ${dotted([...agent, part])}`, why: 'revision B\'s agentImage is the go runtime image', to: [dotted([...agent, part])] });
    }
    const pull = valueAt(doc, [...go, 'pullPolicy']);
    if (pull !== undefined) report({ path: dotted([...go, 'pullPolicy']), kind: 'removed', what: 'removed', why: 'revision B has no pull policy for the agent image' });
    removeAt(doc, go);
  } else {
    for (const part of ['repository', 'tag'] as const) {
      const v = valueAt(doc, [...agent, part]);
      if (v === undefined) continue;
      if (!input.hasSourceOnly && v !== 'agentplat/app') {
        if (!isEmptyValue(v)) {
          report({
            path: dotted([...agent, part]),
            kind: 'decide',
            what: 'kept',
            why: `this file has nothing only revision A has, so it may already be written for revision B, where controller.agentImage is the go runtime image (migrate moves controller.goAgentImage there): keep it then; if it names your python runtime image (revision A), set controller.agentImage.${part} to your copy of agentplat/golang-adk or remove it`,
            to: [dotted([...agent, part])],
          });
        }
        continue;
      }
      removeAt(doc, [...agent, part]);
      if (isEmptyValue(v) || v === 'agentplat/app') {
        report({ path: dotted([...agent, part]), kind: 'removed', what: 'removed', why: 'it named the python runtime image; revision B runs declarative agents on the go runtime (agentplat/golang-adk)' });
      } else {
        report({
          path: dotted([...agent, part]),
          kind: 'decide',
          what: 'removed',
          why: `it named your python runtime image; revision B runs declarative agents on the go runtime: set controller.agentImage.${part} to your copy of agentplat/golang-adk if you mirror it`,
        });
      }
    }
    const registry = valueAt(doc, [...agent, 'registry']);
    if (!isEmptyValue(registry)) report({ path: dotted([...agent, 'registry']), kind: 'changed', what: 'kept', why: 'in revision B it selects the registry of the go runtime image', to: [dotted([...agent, 'registry'])] });
  }
  const pull = valueAt(doc, [...agent, 'pullPolicy']);
  if (pull !== undefined) {
    removeAt(doc, [...agent, 'pullPolicy']);
    report({ path: dotted([...agent, 'pullPolicy']), kind: 'removed', what: 'removed', why: 'revision B has no pull policy for the agent image' });
  }
  const secret = valueAt(doc, [...agent, 'pullSecret']);
  if (secret !== undefined) {
    removeAt(doc, [...agent, 'pullSecret']);
    if (isEmptyValue(secret)) report({ path: dotted([...agent, 'pullSecret']), kind: 'removed', what: 'removed', why: 'revision B has no agent image pull secret; this one was empty' });
    else report({ path: dotted([...agent, 'pullSecret']), kind: 'decide', what: 'removed', why: `revision B has no agent image pull secret; list ${JSON.stringify(secret)} in spec.declarative.deployment.imagePullSecrets of your Agent resources` });
  }
}

interface Dropped {
  path: Path;
  why: string;
  /** Why a non-empty value needs the user; without it a removal is only reported. */
  decide?: string;
  /** Values that mean "off" in revision A (besides empty ones). */
  inert?: readonly unknown[];
  /** Revision B does without what the key did: a value other than these (revision A's default) is dropped, not only removed. */
  defaultValues?: readonly unknown[];
}

const DROPPED: readonly Dropped[] = [
  { path: ['controller', 'skillsInitImage'], why: 'revision B has no skills-init container' },
  { path: ['controller', 'toolRefreshInterval'], why: 'revision B has no setting for it; tool discovery refreshes on the controller\'s built-in schedule', defaultValues: ['60s', '1m', '1m0s'] },
  {
    path: ['controller', 'a2aBaseUrl'],
    why: 'revision B advertises controller.a2aGatewayUrl instead',
    decide: 'revision B advertises controller.a2aGatewayUrl instead, which points at the gRPC gateway port, not the HTTP port: set it to your public gateway URL if clients reach agents from outside',
  },
  {
    path: ['database', 'rdb', 'sessionRetentionDays'],
    why: 'revision B has no retention cleanup; 0 meant no cleanup anyway',
    decide: 'revision B has no session retention cleanup; the nearest setting is controller.sessionIdleTTL (idle session lifetime, default 168h); delete old sessions out of band if you need retention',
    inert: [0],
  },
  { path: ['ui', 'volumes', 'nextjsCache'], why: 'revision B\'s UI has no build cache volume' },
  {
    path: ['controller', 'substrate', 'pauseImage'],
    why: 'revision B has no pause image setting; the substrate uses its own',
    decide: 'revision B has no pause image setting (SUBSTRATE_PAUSE_IMAGE); the substrate uses its own pause image, so mirror that one if your cluster pulls from a mirror',
  },
  {
    path: ['ui', 'backendInternalUrl'],
    why: 'revision B\'s UI proxy reaches the controller through its Service',
    decide: 'revision B\'s UI proxy always reaches the controller through its Service; if you pointed it elsewhere, route that traffic in front of the UI instead (ui.publicBackendUrl stays for the browser)',
  },
];

function droppedKeys(doc: Document, report: Report): void {
  for (const d of DROPPED) {
    const value = valueAt(doc, d.path);
    if (value === undefined) continue;
    removeAt(doc, d.path);
    const inert = isEmptyValue(value) || (d.inert ?? []).includes(value);
    if (d.decide && !inert) report({ path: dotted(d.path), kind: 'decide', what: 'removed', why: d.decide });
    else report({ path: dotted(d.path), kind: 'removed', what: 'removed', why: d.why, ...(d.defaultValues && !inert && !d.defaultValues.includes(value) ? { dropped: true as const } : {}) });
  }
}

const SUBSTRATE_A_ONLY = [
  'substrateApiInsecure', 'substrateApiServer', 'substrateApiTokenAudience',
  'substrateApiTokenExpirationSeconds', 'substrateApiTokenFile',
] as const;

function substrate(doc: Document, report: Report): void {
  for (const key of SUBSTRATE_A_ONLY) {
    const path = ['controller', 'substrate', key];
    if (valueAt(doc, path) === undefined) continue;
    removeAt(doc, path);
    report({ path: dotted(path), kind: 'removed', what: 'removed', why: 'revision B\'s controller configures its substrate API access itself' });
  }
  const poolPath = ['controller', 'substrate', 'defaultWorkerPool'];
  const pool = valueAt(doc, poolPath);
  if (pool !== undefined) {
    removeAt(doc, poolPath);
    if (isEmptyValue(pool)) report({ path: dotted(poolPath), kind: 'removed', what: 'removed', why: 'revision B has no default worker pool reference; this one was empty' });
    else report({ path: dotted(poolPath), kind: 'decide', what: 'removed', why: 'revision B has no default worker pool reference; reference the pool from your harnesses, or let the chart install one with substrateWorkerPool.create and .name' });
  }
  if (renameKey(doc, ['substrateWorkerPool', 'ateomImage'], 'workerImage')) {
    report({ path: 'substrateWorkerPool.ateomImage', kind: 'changed', what: 'renamed to substrateWorkerPool.workerImage', why: 'revision B renamed the key; same meaning', to: ['substrateWorkerPool.workerImage'] });
  }
}

/** A's ui.env map becomes B's list of {name, value}; each entry keeps its comment. */
function uiEnv(doc: Document, report: Report): void {
  const pair = pairAt(doc, ['ui', 'env']);
  if (!pair || !isMap(pair.value)) return;
  const map = pair.value;
  const seq = new YAMLSeq();
  seq.flow = map.flow ?? false;
  const odd: string[] = [];
  for (const item of map.items) {
    const name = keyOf(item) ?? String(item.key);
    const raw = isScalar(item.value) ? item.value.value : item.value === null ? '' : undefined;
    if (raw === undefined) odd.push(name);
    const entry = new YAMLMap();
    // The name and the value are strings in revision B; each keeps the user's quotes, and is
    // quoted where YAML 1.1 readers (helm) would take it plain for a boolean or a number.
    entry.items.push(new Pair(new Scalar('name'), stringScalar(name, item.key)));
    const value = raw === undefined ? item.value : stringScalar(raw === null ? '' : String(raw), item.value);
    if (isScalar(item.value) && item.value.comment && value instanceof Scalar) value.comment = item.value.comment;
    entry.items.push(new Pair(new Scalar('value'), value));
    if (isScalar(item.key) && item.key.commentBefore) entry.commentBefore = item.key.commentBefore;
    seq.items.push(entry);
  }
  // A comment above the first entry belongs to the map node; keep it above the first item.
  const first = seq.items[0] as YAMLMap | undefined;
  if (map.commentBefore && first) first.commentBefore = first.commentBefore ? `${map.commentBefore}\n${first.commentBefore}` : map.commentBefore;
  else if (map.commentBefore) seq.commentBefore = map.commentBefore;
  if (map.comment) seq.comment = map.comment;
  pair.value = seq;
  report({ path: 'ui.env', kind: 'changed', what: 'map → list of {name, value}', why: 'revision B keeps extra UI variables as a list (so valueFrom and $(VAR) work); values became strings', to: ['ui.env'] });
  for (const name of odd) report({ path: `ui.env.${name}`, kind: 'decide', what: 'kept as is', why: 'its value is not a scalar; write it as a string value or a valueFrom entry' });
}

/** A's otel.logging/otel.tracing groups become B's shared exporter plus per-signal settings. */
function telemetry(doc: Document, report: Report): void {
  const otel = mapAt(doc, ['otel']);
  if (!otel) return;
  const signals = [
    { a: 'logging', b: 'logs' },
    { a: 'tracing', b: 'traces' },
  ] as const;
  const found = signals.filter((s) => pairOf(otel, s.a));
  if (found.length === 0) return;
  const at = Math.min(...found.map((s) => otel.items.indexOf(pairOf(otel, s.a)!)));

  const exporter = new YAMLMap();
  const created: Pair[] = [];
  const shared = (key: string) => pairOf(exporter, key);
  const endpoints: Record<string, string> = {};
  const perSignal = new Map<string, YAMLMap>();

  for (const s of found) {
    const oldPair = pairOf(otel, s.a)!;
    const group = isMap(oldPair.value) ? oldPair.value : new YAMLMap();
    const signal = new YAMLMap();
    perSignal.set(s.b, signal);
    const enabled = pairOf(group, 'enabled');
    if (enabled) {
      signal.items.push(enabled);
      report({ path: `otel.${s.a}.enabled`, kind: 'changed', what: `moved to otel.${s.b}.enabled`, why: 'revision B groups telemetry by signal', to: [`otel.${s.b}.enabled`] });
    }
    const otlpPath = ['otel', s.a, 'exporter', 'otlp'];
    const otlp = mapAt(doc, otlpPath);
    const insecure = otlp ? valueAt(doc, [...otlpPath, 'insecure']) : undefined;
    const endpointPair = otlp ? pairOf(otlp, 'endpoint') : undefined;
    const endpoint = endpointPair && isScalar(endpointPair.value) ? endpointPair.value.value : undefined;
    const hasScheme = typeof endpoint === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint);
    if (typeof endpoint === 'string' && endpoint !== '') {
      const url = hasScheme ? endpoint : `${insecure === false ? 'https' : 'http'}://${endpoint}`;
      if (url !== endpoint) {
        report({ path: `${dotted(otlpPath)}.endpoint`, kind: 'changed', what: `${endpoint} → ${url}`, why: `revision B takes an http(s) URL whose scheme says whether TLS is used (insecure was ${insecure === false ? 'false' : 'true'})` });
        setString(endpointPair!.value as Scalar, url);
      }
      endpoints[s.b] = url;
    }
    if (insecure !== undefined) {
      const contradicts = hasScheme && /^https:/i.test(endpoint as string) === (insecure === true);
      report(
        contradicts
          ? { path: `${dotted(otlpPath)}.insecure`, kind: 'decide', what: 'removed', why: `insecure: ${String(insecure)} contradicts the scheme of ${String(endpoint)}; revision B goes by the scheme only, so check the URL` }
          : { path: `${dotted(otlpPath)}.insecure`, kind: 'removed', what: 'removed', why: 'revision B has no insecure flag; the endpoint scheme (http:// or https://) decides' },
      );
    }
    const timeoutPair = otlp ? pairOf(otlp, 'timeout') : undefined;
    const protocolPair = otlp ? pairOf(otlp, 'protocol') : undefined;

    if (endpointPair && endpoints[s.b]) {
      if (!shared('endpoint')) {
        exporter.items.push(endpointPair);
        report({ path: `${dotted(otlpPath)}.endpoint`, kind: 'changed', what: 'moved to otel.exporter.otlp.endpoint', why: 'revision B has one OTLP endpoint for every signal', to: ['otel.exporter.otlp.endpoint'] });
      } else if ((shared('endpoint')!.value as Scalar).value !== endpoints[s.b]) {
        signal.items.push(endpointPair);
        report({ path: `${dotted(otlpPath)}.endpoint`, kind: 'changed', what: `moved to otel.${s.b}.endpoint`, why: 'it differs from the shared endpoint; revision B overrides it per signal with a full URL (check the path if you use http/protobuf)', to: [`otel.${s.b}.endpoint`] });
      }
    }
    if (timeoutPair && isScalar(timeoutPair.value)) {
      const ms = timeoutPair.value.value;
      if (!shared('timeout')) {
        setString(timeoutPair.value, String(ms));
        exporter.items.push(timeoutPair);
        report({ path: `${dotted(otlpPath)}.timeout`, kind: 'changed', what: `moved to otel.exporter.otlp.timeout as "${ms}"`, why: 'revision B has one timeout for every signal, written as a string of milliseconds', to: ['otel.exporter.otlp.timeout'] });
      } else if ((shared('timeout')!.value as Scalar).value !== String(ms)) {
        report({ path: `${dotted(otlpPath)}.timeout`, kind: 'decide', what: 'removed', why: `revision B has one timeout for every signal; it is now ${(shared('timeout')!.value as Scalar).value} ms, not ${String(ms)}` });
      }
    }
    if (protocolPair && isScalar(protocolPair.value)) {
      const raw = String(protocolPair.value.value);
      const protocol = raw === 'http' ? 'http/protobuf' : raw;
      setString(protocolPair.value, protocol);
      const known = protocol === 'grpc' || protocol === 'http/protobuf';
      exporter.items.push(protocolPair);
      report({
        path: `${dotted(otlpPath)}.protocol`,
        kind: known ? 'changed' : 'decide',
        what: `moved to otel.exporter.otlp.protocol${raw !== protocol ? ` as ${protocol}` : ''}`,
        why: known ? 'revision B sets the protocol for every signal' : 'revision B accepts grpc or http/protobuf only',
        to: ['otel.exporter.otlp.protocol'],
      });
    }
    const signalPair = new Pair(new Scalar(s.b), signal);
    if (isScalar(oldPair.key) && oldPair.key.commentBefore) (signalPair.key as Scalar).commentBefore = oldPair.key.commentBefore;
    created.push(signalPair);
    otel.items.splice(otel.items.indexOf(oldPair), 1);
  }
  const insert: Pair[] = [];
  if (exporter.items.length > 0) {
    const otlpMap = new YAMLMap();
    otlpMap.items.push(...exporter.items);
    const exporterMap = new YAMLMap();
    exporterMap.items.push(new Pair(new Scalar('otlp'), otlpMap));
    insert.push(new Pair(new Scalar('exporter'), exporterMap));
  }
  for (const p of created) if (isMap(p.value) && p.value.items.length > 0) insert.push(p);
  otel.items.splice(at, 0, ...insert);
  if (otel.items.length === 0) removeAt(doc, ['otel']);
}
