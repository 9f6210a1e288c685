// Every reference from one rendered object to another, resolved the way kubectl and the API
// server would after `render | kubectl apply`. One piece of code for the reference tests
// (test/render/references.test.ts) and the property tests (test/hardening/).
//
// A reference is fine when the object it names is in the output, or when the name was written
// by the user (a Secret the user provides, `existingSecret`, a pull secret …): `named` holds
// every string of the values, and EXTERNAL the few names that live outside the release on purpose.

/** References that point outside the release on purpose (the user or another install provides them). */
export const EXTERNAL = {
  secrets: new Set(['oidc-credentials']),
  serviceAccounts: new Set(['substrate-system/substrate-api-server']),
  // the dashboards server the dashboards MCP talks to is not part of the release
  hosts: new Set(['dashboards']),
};

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet']);

export interface DanglingOptions {
  /** Names the user wrote (strings of the values): references to them need no object in the output. */
  named?: ReadonlySet<string>;
}

/** Every string (map keys included) of a values tree: the names a user may have given. */
export function namedStrings(values: unknown, out = new Set<string>()): Set<string> {
  const stack: unknown[] = [values];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.add(k);
        stack.push(x);
      }
    }
  }
  return out;
}

/** Pod templates of the workloads in `objs`, with their namespace. */
function podTemplates(objs: any[]): { ns: string | undefined; labels: Record<string, string>; owner: any }[] {
  return objs.filter((o) => WORKLOADS.has(o.kind)).map((o) => ({ ns: o.metadata.namespace, labels: o.spec?.template?.metadata?.labels ?? {}, owner: o }));
}

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

