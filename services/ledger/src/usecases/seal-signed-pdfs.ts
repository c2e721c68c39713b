import { createHash } from 'node:crypto';
import { fieldValuesBySigner } from '../pdf/field-values.js';
import type { Logger } from '@signet/kit';
import type { LedgerLog } from '../log/ledger-log.js';
import type { SignedPdfMetrics } from '../metrics.js';
import { PDFDocument } from 'pdf-lib';
import { checkWitnessQuorum, type WitnessPolicy } from '@signet/verify';
import { renderAuditTrailPdf } from '../pdf/audit-trail.js';
import { preparePdf, sealPdf, type PdfUpdate } from '../pdf/signed-pdf.js';
import type { CadesSigner } from '../pdf/cades-signer.js';
import type { CertificateRepository } from '../store/certificate.repository.js';
import type { SignedPdfObjects } from '../store/signed-pdf.objects.js';
import type { SignedPdfRecord, SignedPdfRepository } from '../store/signed-pdf.repository.js';
import { TsaUnavailableError } from '../tsa/tsa.client.js';

export type SealSignedPdfsDeps = {
  signedPdfs: Pick<SignedPdfRepository, 'claimDue' | 'retryAt' | 'markSealed' | 'markFailed'>;
  certs: Pick<CertificateRepository, 'findByReference'>;
  log: Pick<LedgerLog, 'bundle' | 'head'>;
  objects: Pick<SignedPdfObjects, 'readDocument' | 'putSigned'>;
  signer: CadesSigner;
  /** The sealing certificate's subject, shown by PDF readers as the signer. */
  sealName: string;
  metrics: SignedPdfMetrics;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  now: () => Date;
  origin: string;
  publicBaseUrl: string;
  /** First wait after a failed attempt; doubles per attempt up to an hour. */
  retryMs: number;
  /**
   * The witnesses whose cosignatures the embedded checkpoint must carry, and how many (LEDGER_WITNESSES,
   * LEDGER_WITNESS_QUORUM): a PDF is sealed only once a checkpoint covering its certificate has them,
   * so cert.json inside it passes `signet-verify --witness`. Absent or quorum 0: no wait.
   */
  witnesses?: WitnessPolicy;
  /**
   * Incremental updates that go between the original (revision 1) and the evidence update, in order
   * (issue 33: the signers' field values will be stamped here). None today.
   */
  updates?: (rec: SignedPdfRecord) => PdfUpdate[];
  /** B-LT where configured: appends the validation data (DSS) to the B-T sealed PDF before it is stored. */
  validationData?: (sealed: Buffer) => Promise<Buffer>;
  /** Called after a PDF is stored and its pdf.sealed outbox entry written, or its pdf.failed one (the relay publishes it). */
  onSealed?: () => void;
  /** Test mode (the test log's PDFs): the audit-trail pages carry the TEST banner. */
  test?: boolean;
};

const pageCountOf = async (document: Buffer) => (await PDFDocument.load(document, { updateMetadata: false })).getPageCount();

/** A claimed record stays reserved this long: one replica seals it at a time. */
const LEASE_MS = 120_000;
/** A certificate not yet covered by a checkpoint is looked at again this soon (the bundle needs one). */
const NOT_CHECKPOINTED_MS = 1000;
/** A certificate whose covering checkpoint lacks the witnesses' quorum is looked at again this soon. */
const NOT_COSIGNED_MS = 2000;

const retryDelay = (base: number, attempts: number) => Math.min(base * 2 ** Math.max(0, attempts - 1), 3_600_000);

/**
 * Failed attempts (other than no TSA answering) after which a PDF is given up: at the default
 * backoff (retryMs 30 s doubling to an hour) 24 attempts span about 18 hours.
 */
export const MAX_FAILED_ATTEMPTS = 24;

/** The document itself cannot be sealed: every attempt would fail the same way. */
export class UnsealableDocumentError extends Error {}

/** The sender-facing reason a PDF was given up (fixed texts: no document content, no library message). */
function failureOf(err: unknown, attempts: number): string | null {
  if (err instanceof UnsealableDocumentError) return err.message;
  if (err instanceof TsaUnavailableError || attempts < MAX_FAILED_ATTEMPTS) return null;
  return `sealing failed ${attempts} times in a row`;
}

/** Whether the checkpoint carries the cosignatures the witness policy requires (always, without witnesses). */
const witnessed = (deps: Pick<SealSignedPdfsDeps, 'witnesses'>, checkpoint: string) =>
  !deps.witnesses || deps.witnesses.quorum === 0 || checkWitnessQuorum(checkpoint, deps.witnesses).ok;

/** Opens and prepares the document as the seal needs it; whatever fails here fails on every attempt. */
async function prepareDocument(input: Parameters<typeof preparePdf>[0], updates: PdfUpdate[]): Promise<Buffer> {
  try {
    return await preparePdf(input, updates);
  } catch {
    throw new UnsealableDocumentError('the document cannot be read as a PDF by the sealer (damaged, encrypted or unsupported)');
  }
}

/**
 * The sealing pass of signed PDFs: each pending record that is due, one at a time. A PDF is sealed
 * with an RFC 3161 timestamp or not at all: when no TSA answers (or anything fails) the record waits
 * and is tried again later; once stored it is never produced again, so every download has the same bytes.
 */
