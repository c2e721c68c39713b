import type { K8sObject } from './helm.ts';

/** An image reference that cannot move: a digest, or an explicit version tag (never latest). */
export function isImmutableImage(image: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const m = /^(?:[^/]+\/)*[^/:@]+:([^/:@]+)$/.exec(image);
  if (!m) return false; // no tag at all means :latest
  const tag = m[1]!;
  if (/^(latest|stable|main|master|edge|nightly|dev)$/i.test(tag)) return false;
  return /^v?\d+\.\d+(\.\d+)?([-.+][\w.-]+)?$/.test(tag) || /^RELEASE\.\d{4}-\d\d-\d\dT[\d-]+Z$/.test(tag);
}

function matches(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

const SELECTOR_KEYS = ['app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app.kubernetes.io/component'];

/**
 * Every Deployment: probes, resources, the securityContext (non-root, read-only root filesystem
 * with an emptyDir at /tmp, all capabilities dropped, seccomp RuntimeDefault), a PDB and a
 * NetworkPolicy of its own, an immutable image, and selectors on name + instance + component.
 */
export function policyViolations(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget');
  const netpols = objects.filter((o) => o.kind === 'NetworkPolicy');
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  if (deployments.length === 0) problems.push('no Deployment rendered');
  if (
    !netpols.some(
      (n) =>
        Object.keys(n.spec?.podSelector?.matchLabels ?? {}).length > 0 &&
        !n.spec.ingress &&
        !n.spec.egress &&
        (n.spec.policyTypes ?? []).length === 2,
    )
  ) {
    problems.push('no default-deny NetworkPolicy (Ingress+Egress, no rules)');
  }
  for (const d of deployments) {
    const name = `Deployment/${d.metadata.name}`;
    const selector: Record<string, string> = d.spec?.selector?.matchLabels ?? {};
    for (const k of SELECTOR_KEYS) if (!selector[k]) problems.push(`${name}: selector lacks ${k}`);
    const pod = d.spec?.template?.spec ?? {};
    const labels: Record<string, string> = d.spec?.template?.metadata?.labels ?? {};
    if (!matches(selector, labels)) problems.push(`${name}: selector does not match its pod labels`);
    const psc = pod.securityContext ?? {};
    if (psc.runAsNonRoot !== true) problems.push(`${name}: pod securityContext.runAsNonRoot is not true`);
    if (psc.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${name}: pod seccompProfile is not RuntimeDefault`);
    if (typeof psc.runAsUser === 'number' && psc.runAsUser === 0) problems.push(`${name}: runs as root`);
    const volumes: { name: string; emptyDir?: unknown }[] = pod.volumes ?? [];
    for (const c of pod.containers ?? []) {
      const cn = `${name} container ${c.name}`;
      if (!c.readinessProbe) problems.push(`${cn}: no readinessProbe`);
      if (!c.livenessProbe) problems.push(`${cn}: no livenessProbe`);
      for (const kind of ['requests', 'limits'] as const) {
        for (const r of ['cpu', 'memory']) if (!c.resources?.[kind]?.[r]) problems.push(`${cn}: no resources.${kind}.${r}`);
      }
      const sc = c.securityContext ?? {};
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${cn}: root filesystem is not read-only`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${cn}: allowPrivilegeEscalation is not false`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${cn}: capabilities not dropped (ALL)`);
      if (sc.privileged) problems.push(`${cn}: privileged`);
      const tmp = (c.volumeMounts ?? []).find((m: { mountPath: string }) => m.mountPath === '/tmp');
      if (!tmp || !volumes.find((v) => v.name === tmp.name && v.emptyDir)) problems.push(`${cn}: no emptyDir at /tmp`);
      if (!isImmutableImage(String(c.image))) problems.push(`${cn}: mutable image reference ${c.image}`);
    }
    if (
      !pdbs.some(
        (p) => matches(p.spec?.selector?.matchLabels, labels) && p.spec?.selector?.matchLabels?.['app.kubernetes.io/component'],
      )
    ) {
      problems.push(`${name}: no PodDisruptionBudget of its own`);
    }
    if (
      !netpols.some(
        (n) =>
          matches(n.spec?.podSelector?.matchLabels, labels) && n.spec?.podSelector?.matchLabels?.['app.kubernetes.io/component'],
      )
    ) {
      problems.push(`${name}: no NetworkPolicy of its own`);
    }
  }
  for (const p of objects.filter((o) => o.kind === 'Pod')) {
    for (const c of p.spec?.containers ?? []) {
      if (!isImmutableImage(String(c.image))) problems.push(`Pod/${p.metadata.name}: mutable image reference ${c.image}`);
      if (c.securityContext?.readOnlyRootFilesystem !== true)
        problems.push(`Pod/${p.metadata.name}: root filesystem is not read-only`);
      if (!c.resources?.limits) problems.push(`Pod/${p.metadata.name}: no resource limits`);
    }
  }
  return problems;
}
