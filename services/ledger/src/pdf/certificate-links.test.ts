import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Certificate } from '../domain/certificate.js';
import { renderCertificatePdf } from './certificate-pdf.js';

const cert: Certificate = {
  version: 2,
  reference: 'ACM-TX-00000032',
  document_sha256: 'd'.repeat(64),
  issuer_name: 'Acme',
  attestation_type: 'signature',
  signers: [
    {
      name: 'Ada',
      email_masked: 'a***@example.com',
      verification_mode: 'biometric',
      assurance: 'live',
      verified_at: '2026-11-28T10:00:00.000Z',
    },
  ],
  verified_at: '2026-11-28T10:00:00.000Z',
};

const dir = mkdtempSync(join(tmpdir(), 'signet-cert-links-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(base: string, test = false): Promise<string[]> {
  const pdf = await renderCertificatePdf({
    certificate: cert,
    ledgerSeal: 'seal',
    leafIndex: 3,
    treeSize: 4,
    checkpointRoot: 'root',
    origin: 'signet.example/log',
    verifyUrl: `${base}/verify?ref=ACM-TX-00000032&hash=dddddddddddddddd`,
    proofUrl: `${base}/api/ledger/proof/ACM-TX-00000032?hash=dddddddddddddddd`,
    keysUrl: `${base}/api/ledger/keys`,
    events: [],
    test,
  });
  const path = join(dir, `c-${base.length}-${test}.pdf`);
  writeFileSync(path, pdf);
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim());
}

describe('the certificate of completion prints its evidence links whole (issue 32 item 8)', { timeout: 60_000 }, () => {
  it('the proof link with the hash its route requires, and the keys link, each on one line', async () => {
    for (const base of ['https://signet.example', `https://${'verification.'.repeat(8)}example.com`]) {
      const lines = await linesOf(base);
      expect(lines).toContain(`${base}/api/ledger/proof/ACM-TX-00000032?hash=dddddddddddddddd`);
      expect(lines).toContain(`${base}/api/ledger/keys`);
      expect(lines.join(' ')).toContain('Every signer passed biometric verification.');
    }
  });

  it('a test certificate claims no verification', async () => {
    const text = (await linesOf('https://signet.example', true)).join(' ');
    expect(text).toContain('no ceremony ran');
    expect(text).not.toMatch(/passed/);
  });
});
