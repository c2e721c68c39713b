import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, helmTemplate, kubectlBin, parseManifests } from './helm.ts';
import { policyViolations } from './policy.ts';

const K8S = join(ROOT, 'k8s');
const BASE_VALUES = join(K8S, 'base/values.yaml');

/** Files in k8s/ that are rendered from the chart, and how. */
const generated: [string, () => string][] = [
  ['base/signet.yaml', () => helmTemplate(BASE_VALUES, ['--skip-tests'])],
  [
    'components/network-policies/networkpolicies.yaml',
    () => helmTemplate(BASE_VALUES, ['--set', 'networkPolicy.enabled=true', '--show-only', 'templates/networkpolicy.yaml']),
  ],
];

const kustomize = (dir: string) =>
  execFileSync(kubectlBin(), ['kustomize', join(K8S, dir)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

describe('k8s/ kustomize', () => {
  it.each(generated)('%s is the current chart render (UPDATE_GOLDEN=1 or k8s/render.sh rewrites it)', (file, render) => {
    const text = render();
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(join(K8S, file), text);
    expect(readFileSync(join(K8S, file), 'utf8')).toBe(text);
  });

  const overlays = readdirSync(join(K8S, 'overlays')).sort();
  it('has the dev and prod overlays', () => {
    expect(overlays).toEqual(['dev', 'prod']);
  });

  it.each(overlays)('builds overlays/%s with kubectl kustomize, within policy', (overlay) => {
    const objs = parseManifests(kustomize(`overlays/${overlay}`));
    expect(policyViolations(objs)).toEqual([]);
    const ns = overlay === 'dev' ? 'signet-dev' : 'signet';
    for (const o of objs) expect(o.metadata, `${o.kind}/${o.metadata.name}`).toMatchObject({ namespace: ns });
  });

  it('builds the base alone, and each component on top of it', () => {
    const base = parseManifests(kustomize('base'));
    expect(base.filter((o) => o.kind === 'Deployment')).toHaveLength(7);
    expect(base.some((o) => o.kind === 'NetworkPolicy')).toBe(false);
    const prod = parseManifests(kustomize('overlays/prod'));
    const bio = prod.find((o) => o.kind === 'Deployment' && o.metadata.name === 'signet-biometrics')!.spec.template.spec;
    expect(bio.containers[0].image).toBe('signet/biometrics-gpu:0.1.0');
    expect(bio.containers[0].resources.limits['nvidia.com/gpu']).toBe(1);
    expect(bio.containers[0].env).toContainEqual({ name: 'TF_BACKEND', value: 'node-gpu' });
    expect(bio.tolerations).toContainEqual({ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' });
    expect(prod.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.metadata.name)).toContain('signet-default-deny');
    const dev = parseManifests(kustomize('overlays/dev'));
    const devBio = dev.find((o) => o.kind === 'Deployment' && o.metadata.name === 'signet-biometrics')!.spec.template.spec;
    expect(devBio.containers[0].image).toBe('signet/biometrics:0.1.0');
    expect(dev.filter((o) => o.kind === 'HorizontalPodAutoscaler').every((h) => h.spec.minReplicas === 1)).toBe(true);
  });

  it('points the host-less images at a registry with a kustomize images: list (as the prod overlay documents)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signet-kustomize-'));
    try {
      const digest = `sha256:${'c'.repeat(64)}`;
      const names = ['gateway', 'identity', 'transaction', 'ceremony', 'biometrics-gpu', 'ledger', 'billing'];
      const images = names.map((n) => {
        const entry = `{ name: signet/${n}, newName: registry.example.com/signet/${n}`;
        return `  - ${entry}${n === 'ledger' ? `, digest: "${digest}"` : ''} }`;
      });
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        [
          'apiVersion: kustomize.config.k8s.io/v1beta1',
          'kind: Kustomization',
          'resources:',
          `  - ${relative(dir, join(K8S, 'overlays/prod'))}`,
          'images:',
          ...images,
          '',
        ].join('\n'),
      );
      const out = execFileSync(kubectlBin(), ['kustomize', dir], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const refs = parseManifests(out)
        .filter((o) => o.kind === 'Deployment')
        .map((o) => o.spec.template.spec.containers[0].image as string);
      expect(refs).toHaveLength(7);
      expect(refs).toContain('registry.example.com/signet/biometrics-gpu:0.1.0');
      expect(refs).toContain(`registry.example.com/signet/ledger@${digest}`);
      expect(refs.every((r) => r.startsWith('registry.example.com/signet/'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
