/**
 * The test log (issue 16, test mode): where the certificates of test-mode transactions are sealed,
 * never in the live log. Its own Ed25519 key and origin (LEDGER_TEST_SIGNING_KEY, LEDGER_TEST_ORIGIN)
 * and its own tree, certificates and checkpoints, in a database of its own (`<MONGO_DB>_test`), so
 * no query of the live log can ever return a test leaf: the same repositories over another database.
 * A verifier holding the live key refuses a test certificate (its checkpoint is not signed by it).
 * Not witnessed: test data proves nothing about a real signing. Its signed PDFs (sealed with the
 * TEST seal, signed-pdf.ts startTestSignedPdfs) keep their records in this database too.
 */
import { connectMongo, Metrics, pingMongo, type Logger } from '@signet/kit';
import type { Connection } from 'mongoose';
import { EMPTY_ROOT } from '../domain/merkle.js';
import { createLogSigner, parseSigningKey, type LogSigner } from '../domain/signer.js';
import { createSealJob } from '../jobs/seal.job.js';
import { createCertificateRepository, type CertificateRepository } from '../store/certificate.repository.js';
import { createCosignatureRepository } from '../store/cosignature.repository.js';
import { createTreeRepository } from '../store/tree.repository.js';
import { createLedgerLog, type LedgerLog } from './ledger-log.js';

export type LogName = 'live' | 'test';

export type TestLogConfig = {
  MONGO_URL: string;
  MONGO_DB: string;
  LEDGER_TEST_SIGNING_KEY?: string;
  LEDGER_TEST_ORIGIN: string;
  LEDGER_SEAL_POLL_MS: number;
  LEDGER_LEASE_MS: number;
  LEDGER_BATCH_MAX: number;
};

/** One log with what its RPCs and its consumer need. */
export type SealedLog = { name: LogName; certs: CertificateRepository; log: LedgerLog; signer: LogSigner };

export type TestLog = SealedLog & {
  /** Its database (test-mode signed PDFs keep their records there too). */
  conn: Connection;
  check: { name: string; check: () => Promise<void> };
  /** Seal soon (after an issue). */
  kick(): void;
  stop(): Promise<void>;
};

/** The database of the test log: the live one's name with `_test`. */
export const testLogDb = (liveDb: string) => `${liveDb}_test`;

/** Opens the test log, or returns null when LEDGER_TEST_SIGNING_KEY is not set (test-mode certificates are then not issued). */
export async function startTestLog(cfg: TestLogConfig, deps: { logger: Logger }): Promise<TestLog | null> {
  if (!cfg.LEDGER_TEST_SIGNING_KEY) {
    deps.logger.warn('test log off: LEDGER_TEST_SIGNING_KEY is not set; test-mode transactions get no certificate');
    return null;
  }
  const conn = await connectMongo(cfg.MONGO_URL, testLogDb(cfg.MONGO_DB));
  const certs = createCertificateRepository(conn);
  await certs.init();
  const signer = createLogSigner(parseSigningKey(cfg.LEDGER_TEST_SIGNING_KEY), cfg.LEDGER_TEST_ORIGIN);
  const tree = createTreeRepository(conn);
  await tree.init(EMPTY_ROOT, signer.checkpoint(0, EMPTY_ROOT));
  const cosigs = createCosignatureRepository(conn);
  await cosigs.init();
  // Its instruments on a registry of its own: the live log's series keep meaning the live log.
  const log = createLedgerLog(
    { certs, tree, signer, cosigs, metrics: new Metrics('ledger') },
    { batchMax: cfg.LEDGER_BATCH_MAX, leaseMs: cfg.LEDGER_LEASE_MS },
  );
  const sealJob = createSealJob(log, { logger: deps.logger, pollMs: cfg.LEDGER_SEAL_POLL_MS });
  sealJob.start();
  deps.logger.info({ origin: signer.origin }, 'test log on: test-mode certificates are sealed apart from the live log');
  return {
    name: 'test',
    conn,
    certs,
    log,
    signer,
    check: {
      name: 'mongo_test_log',
      check: async () => {
        await pingMongo(conn);
      },
    },
    kick: () => sealJob.kick(),
    async stop() {
      await sealJob.stop();
      await conn.close();
    },
  };
}
