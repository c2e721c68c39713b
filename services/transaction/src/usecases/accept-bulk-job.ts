import { conflict, notFound, type ServiceClient } from '@signet/kit';
import type { biometricsV1 } from '@signet/proto';
import { bulkFingerprint, checkBulkShape, keyedBulkJobId, newBulkJobId, rowProblem, type BulkRowInput } from '../domain/bulk.js';
import { checkReferenceImage } from '../domain/creation.js';
import { fieldInvalid } from '../domain/errors.js';
import type { TransactionMetrics } from '../metrics.js';
import {
  rowId,
  type BulkJobRecord,
  type BulkPhotoRecord,
  type BulkRepository,
  type BulkRowRecord,
} from '../store/bulk.repository.js';
import type { ObjectStore } from '../store/object.store.js';
import type { BulkTemplateSource } from './bulk-template.js';
import { createHash } from 'node:crypto';

export type AcceptBulkDeps = {
  bulk: Pick<BulkRepository, 'findJob' | 'insertJob'>;
  templates: BulkTemplateSource;
  objects: Pick<ObjectStore, 'putReference' | 'removeReference'>;
  biometrics: Pick<ServiceClient<biometricsV1.BiometricsServiceClient>, 'countFaces'>;
  cfg: { REFERENCE_FACE_CHECK: 'on' | 'off' };
  tm: Pick<TransactionMetrics, 'bulkRows'>;
  clock: () => Date;
  /** Starts the bulk job runner now rather than at its next period. */
  kick: () => void;
};

export type BulkRequest = {
  ownerId: string;
  orgName: string;
  senderEmail: string;
  test: boolean;
  idempotencyKey: string;
  templateId: string;
  rows: BulkRowInput[];
  photos: Buffer[];
  source: string;
};

export const bulkJobReused = () =>
  conflict('Idempotency-Key was already used with a different bulk upload', 'IDEMPOTENCY_KEY_REUSED');

/**
 * Accepts a bulk job: the template must be the caller's (404), the rows must fit it (roles, field
 * ids, photos: 400 for the whole job, nothing stored), each distinct photo must be a JPEG or PNG
 * showing one face. A row's own problem (an invalid e-mail, a missing name or photo) fails that row
 * only. Rows, photos and then the job are written before the answer: the job survives a restart and
 * is run by whichever replica claims it. The same Idempotency-Key returns the first job.
 */
export async function acceptBulkJob(deps: AcceptBulkDeps, req: BulkRequest): Promise<{ job: BulkJobRecord; replayed: boolean }> {
  const tpl = await deps.templates(req.ownerId, req.test, req.templateId);
  if (!tpl) throw notFound('no such template');
  checkBulkShape(req.rows, tpl, req.photos.length);
  const images = req.photos.map((buf, i) => ({ buf, kind: checkReferenceImage(buf, `photos[${i}]`).kind }));
  const hashes = req.photos.map((b) => createHash('sha256').update(b).digest('hex'));
  const fingerprint = bulkFingerprint(tpl.id, req.rows, hashes);
  const now = deps.clock();
  const id = req.idempotencyKey ? keyedBulkJobId(req.ownerId, req.test, req.idempotencyKey) : newBulkJobId(now);
  const replay = async () => {
    const first = await deps.bulk.findJob(req.ownerId, req.test, id);
    if (!first) return null;
    if (first.fingerprint !== fingerprint) throw bulkJobReused();
    return { job: first, replayed: true };
  };
  if (req.idempotencyKey) {
    const first = await replay();
    if (first) return first;
  }
  for (const [i, img] of images.entries()) await checkOneFace(deps, img.buf, img.kind, `photos[${i}]`);

  const rows: BulkRowRecord[] = req.rows.map((r, index) => {
    const problem = rowProblem(r, tpl);
    return {
      _id: rowId(id, index),
      job_id: id,
      index,
      signers: r.signers.map((s) => ({ ...s, name: s.name.trim(), email: s.email.trim() })),
      values: r.values,
      status: problem ? 'failed' : 'pending',
      reason: problem ?? '',
      transaction_id: 0,
      reference: '',
      attempt: 0,
      updated_at: now,
    };
  });
  const photos: BulkPhotoRecord[] = images.map((img, index) => ({
    _id: rowId(id, index),
    job_id: id,
    index,
    data: img.buf,
    kind: img.kind,
  }));
  const job: BulkJobRecord = {
    _id: id,
    owner_id: req.ownerId,
    test: req.test,
    org_name: req.orgName,
    sender_email: req.senderEmail,
    template_id: tpl.id,
    idempotency_key: req.idempotencyKey || null,
    fingerprint,
    source: req.source,
    rows: rows.length,
    photos: photos.length,
    state: 'running',
    counts: null,
    created_at: now,
    completed_at: null,
    lease_holder: null,
    lease_until: null,
  };
  if (!(await deps.bulk.insertJob(job, rows, photos))) {
    // Another request with the same key got there first.
    const first = await replay();
    if (first) return first;
    throw conflict('a bulk job with this Idempotency-Key is being accepted; retry later', 'IDEMPOTENCY_KEY_IN_PROGRESS');
  }
  const failed = rows.filter((r) => r.status === 'failed').length;
  deps.tm.bulkRows.inc({ outcome: 'accepted' }, rows.length - failed);
  if (failed) deps.tm.bulkRows.inc({ outcome: 'failed' }, failed);
  deps.kick();
  return { job, replayed: false };
}

/** A job's photo must show exactly one face, as a creation's (counted once per distinct photo, then removed). */
async function checkOneFace(deps: AcceptBulkDeps, buf: Buffer, kind: 'jpeg' | 'png', field: string): Promise<void> {
  if (deps.cfg.REFERENCE_FACE_CHECK === 'off') return;
  const ref = await deps.objects.putReference(buf, kind === 'png' ? 'image/png' : 'image/jpeg');
  try {
    const { faces } = await deps.biometrics.countFaces({ referenceKey: ref.key }, { deadlineMs: 30_000 });
    if (faces !== 1)
      throw fieldInvalid(
        field,
        faces === 0 ? 'the photo shows no face; it must show exactly one' : 'the photo shows more than one face',
      );
  } finally {
    await deps.objects.removeReference(ref.key);
  }
}
