import type { K8sObject } from './helm.ts';

/**
 * What the Prometheus Operator does to a series scraped through a ServiceMonitor endpoint, enough to
 * check that the labels the alerts select on survive it: the Operator's own target relabelling
 * (`namespace`, `service`, `pod`, `container`, `job`, `endpoint` from the discovered Service and pod),
 * then the endpoint's `relabelings`, then the merge of the target labels with the labels the app
 * exposes (`honorLabels: false`, the default: on a clash the target wins and the app's value moves to
 * `exported_<name>`).
 */
export type Labels = Record<string, string>;

type Relabel = {
  action?: string;
  sourceLabels?: string[];
  separator?: string;
  regex?: string;
  replacement?: string;
  targetLabel?: string;
};

/** Applies Prometheus relabel configs to a label set; undefined when a keep/drop removes the target. */
export function relabel(input: Labels, configs: Relabel[]): Labels | undefined {
  let labels: Labels = { ...input };
  for (const c of configs) {
    const action = (c.action ?? 'replace').toLowerCase();
    const re = new RegExp(`^(?:${c.regex ?? '(.*)'})$`);
    const value = (c.sourceLabels ?? []).map((l) => labels[l] ?? '').join(c.separator ?? ';');
    // Prometheus writes capture references as $1 or ${1}; JavaScript's replace reads both as $1.
    const replacement = (c.replacement ?? '$1').replace(/\$\{(\w+)\}/g, '$$$1');
    switch (action) {
      case 'replace': {
        if (!re.test(value)) break;
        const out = value.replace(re, replacement);
        if (!c.targetLabel) throw new Error('replace relabelling without targetLabel');
        if (out === '') delete labels[c.targetLabel];
        else labels[c.targetLabel] = out;
        break;
      }
      case 'keep':
        if (!re.test(value)) return undefined;
        break;
      case 'drop':
        if (re.test(value)) return undefined;
        break;
      case 'labeldrop':
        labels = Object.fromEntries(Object.entries(labels).filter(([k]) => !re.test(k)));
        break;
      case 'labelkeep':
        labels = Object.fromEntries(Object.entries(labels).filter(([k]) => re.test(k)));
        break;
      case 'labelmap':
        for (const [k, v] of Object.entries({ ...labels })) if (re.test(k)) labels[k.replace(re, replacement)] = v;
        break;
      default:
        throw new Error(`relabel action ${action} is not simulated here: extend test/chart/operator.ts`);
    }
  }
  return labels;
}

/** The Kubernetes service-discovery meta labels of one endpoint of a Service (its labels sanitised). */
function metaLabels(svc: K8sObject, pod: string, port: string): Labels {
  const meta: Labels = {
    __address__: `10.0.0.1:${port}`,
    __meta_kubernetes_namespace: (svc.metadata as { namespace?: string }).namespace ?? 'default',
    __meta_kubernetes_service_name: svc.metadata.name,
    __meta_kubernetes_pod_name: pod,
    __meta_kubernetes_pod_container_name: String(svc.metadata.labels?.['app.kubernetes.io/component'] ?? 'app'),
    __meta_kubernetes_endpoint_port_name: port,
  };
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {})) {
    meta[`__meta_kubernetes_service_label_${k.replace(/[^a-zA-Z0-9_]/g, '_')}`] = v;
  }
  return meta;
}

/** The relabelling the Operator generates for every ServiceMonitor endpoint, before the endpoint's own. */
const OPERATOR_RELABELINGS: Relabel[] = [
  { sourceLabels: ['__meta_kubernetes_namespace'], targetLabel: 'namespace' },
  { sourceLabels: ['__meta_kubernetes_service_name'], targetLabel: 'service' },
  { sourceLabels: ['__meta_kubernetes_pod_name'], targetLabel: 'pod' },
  { sourceLabels: ['__meta_kubernetes_pod_container_name'], targetLabel: 'container' },
  { sourceLabels: ['__meta_kubernetes_service_name'], targetLabel: 'job' },
];

function selects(sm: K8sObject, svc: K8sObject): boolean {
  const labels = svc.metadata.labels ?? {};
  const sel = sm.spec.selector as {
    matchLabels?: Labels;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  const byLabel = Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpr = (sel.matchExpressions ?? []).every((e) => {
    if (e.operator === 'In') return e.values!.includes(labels[e.key]!);
    if (e.operator === 'Exists') return e.key in labels;
    throw new Error(`matchExpressions operator ${e.operator} is not simulated here`);
  });
  return byLabel && byExpr;
}

/**
 * The labels a series ends up with in Prometheus when the app behind the Service of `component`
 * (app.kubernetes.io/component) exposes it with
 * `exposed` labels and the rendered ServiceMonitors scrape it. Throws when no ServiceMonitor
 * scrapes that Service's `ops` port.
 */
export function scrapedLabels(manifests: K8sObject[], component: string, exposed: Labels, pod = `${component}-0`): Labels {
  const svc = manifests.find((o) => o.kind === 'Service' && o.metadata.labels?.['app.kubernetes.io/component'] === component);
  if (!svc) throw new Error(`no Service of component ${component} in the rendered chart`);
  const serviceName = svc.metadata.name;
  for (const sm of manifests.filter((o) => o.kind === 'ServiceMonitor' && selects(o, svc))) {
    for (const ep of sm.spec.endpoints as { port: string; relabelings?: Relabel[]; honorLabels?: boolean }[]) {
      if (!(svc.spec.ports as { name: string }[]).some((p) => p.name === ep.port)) continue;
      const target = relabel(metaLabels(svc, pod, ep.port), [
        ...OPERATOR_RELABELINGS,
        { replacement: ep.port, targetLabel: 'endpoint' },
        ...(ep.relabelings ?? []),
        { sourceLabels: ['__address__'], targetLabel: 'instance' },
      ]);
      if (!target) continue;
      const targetLabels = Object.fromEntries(Object.entries(target).filter(([k]) => !k.startsWith('__')));
      const out: Labels = { ...exposed };
      for (const [k, v] of Object.entries(targetLabels)) {
        if (ep.honorLabels && k in exposed) continue;
        if (k in exposed) out[`exported_${k}`] = exposed[k]!;
        out[k] = v;
      }
      return out;
    }
  }
  throw new Error(`no ServiceMonitor endpoint scrapes Service ${serviceName}`);
}
