/**
 * The production example values (charts/signet/ci/production-values.yaml) and offline schema
 * validation: the example renders what issue 19 asks of a production install (JetStream streams on 3
 * replicas, gRPC connection age for load spreading, preStop hooks with a drain that fits the grace
 * period, the trusted proxies), and every ci values file renders manifests that kubeconform -strict
 * accepts against the Kubernetes 1.27 and 1.31 schemas built from their OpenAPI specs
 * (scripts/kubeconform.sh); only the Prometheus Operator and KEDA custom resources are skipped.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import {
  KUBE_VERSIONS,
  ciValues,
  helmTemplate,
  k8sSchemaDir,
  kubeconformBin,
  parseManifests,
  run,
  type K8sObject,
} from './helm.ts';

const values = ciValues();
const productionFile = values.production!;
const production = parse(readFileSync(productionFile, 'utf8')) as {
  preStopSeconds: number;
  ingress: { trustedProxies: string[] };
};
const manifests = parseManifests(helmTemplate(productionFile));
const of = (kind: string) => manifests.filter((o) => o.kind === kind);
const component = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'] ?? '';
const configOf = (name: string) => of('ConfigMap').find((c) => component(c) === name)?.data as Record<string, string>;

/** Custom resources: no Kubernetes schema describes them. */
const CUSTOM_KINDS = ['ServiceMonitor', 'PrometheusRule', 'ScaledObject'];

const work = mkdtempSync(join(tmpdir(), 'signet-kubeconform-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function kubeconform(manifestsYaml: string, version: string) {
  const file = join(work, `m-${Math.random().toString(16).slice(2)}.yaml`);
  writeFileSync(file, manifestsYaml);
  const location = join(
    k8sSchemaDir(version),
    '..',
    '{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json',
  );
  const r = run(kubeconformBin(), [
    '-strict',
    '-summary',
    '-output',
    'json',
    '-kubernetes-version',
    version,
    '-schema-location',
    location,
    '-skip',
    CUSTOM_KINDS.join(','),
    file,
  ]);
  const out = JSON.parse(r.stdout || '{}') as {
    resources?: { kind: string; name: string; status: string; msg: string }[];
    summary?: { valid: number; invalid: number; errors: number; skipped: number };
  };
  return { ...r, resources: out.resources ?? [], summary: out.summary };
}

describe('the production example values', () => {
  it('put the event streams on 3 JetStream replicas in every service that creates them', () => {
    const nats = of('ConfigMap').filter((c) => c.data?.NATS_URL);
    expect(nats.map(component).sort()).toEqual(['billing', 'biometrics', 'ceremony', 'identity', 'ledger', 'transaction']);
    for (const c of nats) {
      expect(c.data, component(c)).toMatchObject({
        EVENTS_STREAM_REPLICAS: '3',
        EVENTS_STREAM_MAX_AGE_DAYS: '7',
        EVENTS_STREAM_MAX_BYTES: '21474836480',
      });
    }
  });

  it('recycle gRPC connections on every gRPC server (load spreading over new replicas)', () => {
    const grpc = of('ConfigMap').filter((c) => c.data?.GRPC_PORT);
    expect(grpc).toHaveLength(6);
    for (const c of grpc) {
      expect(c.data, component(c)).toMatchObject({ GRPC_MAX_CONNECTION_AGE_MS: '300000' });
      // The 120 s grace of the values, within each service's shutdown budget (a call that outlasts the
      // budget would be cut by the next rollout anyway; issue 35 item 4).
      const budget = Number(c.data.SHUTDOWN_TIMEOUT_MS);
      expect(Number(c.data.GRPC_MAX_CONNECTION_AGE_GRACE_MS), component(c)).toBe(Math.min(120_000, budget));
    }
    expect(configOf('biometrics').GRPC_MAX_CONNECTION_AGE_GRACE_MS).toBe('88000');
    expect(configOf('ceremony').GRPC_MAX_CONNECTION_AGE_GRACE_MS).toBe('28000');
    // The gateway serves HTTP, not gRPC.
    expect(configOf('gateway')).not.toHaveProperty('GRPC_MAX_CONNECTION_AGE_MS');
  });

  it('give every container a preStop sleep and a drain that ends before the grace period', () => {
    const deployments = of('Deployment');
    expect(deployments).toHaveLength(7);
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      const [container] = pod.containers;
      expect(container.lifecycle?.preStop?.sleep?.seconds, d.metadata.name).toBe(production.preStopSeconds);
      const cfg = configOf(component(d));
      // The hook waits, so the service adds no delay of its own; SIGTERM comes preStopSeconds in.
      expect(cfg.SHUTDOWN_DELAY_MS, d.metadata.name).toBe('0');
      const left = pod.terminationGracePeriodSeconds - production.preStopSeconds;
      expect(Number(cfg.SHUTDOWN_TIMEOUT_MS) / 1000, d.metadata.name).toBeLessThan(left);
      expect(d.spec.strategy?.rollingUpdate?.maxUnavailable ?? 0, d.metadata.name).toBe(0);
    }
    expect(Number(configOf('biometrics').SHUTDOWN_TIMEOUT_MS)).toBeGreaterThan(60_000);
  });

  it('give the gateway exactly the trusted proxies of the values', () => {
    expect(configOf('gateway').TRUSTED_PROXIES).toBe(production.ingress.trustedProxies.join(','));
    expect(production.ingress.trustedProxies).not.toContain('uniquelocal');
  });
});

