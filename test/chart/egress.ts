/**
 * Does a pod's NetworkPolicy egress let it reach the endpoints its ConfigMap names? The check reads the
 * rendered manifests only: for each service, each endpoint URL in its ConfigMap (NATS, Redis, SMTP, S3,
 * OTLP) and the port it is reached on, some egress rule of the service's policy must open that port to
 * a peer that admits the endpoint's host. Hosts are classed without DNS (the tests have none):
 *  - cluster: `name.namespace.svc[.cluster.local]` or a bare name (the release's namespace) — admitted by
 *    a namespaceSelector naming that namespace (or selecting all) or an ipBlock of private addresses;
 *  - private: a `.internal` name or a private IP literal — admitted by an ipBlock of private addresses
 *    (containing the literal);
 *  - public: any other name, or a public IP literal — admitted by an ipBlock that leaves some public
 *    address (containing the literal) after its `except`s.
 * A podSelector alone admits the release's own pods: a bare `<release>-<component>` Service (evaluation infra).
 */
import type { K8sObject } from './helm.ts';

type Peer = {
  ipBlock?: { cidr: string; except?: string[] };
  namespaceSelector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  podSelector?: unknown;
};
type Rule = { to?: Peer[]; ports?: { port: number | string; protocol?: string }[] };
type Range = [number, number];
export type Release = { name: string; namespace: string };

/** The ranges that are not public: RFC 1918, CGNAT, loopback, link-local, "this network". */
const NOT_PUBLIC = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
];
const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];

function ip(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return parts.reduce((a, p) => a * 256 + p, 0);
}

function cidr(text: string): Range {
  const [addr, bits] = text.split('/');
  const base = ip(addr ?? '');
  const n = Number(bits ?? '32');
  if (base === null || !(n >= 0 && n <= 32)) throw new Error(`not an IPv4 CIDR: ${text}`);
  const size = 2 ** (32 - n);
  const start = Math.floor(base / size) * size;
  return [start, start + size - 1];
}

/** `from` less every range of `minus`. */
function subtract(from: Range[], minus: Range[]): Range[] {
  let out = from;
  for (const [ms, me] of minus) {
    out = out.flatMap(([s, e]): Range[] => {
      if (me < s || ms > e) return [[s, e]];
      const parts: Range[] = [];
      if (s < ms) parts.push([s, ms - 1]);
      if (me < e) parts.push([me + 1, e]);
      return parts;
    });
  }
  return out;
}

/** The addresses an ipBlock admits. */
const admitted = (b: NonNullable<Peer['ipBlock']>) => subtract([cidr(b.cidr)], (b.except ?? []).map(cidr));
const within = (ranges: Range[], a: number) => ranges.some(([s, e]) => a >= s && a <= e);
const overlaps = (ranges: Range[], others: Range[]) => ranges.some(([s, e]) => others.some(([os, oe]) => s <= oe && os <= e));

export type HostClass =
  { kind: 'cluster'; service: string; namespace: string } | { kind: 'private' | 'public'; address: number | null };

export function classify(host: string, releaseNamespace: string): HostClass {
  const literal = ip(host);
  if (literal !== null) return { kind: within(NOT_PUBLIC.map(cidr), literal) ? 'private' : 'public', address: literal };
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  if (labels.length === 1) return { kind: 'cluster', service: labels[0]!, namespace: releaseNamespace };
  const svc = labels.indexOf('svc');
  if (svc >= 2 && (svc === labels.length - 1 || labels.slice(svc + 1).join('.') === 'cluster.local'))
    return { kind: 'cluster', service: labels.slice(0, svc - 1).join('.'), namespace: labels[svc - 1]! };
  if (labels.at(-1) === 'internal') return { kind: 'private', address: null };
  return { kind: 'public', address: null };
}

export function peerAdmits(peer: Peer, host: HostClass, release: Release): boolean {
  if (peer.ipBlock) {
    const ranges = admitted(peer.ipBlock);
    if (host.kind === 'cluster') return overlaps(ranges, PRIVATE.map(cidr));
    if (host.address !== null) return within(ranges, host.address);
    if (host.kind === 'private') return overlaps(ranges, PRIVATE.map(cidr));
    return subtract(ranges, NOT_PUBLIC.map(cidr)).length > 0;
  }
  if (peer.namespaceSelector && host.kind === 'cluster') {
    const sel = peer.namespaceSelector;
    const labels = sel.matchLabels ?? {};
    if (!Object.keys(labels).length && !sel.matchExpressions?.length) return true;
    return Object.keys(labels).length === 1 && labels['kubernetes.io/metadata.name'] === host.namespace;
  }
  if (peer.podSelector && !peer.namespaceSelector && host.kind === 'cluster' && host.namespace === release.namespace) {
    // The release's own pods: the Service `<release>-<component>` of the selected component.
    const component = (peer.podSelector as { matchLabels?: Record<string, string> }).matchLabels?.['app.kubernetes.io/component'];
    return host.service === `${release.name}-${component}`;
  }
  return false;
}

const DEFAULT_PORTS: Record<string, number> = {
  http: 80,
  https: 443,
  smtp: 25,
  smtps: 465,
  nats: 4222,
  tls: 4222,
  redis: 6379,
  rediss: 6379,
};

/** host and port of an endpoint as the services read it (a URL, or host:port for NATS monitoring). */
export function endpoint(value: string): { host: string; port: number } {
  const u = new URL(value.includes('://') ? value : `tcp://${value}`);
  const port = u.port ? Number(u.port) : DEFAULT_PORTS[u.protocol.replace(/:$/, '')];
  if (!port) throw new Error(`no port for ${value}`);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
}

/** The ConfigMap keys that name an endpoint outside the release's pods. */
const ENDPOINT_KEYS = ['NATS_URL', 'REDIS_URL', 'SMTP_URL', 'S3_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'];

/**
 * Every endpoint a service's ConfigMap names that its NetworkPolicy blocks, as readable lines
 * (`transaction: S3_ENDPOINT https://s3.… (public) on 443`). [] when all are reachable or policies are off.
 */
export function blockedEndpoints(objects: K8sObject[], release: Release): string[] {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  if (!policies.length) return [];
  const out: string[] = [];
  for (const cm of objects.filter((o) => o.kind === 'ConfigMap' && o.data)) {
    const name = cm.metadata.labels?.['app.kubernetes.io/component'];
    const policy = policies.find((p) => p.metadata.name === cm.metadata.name);
    if (!name || !policy) continue;
    const rules = (policy.spec.egress ?? []) as Rule[];
    for (const key of ENDPOINT_KEYS) {
      const value = (cm.data as Record<string, string>)[key];
      if (!value) continue;
      const { host, port } = endpoint(value);
      const cls = classify(host, release.namespace);
      const open = rules.some(
        (r) =>
          (!r.ports?.length || r.ports.some((p) => Number(p.port) === port)) &&
          (!r.to?.length || r.to.some((peer) => peerAdmits(peer, cls, release))),
      );
      if (!open) out.push(`${name}: ${key} ${value} (${cls.kind}) on ${port}`);
    }
  }
  return out;
}
