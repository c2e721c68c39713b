import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CHART = join(ROOT, 'charts/signet');
export const CI_DIR = join(CHART, 'ci');
/** The kube version the chart is rendered for (a `go install`-built helm defaults to 1.20). */
export const KUBE_VERSION = '1.31.0';
export const RELEASE = 'signet';
export const NAMESPACE = 'signet';

/** The helm binary scripts/install.sh builds. Missing → a clear failure, never a skip. */
export function helmBin(): string {
  const bin = join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'bin/helm');
  if (!existsSync(bin)) {
    throw new Error(`helm not found at ${bin}: run scripts/install.sh (it builds helm ${'v3.22.0'} into the cache)`);
  }
  return bin;
}

/** The promtool binary scripts/promtool.sh builds (scripts/install.sh calls it). Missing → a clear failure, never a skip. */
export function promtoolBin(): string {
  const bin = join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'bin/promtool');
  if (!existsSync(bin)) throw new Error(`promtool not found at ${bin}: run scripts/promtool.sh (or scripts/install.sh)`);
  return bin;
}

/** The kubeconform binary scripts/kubeconform.sh builds (scripts/install.sh calls it). Missing → a clear failure, never a skip. */
export function kubeconformBin(): string {
  const bin = join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'bin/kubeconform');
  if (!existsSync(bin)) throw new Error(`kubeconform not found at ${bin}: run scripts/kubeconform.sh (or scripts/install.sh)`);
  return bin;
}

/** The Kubernetes versions the chart is validated against offline (scripts/kubeconform.sh builds their schemas). */
export const KUBE_VERSIONS = ['1.27.0', '1.31.0'] as const;

/** Where scripts/kubeconform.sh puts the strict standalone schemas of one Kubernetes version. */
export function k8sSchemaDir(version: string): string {
  const dir = join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'k8s-schemas', `v${version}-standalone-strict`);
  if (!existsSync(join(dir, 'deployment-apps-v1.json'))) {
    throw new Error(`no Kubernetes ${version} schemas in ${dir}: run scripts/kubeconform.sh (or scripts/install.sh)`);
  }
  return dir;
}

export function kubectlBin(): string {
  const found = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  const bin = found.stdout.trim();
  if (found.status !== 0 || !bin) throw new Error('kubectl not found on PATH: it is needed for `kubectl kustomize`');
  return bin;
}

export type RunResult = { status: number; stdout: string; stderr: string };

export function run(bin: string, args: string[]): RunResult {
  const r = spawnSync(bin, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The ci values files by short name (default, external-infra, …). */
export function ciValues(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(CI_DIR)
      .filter((f) => f.endsWith('-values.yaml'))
      .sort()
      .map((f) => [f.replace(/-values\.yaml$/, ''), join(CI_DIR, f)]),
  );
}

/**
 * Renders here have no cluster, so the chart refuses to generate secrets (they would change on every render)
 * unless told this render is throwaway; the refusal itself is tested in chart.test.ts.
 */
export const THROWAWAY = ['--set', 'secrets.generateWhenTemplating=true'];

export function helmTemplate(valuesFile?: string, extra: string[] = []): string {
  const args = ['template', RELEASE, CHART, '--namespace', NAMESPACE, '--kube-version', KUBE_VERSION, ...THROWAWAY];
  if (valuesFile) args.push('-f', valuesFile);
  return execFileSync(helmBin(), [...args, ...extra], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [k: string]: any;
};

export function parseManifests(text: string): K8sObject[] {
  const docs = parseAllDocuments(text);
  const out: K8sObject[] = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`invalid YAML in rendered output: ${d.errors[0]!.message}`);
    const v = d.toJS() as K8sObject | null;
    if (v) out.push(v);
  }
  return out;
}