describe('kubeconform -strict with offline schemas', () => {
  it.each(KUBE_VERSIONS.flatMap((v) => Object.keys(values).map((name) => [name, v] as const)))(
    'accepts every manifest of the %s values for Kubernetes %s, skipping only custom resources',
    (name, version) => {
      const r = kubeconform(helmTemplate(values[name], ['--kube-version', version]), version);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.summary?.invalid, r.stdout).toBe(0);
      expect(r.summary?.errors, r.stdout).toBe(0);
      expect(r.summary?.valid).toBeGreaterThan(20);
      const skipped = r.resources.filter((x) => x.status === 'statusSkipped').map((x) => x.kind);
      for (const kind of skipped) expect(CUSTOM_KINDS).toContain(kind);
    },
    30_000,
  );

  it('rejects a misplaced field, a wrong type and an unknown kind (the check can fail)', () => {
    const [deployment] = of('Deployment');
    const misplaced = structuredClone(deployment!);
    misplaced.spec.template.spec.containers[0].preStop = { sleep: { seconds: 5 } };
    const wrongType = structuredClone(deployment!);
    wrongType.spec.replicas = 'three';
    const unknown = { apiVersion: 'v1', kind: 'Frobnicator', metadata: { name: 'x' } };
    for (const bad of [misplaced, wrongType, unknown]) {
      const r = kubeconform(JSON.stringify(bad), '1.31.0');
      expect(r.status, JSON.stringify(bad).slice(0, 80)).not.toBe(0);
    }
  }, 30_000);
});

describe('DNS egress (networkPolicy.dns)', () => {
  /** The DNS rules (port 53 or 5353) of one service's NetworkPolicy under `--set` flags. */
  const dnsRules = (set: string[]) => {
    const np = parseManifests(
      helmTemplate(
        undefined,
        set.flatMap((s) => ['--set', s]),
      ),
    ).find((o) => o.kind === 'NetworkPolicy' && component(o) === 'transaction')!;
    return (np.spec.egress as { to: object[]; ports: { port: number }[] }[]).filter((r) =>
      r.ports?.some((p) => p.port === 53 || p.port === 5353),
    );
  };

  it('reaches the kube-dns pods by default', () => {
    const [rule, ...rest] = dnsRules([]);
    expect(rest).toEqual([]);
    expect(rule!.to).toEqual([{ namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }]);
  });

  it('also reaches NodeLocal DNSCache on its link-local address and the kube-dns Service IP', () => {
    const [rule] = dnsRules(['networkPolicy.dns.mode=nodelocal', 'networkPolicy.dns.clusterDNSIP=10.96.0.10']);
    expect(rule!.to).toContainEqual({ ipBlock: { cidr: '169.254.20.10/32' } });
    expect(rule!.to).toContainEqual({ ipBlock: { cidr: '10.96.0.10/32' } });
  });

  it("reaches OpenShift's DNS pods on 5353", () => {
    const [rule] = dnsRules(['networkPolicy.dns.mode=openshift']);
    expect(rule!.to).toEqual([
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-dns' } },
        podSelector: { matchLabels: { 'dns.operator.openshift.io/daemonset-dns': 'default' } },
      },
    ]);
    expect(rule!.ports.map((p) => p.port)).toContain(5353);
  });

  it('refuses an unknown mode', () => {
    expect(() => helmTemplate(undefined, ['--set', 'networkPolicy.dns.mode=coredns-magic'])).toThrow();
  });
});
