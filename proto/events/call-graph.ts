/**
 * The call graph: the event registry's producers and consumers plus each service's gRPC
 * dependencies and the stores it uses. The README's service diagram is generated from it
 * (`serviceDiagram()`), and proto/events/call-graph.test.ts checks it against the services'
 * configuration and the chart's catalog, from which the NetworkPolicies are rendered.
 */
import { eventEntries, SERVICES, type EventEntry, type ServiceName } from './registry.js';

/** The services each service calls over gRPC: those whose address its config.ts requires. */
export const grpcCalls: Record<ServiceName, readonly ServiceName[]> = {
  gateway: ['identity', 'transaction', 'ceremony', 'ledger', 'billing'],
  identity: [],
  transaction: ['billing', 'biometrics'],
  ceremony: ['transaction'],
  biometrics: [],
  ledger: [],
  billing: [],
};

export type Store = 'mongodb' | 's3' | 'redis';

/** The stores each service uses (besides NATS, which every producer and consumer of an event uses). */
export const stores: Record<ServiceName, readonly Store[]> = {
  gateway: ['redis'],
  identity: ['mongodb', 'redis'],
  transaction: ['mongodb', 's3', 'redis'],
  ceremony: ['mongodb', 's3', 'redis'],
  biometrics: ['mongodb', 's3'],
  ledger: ['mongodb', 's3'],
  billing: ['mongodb', 'redis'],
};

const STORE_NODES: Record<Store, string> = {
  mongodb: 'mongo[(MongoDB / FerretDB)]',
  s3: 'minio[(MinIO)]',
  redis: 'redis[(Redis)]',
};

/** The services that publish or read events (each needs NATS). */
export function eventServices(entries: readonly EventEntry[] = eventEntries): ServiceName[] {
  const used = new Set<ServiceName>();
  for (const e of entries) {
    used.add(e.producer);
    for (const c of e.consumers) used.add(c.service);
  }
  return SERVICES.filter((s) => used.has(s));
}

/**
 * The README's mermaid flowchart: the public entry, the gRPC calls, each consumed event from its
 * producer to NATS and from NATS to its consumers, and the stores.
 */
export function serviceDiagram(entries: readonly EventEntry[] = eventEntries): string {
  const lines = ['flowchart LR', '  client[API clients / signer browser / dashboard] -->|HTTPS| gateway'];
  for (const s of SERVICES) if (grpcCalls[s].length) lines.push(`  ${s} -->|gRPC| ${grpcCalls[s].join(' & ')}`);
  let nats = 'nats[(NATS JetStream)]';
  const readers = new Set<ServiceName>();
  for (const e of entries) {
    if (!e.consumers.length) continue;
    lines.push(`  ${e.producer} -- ${e.subject.replace(/^signet\./, '')} --> ${nats}`);
    nats = 'nats';
    for (const c of e.consumers) readers.add(c.service);
  }
  const consumers = SERVICES.filter((s) => readers.has(s));
  if (consumers.length) lines.push(`  nats --> ${consumers.join(' & ')}`);
  for (const store of ['mongodb', 's3', 'redis'] as const) {
    const users = SERVICES.filter((s) => stores[s].includes(store));
    if (users.length) lines.push(`  ${users.join(' & ')} --> ${STORE_NODES[store]}`);
  }
  return lines.join('\n');
}
