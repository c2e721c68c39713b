import { notFound } from '@signet/kit';
import { parseCheckpoint, parseNote } from '@signet/verify';
import { checkReference } from '../domain/reference.js';
import type { LedgerLog } from '../log/ledger-log.js';
import { renderCertificatePdf as renderPdf, type EventLogEntry } from '../pdf/certificate-pdf.js';
import type { CertificateRepository } from '../store/certificate.repository.js';
import type { LedgerDeps } from './deps.js';

/**
 * RenderCertificatePdf: the certificate of completion of a sealed certificate, with the evidence of
 * the current checkpoint and a link (and QR code) to the public verify page. The caller passes the
 * transaction's event log and has checked ownership.
 */
export async function renderCertificatePdf(
  deps: Pick<LedgerDeps, 'publicBaseUrl' | 'logName'> & {
    certs: Pick<CertificateRepository, 'findByReference'>;
    log: Pick<LedgerLog, 'bundle'>;
  },
  input: { reference: string; events: EventLogEntry[] },
): Promise<{ pdf: Uint8Array; filename: string }> {
  checkReference(input.reference);
  const rec = await deps.certs.findByReference(input.reference);
  if (!rec || rec.leaf_index === null) throw notFound('no sealed certificate for this reference');
  const bundle = await deps.log.bundle(rec.reference);
  const cp = parseCheckpoint(parseNote(bundle.checkpoint).text);
  const base = deps.publicBaseUrl.replace(/\/$/, '');
  const ref = encodeURIComponent(rec.reference);
  const prefix = rec.document_sha256.slice(0, 16);
  const verifyUrl = `${base}/verify?ref=${ref}&hash=${prefix}`;
  const pdf = await renderPdf({
    certificate: rec.certificate,
    ledgerSeal: rec.ledger_seal,
    leafIndex: rec.leaf_index,
    treeSize: cp.size,
    checkpointRoot: cp.root.toString('base64'),
    origin: cp.origin,
    verifyUrl,
    proofUrl: `${base}/api/ledger/proof/${ref}?hash=${prefix}`,
    keysUrl: `${base}/api/ledger/keys`,
    events: input.events,
    test: deps.logName === 'test',
  });
  return { pdf, filename: `${rec.reference}-certificate.pdf` };
}
