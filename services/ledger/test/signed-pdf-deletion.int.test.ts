/**
 * The ledger's part of deleting a transaction (issue 21 item 3), on real FerretDB and MinIO: the
 * signed PDF and audit trail leave the signed bucket and their record goes, so GetSignedPdf answers
 * NOT_FOUND. A consumer killed between deleting the objects and dropping the record leaves the
 * record; the redelivered event finishes it without error, and further redeliveries change nothing.
 * A PDF the sealing job is sealing at that moment is deleted again once the job's claim expired.
 */
import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, createLogger, createS3, listKeys, type S3Config } from '@signet/kit';
import { infra } from '../../../test/harness/services.js';
import { createSignedPdfObjects } from '../src/store/signed-pdf.objects.js';
import { createSignedPdfRepository, type SignedPdfRepository } from '../src/store/signed-pdf.repository.js';
import { deleteSignedPdfs, SEAL_LEASE_MS, type DeleteSignedPdfsDeps } from '../src/usecases/delete-signed-pdfs.js';
import { getSignedPdf } from '../src/usecases/get-signed-pdf.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { documents: `ldd-docs-${suffix}`, signed: `ldd-signed-${suffix}` };
const logger = createLogger('ledger-deletion-test', 'warn');

describe('deleting a transaction’s stored PDFs (ledger, FerretDB, MinIO)', () => {
  let conn: Connection;
  let repo: SignedPdfRepository;
  const s3cfg: S3Config = {
    ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
    S3_REGION: 'us-east-1',
  };
  const s3 = createS3(s3cfg);
  const objects = createSignedPdfObjects(s3cfg, BUCKETS);
  const signedKeys = () => listKeys(s3, BUCKETS.signed);

  /** A sealed record with both PDFs stored, as the sealing job leaves it. */
  async function sealed(): Promise<string> {
    const reference = `SIG-TX-${randomUUID().slice(0, 8)}`;
    await repo.enqueue({
      reference,
      transaction_id: 7,
      document_key: 'docs/x',
      document_name: 'x.pdf',
      signer_emails: ['ada@example.com'],
      next_attempt_at: new Date(),
    });
    await objects.putSigned(`${reference}.pdf`, Buffer.from('%PDF-1.7 signed'));
    await objects.putSigned(`${reference}-audit-trail.pdf`, Buffer.from('%PDF-1.7 audit'));
    await repo.markSealed(
      { reference, transaction_id: 7 },
      {
        object_key: `${reference}.pdf`,
        size: 15,
        sha256: 'a'.repeat(64),
        audit_object_key: `${reference}-audit-trail.pdf`,
        audit_size: 14,
        sealed_at: new Date(),
      },
    );
    return reference;
  }

  beforeAll(async () => {
    conn = await connectMongo(infra().MONGO_URL, `ledger-deletion-${suffix}`);
    repo = createSignedPdfRepository(conn);
    await repo.init();
    await objects.init();
  }, 60_000);
  afterAll(async () => {
    await conn?.db?.dropDatabase().catch(() => undefined);
    await conn?.close();
  });

  it('deletes both PDFs and the record; the signed PDF is then NOT_FOUND', async () => {
    const reference = await sealed();
    const other = await sealed();
    expect(await signedKeys()).toEqual(expect.arrayContaining([`${reference}.pdf`, `${reference}-audit-trail.pdf`]));
    let counted = 0;
    const n = await deleteSignedPdfs({ signedPdfs: repo, objects, logger, onDeleted: (k) => (counted += k) }, reference);
    expect(n).toBe(2);
    expect(counted).toBe(2);
    const left = await signedKeys();
    expect(left).not.toContain(`${reference}.pdf`);
    expect(left).not.toContain(`${reference}-audit-trail.pdf`);
    // another transaction's PDFs stay
    expect(left).toEqual(expect.arrayContaining([`${other}.pdf`, `${other}-audit-trail.pdf`]));
    expect(await repo.find(reference)).toBeNull();
    await expect(getSignedPdf({ signedPdfs: repo, objects }, reference)).rejects.toMatchObject({
      kind: 'not_found',
    });
  }, 30_000);

  it('killed between the objects and the record: the redelivery finishes it, later ones change nothing', async () => {
    const reference = await sealed();
    const crashing: DeleteSignedPdfsDeps = {
      signedPdfs: repo,
      objects,
      logger,
      afterDelete: async () => {
        throw new Error('killed');
      },
    };
    await expect(deleteSignedPdfs(crashing, reference)).rejects.toThrow('killed');
    expect(await signedKeys()).not.toContain(`${reference}.pdf`);
    expect(await repo.find(reference)).not.toBeNull();
    // redelivered: the objects are already gone (no error), the record goes
    expect(await deleteSignedPdfs({ signedPdfs: repo, objects, logger }, reference)).toBe(2);
    expect(await repo.find(reference)).toBeNull();
    expect(await deleteSignedPdfs({ signedPdfs: repo, objects, logger }, reference)).toBe(0);
    // a reference the ledger never sealed: nothing to do, no error
    expect(await deleteSignedPdfs({ signedPdfs: repo, objects, logger }, 'SIG-TX-NEVER')).toBe(0);
  }, 30_000);

  it('a PDF being sealed at the moment of deletion: kept for a redelivery until the claim expired, then deleted', async () => {
    const reference = `SIG-TX-${randomUUID().slice(0, 8)}`;
    await repo.enqueue({
      reference,
      transaction_id: 8,
      document_key: 'docs/y',
      document_name: 'y.pdf',
      signer_emails: ['grace@example.com'],
      next_attempt_at: new Date(),
    });
    // the sealing job claims it (its next attempt moves one lease ahead) …
    const t0 = new Date();
    expect(await repo.claimDue(t0, SEAL_LEASE_MS)).not.toBeNull();
    const deps = (now: Date): DeleteSignedPdfsDeps => ({ signedPdfs: repo, objects, logger, now: () => now });
    // … the deletion arrives meanwhile: marked deleted, and redelivered rather than finished
    await expect(deleteSignedPdfs(deps(t0), reference)).rejects.toThrow(/being sealed right now/);
    expect(await repo.find(reference)).toMatchObject({ status: 'deleted' });
    expect(await repo.claimDue(new Date(t0.getTime() + 10 * SEAL_LEASE_MS), SEAL_LEASE_MS)).toBeNull();
    // … the job still writes its PDFs; marking them sealed changes nothing
    await objects.putSigned(`${reference}.pdf`, Buffer.from('%PDF-1.7 late'));
    await objects.putSigned(`${reference}-audit-trail.pdf`, Buffer.from('%PDF-1.7 late'));
    const sealedAt = new Date();
    await repo.markSealed(
      { reference, transaction_id: 8 },
      {
        object_key: `${reference}.pdf`,
        size: 13,
        sha256: 'b'.repeat(64),
        audit_object_key: `${reference}-audit-trail.pdf`,
        audit_size: 13,
        sealed_at: sealedAt,
      },
    );
    expect(await repo.find(reference)).toMatchObject({ status: 'deleted', object_key: null });
    // the redelivery after the claim expired deletes what the job wrote, and the record
    await deleteSignedPdfs(deps(new Date(t0.getTime() + SEAL_LEASE_MS + 1000)), reference);
    expect(await repo.find(reference)).toBeNull();
    const left = await signedKeys();
    expect(left).not.toContain(`${reference}.pdf`);
    expect(left).not.toContain(`${reference}-audit-trail.pdf`);
  }, 30_000);
});
