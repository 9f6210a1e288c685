// What a request names, checked the same way for the CLI and the in-process API: the chart
// revision, the target Kubernetes version, the APIs the cluster serves, the release's names.
// Each parser throws a UsageError with a hint; nothing here reads files or values.
import { UsageError } from '../problems/errors.ts';
import { parseRevision, type Revision } from '../chart/revisions.ts';
import { DEFAULT_KUBE_VERSION, KUBE_VERSIONS } from '../kube-check/kube-versions.ts';

export function revisionOption(raw: string, origin = '--revision'): Revision {
  const rev = parseRevision(raw);
  if (!rev) throw new UsageError(`${origin}: unknown revision "${raw}"`, 'the chart has revisions A and B');
  return rev;
}

/**
 * Accepts the versions clusters report: `1.29`, `v1.29.3`, `1.29+`, `v1.29.3+k3s1`,
 * `1.29.3-eks-4f4795d` (pre-release and build parts are dropped). Returns `X.Y.Z`.
 */
export function parseKubeVersion(raw: string): string {
  const m = /^v?(\d+)\.(\d+)\+?(?:\.(\d+))?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(raw.trim());
  if (!m) throw new UsageError(`--kube-version: "${raw}" is not a Kubernetes version`, 'write it as 1.29 or v1.29.3 (what `kubectl version` reports)');
  return `${Number(m[1])}.${Number(m[2])}.${Number(m[3] ?? 0)}`;
}

/**
 * `--kube-version` of validate: the minor release it has core schemas of (`1.37`, from `1.37`,
 * `v1.37.2`, …); any other release is a usage error that lists the supported ones.
 */
export function validateKubeVersion(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_KUBE_VERSION;
  const minor = parseKubeVersion(raw).split('.').slice(0, 2).join('.');
  if (!(KUBE_VERSIONS as readonly string[]).includes(minor)) {
    throw new UsageError(`--kube-version: validate has no schemas of Kubernetes ${minor}`, `the supported versions are ${KUBE_VERSIONS.join(', ')}`);
  }
  return minor;
}

/**
 * The APIs of every --api-versions flag, each flag a single API or a comma-separated list
 * (`a/v1,b/v1`, as helm takes them); an empty entry (`a/v1,`) is refused like any bad one.
 */
export function parseApiVersionList(flags: readonly string[]): string[] {
  return flags.flatMap((f) => f.split(',')).map(parseApiVersion);
}

/** `group/version`, `version` (the core group) or `group/version/Kind`, as --api-versions takes them. */
export function parseApiVersion(raw: string): string {
  const v = raw.trim();
  if (!/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?v\d+((alpha|beta)\d+)?(\/[A-Z][A-Za-z0-9]*)?$/.test(v)) {
    throw new UsageError(`--api-versions: "${raw}" is not an API version`, 'write group/version or group/version/Kind, e.g. monitoring.coreos.com/v1 or route.openshift.io/v1/Route');
  }
  return v;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Release name and namespace as Helm accepts them; UsageError otherwise. */
export function checkReleaseNames(releaseName: string, namespace: string, origin = '--release-name'): void {
  if (!DNS_LABEL.test(releaseName) || releaseName.length > 53) {
    throw new UsageError(`${origin}: "${releaseName}" is not a valid release name`, 'lower-case letters, digits and "-", at most 53 characters');
  }
  if (!DNS_LABEL.test(namespace)) throw new UsageError(`--namespace: "${namespace}" is not a valid namespace name`);
}
