/**
 * Wiring of the signed PDF (issue 17), built by app.ts when LEDGER_SEAL_CERT/KEY are set: the
 * sealing key, the TSA client, the record store, object storage and the sealing job.
 */
import { readFileSync } from 'node:fs';
import type { Logger, Metrics } from '@signet/kit';
import type { Connection } from 'mongoose';
import type { LedgerConfig } from './config.js';
import type { LedgerLog } from './log/ledger-log.js';
import { signedPdfMetrics } from './metrics.js';
import { CadesSigner, loadSealKey } from './pdf/cades-signer.js';
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
  const sealName =
    key.certificates[0]!.subject.typesAndValues.find((t) => t.type === '2.5.4.3')?.value.valueBlock.value ?? 'Signet';
  const signer = new CadesSigner(key, createTsaClient(settings.tsaUrls));
  const metrics = signedPdfMetrics(deps.metrics);
  const fetchCrl = fetchBytes();
  // The embedded checkpoint must carry the cosignatures the log's witness policy requires (issue 32).
  const witnessing = witnessSettings(cfg);
  const witnesses = { witnesses: witnessing.witnesses.map((w) => w.key), quorum: witnessing.quorum };
  const job = createSignedPdfJob(
    () =>
      sealSignedPdfs({
        signedPdfs,
        certs: deps.certs,
        log: deps.log,
        objects,
        signer,
        sealName: String(sealName),
        metrics,
        logger: deps.logger,
        now: () => new Date(),
        origin: cfg.LEDGER_ORIGIN,
        publicBaseUrl: cfg.PUBLIC_BASE_URL,
        retryMs: settings.retryMs,
        witnesses,
        ...(settings.ltv ? { validationData: (pdf: Buffer) => addValidationData(pdf, fetchCrl) } : {}),
        onSealed: deps.onSealed,
      }),
    { logger: deps.logger, pollMs: cfg.LEDGER_SEAL_POLL_MS },
  );
  job.start();
  return { signedPdfs, objects, job, check: { name: 's3', check: () => objects.ping() } };
}
