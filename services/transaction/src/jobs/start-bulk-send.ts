import { createOutboxRelay, type Bus, type Logger, type Metrics, type ServiceClient } from '@signet/kit';
import type { biometricsV1 } from '@signet/proto';
import type { Connection } from 'mongoose';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { TransactionMetrics } from '../metrics.js';
import { createBulkRepository } from '../store/bulk.repository.js';
import type { ObjectStore } from '../store/object.store.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';
import { bulkHandlers } from '../grpc/bulk.handler.js';
import type { BulkTemplateSource, RowCreator } from '../usecases/bulk-template.js';
import { createBulkSendJob } from './bulk-send.job.js';

export type BulkSendConfig = {
  REFERENCE_FACE_CHECK: 'on' | 'off';
  BULK_ROWS_PER_SECOND: number;
  BULK_CONCURRENCY: number;
  BULK_LEASE_MS: number;
  BULK_INTERVAL_MS: number;
};

/**
 * Bulk send inside the transaction process (issue 33 item 4): the jobs' store, the outbox relay of
 * their completion events, the leased job that creates their rows and the BulkService handlers
 * (app.ts registers them on its gRPC server). Rows are created through `createRow` (the template's
 * creation) and templates read through `templates`.
 */
export async function startBulkSend(d: {
  cfg: BulkSendConfig;
  conn: Connection;
  bus: Bus;
  repo: Pick<TransactionRepository, 'model' | 'idempotency'>;
  objects: Pick<ObjectStore, 'putReference' | 'removeReference'>;
  biometrics: Pick<ServiceClient<biometricsV1.BiometricsServiceClient>, 'countFaces'>;
  templates: BulkTemplateSource;
  createRow: RowCreator;
  metrics: Metrics;
  tm: Pick<TransactionMetrics, 'bulkRows'>;
  logger: Logger;
  clock: () => Date;
}) {
  const bulk = createBulkRepository(d.conn);
  await bulk.init();
  // The jobs' outbox has a relay of its own (one completion event per job, no lock needed).
  const outbox = createOutboxRelay<string>(d.bus, [bulk.jobs], { metrics: d.metrics, logger: d.logger, pollMs: 2000, lagOf: [] });
  const mode = (test: boolean) => (test ? true : { $ne: true });
  const job = createBulkSendJob({
    bulk,
    templates: d.templates,
    createRow: d.createRow,
    async createdUnder(ownerId, test, key) {
      const tx = await d.repo.model
        .findOne({ owner_id: ownerId, idempotency_key: key, test: mode(test) }, { _id: 1, reference: 1 })
        .lean<Pick<TransactionRecord, '_id' | 'reference'>>();
      return tx ? { id: tx._id, reference: tx.reference } : null;
    },
    // Test and live creations claim their keys apart (create-from-stored.ts). One delete: a claim
    // completed or renewed meanwhile is not removed.
    async releaseClaim(ownerId, test, key, olderThan) {
      const k = test ? `test:${key}` : key;
      await d.repo.idempotency.deleteOne({ owner_id: ownerId, key: k, state: 'pending', created_at: { $lt: olderThan } });
    },
    // A creation's calls all have deadlines (the longest, a face count, 30 s): four leases, at least a minute.
    staleClaimMs: Math.max(4 * d.cfg.BULK_LEASE_MS, 60_000),
    flush: (id) => outbox.flush(id),
    holder: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    leaseMs: d.cfg.BULK_LEASE_MS,
    rowsPerSecond: d.cfg.BULK_ROWS_PER_SECOND,
    concurrency: d.cfg.BULK_CONCURRENCY,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    tm: d.tm,
    logger: d.logger,
    clock: d.clock,
    intervalMs: d.cfg.BULK_INTERVAL_MS,
  });
  const handlers = bulkHandlers({
    bulk,
    templates: d.templates,
    objects: d.objects,
    biometrics: d.biometrics,
    cfg: d.cfg,
    tm: d.tm,
    clock: d.clock,
    kick: job.kick,
  });
  return {
    bulk,
    job,
    handlers,
    async stop() {
      await job.stop();
      outbox.stop();
    },
  };
}
