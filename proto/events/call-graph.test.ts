import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventServices, grpcCalls, SERVICES, serviceDiagram, stores, type ServiceName } from '../index.js';

const root = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const sorted = (xs: readonly string[]) => [...xs].sort();

/** The chart's catalog (charts/signet/templates/_helpers.tpl): the NetworkPolicies open its `calls` and `uses`. */
function chartCatalog(): Record<string, { calls: string[]; uses: string[] }> {
  const tpl = read('charts/signet/templates/_helpers.tpl');
  const body = tpl.slice(
    tpl.indexOf('define "signet.catalog"'),
    tpl.indexOf('{{- end -}}', tpl.indexOf('define "signet.catalog"')),
  );
  const list = (line: string, key: string) =>
    (line.match(new RegExp(`${key}: \\[([^\\]]*)\\]`))?.[1] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const out: Record<string, { calls: string[]; uses: string[] }> = {};
  for (const line of body.split('\n')) {
    const name = line.match(/^([a-z]+):\s+\{/)?.[1];
    if (name) out[name] = { calls: list(line, 'calls'), uses: list(line, 'uses') };
  }
  return out;
}

/** Edges the chart opens that no code uses (none: keep it that way). */
const CHART_ONLY_CALLS: Partial<Record<ServiceName, string[]>> = {};

describe('the call graph', () => {
  it("declares each service's gRPC calls as the addresses its config.ts requires", () => {
    for (const s of SERVICES) {
      const config = read(`services/${s}/src/config.ts`);
      const required = [...config.matchAll(/\b([A-Z]+)_ADDR: env\.grpcAddress(\.optional\(\))?/g)]
        .filter((m) => !m[2])
        .map((m) => m[1]!.toLowerCase());
      expect(sorted(required), s).toEqual(sorted(grpcCalls[s]));
    }
  });

  it('matches the chart catalog the NetworkPolicies are rendered from: calls, NATS for event services, stores', () => {
    const catalog = chartCatalog();
    expect(sorted(Object.keys(catalog))).toEqual(sorted(SERVICES));
    const natsUsers = eventServices();
    for (const s of SERVICES) {
      const { calls, uses } = catalog[s]!;
      expect(sorted(calls), `${s} calls`).toEqual(sorted([...grpcCalls[s], ...(CHART_ONLY_CALLS[s] ?? [])]));
      expect(uses.includes('nats'), `${s} uses nats`).toBe(natsUsers.includes(s));
      expect(sorted(uses.filter((u) => ['mongodb', 's3', 'redis'].includes(u))), `${s} stores`).toEqual(sorted(stores[s]));
    }
  });

  it("is the README's service diagram (copy serviceDiagram()'s output into README.md when this fails)", () => {
    const readme = read('README.md');
    const start = readme.indexOf('```mermaid\n', readme.indexOf('## Architecture'));
    const block = readme.slice(start + '```mermaid\n'.length, readme.indexOf('\n```', start + 1));
    expect(block).toBe(serviceDiagram());
  });
});
