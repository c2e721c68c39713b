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
  type Bus,
  type Logger,
} from '@signet/kit';
import type { Connection } from 'mongoose';
import { events, ledgerV1 } from '@signet/proto';
import { formatWitnessKey } from '@signet/verify';
import type { LedgerConfig } from './config.js';
import { EMPTY_ROOT } from './domain/merkle.js';
import { createLogSigner, parseRetiredKeys, parseSigningKey } from './domain/signer.js';
import { verifiedConsumer } from './events/verified.consumer.js';
import { TRANSACTION_DELETED_DURABLE, transactionDeletedConsumer } from './events/transaction-deleted.consumer.js';
import { createCosignJob } from './jobs/cosign.job.js';
import { createSealJob } from './jobs/seal.job.js';
import { createCosigner } from './log/cosign.js';
import { createLedgerLog } from './log/ledger-log.js';
import { pdfTextMetrics } from './metrics.js';
import { observeMissingGlyphs, warmUpText } from './pdf/text/index.js';
import { ledgerHandlers } from './server.js';
import { selectLog } from './grpc/log-select.js';
import { startTestLog, type TestLog } from './log/test-log.js';
import { startSignedPdfs, startTestSignedPdfs } from './signed-pdf.js';
import { createCertificateRepository } from './store/certificate.repository.js';
import { createTreeRepository } from './store/tree.repository.js';
import { createCosignatureRepository } from './store/cosignature.repository.js';
import type { SignedPdfRepository } from './store/signed-pdf.repository.js';
import { witnessSettings } from './witness/witness.config.js';
import { filledDocumentSha256 } from './usecases/filled-document-hash.js';

export type LedgerOptions = { logger?: Logger; ackWaitMs?: number };

/** The live log: its certificates, tree, signer, witnesses (cosigning job) and the sealing job of its checkpoints. */
async function openLiveLog(cfg: LedgerConfig, conn: Connection, metrics: Metrics, logger: Logger) {
  const certs = createCertificateRepository(conn);
  await certs.init();
  const signer = createLogSigner(parseSigningKey(cfg.LEDGER_SIGNING_KEY), cfg.LEDGER_ORIGIN, {
    retired: parseRetiredKeys(cfg.LEDGER_RETIRED_KEYS, cfg.LEDGER_ORIGIN),
    notBefore: cfg.LEDGER_SIGNING_KEY_NOT_BEFORE ? new Date(cfg.LEDGER_SIGNING_KEY_NOT_BEFORE) : undefined,
  });
  const tree = createTreeRepository(conn);
  await tree.init(EMPTY_ROOT, signer.checkpoint(0, EMPTY_ROOT));
  const witnessing = witnessSettings(cfg);
  const cosigs = createCosignatureRepository(conn);
  await cosigs.init();
  const witnessed = witnessing.witnesses.length > 0;
  const log = createLedgerLog(
    {
      certs,
      tree,
      signer,
      metrics,
      cosigs,
      witnesses: witnessed ? { kids: witnessing.witnesses.map((w) => w.kid), quorum: witnessing.quorum } : undefined,
    },
    { batchMax: cfg.LEDGER_BATCH_MAX, leaseMs: cfg.LEDGER_LEASE_MS },
  );
  // Every new checkpoint goes to the witnesses (C2SP tlog-witness); none configured: no witnessing.
  const cosignJob = witnessed
    ? createCosignJob(createCosigner({ tree, cosigs, log, metrics, logger, ...witnessing }), {
        logger,
        pollMs: witnessing.pollMs,
      })
    : null;
  if (witnessed)
    logger.info(
      { witnesses: witnessing.witnesses.map((w) => w.name), quorum: witnessing.quorum },
      'witnessing on: checkpoints are cosigned',
    );
  else logger.info('witnessing off: no witness configured (LEDGER_WITNESSES), checkpoints carry the log signature only');
  const sealJob = createSealJob(
    {
      sealPending: async () => {
        const added = await log.sealPending();
        if (added > 0) cosignJob?.kick();
        return added;
      },
    },
    { logger, pollMs: cfg.LEDGER_SEAL_POLL_MS },
  );
  // First pass at start: leaves a crashed process claimed but never checkpointed.
  sealJob.start();
  return { certs, signer, log, witnessing, cosignJob, sealJob };
}

type LiveLog = Awaited<ReturnType<typeof openLiveLog>>;
type Sealing = NonNullable<Awaited<ReturnType<typeof startSignedPdfs>>>;
type TestSealing = NonNullable<Awaited<ReturnType<typeof startTestSignedPdfs>>>;
type Parts = {
  live: LiveLog;
  sealing: Sealing | null;
  testLog: TestLog | null;
  testSealing: TestSealing | null;
  relay: { kick(): void };
  metrics: Metrics;
  logger: Logger;
};

