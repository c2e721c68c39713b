/**
 * Wiring of the signed PDF (issue 17), built by app.ts when LEDGER_SEAL_CERT/KEY are set: the
 * sealing key, the TSA client, the record store, object storage and the sealing job.
 */
import { fieldsStamp, parseStampedFields } from './pdf/fields-stamp.js';
import { readFileSync } from 'node:fs';
import { Metrics, type Logger } from '@signet/kit';
import type { Connection } from 'mongoose';
import type { LedgerConfig } from './config.js';
import type { LedgerLog } from './log/ledger-log.js';
import { retimestampMetrics, signedPdfMetrics } from './metrics.js';
import { createRetimestampJob } from './jobs/retimestamp.job.js';
import { createRetimestampRepository } from './store/retimestamp.repository.js';
import { retimestampSignedPdfs } from './usecases/retimestamp-signed-pdfs.js';
import { CadesSigner, loadSealKey, parseCertificates, type SealKey, type Timestamper } from './pdf/cades-signer.js';
import { testSealKey } from './pdf/test-seal.js';
import { testStamp } from './pdf/test-stamp.js';
import type { SignedPdfRecord } from './store/signed-pdf.repository.js';
import { archiveTimestamp } from './pdf/doc-timestamp.js';
import { addValidationData, fetchBytes } from './pdf/dss.js';
import { sealingSettings } from './seal.config.js';
import { witnessSettings } from './witness/witness.config.js';
import { createSignedPdfJob } from './jobs/signed-pdf.job.js';
import type { CertificateRepository } from './store/certificate.repository.js';
import { createSignedPdfObjects } from './store/signed-pdf.objects.js';
import { createSignedPdfRepository } from './store/signed-pdf.repository.js';
import { createTsaClient } from './tsa/tsa.client.js';
import { sealSignedPdfs } from './usecases/seal-signed-pdfs.js';

export async function startSignedPdfs(
  cfg: LedgerConfig,
  deps: {
    conn: Connection;
    certs: CertificateRepository;
    log: LedgerLog;
    metrics: Metrics;
    logger: Logger;
    onSealed?: () => void;
  },
) {
  const settings = sealingSettings(cfg, (path) => readFileSync(path, 'utf8'));
  if (!settings) {
    deps.logger.info('signed PDFs are off (LEDGER_SEAL_CERT and LEDGER_SEAL_KEY are not set)');
    return null;
  }
  const key = await loadSealKey(settings.certPem, settings.keyPem);
  const signedPdfs = createSignedPdfRepository(deps.conn);
  await signedPdfs.init();
  const objects = createSignedPdfObjects(settings.s3, { documents: settings.documentsBucket, signed: settings.signedBucket });
  await objects.init();
  const sealName = sealNameOf(key);
  const tsa = createTsaClient(settings.tsaUrls);
  const signer = new CadesSigner(key, tsa);
  const metrics = signedPdfMetrics(deps.metrics);
  const fetchCrl = fetchBytes();
  // The embedded checkpoint must carry the cosignatures the log's witness policy requires (issue 32).
  const witnessing = witnessSettings(cfg);
  const witnesses = { witnesses: witnessing.witnesses.map((w) => w.key), quorum: witnessing.quorum };
  // B-LTA: after the DSS, the document timestamp (pdf/doc-timestamp.ts) as the last update.
  const caCerts = settings.lta ? ltaCaCertificates(settings.lta.caCertsPem, deps.logger) : [];
  const archive = settings.lta
    ? (pdf: Buffer) => archiveTimestamp(pdf, { timestamp: tsa, get: fetchCrl, caCerts })
    : async (pdf: Buffer) => pdf;
  const job = createSignedPdfJob(
    () =>
      sealSignedPdfs({
        signedPdfs,
        certs: deps.certs,
        log: deps.log,
        objects,
        signer,
        sealName,
        metrics,
        logger: deps.logger,
        now: () => new Date(),
        origin: cfg.LEDGER_ORIGIN,
        publicBaseUrl: cfg.PUBLIC_BASE_URL,
        retryMs: settings.retryMs,
        witnesses,
        // The signers' field values (issue 33): one update after the original, before the evidence.
        updates: fieldUpdates,
        ...(settings.ltv ? { validationData: async (pdf: Buffer) => archive(await addValidationData(pdf, fetchCrl)) } : {}),
        onSealed: deps.onSealed,
      }),
    { logger: deps.logger, pollMs: cfg.LEDGER_SEAL_POLL_MS },
  );
  job.start();
  const renewals = settings.lta ? await startRetimestamping(signedPdfs.model, objects, archive, settings.lta, deps) : null;
  const jobs = {
    kick: job.kick,
    stop: async () => {
      await job.stop();
      await renewals?.stop();
    },
  };
  return { signedPdfs, objects, tsa, testSeal: settings.testSeal, job: jobs, check: { name: 's3', check: () => objects.ping() } };
}

