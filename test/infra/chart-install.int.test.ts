/**
 * Issue 35 item 1: the chart on a real Kubernetes API. scripts/k8s-api.sh starts etcd, kube-apiserver,
 * kube-controller-manager and kube-scheduler (built from k8s.io/kubernetes) with kwok simulating four
 * nodes, one with nvidia.com/gpu, and the Prometheus Operator and KEDA CRDs. Every ci values file is
 * installed with `helm install --wait` (kwok makes scheduled pods Ready) and every rendered object,
 * custom resources included, must be admitted; an upgrade of one service's value rolls only that
 * service, never below its replicas (maxUnavailable 0) nor past its PDB; a rollback restores it; the
 * GPU biometrics pods land on the GPU node only.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CHART, ROOT, ciValues, helmBin } from '../chart/helm.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'signet-k8s-api-'));
const kubeconfig = join(dir, 'kubeconfig');
const env = { ...process.env, KUBECONFIG: kubeconfig };
const values = ciValues();

const helm = (args: string[], timeout = 240_000) => run(helmBin(), args, { env, cwd: ROOT, timeout, maxBuffer: 64 << 20 });
const kubectl = (args: string[]) => run('kubectl', args, { env, timeout: 60_000, maxBuffer: 64 << 20 });
const json = async <T>(args: string[]) => JSON.parse((await kubectl([...args, '-o', 'json'])).stdout) as T;

type Meta = {
  name: string;
  namespace?: string;
  generation?: number;
  deletionTimestamp?: string;
  annotations?: Record<string, string>;
};
type Deployment = {
  metadata: Meta;
  spec: { replicas: number; strategy: { rollingUpdate: { maxUnavailable: number | string } } };
  status: { availableReplicas?: number; updatedReplicas?: number; observedGeneration?: number };
};
type Pod = {
  metadata: Meta & { labels: Record<string, string> };
  spec: { nodeName?: string };
  status: { conditions?: { type: string; status: string }[] };
};
type Pdb = { metadata: Meta; status: { currentHealthy: number; desiredHealthy: number; disruptionsAllowed: number } };

const componentOf = (p: Pod) => p.metadata.labels['app.kubernetes.io/component'];

beforeAll(() => {
  execFileSync('bash', [join(ROOT, 'scripts/k8s-api.sh'), 'up', dir], { stdio: 'inherit', timeout: 300_000 });
}, 330_000);

afterAll(() => {
  execFileSync('bash', [join(ROOT, 'scripts/k8s-api.sh'), 'down', dir], { stdio: 'inherit', timeout: 60_000 });
  rmSync(dir, { recursive: true, force: true });
});

/** Installs one ci values file in its own namespace and waits for every workload to be Ready. */
async function install(name: string) {
  const ns = `signet-${name}`;
  const t0 = Date.now();
  await helm(['install', 'signet', CHART, '-n', ns, '--create-namespace', '-f', values[name]!, '--wait', '--timeout', '4m']);
  console.log(`helm install --wait ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return ns;
}

describe('the chart on a real Kubernetes API (kube-apiserver, controllers, scheduler, kwok nodes)', { timeout: 600_000 }, () => {
  const installed: Record<string, string> = {};

  it('installs every ci values file with helm install --wait, and the API server admits every object', async () => {
    const names = Object.keys(values);
    expect(names).toEqual(['default', 'external-infra', 'gpu', 'minimal', 'production']);
    for (const name of names) installed[name] = await install(name);
    for (const [name, ns] of Object.entries(installed)) {
      const manifest = (await helm(['get', 'manifest', 'signet', '-n', ns])).stdout;
      const objects = parseAllDocuments(manifest)
        .map((d) => d.toJS() as { kind: string; metadata: Meta } | null)
        .filter((o): o is { kind: string; metadata: Meta } => !!o);
      const kinds = new Set(objects.map((o) => o.kind));
      if (name === 'production' || name === 'external-infra') {
        for (const k of ['ServiceMonitor', 'PrometheusRule', 'NetworkPolicy', 'Ingress'])
          expect(kinds, `${name}: ${k}`).toContain(k);
      }
      if (name === 'gpu') expect(kinds).toContain('ScaledObject');
      // Every object as rendered exists (kubectl get -f fails on any that is missing).
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, manifest);
      const got = await json<{ items: unknown[] }>(['get', '-f', file, '-n', ns]);
      expect(got.items.length, name).toBe(objects.length);
      const deployments = await json<{ items: Deployment[] }>(['get', 'deployments', '-n', ns]);
      for (const d of deployments.items)
        expect(d.status.availableReplicas ?? 0, `${name}: ${d.metadata.name}`).toBeGreaterThanOrEqual(d.spec.replicas);
    }
  });

  it('schedules the GPU biometrics pods on the GPU node only, and nothing else there', async () => {
    for (const [name, ns] of Object.entries(installed)) {
      const pods = await json<{ items: Pod[] }>(['get', 'pods', '-n', ns]);
      expect(pods.items.length, name).toBeGreaterThan(0);
      for (const p of pods.items) {
        const gpuPod = name === 'gpu' && componentOf(p) === 'biometrics';
        expect(p.spec.nodeName, `${name}: ${p.metadata.name}`).toMatch(gpuPod ? /^gpu-0$/ : /^cpu-\d$/);
      }
      if (name === 'gpu') expect(pods.items.filter((p) => componentOf(p) === 'biometrics').length).toBeGreaterThan(0);
    }
  });

  it('upgrades one service: only it rolls, never below its replicas, within its PDB; then rolls back', async () => {
    const ns = installed.default!;
    const deployments = async () =>
      Object.fromEntries(
        (await json<{ items: Deployment[] }>(['get', 'deployments', '-n', ns])).items.map((d) => [d.metadata.name, d]),
      );
    // The ledger is autoscaled (no replicas in the Deployment): the HPA brings it to its minimum, 2.
    for (let i = 0; i < 180; i++) {
      const d = await json<Deployment>(['get', 'deployment', 'signet-ledger', '-n', ns]);
      if (d.spec.replicas >= 2 && (d.status.availableReplicas ?? 0) >= 2) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const before = await deployments();
    const ledger = before['signet-ledger']!;
    expect(ledger.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    // Watch the ledger while helm upgrades it: available replicas and its PDB at every poll.
    let done = false;
    const seen: { available: number; healthy: number; desired: number }[] = [];
    const watch = (async () => {
      while (!done) {
        const d = await json<Deployment>(['get', 'deployment', 'signet-ledger', '-n', ns]);
        const pdb = await json<Pdb>(['get', 'pdb', 'signet-ledger', '-n', ns]);
        seen.push({
          available: d.status.availableReplicas ?? 0,
          healthy: pdb.status.currentHealthy,
          desired: pdb.status.desiredHealthy,
        });
      }
    })();
    const t0 = Date.now();
    await helm([
      'upgrade',
      'signet',
      CHART,
      '-n',
      ns,
      '-f',
      values.default!,
      '--set',
      'services.ledger.env.LOG_LEVEL=debug',
      '--wait',
      '--timeout',
      '4m',
    ]);
    done = true;
    await watch;
    console.log(`helm upgrade --wait: ${((Date.now() - t0) / 1000).toFixed(1)} s, ${seen.length} polls of the ledger`);
    const after = await deployments();
    expect(after['signet-ledger']!.metadata.generation).toBeGreaterThan(ledger.metadata.generation!);
    expect(after['signet-ledger']!.status.updatedReplicas).toBe(ledger.spec.replicas);
    for (const [n, d] of Object.entries(before))
      if (n !== 'signet-ledger')
        expect(after[n]!.metadata.generation, `${n} rolled for the ledger's value`).toBe(d.metadata.generation);
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.available, JSON.stringify(s)).toBeGreaterThanOrEqual(ledger.spec.replicas);
      expect(s.healthy, JSON.stringify(s)).toBeGreaterThanOrEqual(s.desired);
    }
    // The PDB lets one ledger pod go at a time. With the nodes cordoned, no replacement becomes healthy,
    // so a second eviction after the first must be refused (429, the disruption budget).
    // Ready pods, not the old ones still terminating (evicting one of those is not a disruption).
    const pods = (
      await json<{ items: Pod[] }>(['get', 'pods', '-n', ns, '-l', 'app.kubernetes.io/component=ledger'])
    ).items.filter(
      (p) => !p.metadata.deletionTimestamp && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    );
    expect(pods.length).toBeGreaterThanOrEqual(2);
    const evict = (pod: string) =>
      kubectl(['create', '--raw', `/api/v1/namespaces/${ns}/pods/${pod}/eviction`, '-f', evictionFile(pod)]);
    await kubectl(['cordon', 'cpu-0', 'cpu-1', 'cpu-2']);
    try {
      await evict(pods[0]!.metadata.name);
      await expect(evict(pods[1]!.metadata.name)).rejects.toThrow(/disruption budget|TooManyRequests|429/);
    } finally {
      await kubectl(['uncordon', 'cpu-0', 'cpu-1', 'cpu-2']);
    }
    await kubectl(['rollout', 'status', 'deployment/signet-ledger', '-n', ns, '--timeout', '120s']);
    // Rollback: the ledger's ConfigMap as before, a new revision.
    await helm(['rollback', 'signet', '1', '-n', ns, '--wait', '--timeout', '4m']);
    const cm = await json<{ data: Record<string, string> }>(['get', 'configmap', 'signet-ledger', '-n', ns]);
    expect(cm.data.LOG_LEVEL).toBe('info');
    const history = JSON.parse((await helm(['history', 'signet', '-n', ns, '-o', 'json'])).stdout) as {
      revision: number;
      status: string;
    }[];
    expect(history.map((h) => h.revision)).toEqual([1, 2, 3]);
    expect(history.at(-1)!.status).toBe('deployed');
  });
});

function evictionFile(pod: string): string {
  const file = join(dir, `evict-${pod}.json`);
  writeFileSync(file, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod } }));
  return file;
}