/** transaction.verified → a certificate in the live or the test log; transaction.deleted → its stored PDFs go. */
async function startConsumers(bus: Bus, p: Parts, opts: LedgerOptions) {
  const { live, sealing, testLog, testSealing, relay, metrics, logger } = p;
  const consumer = await startConsumer(
    bus,
    // Certificates are independent: a leaf index is taken at claim time, so events need no order.
    { durable: 'ledger-transaction-verified', events: [events.transactionVerified], ackWaitMs: opts.ackWaitMs, concurrency: 16 },
    verifiedConsumer({
      certs: live.certs,
      log: live.log,
      metrics,
      logger,
      signedPdfs: sealing?.signedPdfs,
      // The filled document's hash (issue 33) needs the documents bucket, which the ledger reads when it seals.
      ...(sealing
        ? { filledHash: (key: string, json: string) => filledDocumentSha256({ objects: sealing.objects, logger }, key, json) }
        : {}),
      onIssued: () => {
        live.sealJob.kick();
        relay.kick();
      },
      testLog: testLog && {
        certs: testLog.certs,
        log: testLog.log,
        signedPdfs: testSealing?.signedPdfs ?? null,
        onIssued: () => {
          testLog.kick();
          relay.kick();
        },
      },
    }),
    { metrics, logger },
  );
  // The owner deleted a transaction: its stored PDFs go (issue 21); none are stored while sealing is off.
  const deletions = sealing
    ? await startConsumer(
        bus,
        { durable: TRANSACTION_DELETED_DURABLE, events: [events.transactionDeleted], ackWaitMs: opts.ackWaitMs },
        transactionDeletedConsumer(
          { signedPdfs: sealing.signedPdfs, objects: sealing.objects, logger },
          testSealing && { signedPdfs: testSealing.signedPdfs, objects: sealing.objects, logger },
        ),
        { metrics, logger },
      )
    : null;
  return {
    async stop() {
      await consumer.stop();
      await deletions?.stop();
    },
  };
}

/** The LedgerService over both logs (grpc/log-select.ts), with the ops port and its readiness checks. */
function serveLedger(cfg: LedgerConfig, p: Parts, checks: Parameters<typeof serveGrpc>[0]['checks']) {
  const { live, sealing, testLog, testSealing, metrics, logger } = p;
  const { witnessing } = live;
  return serveGrpc({
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
        selectLog(
          ledgerHandlers({
            certs: live.certs,
            log: live.log,
            signer: live.signer,
            publicBaseUrl: cfg.PUBLIC_BASE_URL,
            witnessKeys: {
              witnesses: witnessing.witnesses.map((w) => ({
                name: w.name,
                verifierKey: formatWitnessKey(w.name, w.key.publicKey),
                keyId: w.kid,
              })),
              quorum: witnessing.quorum,
            },
            signedPdf: {
              signedPdfs: bothSignedPdfs(sealing?.signedPdfs, testSealing?.signedPdfs),
              objects: sealing?.objects ?? null,
              logger,
            },
          }),
          testLog &&
            ledgerHandlers({
              certs: testLog.certs,
              log: testLog.log,
              signer: testLog.signer,
              publicBaseUrl: cfg.PUBLIC_BASE_URL,
              logName: 'test',
              // the lookup by the signed PDF's own hash (the PDF itself is served by the live handler, over both logs)
              signedPdf: { signedPdfs: testSealing?.signedPdfs ?? null, objects: null, logger },
            }),
        ),
        { metrics, logger },
        ['getSignedPdf'],
      ),
  });
}

/**
 * Starts the ledger: gRPC on GRPC_PORT, ops on OPS_PORT, the transaction.verified consumer, the
 * sealing job of the Merkle log and the outbox relay.
 */
export async function startLedger(cfg: LedgerConfig, opts: LedgerOptions = {}) {
  const logger = opts.logger ?? createLogger('ledger', cfg.LOG_LEVEL);
  const metrics = new Metrics('ledger');
  const pdfText = pdfTextMetrics(metrics);
  observeMissingGlyphs((count) => pdfText.missingGlyphs.inc(count));
  warmUpText();
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'ledger');
  const live = await openLiveLog(cfg, conn, metrics, logger);
  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
  ];
  // The outbox relay is created once the signed-PDF store is known (its pdf.sealed entries go out through it too).
  const relayKick = { now: (): void => undefined };
  // The signed PDF of each certificate (issue 17); off unless LEDGER_SEAL_CERT/KEY are set.
  const sealing = await startSignedPdfs(cfg, {
    conn,
    certs: live.certs,
    log: live.log,
    metrics,
    logger,
    onSealed: () => relayKick.now(),
  });
  if (sealing) checks.push(sealing.check);
  // Test mode: the test log, sealed apart (own key, tree and database); its certificates' events go out through the same relay.
  const testLog = await startTestLog(cfg, { logger });
  if (testLog) checks.push(testLog.check);
  // Test mode's signed PDFs (issue 32): sealed apart with the TEST seal, when the live ledger seals at all.
  const testSealing =
    sealing && testLog ? await startTestSignedPdfs(cfg, sealing, { ...testLog, logger, onSealed: () => relayKick.now() }) : null;
  const relay = createOutboxRelay(
    bus,
    [
      ...(sealing ? [live.certs.model, sealing.signedPdfs.model] : [live.certs.model]),
      ...(testLog ? [testLog.certs.model] : []),
      ...(testSealing ? [testSealing.signedPdfs.model] : []),
    ],
    { metrics, logger },
  );
  relayKick.now = () => relay.kick();
  live.cosignJob?.start();
  const parts: Parts = { live, sealing, testLog, testSealing, relay, metrics, logger };
  const consumers = await startConsumers(bus, parts, opts);
  const served = await serveLedger(cfg, parts, checks);

  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    certs: live.certs,
    log: live.log,
    signer: live.signer,
    metrics,
    async stop() {
      await served.stop();
      await consumers.stop();
      await live.sealJob.stop();
      await testSealing?.job.stop();
      await testLog?.stop();
      await sealing?.job.stop();
      await live.cosignJob?.stop();
      relay.stop();
      await bus.nc.drain();
      await conn.close();
    },
  };
}

/**
 * The signed-PDF records GetSignedPdf reads: a reference lives in one log, so the live records and,
 * when it has none, the test log's (test mode, issue 32). Null when this ledger does not seal.
 */
function bothSignedPdfs(live: SignedPdfRepository | undefined, test: SignedPdfRepository | undefined) {
  if (!live) return null;
  return { find: async (reference: string) => (await live.find(reference)) ?? (test ? await test.find(reference) : null) };
}