/** The seal's holder as readers show it: the certificate's common name. */
const sealNameOf = (key: SealKey) =>
  String(key.certificates[0]!.subject.typesAndValues.find((t) => t.type === '2.5.4.3')?.value.valueBlock.value ?? 'Signet');

/** The signers' field values (issue 33): one update after the original, before the evidence. */
const fieldUpdates = (rec: SignedPdfRecord) => (rec.fields_json ? [fieldsStamp(parseStampedFields(rec.fields_json))] : []);

/**
 * Test mode's signed PDFs (issue 32 item 6), when the live ledger seals and a test log is on: the
 * test log's records in its own database, sealed with the TEST seal (pdf/test-seal.ts) and the test
 * log's cert.json, every page bannered TEST (the document's in an update after revision 1, the audit
 * trail's as drawn), timestamped by the same TSAs at B-T (no validation data: nothing to keep valid),
 * stored in the same bucket (references are global). Metrics on a registry of their own, as the test log's.
 */
export async function startTestSignedPdfs(
  cfg: LedgerConfig,
  live: { objects: ReturnType<typeof createSignedPdfObjects>; tsa: Timestamper; testSeal: { certPem?: string; keyPem?: string } },
  deps: { conn: Connection; certs: CertificateRepository; log: LedgerLog; logger: Logger; onSealed?: () => void },
) {
  const key = await testSealKey(live.testSeal);
  const signedPdfs = createSignedPdfRepository(deps.conn);
  await signedPdfs.init();
  const metrics = signedPdfMetrics(new Metrics('ledger'));
  const job = createSignedPdfJob(
    () =>
      sealSignedPdfs({
        signedPdfs,
        certs: deps.certs,
        log: deps.log,
        objects: live.objects,
        signer: new CadesSigner(key, live.tsa),
        sealName: sealNameOf(key),
        metrics,
        logger: deps.logger,
        now: () => new Date(),
        origin: cfg.LEDGER_TEST_ORIGIN,
        publicBaseUrl: cfg.PUBLIC_BASE_URL,
        retryMs: cfg.LEDGER_SEAL_RETRY_MS,
        updates: (rec) => [...fieldUpdates(rec), testStamp()],
        test: true,
        onSealed: deps.onSealed,
      }),
    { logger: deps.logger, pollMs: cfg.LEDGER_SEAL_POLL_MS },
  );
  job.start();
  deps.logger.info(
    { seal: live.testSeal.certPem ? 'configured' : 'generated' },
    'test-mode signed PDFs on: sealed with the TEST seal, every page marked TEST',
  );
  return { signedPdfs, job };
}

/** B-LTA: the job that timestamps sealed PDFs again before their newest timestamp's TSA certificate expires. */
async function startRetimestamping(
  model: Parameters<typeof createRetimestampRepository>[0],
  objects: ReturnType<typeof createSignedPdfObjects>,
  archive: (pdf: Buffer) => Promise<Buffer>,
  lta: { marginMs: number; pollMs: number },
  deps: { metrics: Metrics; logger: Logger },
) {
  const records = createRetimestampRepository(model);
  await records.init();
  const metrics = retimestampMetrics(deps.metrics);
  const job = createRetimestampJob(
    () =>
      retimestampSignedPdfs({
        records,
        objects,
        archive,
        marginMs: lta.marginMs,
        retryMs: Math.min(lta.pollMs, 3_600_000),
        metrics,
        logger: deps.logger,
        now: () => new Date(),
      }),
    { logger: deps.logger, pollMs: lta.pollMs },
  );
  job.start();
  return job;
}

/**
 * LEDGER_SEAL_CA_CERTS, parsed. Without it the validation data lacks the CA certificates up to the
 * root, and an LTA validator finds no proof of existence for the seal's path: said at start.
 */
function ltaCaCertificates(pem: string, logger: Logger) {
  if (!pem.trim()) {
    logger.warn(
      'LEDGER_SEAL_LTA=on without LEDGER_SEAL_CA_CERTS: the document timestamps will not cover the CA certificates up to the root, which LTA validation needs',
    );
    return [];
  }
  try {
    return parseCertificates(pem);
  } catch {
    throw new Error('config error: LEDGER_SEAL_CA_CERTS: no PEM certificate in it');
  }
}
