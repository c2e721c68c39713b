import { describe, expect, it } from 'vitest';
import type { CertificateRecord } from '../store/certificate.repository.js';
import { findSealedCertificate } from './find-sealed-certificate.js';

const SHA = 'c0ffee00' + 'ab'.repeat(28);
const record = (leaf_index: number | null) =>
  ({ reference: 'ACME-TX-00000001', document_sha256: SHA, leaf_index }) as unknown as CertificateRecord;

function deps(rec: CertificateRecord | null, treeSize: number) {
  return {
    certs: { findByReference: async (ref: string) => (rec && ref === rec.reference ? rec : null) },
    log: { head: async () => ({ size: treeSize, root: Buffer.alloc(32), checkpoint: '' }) },
  };
}

describe('findSealedCertificate', () => {
  it('finds a certificate a checkpoint covers by reference and hash prefix, in either case', async () => {
    const d = deps(record(3), 4);
    await expect(findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SHA.slice(0, 16) })).resolves.toBe(
      await d.certs.findByReference('ACME-TX-00000001'),
    );
    await expect(
      findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SHA.slice(0, 16).toUpperCase() }),
    ).resolves.toBeTruthy();
  });

  it('finds it by the full 64-character hash, compared whole, in either case', async () => {
    const d = deps(record(3), 4);
    await expect(findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SHA })).resolves.toBeTruthy();
    await expect(
      findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SHA.toUpperCase() }),
    ).resolves.toBeTruthy();
    // the first 16 characters match, the last does not: the same NOT_FOUND as a wrong prefix
    await expect(
      findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SHA.slice(0, 63) + (SHA.endsWith('0') ? '1' : '0') }),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'no certificate matches this reference and document hash' });
  });

  it('gives one NOT_FOUND for an unknown reference, a wrong prefix and a leaf no checkpoint covers yet', async () => {
    const misses = [
      findSealedCertificate(deps(record(3), 4), { reference: 'ACME-TX-00000002', hashPrefix: SHA.slice(0, 16) }),
      findSealedCertificate(deps(record(3), 4), { reference: 'ACME-TX-00000001', hashPrefix: '0'.repeat(16) }),
      findSealedCertificate(deps(record(4), 4), { reference: 'ACME-TX-00000001', hashPrefix: SHA.slice(0, 16) }),
      findSealedCertificate(deps(record(null), 4), { reference: 'ACME-TX-00000001', hashPrefix: SHA.slice(0, 16) }),
    ];
    const errors = await Promise.all(
      misses.map((p) =>
        p.then(
          () => null,
          (e: Error) => e,
        ),
      ),
    );
    expect(errors.map((e) => e && { kind: (e as { kind?: string }).kind, message: e.message })).toEqual(
      Array(4).fill({ kind: 'not_found', message: 'no certificate matches this reference and document hash' }),
    );
  });

  it('refuses a malformed reference or prefix with INVALID_ARGUMENT', async () => {
    const d = deps(record(3), 4);
    for (const hashPrefix of [SHA.slice(0, 17), SHA.slice(0, 32), SHA.slice(0, 63), SHA + '0'])
      await expect(findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix })).rejects.toMatchObject({
        kind: 'invalid_argument',
      });
    await expect(findSealedCertificate(d, { reference: 'ACME-00000001', hashPrefix: SHA.slice(0, 16) })).rejects.toMatchObject({
      kind: 'invalid_argument',
    });
    await expect(findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SHA.slice(0, 15) })).rejects.toMatchObject(
      {
        kind: 'invalid_argument',
      },
    );
  });

  it('finds it by the stored signed PDF’s hash too (prefix or whole), and by nothing else', async () => {
    const SIGNED = 'f00d' + '12'.repeat(30);
    const BEFORE = 'beef' + '34'.repeat(30);
    const d = {
      ...deps(record(3), 4),
      signedPdf: {
        signedPdfs: {
          find: async (ref: string) => (ref === 'ACME-TX-00000001' ? { sha256: SIGNED, sha256_before: [BEFORE] } : null),
        },
      },
    } as unknown as Parameters<typeof findSealedCertificate>[0];
    await expect(
      findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SIGNED.slice(0, 16) }),
    ).resolves.toBeTruthy();
    await expect(findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SIGNED })).resolves.toBeTruthy();
    await expect(findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SHA })).resolves.toBeTruthy();
    // the version served before a re-timestamping (B-LTA) replaced it
    await expect(
      findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: BEFORE.slice(0, 16) }),
    ).resolves.toBeTruthy();
    await expect(
      findSealedCertificate(d, { reference: 'ACME-TX-00000001', hashPrefix: SIGNED.slice(0, 63) + '0' }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    // not sealed yet (no hash recorded): only the document's hash finds it
    const pending = {
      ...deps(record(3), 4),
      signedPdf: { signedPdfs: { find: async () => ({ sha256: null }) } },
    } as unknown as Parameters<typeof findSealedCertificate>[0];
    await expect(
      findSealedCertificate(pending, { reference: 'ACME-TX-00000001', hashPrefix: '0'.repeat(16) }),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });
});
