import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHART,
  KUBE_VERSION,
  NAMESPACE,
  RELEASE,
  ROOT,
  THROWAWAY,
  ciValues,
  helmBin,
  helmTemplate,
  parseManifests,
  run,
  type K8sObject,
} from './helm.ts';
import { isImmutableImage, policyViolations } from './policy.ts';

/** The part of a zod schema the completeness check uses (the test package does not depend on zod). */
type EnvSchema = { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };

const SERVICES = ['gateway', 'identity', 'transaction', 'ceremony', 'biometrics', 'ledger', 'billing'];
const GOLDEN = join(ROOT, 'test/chart/golden');
const values = ciValues();
const rendered = Object.fromEntries(Object.entries(values).map(([n, f]) => [n, helmTemplate(f)]));
const objects = Object.fromEntries(Object.entries(rendered).map(([n, t]) => [n, parseManifests(t)]));

const find = (objs: K8sObject[], kind: string, name: string) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${kind}/${name} not rendered`);
  return o;
};

// helm lint and the renders take seconds each; beside other test files on two cores more than the default 5 s.
/** The default ci values with sealing on: a TSA and a (syntactically PEM) certificate and key given as values. */
const SEAL_PEM = {
  cert: '-----BEGIN CERTIFICATE-----\nMIIBseal\n-----END CERTIFICATE-----\n',
  key: '-----BEGIN PRIVATE KEY-----\nMIIBseal\n-----END PRIVATE KEY-----\n',
};
const SEALING = [
  '--set',
  'signedPdf.enabled=true',
  '--set',
  'signedPdf.tsaUrls={http://tsa.example.test/tsa,https://tsa2.example.test/}',
];
const sealing = (extra: string[] = []) =>
  helmTemplate(values.default, [
    ...SEALING,
    '--set-string',
    `secrets.sealCertificate.value=${SEAL_PEM.cert}`,
    '--set-string',
    `secrets.sealKey.value=${SEAL_PEM.key}`,
    ...extra,
  ]);

describe('charts/signet', { timeout: 60_000 }, () => {
  it('has exactly the ci values files CI renders', () => {
    expect(Object.keys(values)).toEqual(['default', 'external-infra', 'gpu', 'minimal', 'production']);
  });

  it('passes helm lint --strict with the default values and every ci values file', () => {
    // The ci files as they are (as ct lint and Argo CD take them); the bare values.yaml generates secrets.
    for (const file of [undefined, ...Object.values(values)]) {
      const args = ['lint', '--strict', CHART, '--kube-version', KUBE_VERSION, ...(file ? ['-f', file] : THROWAWAY)];
      const r = run(helmBin(), args);
      expect(r.status, `${file ?? 'values.yaml'}\n${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, file).not.toMatch(/\[INFO\] Fail/);
    }
  });

  it.each(Object.keys(values))('renders %s with a plain helm template, as Argo CD does (issue 35 item 4)', (name) => {
    const r = run(helmBin(), [
      'template',
      RELEASE,
      CHART,
      '--namespace',
      NAMESPACE,
      '--kube-version',
      KUBE_VERSION,
      '-f',
      values[name]!,
    ]);
    expect(r.status, r.stderr).toBe(0);
    // The same render as the tests' (no secret generated, nothing random): the goldens hold for Argo CD too.
    expect(r.stdout).toBe(rendered[name]);
  });

  it('fails helm lint on a configuration the chart refuses, naming it (lint reduced fail() to an INFO line)', () => {
    const lint = (extra: string[]) => run(helmBin(), ['lint', '--strict', CHART, '--kube-version', KUBE_VERSION, ...extra]);
    const cases: [string[], RegExp][] = [
      [[], /no cluster to read the release's Secret from/],
      [['-f', values.default!, '--set', 'publicUrl=', '--set', 'ingress.enabled=true'], /ingress.enabled needs publicUrl/],
      [['-f', values.default!, '--set', 'signedPdf.enabled=true'], /signedPdf.enabled needs the sealing certificate/],
      [['-f', values.production!, '--set', 'external.redisUrl='], /set the external endpoint for redis/],
    ];
    for (const [extra, message] of cases) {
      const r = lint(extra);
      expect(r.status, `${extra.join(' ')}\n${r.stdout}`).not.toBe(0);
      expect(r.stdout + r.stderr).toMatch(/\[ERROR\]/);
      expect(r.stdout + r.stderr).toMatch(message);
    }
    // helm template keeps the plain message (no template noise).
    const t = run(helmBin(), [
      'template',
      RELEASE,
      CHART,
      '--kube-version',
      KUBE_VERSION,
      '-f',
      values.default!,
      '--set',
      'publicUrl=',
      '--set',
      'ingress.enabled=true',
    ]);
    expect(t.stderr).toMatch(/execution error at \(signet\/templates\/ingress.yaml:\d+:\d+\): ingress.enabled needs publicUrl/);
  });

  it('restarts only the service whose configuration changed (a checksum of its own ConfigMap)', () => {
    const checksums = (objs: K8sObject[]) =>
      Object.fromEntries(
        SERVICES.map((s) => [s, find(objs, 'Deployment', `signet-${s}`).spec.template.metadata.annotations['checksum/config']]),
      );
    const before = checksums(objects.default!);
    expect(new Set(Object.values(before)).size).toBe(SERVICES.length);
    const after = checksums(parseManifests(helmTemplate(values.default, ['--set', 'services.ledger.env.LOG_LEVEL=debug'])));
    for (const s of SERVICES) {
      if (s === 'ledger') expect(after[s], s).not.toBe(before[s]);
      else expect(after[s], s).toBe(before[s]);
    }
    // A value every service reads changes every checksum.
    const all = checksums(parseManifests(helmTemplate(values.default, ['--set', 'logLevel=debug'])));
    for (const s of SERVICES) expect(all[s], s).not.toBe(before[s]);
  });

  it("keeps the gRPC connection-age grace within each service's shutdown budget", () => {
    for (const [name, objs] of Object.entries(objects)) {
      for (const cm of objs.filter((o) => o.kind === 'ConfigMap' && o.data?.GRPC_PORT)) {
        const grace = Number(cm.data.GRPC_MAX_CONNECTION_AGE_GRACE_MS);
        expect(grace, `${name}/${cm.metadata.name}`).toBeLessThanOrEqual(Number(cm.data.SHUTDOWN_TIMEOUT_MS));
        expect(grace, `${name}/${cm.metadata.name}`).toBeGreaterThan(0);
      }
    }
    const short = parseManifests(helmTemplate(values.default, ['--set', 'grpc.maxConnectionAgeGraceSeconds=10']));
    expect(find(short, 'ConfigMap', 'signet-biometrics').data.GRPC_MAX_CONNECTION_AGE_GRACE_MS).toBe('10000');
  });

  it.each(Object.keys(values))('renders %s values within policy', (name) => {
    expect(policyViolations(objects[name]!)).toEqual([]);
  });

  it('renders the default values.yaml within policy too', () => {
    expect(policyViolations(parseManifests(helmTemplate()))).toEqual([]);
  });

  it.each(Object.keys(values))('matches the golden render of %s (UPDATE_GOLDEN=1 rewrites it)', (name) => {
    const file = join(GOLDEN, `${name}.yaml`);
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, rendered[name]!);
    }
    expect(existsSync(file), `${file} missing: run UPDATE_GOLDEN=1 npx vitest run test/chart`).toBe(true);
    expect(rendered[name]).toBe(readFileSync(file, 'utf8'));
  });

  it('has one Deployment, Service, ConfigMap, PDB and NetworkPolicy per service', () => {
    for (const [name, objs] of Object.entries(objects)) {
      for (const kind of ['Deployment', 'Service', 'ConfigMap', 'PodDisruptionBudget', 'NetworkPolicy']) {
        for (const svc of SERVICES) expect(() => find(objs, kind, `signet-${svc}`), `${name}: ${kind}`).not.toThrow();
      }
    }
  });

  it.each(['default', 'generated', 'sealing'])(
    'gives every service the environment its config schema requires (%s secrets, zod parses it)',
    async (which) => {
      // 'generated': the bare values.yaml, whose secrets the chart generates (their formats must parse too).
      // 'sealing': the default values with the signed PDF sealed (the ledger's seal settings parse together).
      const objs =
        which === 'default' ? objects.default! : which === 'sealing' ? parseManifests(sealing()) : parseManifests(helmTemplate());
      const secret = find(objs, 'Secret', 'signet');
      const secretData = Object.fromEntries(
        Object.entries(secret.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
      for (const svc of SERVICES) {
        const mod = (await import(join(ROOT, 'services', svc, 'src/config.ts'))) as Record<string, unknown>;
        const schema = Object.entries(mod).find(([k]) => k.endsWith('ConfigSchema'))?.[1] as EnvSchema | undefined;
        expect(schema, `${svc}: no *ConfigSchema export`).toBeDefined();
        const env: Record<string, string> = { ...find(objs, 'ConfigMap', `signet-${svc}`).data };
        const container = find(objs, 'Deployment', `signet-${svc}`).spec.template.spec.containers[0];
        for (const e of container.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          expect(ref?.name, `${svc}: ${e.name} from an unexpected source`).toBe('signet');
          expect(secretData[ref.key], `${svc}: Secret has no ${ref.key}`).toBeDefined();
          env[e.name] = secretData[ref.key]!;
        }
        // Endpoints and public URLs are set by the chart, never left to a default such as localhost.
        const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
        for (const key of Object.keys(shape)) {
          if (
            /(_URL|_ADDR|_ENDPOINT|^WEBAUTHN_ORIGIN|^WEBAUTHN_RP_ID|^LEDGER_ORIGIN)$/.test(key) &&
            key !== 'OTEL_EXPORTER_OTLP_ENDPOINT'
          ) {
            expect(env[key], `${svc}: the chart does not set ${key}`).toBeDefined();
          }
        }
        // Nothing stale: every variable the chart sets is one the service reads (a removed *_ADDR
        // would otherwise keep a NetworkPolicy edge open).
        for (const key of Object.keys(env))
          expect(Object.keys(shape), `${svc}: the chart sets ${key}, which its config does not read`).toContain(key);
        if ('PUBLIC_BASE_URL' in shape && which === 'default') expect(env.PUBLIC_BASE_URL).toBe('https://sign.example.test');
        const parsed = schema!.safeParse(env);
        expect(
          parsed.success,
          `${svc}: ${JSON.stringify(parsed.error?.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`))}`,
        ).toBe(true);
        // Secrets never sit in a ConfigMap.
        for (const key of Object.keys(find(objs, 'ConfigMap', `signet-${svc}`).data ?? {})) {
          expect(key).not.toMatch(/SECRET|PASSWORD|KEY$|MONGO_URL/);
        }
      }
    },
  );

  it('refuses to generate secrets where no cluster can keep them (helm template, Argo CD), and says what to give', () => {
    // Without a cluster lookup finds no earlier Secret, so a generated value would change on every render.
    const bare = run(helmBin(), ['template', 'signet', CHART, '--kube-version', KUBE_VERSION]);
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toMatch(/no cluster to read the release's Secret from/);
    expect(bare.stderr).toMatch(/jwtSecret, totpEncryptionKey, webhookSecret, ledgerSigningKey/);
    expect(bare.stderr).toMatch(/secrets\.generateWhenTemplating=true/);
    // Values given for some: only the rest are named.
    const some = run(helmBin(), [
      'template',
      'signet',
      CHART,
      '--kube-version',
      KUBE_VERSION,
      '--set',
      'secrets.jwtSecret.value=x',
    ]);
    expect(some.status).not.toBe(0);
    expect(some.stderr).not.toMatch(/jwtSecret/);
    expect(some.stderr).toMatch(/totpEncryptionKey/);
    // The evaluation MongoDB's URL follows from a given password (nothing random): not refused.
    const derived = run(helmBin(), ['template', 'signet', CHART, '--kube-version', KUBE_VERSION, '-f', values.default!]);
    expect(derived.status, derived.stderr).toBe(0);
    // Every secret from an existing Secret (a GitOps install): renders without the switch.
    const gitops = run(helmBin(), ['template', 'signet', CHART, '--kube-version', KUBE_VERSION, '-f', values.gpu!]);
    expect(gitops.status, gitops.stderr).toBe(0);
  });

  it('seals signed PDFs only when asked: the key pair from secrets, the TSAs in config, egress to them (issue 17)', () => {
    const ledgerOf = (objs: K8sObject[]) => find(objs, 'Deployment', 'signet-ledger').spec.template.spec.containers[0];
    const envNames = (objs: K8sObject[]) => (ledgerOf(objs).env ?? []).map((e: { name: string }) => e.name);
    // Off (the default): no seal secret, no TSA, no egress beyond the usual.
    expect(envNames(objects.default!)).not.toContain('LEDGER_SEAL_CERT');
    expect(find(objects.default!, 'ConfigMap', 'signet-ledger').data.LEDGER_TSA_URLS).toBeUndefined();
    // On: both PEMs reach the ledger from the Secret, the TSAs in order from the ConfigMap.
    const on = parseManifests(sealing(['--set', 'networkPolicy.enabled=true']));
    expect(envNames(on)).toEqual(expect.arrayContaining(['LEDGER_SEAL_CERT', 'LEDGER_SEAL_KEY']));
    const data = find(on, 'Secret', 'signet').data as Record<string, string>;
    expect(Buffer.from(data.LEDGER_SEAL_KEY!, 'base64').toString()).toBe(SEAL_PEM.key);
    expect(find(on, 'ConfigMap', 'signet-ledger').data.LEDGER_TSA_URLS).toBe(
      'http://tsa.example.test/tsa,https://tsa2.example.test/',
    );
    for (const name of SERVICES.filter((n) => n !== 'ledger'))
      expect(JSON.stringify(find(on, 'Deployment', `signet-${name}`)), name).not.toContain('LEDGER_SEAL');
    const egress = find(on, 'NetworkPolicy', 'signet-ledger').spec.egress as { ports?: { port: number }[] }[];
    expect(egress.some((r) => r.ports?.some((p) => p.port === 443) && r.ports?.some((p) => p.port === 80))).toBe(true);
    // From an existing Secret, like every other secret.
    const existing = parseManifests(
      helmTemplate(values.gpu!, [
        ...SEALING,
        '--set',
        'secrets.sealKey.existingSecret=seal-tls',
        '--set',
        'secrets.sealKey.key=tls.key',
      ]),
    );
    const keyRef = ledgerOf(existing).env.find((e: { name: string }) => e.name === 'LEDGER_SEAL_KEY').valueFrom.secretKeyRef;
    expect(keyRef).toEqual({ name: 'seal-tls', key: 'tls.key' });
    // Never generated, never without a TSA.
    for (const [extra, message] of [
      [SEALING, /sealCertificate: signedPdf.enabled needs the sealing certificate and key/],
      [
        [
          '--set',
          'signedPdf.enabled=true',
          '--set-string',
          `secrets.sealCertificate.value=${SEAL_PEM.cert}`,
          '--set-string',
          `secrets.sealKey.value=${SEAL_PEM.key}`,
        ],
        /give signedPdf.tsaUrls/,
      ],
      [[...SEALING, '--set', 'signedPdf.tsaUrls={ftp://tsa.example.test}'], /tsaUrls/],
    ] as const) {
      const r = run(helmBin(), [
        'template',
        'signet',
        CHART,
        '--kube-version',
        KUBE_VERSION,
        ...THROWAWAY,
        '-f',
        values.default!,
        ...extra,
      ]);
      expect(r.status, extra.join(' ')).not.toBe(0);
      expect(r.stderr).toMatch(message);
    }
  });

  it('takes every secret from existingSecret when one is given (no chart Secret rendered)', () => {
    for (const name of ['external-infra', 'gpu']) {
      const objs = objects[name]!;
      expect(objs.filter((o) => o.kind === 'Secret')).toEqual([]);
      for (const d of objs.filter((o) => o.kind === 'Deployment')) {
        for (const e of d.spec.template.spec.containers[0].env ?? []) {
          if (e.value !== undefined) continue; // plain settings such as HOME
          const ref = e.valueFrom?.secretKeyRef;
          if (name === 'external-infra' && e.name === 'WEBHOOK_SECRET')
            expect(ref).toEqual({ name: 'signet-billing-provider', key: 'signing-secret' });
          else expect(ref?.name, `${d.metadata.name}: ${e.name}`).toBe('signet-secrets');
        }
      }
    }
  });

  it('opens exactly the call graph: every *_ADDR a service dials has an egress and a matching ingress', () => {
    for (const [name, objs] of Object.entries(objects)) {
      const pol = (c: string) => find(objs, 'NetworkPolicy', `signet-${c}`).spec;
      for (const svc of SERVICES) {
        const cm = find(objs, 'ConfigMap', `signet-${svc}`).data as Record<string, string>;
        const callees = Object.keys(cm)
          .filter((k) => k.endsWith('_ADDR'))
          .map((k) => k.replace(/_ADDR$/, '').toLowerCase());
        const egressTo = (pol(svc).egress ?? []).flatMap(
          (r: { to?: { podSelector?: { matchLabels?: Record<string, string> } }[] }) =>
            (r.to ?? []).map((t) => t.podSelector?.matchLabels?.['app.kubernetes.io/component']),
        );
        for (const callee of callees) {
          expect(SERVICES, `${name}: ${svc} dials unknown ${callee}`).toContain(callee);
          expect(egressTo, `${name}: ${svc} may not reach ${callee}`).toContain(callee);
          const addr = cm[`${callee.toUpperCase()}_ADDR`]!;
          // Every replica of the callee: its headless Service, by DNS, with round-robin calls (issue 35).
          expect(addr, `${name}: ${svc} dials ${callee} as ${addr}`).toBe(
            `dns:///signet-${callee}-headless:${addr.split(':').at(-1)}`,
          );
          const headless = find(objs, 'Service', `signet-${callee}-headless`).spec;
          expect(headless.clusterIP).toBe('None');
          expect(headless.selector).toEqual(find(objs, 'Service', `signet-${callee}`).spec.selector);
          const port = Number(addr.split(':').at(-1));
          expect(headless.ports.map((p: { port: number }) => p.port)).toContain(port);
          const allowed = (pol(callee).ingress ?? []).some(
            (r: { from?: { podSelector?: { matchLabels?: Record<string, string> } }[]; ports?: { port: number }[] }) =>
              (r.from ?? []).some((f) => f.podSelector?.matchLabels?.['app.kubernetes.io/component'] === svc) &&
              (r.ports ?? []).some((p) => p.port === port),
          );
          expect(allowed, `${name}: ${callee} does not admit ${svc} on ${port}`).toBe(true);
        }
        // Nothing dials a service it has no address for.
        const grpcEgress = egressTo.filter((c: string | undefined) => c && SERVICES.includes(c));
        expect(new Set(grpcEgress), `${name}: ${svc} egress beyond its callees`).toEqual(new Set(callees));
      }
    }
  });

  it('uses native gRPC probes on the kit health service and HTTP probes on the gateway', () => {
    for (const svc of SERVICES) {
      const c = find(objects.default!, 'Deployment', `signet-${svc}`).spec.template.spec.containers[0];
      if (svc === 'gateway') {
        expect(c.readinessProbe.httpGet.path).toBe('/readyz');
        expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      } else {
        expect(c.readinessProbe.grpc.service ?? '').toBe('');
        expect(c.livenessProbe.grpc.service).toBe('liveness');
        expect(c.readinessProbe.grpc.port).toBe(c.ports.find((p: { name: string }) => p.name === 'grpc').containerPort);
      }
    }
  });

  it('exposes only the gateway through an Ingress with TLS, a 200 MB body and long timeouts', () => {
    const ingresses = objects['external-infra']!.filter((o) => o.kind === 'Ingress');
    expect(ingresses.map((i) => i.metadata.name)).toEqual(['signet-gateway']);
    const ing = ingresses[0]!;
    expect(ing.spec.tls[0]).toEqual({ hosts: ['sign.example.com'], secretName: 'signet-tls' });
    expect(ing.spec.rules[0].http.paths[0].backend.service.name).toBe('signet-gateway');
    const body = ing.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-body-size']!;
    expect(parseInt(body, 10)).toBeGreaterThanOrEqual(200);
    expect(Number(ing.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(120);
  });

  it('runs biometrics on a GPU when asked: GPU image, nvidia.com/gpu, node selector, tolerations, KEDA', () => {
    const objs = objects.gpu!;
    const pod = find(objs, 'Deployment', 'signet-biometrics').spec.template.spec;
    expect(pod.containers[0].image).toMatch(/\/biometrics-gpu@sha256:/);
    expect(pod.containers[0].resources.limits['nvidia.com/gpu']).toBe(1);
    expect(pod.nodeSelector).toEqual({ 'nvidia.com/gpu.present': 'true' });
    expect(pod.tolerations).toContainEqual({ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' });
    const so = find(objs, 'ScaledObject', 'signet-biometrics');
    expect(so.spec.triggers[0].type).toBe('nats-jetstream');
    expect(objs.some((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'signet-biometrics')).toBe(false);
    const cpu = find(objects.default!, 'Deployment', 'signet-biometrics').spec.template.spec;
    expect(cpu.containers[0].resources.limits['nvidia.com/gpu']).toBeUndefined();
    expect(cpu.containers[0].image).toMatch(/\/biometrics:0\.1\.0$/);
  });

  it('names no registry host by default; image.registry prefixes every Signet image, digests included', () => {
    const images = (objs: K8sObject[]) =>
      objs
        .flatMap((o) => {
          const spec = o.kind === 'Pod' ? o.spec : o.spec?.template?.spec;
          return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
        })
        .map((c: { image: string }) => c.image);
    const bare = images(parseManifests(helmTemplate()));
    expect(bare).toContain('signet/gateway:0.1.0');
    expect(bare).toContain('mongo:7.0.14');
    expect(bare).toContain('minio/minio:RELEASE.2025-04-22T22-12-26Z');
    // A reference names a host when its first path component has a dot or a port, or is localhost.
    for (const ref of bare) expect(ref.includes('/') ? ref.split('/')[0] : '', ref).not.toMatch(/[.:]|^localhost$/);
    const digest = `sha256:${'b'.repeat(64)}`;
    const prefixed = images(
      parseManifests(
        helmTemplate(undefined, [
          '--set',
          'image.registry=registry.example.com:5000/mirror',
          '--set',
          `image.digests.ledger=${digest}`,
        ]),
      ),
    ).filter((ref) => ref.includes('/signet/'));
    expect(prefixed).toContain('registry.example.com:5000/mirror/signet/gateway:0.1.0');
    expect(prefixed).toContain(`registry.example.com:5000/mirror/signet/ledger@${digest}`);
    expect(prefixed.every((ref) => ref.startsWith('registry.example.com:5000/mirror/signet/'))).toBe(true);
    expect(find(objects['external-infra']!, 'Deployment', 'signet-gateway').spec.template.spec.containers[0].image).toBe(
      `registry.example.com/signet/gateway@sha256:${'0'.repeat(63)}1`,
    );
  });

  it('ships a helm test hook that calls /readyz and /api/openapi.json on the gateway', () => {
    const pod = objects.default!.find((o) => o.kind === 'Pod')!;
    expect(pod.metadata.annotations!['helm.sh/hook']).toBe('test');
    const script = pod.spec.containers[0].args.join(' ');
    expect(script).toContain('/readyz');
    expect(script).toContain('/api/openapi.json');
    expect(script).toContain('http://signet-gateway:8080');
  });

  it('puts ServiceMonitor, PrometheusRule and the dashboard behind switches', () => {
    for (const kind of ['ServiceMonitor', 'PrometheusRule']) {
      expect(objects.default!.some((o) => o.kind === kind)).toBe(false);
      expect(objects['external-infra']!.some((o) => o.kind === kind)).toBe(true);
    }
    const dash = find(objects['external-infra']!, 'ConfigMap', 'signet-dashboard');
    expect(dash.metadata.labels!['grafana_dashboard']).toBe('1');
    expect(JSON.parse(dash.data['signet.json']).uid).toBe('signet-overview');
  });

  it('keeps a terminating pod serving for preStopSeconds before SIGTERM, on top of its grace period (Kubernetes 1.30+)', () => {
    const deployments = (objs: K8sObject[]) =>
      objs.filter((o) => o.kind === 'Deployment' && SERVICES.includes(o.metadata.name.slice(7)));
    for (const d of deployments(objects.default!)) {
      const pod = d.spec.template.spec;
      expect(pod.containers[0].lifecycle?.preStop, d.metadata.name).toEqual({ sleep: { seconds: 5 } });
      expect(pod.terminationGracePeriodSeconds, d.metadata.name).toBe(d.metadata.name === 'signet-biometrics' ? 95 : 35);
      expect(d.spec.strategy.rollingUpdate.maxUnavailable, d.metadata.name).toBe(0);
    }
    expect(deployments(objects.default!)).toHaveLength(SERVICES.length);
    const old = parseManifests(helmTemplate(values.default, ['--kube-version', '1.27.0']));
    const off = parseManifests(helmTemplate(values.default, ['--set', 'preStopSeconds=0']));
    for (const d of [...deployments(old), ...deployments(off)])
      expect(d.spec.template.spec.containers[0].lifecycle).toBeUndefined();
    expect(
      deployments(off).find((d) => d.metadata.name === 'signet-gateway')!.spec.template.spec.terminationGracePeriodSeconds,
    ).toBe(30);
  });

  it('gives the gateway the proxies of ingress.trustedProxies, and nobody else TRUSTED_PROXIES', () => {
    const env = (objs: K8sObject[], svc: string) => find(objs, 'ConfigMap', `signet-${svc}`).data as Record<string, string>;
    // Default: nobody is believed (docs/kubernetes.md "Client IPs"); the operator names the controller's range.
    expect(env(objects.default!, 'gateway').TRUSTED_PROXIES).toBe('');
    const narrowed = parseManifests(helmTemplate(values.default, ['--set', 'ingress.trustedProxies={10.244.0.0/16,fd00::/8}']));
    expect(env(narrowed, 'gateway').TRUSTED_PROXIES).toBe('10.244.0.0/16,fd00::/8');
    for (const svc of SERVICES.filter((s) => s !== 'gateway')) expect(env(narrowed, svc).TRUSTED_PROXIES).toBeUndefined();
    for (const bad of ['ingress.trustedProxies={proxy.example.com}', 'ingress.trustedProxies={10.0.0.0/8;x}']) {
      const r = run(helmBin(), ['template', 'signet', CHART, '--kube-version', KUBE_VERSION, ...THROWAWAY, '--set', bad]);
      expect(r.status, bad).not.toBe(0);
    }
  });

  it('rejects unknown keys, mutable tags and bad infrastructure URLs in values', () => {
    const bad: string[][] = [
      ['--set', 'unknownKey=1'],
      ['--set', 'services.gateway.replica=3'],
      ['--set', 'image.tag=latest'],
      ['--set', 'image.registry=registry.example.com/'],
      ['--set', 'external.natsUrl=http://nats:4222'],
      ['--set', 'services.identity.env.JWT_SECRET=oops'],
    ];
    for (const extra of bad) {
      const r = run(helmBin(), ['template', 'signet', CHART, '--kube-version', KUBE_VERSION, ...THROWAWAY, ...extra]);
      expect(r.status, extra.join(' ')).not.toBe(0);
    }
    const noInfra = run(helmBin(), [
      'template',
      'signet',
      CHART,
      '--kube-version',
      KUBE_VERSION,
      ...THROWAWAY,
      '--set',
      'infra.enabled=false',
    ]);
    expect(noInfra.status).not.toBe(0);
    expect(noInfra.stderr).toMatch(/external endpoint|secrets\./);
  });
});

describe('the policy check itself', () => {
  const base = () => parseManifests(rendered.minimal!);
  it('flags a mutable image, a missing probe, a writable root and a missing PDB', () => {
    const objs = base();
    const d = objs.find((o) => o.kind === 'Deployment' && o.metadata.name === 'signet-ledger')!;
    d.spec.template.spec.containers[0].image = 'registry.example.com/signet/ledger:latest';
    delete d.spec.template.spec.containers[0].livenessProbe;
    d.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem = false;
    const withoutPdb = objs.filter((o) => !(o.kind === 'PodDisruptionBudget' && o.metadata.name === 'signet-ledger'));
    const v = policyViolations(withoutPdb);
    expect(v).toEqual(
      expect.arrayContaining([
        expect.stringContaining('mutable image'),
        expect.stringContaining('no livenessProbe'),
        expect.stringContaining('not read-only'),
        expect.stringContaining('no PodDisruptionBudget'),
      ]),
    );
  });
  it('tells immutable image references from mutable ones', () => {
    expect(isImmutableImage('registry.example.com/signet/gateway:0.1.0')).toBe(true);
    expect(isImmutableImage('signet/gateway:0.1.0')).toBe(true);
    expect(isImmutableImage(`registry.example.com/signet/gateway@sha256:${'a'.repeat(64)}`)).toBe(true);
    expect(isImmutableImage('minio/minio:RELEASE.2025-04-22T22-12-26Z')).toBe(true);
    expect(isImmutableImage('registry.example.com:5000/signet/gateway:latest')).toBe(false);
    expect(isImmutableImage('registry.example.com/signet/gateway')).toBe(false);
    expect(isImmutableImage('signet/gateway')).toBe(false);
    expect(isImmutableImage('localhost:5000/gateway')).toBe(false);
  });
});