/** A list of dangling references, each as `Kind ns/name: what it names`; empty when all resolve. */
export function danglingReferences(objects: readonly unknown[], opts: DanglingOptions = {}): string[] {
  const named = opts.named ?? new Set<string>();
  const objs = objects as any[];
  const has = (kind: string, ns: string | undefined, name: string) => objs.some((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === ns);
  const hasOrNamed = (kind: string, ns: string | undefined, name: string) => has(kind, ns, name) || named.has(name);
  const services = objs.filter((o) => o.kind === 'Service');
  const pods = podTemplates(objs);
  const out: string[] = [];
  const url = (where: string, u: string, ns: string) => {
    const m = /^(?:https?|postgres(?:ql)?):\/\/(?:[^@/]*@)?([^/:]+)(?::(\d+))?/.exec(u);
    if (!m) return;
    const parts = m[1]!.split('.');
    if (parts.length > 3 || (parts.length === 3 && parts[2] !== 'svc')) return; // not an in-cluster short name
    if (named.has(u)) return; // a URL written in the values as it is
    const [name, svcNs = ns] = parts as [string, string?];
    if (EXTERNAL.hosts.has(name)) return;
    const svc = services.find((s) => s.metadata.name === name && s.metadata.namespace === svcNs);
    if (!svc) return void out.push(`${where}: ${u} names no Service ${svcNs}/${name}`);
    if (m[2] && !svc.spec.ports.some((p: any) => String(p.port) === m[2])) out.push(`${where}: ${u} names port ${m[2]} the Service does not have`);
  };
  for (const o of objs) {
    const ns = o.metadata.namespace;
    const where = `${o.kind} ${ns ?? ''}/${o.metadata.name}`;
    if (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') {
      if (!has(o.roleRef.kind, o.roleRef.kind === 'Role' ? ns : undefined, o.roleRef.name)) out.push(`${where}: roleRef ${o.roleRef.kind}/${o.roleRef.name}`);
      for (const s of o.subjects ?? []) {
        if (s.kind === 'ServiceAccount' && !EXTERNAL.serviceAccounts.has(`${s.namespace}/${s.name}`) && !hasOrNamed('ServiceAccount', s.namespace, s.name)) out.push(`${where}: subject ${s.namespace}/${s.name}`);
      }
    }
    if (WORKLOADS.has(o.kind)) {
      const pod = o.spec.template.spec;
      const labels = o.spec.template.metadata.labels ?? {};
      if (o.spec.selector && Object.entries(o.spec.selector.matchLabels ?? {}).some(([k, v]) => labels[k] !== v)) out.push(`${where}: selector does not select its pods`);
      if (pod.serviceAccountName && !hasOrNamed('ServiceAccount', ns, pod.serviceAccountName)) out.push(`${where}: serviceAccountName ${pod.serviceAccountName}`);
      for (const s of pod.imagePullSecrets ?? []) if (!hasOrNamed('Secret', ns, s.name)) out.push(`${where}: imagePullSecret ${s.name}`);
      for (const v of pod.volumes ?? []) {
        if (v.configMap && !v.configMap.optional && !hasOrNamed('ConfigMap', ns, v.configMap.name)) out.push(`${where}: volume ConfigMap ${v.configMap.name}`);
        if (v.secret && !v.secret.optional && !EXTERNAL.secrets.has(v.secret.secretName) && !hasOrNamed('Secret', ns, v.secret.secretName)) out.push(`${where}: volume Secret ${v.secret.secretName}`);
        if (v.persistentVolumeClaim && !hasOrNamed('PersistentVolumeClaim', ns, v.persistentVolumeClaim.claimName)) out.push(`${where}: volume claim ${v.persistentVolumeClaim.claimName}`);
        for (const src of v.projected?.sources ?? []) {
          if (src.configMap && !src.configMap.optional && !hasOrNamed('ConfigMap', ns, src.configMap.name)) out.push(`${where}: projected ConfigMap ${src.configMap.name}`);
          if (src.secret && !src.secret.optional && !hasOrNamed('Secret', ns, src.secret.name)) out.push(`${where}: projected Secret ${src.secret.name}`);
        }
      }
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        for (const e of c.envFrom ?? []) {
          if (e.configMapRef && !e.configMapRef.optional && !hasOrNamed('ConfigMap', ns, e.configMapRef.name)) out.push(`${where}: envFrom ConfigMap ${e.configMapRef.name}`);
          if (e.secretRef && !e.secretRef.optional && !hasOrNamed('Secret', ns, e.secretRef.name)) out.push(`${where}: envFrom Secret ${e.secretRef.name}`);
        }
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref && !ref.optional && !EXTERNAL.secrets.has(ref.name) && !hasOrNamed('Secret', ns, ref.name)) out.push(`${where}: env ${e.name} Secret ${ref.name}`);
          const cm = e.valueFrom?.configMapKeyRef;
          if (cm && !cm.optional && !hasOrNamed('ConfigMap', ns, cm.name)) out.push(`${where}: env ${e.name} ConfigMap ${cm.name}`);
          if (typeof e.value === 'string') url(`${where} env ${e.name}`, e.value, ns);
        }
      }
    }
    if (o.kind === 'Service' && !pods.some((p) => p.ns === ns && selects(o.spec.selector, p.labels))) {
      out.push(`${where}: selector matches no pod`);
    }
    if (o.kind === 'PodDisruptionBudget' && !pods.some((p) => p.ns === ns && selects(o.spec.selector?.matchLabels, p.labels))) {
      out.push(`${where}: selector matches no pod`);
    }
    if (o.kind === 'ServiceMonitor' && !services.some((s) => (o.spec.namespaceSelector?.matchNames ?? [ns]).includes(s.metadata.namespace) && selects(o.spec.selector?.matchLabels, s.metadata.labels ?? {}))) {
      out.push(`${where}: selector matches no Service`);
    }
    if (o.kind === 'HTTPRoute') {
      for (const r of o.spec.rules ?? []) for (const b of r.backendRefs ?? []) {
        if ((b.kind ?? 'Service') === 'Service' && !hasOrNamed('Service', b.namespace ?? ns, b.name)) out.push(`${where}: backend Service ${b.name}`);
      }
    }
    if (o.kind === 'Route' && o.spec.to?.kind === 'Service' && !has('Service', ns, o.spec.to.name)) out.push(`${where}: to Service ${o.spec.to.name}`);
    if (o.kind === 'ConfigMap') {
      for (const [key, text] of Object.entries<string>(o.data ?? {})) {
        if (/^https?:\/\//.test(text)) url(`${where} ${key}`, text, ns);
        for (const m of text.matchAll(/server ([a-z0-9.-]+\.svc:\d+);/g)) url(`${where} ${key} upstream`, `http://${m[1]}`, ns);
      }
    }
    if (o.kind === 'RemoteMCPServer') url(where, o.spec.url, ns);
    if (o.kind === 'Agent') {
      const d = o.spec.declarative;
      for (const s of d?.promptTemplate?.dataSources ?? []) if (!hasOrNamed('ConfigMap', ns, s.name)) out.push(`${where}: prompts ConfigMap ${s.name}`);
      for (const mc of [d?.modelConfig, d?.memory?.modelConfig]) if (mc && !hasOrNamed('ModelConfig', ns, mc)) out.push(`${where}: ModelConfig ${mc}`);
      for (const t of d?.tools ?? []) {
        if (t.mcpServer && !hasOrNamed(t.mcpServer.kind, ns, t.mcpServer.name)) out.push(`${where}: tool server ${t.mcpServer.name}`);
        if (t.agent && !hasOrNamed('Agent', ns, t.agent.name)) out.push(`${where}: agent ${t.agent.name}`);
      }
    }
    if (o.kind === 'ModelConfig' && o.spec.apiKeySecret && !hasOrNamed('Secret', ns, o.spec.apiKeySecret)) out.push(`${where}: apiKeySecret ${o.spec.apiKeySecret}`);
  }
  return out;
}
