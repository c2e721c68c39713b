import { PDFDocument } from 'pdf-lib';

/** Why a document cannot be sealed, as counted in signet_transaction_documents_refused_total. */
export type UnsealableReason = 'encrypted' | 'no_version' | 'damaged';

export type SealableVerdict = { ok: true; pages: number } | { ok: false; reason: UnsealableReason; detail: string };

const DETAILS: Record<UnsealableReason, string> = {
  encrypted: 'is encrypted (password-protected or restricted); upload it without encryption',
  no_version: 'is not a readable PDF (its %PDF- header has no version number)',
  damaged: 'is damaged or truncated: it cannot be read as a PDF (no document catalog or page tree)',
};

/**
 * Whether the ledger can seal this document: it is opened here as the sealer opens it — pdf-lib,
 * `PDFDocument.load(bytes, { updateMetadata: false })` (services/ledger/src/pdf/signed-pdf.ts), which
 * refuses an encrypted document — and its page tree is walked, which the sealer does to count the
 * pages and append the audit trail. A document that fails here would fail there on every attempt.
 * Pure: no I/O; pdf-lib yields to the event loop while it parses (100 objects a tick).
 */
export async function checkSealable(bytes: Uint8Array): Promise<SealableVerdict> {
  const refuse = (reason: UnsealableReason): SealableVerdict => ({ ok: false, reason, detail: DETAILS[reason] });
  if (!hasVersion(bytes)) return refuse('no_version');
  let doc: PDFDocument;
  try {
    // The sealer's options, but told to go on past encryption: its own load parses the same way and
    // then throws on `isEncrypted`, which is asked here (pdf-lib's EncryptedPDFError is not
    // recognisable by instanceof in its ES5 build).
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    return refuse('damaged');
  }
  if (doc.isEncrypted) return refuse('encrypted');
  try {
    const pages = doc.getPages();
    for (const page of pages) page.node.normalizedEntries();
    return { ok: true, pages: pages.length };
  } catch {
    return refuse('damaged');
  }
}

/** `%PDF-<digit>.<digit>` at the start, as the format requires (pdf-lib would skip ahead to a later header). */
function hasVersion(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16)).toString('latin1');
  return /^%PDF-\d\.\d/.test(head);
}