export async function sealSignedPdfs(deps: SealSignedPdfsDeps): Promise<number> {
  let sealed = 0;
  for (
    let rec = await deps.signedPdfs.claimDue(deps.now(), LEASE_MS);
    rec;
    rec = await deps.signedPdfs.claimDue(deps.now(), LEASE_MS)
  ) {
    if (await sealOne(deps, rec)) sealed++;
  }
  return sealed;
}

async function sealOne(deps: SealSignedPdfsDeps, rec: SignedPdfRecord): Promise<boolean> {
  const cert = await deps.certs.findByReference(rec.reference);
  const head = await deps.log.head();
  if (!cert || cert.leaf_index === null || cert.leaf_index >= head.size) {
    await deps.signedPdfs.retryAt(rec.reference, new Date(deps.now().getTime() + NOT_CHECKPOINTED_MS), rec.attempts);
    return false;
  }
  const fields = { transaction_id: rec.transaction_id, attempts: rec.attempts + 1 };
  try {
    const bundle = await deps.log.bundle(rec.reference);
    if (!witnessed(deps, bundle.checkpoint)) {
      // Not an attempt: the evidence is not complete yet (a witness down: signet_ledger_uncosigned_checkpoint_age_seconds grows).
      await deps.signedPdfs.retryAt(rec.reference, new Date(deps.now().getTime() + NOT_COSIGNED_MS), rec.attempts);
      deps.metrics.signedPdfSeals.inc({ result: 'awaiting_witnesses' });
      return false;
    }
    const document = await deps.objects.readDocument(rec.document_key);
    if (createHash('sha256').update(document).digest('hex') !== cert.document_sha256)
      throw new UnsealableDocumentError('the stored document does not match the certified SHA-256');
    const sealedAt = deps.now();
    const trail = {
      documentName: rec.document_name,
      certificate: cert.certificate,
      signerEmails: rec.signer_emails ?? [],
      trails: rec.trails ?? [],
      fieldValues: fieldValuesBySigner(rec.fields_json, cert.certificate.signers.length),
      leafIndex: bundle.leaf_index,
      treeSize: bundle.tree_size,
      origin: deps.origin,
      verifyUrl: `${deps.publicBaseUrl.replace(/\/$/, '')}/verify?ref=${encodeURIComponent(rec.reference)}&hash=${cert.document_sha256.slice(0, 16)}`,
      test: deps.test,
    };
    const prepared = await prepareDocument(
      { ...trail, document, bundleJson: JSON.stringify(bundle), sealedAt, sealName: deps.sealName },
      deps.updates?.(rec) ?? [],
    );
    const bt = await sealPdf(prepared, deps.signer, sealedAt);
    const pdf = deps.validationData ? await deps.validationData(bt) : bt;
    // The same pages on their own: the audit-trail PDF, stored once beside the signed PDF.
    const audit = await renderAuditTrailPdf({ ...trail, pageCount: await pageCountOf(document), sealedAt });
    const objectKey = `${rec.reference}.pdf`;
    const auditKey = `${rec.reference}-audit-trail.pdf`;
    await deps.objects.putSigned(objectKey, pdf);
    await deps.objects.putSigned(auditKey, audit);
    await deps.signedPdfs.markSealed(rec, {
      object_key: objectKey,
      size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      audit_object_key: auditKey,
      audit_size: audit.length,
      sealed_at: sealedAt,
    });
    deps.onSealed?.();
    deps.metrics.signedPdfSeals.inc({ result: 'sealed' });
    deps.logger.info({ ...fields, size: pdf.length }, 'signed PDF sealed');
    return true;
  } catch (err) {
    const failure = failureOf(err, fields.attempts);
    if (failure) return giveUp(deps, rec, failure, err);
    const tsa = err instanceof TsaUnavailableError;
    const at = new Date(deps.now().getTime() + retryDelay(deps.retryMs, fields.attempts));
    await deps.signedPdfs.retryAt(rec.reference, at, fields.attempts);
    deps.metrics.signedPdfSeals.inc({ result: tsa ? 'tsa_unavailable' : 'error' });
    if (tsa)
      deps.logger.warn(
        { ...fields, retry_at: at.toISOString(), err: (err as Error).message },
        'no TSA answered; signed PDF sealed later',
      );
    else deps.logger.error({ ...fields, retry_at: at.toISOString(), err }, 'sealing the signed PDF failed; will retry');
    return false;
  }
}

/**
 * A PDF that can never be sealed ends visibly instead of being retried for ever: the record is marked
 * failed with its reason and a pdf.failed event (the transaction service mails the sender; GetSignedPdf
 * answers the reason), counted as result="failed" (alert SignetSignedPdfSealingFailed).
 */
async function giveUp(deps: SealSignedPdfsDeps, rec: SignedPdfRecord, failure: string, err: unknown): Promise<false> {
  if (await deps.signedPdfs.markFailed(rec, failure, deps.now())) deps.onSealed?.();
  deps.metrics.signedPdfSeals.inc({ result: 'failed' });
  deps.logger.error(
    { transaction_id: rec.transaction_id, attempts: rec.attempts + 1, failure, err: (err as Error).message },
    'the signed PDF cannot be sealed; given up, the sender is told',
  );
  return false;
}
