import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICES, eventEntries } from '@signet/proto';
import { CHART, ROOT, ciValues, helmTemplate, parseManifests } from './helm.ts';

type Declared = Map<string, { labels: Set<string>; type: 'counter' | 'histogram' | 'gauge'; file: string }>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const strings = (text: string) => [...text.matchAll(/['"`]([A-Za-z_][\w]*)['"`]/g)].map((m) => m[1]!);

/** Metrics declared in services/*\/src and packages/*\/src (the kit's shared metrics): `new Counter|Gauge|Histogram({ name: 'signet_…', labelNames })` and `metrics.counter|histogram|gauge('signet_…', help, [labels])`. */
export function declaredMetrics(): Declared {
  const out: Declared = new Map();
  const roots = ['services', 'packages']
    .flatMap((top) => readdirSync(join(ROOT, top)).map((s) => join(ROOT, top, s, 'src')))
    .filter((src) => existsSync(src));
  for (const file of roots.flatMap((src) => sourceFiles(src))) {
    const text = readFileSync(file, 'utf8');
    const rel = relative(ROOT, file);
    for (const m of text.matchAll(/new (Counter|Gauge|Histogram)\(\{([\s\S]*?)\}\)/g)) {
      const name = /name:\s*['"`](signet_\w+)['"`]/.exec(m[2]!)?.[1];
      if (!name) continue;
      const labels = /labelNames:\s*\[([^\]]*)\]/.exec(m[2]!)?.[1] ?? '';
      out.set(name, { labels: new Set(strings(labels)), type: m[1]!.toLowerCase() as 'counter', file: rel });
    }
    for (const m of text.matchAll(
      /\.(counter|histogram|gauge)(?:<[^>(]*>)?\(\s*['"`](signet_\w+)['"`]\s*,\s*(?:'[^']*'|"[^"]*"|`[^`]*`)\s*(?:,\s*\[([^\]]*)\])?/g,
    )) {
      out.set(m[2]!, { labels: new Set(strings(m[3] ?? '')), type: m[1] as 'counter', file: rel });
    }
  }
  return out;
}

const FUNCTIONS_AND_KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'inf',
  'nan',
]);
/** Labels Prometheus or the registry adds to every series. */
const IMPLICIT_LABELS = new Set(['service', 'namespace', 'pod', 'job', 'instance', 'container', 'endpoint']);

/** Metric names and the labels each selector or grouping uses in one PromQL expression. */
export function promqlRefs(expr: string): { metrics: string[]; labels: Map<string, Set<string>>; grouping: string[] } {
  const noStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const labels = new Map<string, Set<string>>();
  for (const m of noStrings.matchAll(/([A-Za-z_:][\w:]*)\s*\{([^}]*)\}/g)) {
    const set = labels.get(m[1]!) ?? new Set<string>();
    for (const l of m[2]!.matchAll(/([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)/g)) set.add(l[1]!);
    labels.set(m[1]!, set);
  }
  const grouping = [...noStrings.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const bare = noStrings
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const metrics = [...bare.matchAll(/(?<![\w$.])([A-Za-z_:][\w:]*)(?![\w:])(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((t) => !FUNCTIONS_AND_KEYWORDS.has(t.toLowerCase()) && !/^\d/.test(t));
  return { metrics: [...new Set(metrics)], labels, grouping };
}

function baseName(name: string, declared: Declared): string | undefined {
  if (declared.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      if (declared.get(base)?.type === 'histogram') return base;
    }
  }
  return undefined;
}

function pendingList(): Set<string> {
  const text = readFileSync(join(ROOT, 'test/chart/metrics-declared-by-issue.txt'), 'utf8');
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

function dashboardExprs(): { where: string; expr: string }[] {
  const dir = join(CHART, 'dashboards');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
      return d.panels.flatMap((p) =>
        (p.targets ?? []).map((t) => ({ where: `${f} "${p.title}"`, expr: t.expr.replaceAll('$__rate_interval', '5m') })),
      );
    });
}

function alertExprs(): { where: string; expr: string }[] {
  const objs = parseManifests(helmTemplate(ciValues()['external-infra']));
  const rule = objs.find((o) => o.kind === 'PrometheusRule');
  if (!rule) throw new Error('external-infra values render no PrometheusRule');
  // Recording rules (the gateway's SLO ratios) too: `record <name>`.
  return rule.spec.groups.flatMap((g: { rules: { alert?: string; record?: string; expr: string }[] }) =>
    g.rules.map((r) => ({ where: r.alert ? `alert ${r.alert}` : `record ${r.record}`, expr: r.expr })),
  );
}

/** Problems of one expression against the declared metrics; names on the pending list pass. */
export function exprProblems(where: string, expr: string, declared: Declared, pending: Set<string>): string[] {
  const problems: string[] = [];
  const refs = promqlRefs(expr);
  if (refs.metrics.length === 0) problems.push(`${where}: no metric in ${expr}`);
  const known = new Set<string>(IMPLICIT_LABELS);
  for (const m of refs.metrics) {
    const base = baseName(m, declared);
    if (!base) {
      const pendingBase = ['', '_bucket', '_sum', '_count']
        .map((s) => (m.endsWith(s) ? m.slice(0, m.length - s.length) : ''))
        .find((b) => b && pending.has(b));
      if (!pendingBase && !pending.has(m))
        problems.push(
          `${where}: ${m} is not declared in services/*/src or packages/*/src (nor listed in metrics-declared-by-issue.txt)`,
        );
      refs.labels.get(m)?.forEach((l) => known.add(l));
      continue;
    }
    const decl = declared.get(base)!;
    decl.labels.forEach((l) => known.add(l));
    if (m.endsWith('_bucket')) known.add('le');
    for (const l of refs.labels.get(m) ?? []) {
      if (!decl.labels.has(l) && !IMPLICIT_LABELS.has(l) && !(l === 'le' && m.endsWith('_bucket'))) {
        problems.push(`${where}: ${m} has no label "${l}" (declared: ${[...decl.labels].join(', ') || 'none'}, ${decl.file})`);
      }
    }
  }
  for (const l of refs.grouping) if (!known.has(l)) problems.push(`${where}: groups by "${l}", which none of its metrics has`);
  return problems;
}

describe('dashboard and alert PromQL against the declared metrics', () => {
  const declared = declaredMetrics();
  const pending = pendingList();

  it('finds the declared metrics in the sources (the kit and the services)', () => {
    expect(declared.get('signet_http_request_duration_seconds')?.type).toBe('histogram');
    expect(declared.get('signet_events_consumer_pending')?.labels).toEqual(new Set(['consumer']));
    expect(declared.get('signet_ledger_certificates_issued_total')?.labels).toEqual(new Set(['result']));
  });

  it('every dashboard panel query names only declared metrics and labels', () => {
    const exprs = dashboardExprs();
    expect(exprs.length).toBeGreaterThan(10);
    expect(exprs.flatMap((e) => exprProblems(e.where, e.expr, declared, pending))).toEqual([]);
  });

  it('every alert expression names only declared metrics and labels', () => {
    const exprs = alertExprs();
    expect(exprs.length).toBeGreaterThanOrEqual(6);
    // A recorded series is declared by its recording rule.
    const recorded = exprs.filter((e) => e.where.startsWith('record ')).map((e) => e.where.slice('record '.length));
    const known = new Set([...pending, ...recorded]);
    expect(exprs.flatMap((e) => exprProblems(e.where, e.expr, declared, known))).toEqual([]);
  });

  it('selects only the services, durable consumers and subjects the event registry declares', () => {
    const known: Record<string, Set<string>> = {
      service: new Set(SERVICES),
      consumer: new Set(eventEntries.flatMap((e) => e.consumers.map((c) => c.durable))),
      subject: new Set(eventEntries.map((e) => e.subject)),
    };
    const problems = [...dashboardExprs(), ...alertExprs()].flatMap(({ where, expr }) =>
      [...expr.matchAll(/\b(service|consumer|subject)="([^"]*)"/g)]
        .filter(([, label, value]) => !known[label!]!.has(value!))
        .map(([, label, value]) => `${where}: ${label}="${value}" is not in the registry`),
    );
    expect(problems).toEqual([]);
    expect(alertExprs().some((e) => e.expr.includes('consumer="ledger-transaction-verified"'))).toBe(true);
  });

  it('lists in metrics-declared-by-issue.txt only names that are still undeclared and still used', () => {
    const used = new Set([...dashboardExprs(), ...alertExprs()].flatMap((e) => promqlRefs(e.expr).metrics));
    for (const name of pending) {
      expect(declared.has(name), `${name} is declared now: delete it from metrics-declared-by-issue.txt`).toBe(false);
      const isUsed = [...used].some((u) => u === name || ['_bucket', '_sum', '_count'].some((s) => u === name + s));
      expect(isUsed, `${name} is no longer used: delete it from metrics-declared-by-issue.txt`).toBe(true);
    }
  });

  it('catches a typo, an unknown label and a grouping label no metric has', () => {
    const d = declared;
    expect(exprProblems('t', 'sum(rate(signet_http_request_duraton_seconds_count[5m]))', d, new Set())).toHaveLength(1);
    expect(exprProblems('t', 'sum(rate(signet_events_redelivered_total{subject="x"}[5m]))', d, new Set())[0]).toContain(
      'no label "subject"',
    );
    expect(exprProblems('t', 'sum by (route) (rate(signet_events_redelivered_total[5m]))', d, new Set())[0]).toContain(
      'groups by "route"',
    );
    expect(
      exprProblems(
        't',
        'histogram_quantile(0.95, sum by (le) (rate(signet_grpc_server_handling_seconds_bucket[5m])))',
        d,
        new Set(),
      ),
    ).toEqual([]);
    expect(exprProblems('t', 'sum(rate(signet_not_yet_total[5m]))', d, new Set(['signet_not_yet_total']))).toEqual([]);
  });

  it('has a runbook section for every alert', () => {
    const runbook = readFileSync(join(ROOT, 'docs/runbook.md'), 'utf8');
    const headings = new Set([...runbook.matchAll(/^## (\w+)\s*$/gm)].map((m) => m[1]!));
    for (const { where } of alertExprs().filter((e) => e.where.startsWith('alert '))) {
      const alert = where.replace('alert ', '');
      expect(headings.has(alert), `docs/runbook.md has no "## ${alert}" section`).toBe(true);
    }
  });
});
