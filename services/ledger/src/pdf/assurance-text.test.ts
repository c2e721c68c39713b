import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSURANCE_MEANINGS } from '@signet/kit';
import type { Certificate, CertificateSigner } from '../domain/certificate.js';
import { appendAuditTrail } from './audit-trail.js';
import { renderCertificatePdf } from './certificate-pdf.js';

const signer = (name: string, over: Partial<CertificateSigner>): CertificateSigner => ({
  name,
  email_masked: `${name[0]}***@example.com`,
  verification_mode: 'biometric',
  assurance: 'live',
  verified_at: '2026-11-28T10:00:00.000Z',
  video_commitment: 'a'.repeat(64),
  frame_commitment: 'b'.repeat(64),
  reference_commitment: 'c'.repeat(64),
  ...over,
});

// One signer sealed with the level and its sentence, one of a certificate sealed before (live with
// WebAuthn: live+webauthn), one recorded: the certificate as a whole proves only "recorded".
const cert: Certificate = {
  version: 2,
  reference: 'ACM-TX-00000030',
  document_sha256: 'd'.repeat(64),
  issuer_name: 'Acme',
  attestation_type: 'signature',
  signers: [
    signer('Ada', { assurance: 'live+webauthn', assurance_meaning: ASSURANCE_MEANINGS['live+webauthn'], webauthn: true }),
    signer('Grace', { assurance: 'live', webauthn: true, checks: ['liveness', 'face_match', 'webauthn'] }),
    signer('Edsger', { assurance: 'recorded', assurance_meaning: ASSURANCE_MEANINGS.recorded }),
  ],
  verified_at: '2026-11-28T10:00:00.000Z',
};

const dir = mkdtempSync(join(tmpdir(), 'signet-assurance-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The PDF's text as pdftotext reads it, whitespace (line breaks of wrapped values) collapsed. */
function text(pdf: Uint8Array, name: string): string {
  const path = join(dir, name);
  writeFileSync(path, pdf);
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** The rows of the signer named, up to the next signer. */
const rowsOf = (t: string, who: string, next: string) => t.slice(t.indexOf(who), next ? t.indexOf(next) : undefined);

describe('the certificate PDF and the audit trail state each signer’s assurance and what it proves', { timeout: 60_000 }, () => {
  const meaning = (l: keyof typeof ASSURANCE_MEANINGS) => `${l} - ${ASSURANCE_MEANINGS[l]}`;

  it('certificate of completion: the level and its sentence per signer, and the weakest for the certificate', async () => {
    const pdf = await renderCertificatePdf({
      certificate: cert,
      ledgerSeal: 'seal',
      leafIndex: 3,
      treeSize: 4,
      checkpointRoot: 'root',
      origin: 'signet.example/log',
      verifyUrl: 'https://signet.example/verify',
      events: [],
    });
    const t = text(pdf, 'certificate.pdf');
    expect(rowsOf(t, 'Ada (', 'Grace (')).toContain(meaning('live+webauthn'));
    expect(rowsOf(t, 'Grace (', 'Edsger (')).toContain(meaning('live+webauthn'));
    expect(rowsOf(t, 'Edsger (', 'Verification summary')).toContain(meaning('recorded'));
    expect(t).toMatch(/Assurance \(weakest signer\) recorded/);
    expect(t).toContain('does not rule out real-time synthetic video injected through a virtual camera');
  });

  it('audit trail: the same, in the signer rows', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    await appendAuditTrail(doc, {
      documentName: 'contract.pdf',
      pageCount: 1,
      certificate: cert,
      signerEmails: ['ada@example.com', 'grace@example.com', 'edsger@example.com'],
      leafIndex: 3,
      treeSize: 4,
      origin: 'signet.example/log',
      verifyUrl: 'https://signet.example/verify',
    });
    const t = text(await doc.save(), 'trail.pdf');
    expect(rowsOf(t, 'Signer 1', 'Signer 2')).toContain(meaning('live+webauthn'));
    expect(rowsOf(t, 'Signer 2', 'Signer 3')).toContain(meaning('live+webauthn'));
    expect(rowsOf(t, 'Signer 3', 'Certificate Reference')).toContain(meaning('recorded'));
  });
});
