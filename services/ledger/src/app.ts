import {
  addService,
  connectBus,
  connectMongo,
  createLogger,
  createOutboxRelay,
  Metrics,
  pingMongo,
  serveGrpc,
  startConsumer,
  type Logger,
} from '@signet/kit';
import { events, ledgerV1 } from '@signet/proto';
import type { LedgerConfig } from './config.js';
import { EMPTY_ROOT } from './domain/merkle.js';
import { createLogSigner, parseSigningKey } from './domain/signer.js';
import { verifiedConsumer } from './events/verified.consumer.js';
import { createSealJob } from './jobs/seal.job.js';
import { createLedgerLog } from './log/ledger-log.js';
import { ledgerHandlers } from './server.js';
import { createCertificateRepository } from './store/certificate.repository.js';
import { createTreeRepository } from './store/tree.repository.js';

export type LedgerOptions = { logger?: Logger; ackWaitMs?: number };

/**
 * Starts the ledger: gRPC on GRPC_PORT, ops on OPS_PORT, the transaction.verified consumer, the
 * sealing job of the Merkle log and the outbox relay.
 */
export async function startLedger(cfg: LedgerConfig, opts: LedgerOptions = {}) {
  const logger = opts.logger ?? createLogger('ledger', cfg.LOG_LEVEL);
  const metrics = new Metrics('ledger');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'ledger');
  const certs = createCertificateRepository(conn);
  await certs.init();
  const signer = createLogSigner(parseSigningKey(cfg.LEDGER_SIGNING_KEY), cfg.LEDGER_ORIGIN);
  const tree = createTreeRepository(conn);
  await tree.init(EMPTY_ROOT, signer.checkpoint(0, EMPTY_ROOT));

  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
  ];
  const relay = createOutboxRelay(bus, [certs.model], { metrics, logger });
  const log = createLedgerLog({ certs, tree, signer, metrics }, { batchMax: cfg.LEDGER_BATCH_MAX, leaseMs: cfg.LEDGER_LEASE_MS });
  const sealJob = createSealJob(log, { logger, pollMs: cfg.LEDGER_SEAL_POLL_MS });
  // First pass at start: leaves a crashed process claimed but never checkpointed.
  sealJob.start();
  const consumer = await startConsumer(
    bus,
    // Certificates are independent: a leaf index is taken at claim time, so events need no order.
    { durable: 'ledger-transaction-verified', events: [events.transactionVerified], ackWaitMs: opts.ackWaitMs, concurrency: 16 },
    verifiedConsumer({
      certs,
      log,
      metrics,
      logger,
      onIssued: () => {
        sealJob.kick();
        relay.kick();
      },
    }),
    { metrics, logger },
  );

  const served = await serveGrpc({
    name: 'ledger',
    logger,
    metrics,
    grpcPort: cfg.GRPC_PORT,
    opsPort: cfg.OPS_PORT,
    checks,
    register: (server) =>
      addService(
        server,
        ledgerV1.LedgerServiceService,
        ledgerHandlers({ certs, log, signer, publicBaseUrl: cfg.PUBLIC_BASE_URL }),
        { metrics, logger },
      ),
  });

  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    certs,
    log,
    signer,
    metrics,
    async stop() {
      await served.stop();
      await consumer.stop();
      await sealJob.stop();
      relay.stop();
      await bus.nc.drain();
      await conn.close();
    },
  };
}
