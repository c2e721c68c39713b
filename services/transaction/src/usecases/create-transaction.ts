import { randomBytes, randomUUID } from 'node:crypto';
import { invalid, type KeyedLock, type Logger, type OutboxRelay, type ServiceClient } from '@signet/kit';
import type { billingV1 } from '@signet/proto';
import {
  checkReferenceImage,
  imageKind,
  looksLikePdf,
  MAX_DOCUMENT_BYTES,
  MAX_REFERENCE_BYTES,
  newReference,
  newSigningToken,
  requestFingerprint,
  validateFields,
  type CreationFields,
} from '../domain/creation.js';
import { documentTooLarge, fieldInvalid, idempotencyInProgress, idempotencyMismatch } from '../domain/errors.js';
import { retentionDays } from '../domain/retention.js';
import { newSigner } from '../domain/transaction.js';
import { creationOutbox } from '../events/transaction.publisher.js';
import type { TransactionMetrics } from '../metrics.js';
import type { DocumentUpload, ObjectStore } from '../store/object.store.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export type CreateDeps = {
  repo: TransactionRepository;
  objects: ObjectStore;
  billing: ServiceClient<billingV1.BillingServiceClient>;
  cfg: {
    PUBLIC_BASE_URL: string;
    REFERENCE_PREFIX: string;
    MAX_ATTEMPTS: number;
    BIOMETRIC_RETENTION_DAYS: number;
    BIOMETRIC_RETENTION_MAX_DAYS: number;
  };
  tm: Pick<TransactionMetrics, 'transitions'>;
  logger: Logger;
  lock: KeyedLock<number>;
  outbox: Pick<OutboxRelay<number>, 'flush'>;
  clock: () => Date;
};

type Begin = { ownerId: string; orgName: string; idempotencyKey: string };
/** One message of the creation stream, in arrival order: begin, document and reference bytes, then the fields. */
export type CreationPart =
  | { kind: 'begin'; begin: Begin }
  | { kind: 'document'; bytes: Buffer }
  | { kind: 'reference'; bytes: Buffer }
  | { kind: 'fields'; fields: Parameters<typeof validateFields>[0] };
export type CreationResult = { id: number; reference: string; token: string; signUrl: string; status: string; replayed: boolean };
type Cleanups = (() => Promise<void>)[];

/**
 * Creates a transaction from its upload stream. The document streams into object storage under a
 * fresh key while it is hashed (decided a PDF on its first bytes, before anything is stored); the
 * reference photo (≤ 10 MB) is held and decoded. Only when every check has passed is a signature
 * consumed and the record written; any failure, or `isCancelled()`, removes what was stored and
 * refunds what was consumed. A repeated Idempotency-Key returns the first result (`replayed`).
 */
export async function createTransaction(
  deps: CreateDeps,
  parts: AsyncIterable<CreationPart>,
  isCancelled: () => boolean,
): Promise<CreationResult> {
  let begin: Begin | undefined;
  let rawFields: Parameters<typeof validateFields>[0] | undefined;
  let doc: DocumentUpload | undefined;
  let docHead = Buffer.alloc(0);
  let docDone = false;
  let lastPart: string | undefined;
  const refParts: Buffer[] = [];
  let refSize = 0;
  let refChecked = false;
  const cleanups: Cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };

  try {
    for await (const part of parts) {
      if (!begin && part.kind !== 'begin') throw invalid('the first message must be begin');
      if (rawFields) throw invalid('fields must be the last message');
      if (lastPart === 'document' && part.kind !== 'document') docDone = true;
      switch (part.kind) {
        case 'begin':
          if (begin) throw invalid('begin sent twice');
          if (!part.begin.ownerId) throw invalid('owner_id is required');
          begin = part.begin;
          break;
        case 'document': {
          if (docDone) throw fieldInvalid('document', 'sent more than once');
          let chunk = part.bytes;
          if (!doc) {
            // Decide on the first bytes, before anything is stored.
            docHead = Buffer.concat([docHead, chunk]);
            const pdf = looksLikePdf(docHead);
            if (pdf === false) throw fieldInvalid('document', 'is not a PDF (it must begin with %PDF-)');
            if (pdf === undefined) break;
            doc = deps.objects.documents();
            const d = doc;
            cleanups.push(() => d.abort());
            chunk = docHead;
          }
          if (doc.size + chunk.length > MAX_DOCUMENT_BYTES) throw documentTooLarge(MAX_DOCUMENT_BYTES);
          await doc.write(chunk);
          break;
        }
        case 'reference': {
          if (refChecked && lastPart !== 'reference') throw fieldInvalid('reference', 'sent more than once');
          refSize += part.bytes.length;
          if (refSize > MAX_REFERENCE_BYTES) throw fieldInvalid('reference', 'must be at most 10 MB');
          refParts.push(part.bytes);
          if (!refChecked) {
            const kind = imageKind(Buffer.concat(refParts));
            if (kind === null) throw fieldInvalid('reference', 'must be a JPEG or PNG image');
            if (kind) refChecked = true;
          }
          break;
        }
        case 'fields':
          rawFields = part.fields;
          break;
      }
      lastPart = part.kind;
    }
    if (isCancelled()) throw invalid('cancelled by the client');
    if (!begin) throw invalid('the first message must be begin');
    if (!rawFields) throw invalid('fields are missing');
    const fields = validateFields(rawFields);
    if (!doc)
      throw docHead.length
        ? fieldInvalid('document', 'is not a PDF (it must begin with %PDF-)')
        : fieldInvalid('document', 'is required');
    if (refSize === 0) throw fieldInvalid('reference', 'is required');
    const refBuf = Buffer.concat(refParts, refSize);
    const image = checkReferenceImage(refBuf);
    const stored = await doc.finish();
    const ref = await deps.objects.putReference(refBuf, image.kind === 'png' ? 'image/png' : 'image/jpeg');
    cleanups.push(() => deps.objects.removeReference(ref.key));
    if (isCancelled()) throw invalid('cancelled by the client');
    const result = await commit(deps, begin, fields, stored, ref, cleanups);
    // A replay returns the first result; this request's uploads are removed.
    if (result.replayed) await cleanup();
    return result;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** Claims the Idempotency-Key, consumes a signature and writes the record; on success nothing is left to undo. */
async function commit(
  deps: CreateDeps,
  begin: Begin,
  fields: CreationFields,
  doc: { key: string; sha256: string; size: number },
  ref: { key: string; sha256: string },
  cleanups: Cleanups,
): Promise<CreationResult> {
  const owner = begin.ownerId;
  const key = begin.idempotencyKey;
  if (key) {
    const first = await claimIdempotencyKey(deps, owner, key, requestFingerprint(fields, doc.sha256, ref.sha256));
    if (first) return { ...first, replayed: true };
    cleanups.push(() => deps.repo.releaseKeyOf(owner, key));
  }

  // Every check has passed: consume one signature (402 upstream when exhausted).
  const consumptionId = randomUUID();
  await deps.billing.consumeSignature({ userId: owner, consumptionId });
  cleanups.push(async () => {
    await deps.billing.refundSignature({ userId: owner, consumptionId }).catch((err: unknown) => {
      deps.logger.error({ err, consumption_id: consumptionId }, 'refund after a failed creation did not go through');
    });
  });

  const id = await deps.repo.nextId();
  const reference = await allocateReference(deps);
  const rec = newRecord(deps, id, reference, begin, fields, doc, ref, await deps.repo.accountRetention(owner));
  await insertRecord(deps, rec);
  deps.tm.transitions.inc({ to: 'created' });

  const token = rec.signers[0]!.token;
  const signUrl = `${deps.cfg.PUBLIC_BASE_URL.replace(/\/$/, '')}/sign/${token}`;
  const result: CreationResult = { id: rec._id, reference: rec.reference, token, signUrl, status: 'created', replayed: false };
  if (key) await deps.repo.completeKey(owner, key, { ...result });
  // The record is written: from here on nothing is undone. The signing-link mail was requested on
  // its outbox; the link-mail consumer sends it (durably, once per signer).
  cleanups.length = 0;
  return result;
}

/**
 * Claims the key for this request (fresh, or expired after 24 h), or returns the first result of the
 * same request; a different request under the key, or one still in progress, is a conflict.
 */
async function claimIdempotencyKey(deps: CreateDeps, owner: string, key: string, fingerprint: string) {
  for (let i = 0; i < 3; i++) {
    const existing = await deps.repo.findKey(owner, key);
    if (existing && deps.clock().getTime() - new Date(existing.created_at).getTime() > IDEMPOTENCY_WINDOW_MS) {
      await deps.repo.releaseKey(existing);
      continue;
    }
    if (existing) {
      if (existing.fingerprint !== fingerprint) throw idempotencyMismatch();
      if (existing.state !== 'done' || !existing.result) throw idempotencyInProgress();
      return existing.result as unknown as CreationResult;
    }
    if (await deps.repo.claimKey(owner, key, fingerprint)) break;
  }
  return null;
}

/** A reference never handed out before (the store's unique index decides). */
async function allocateReference(deps: CreateDeps): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const candidate = newReference(deps.cfg.REFERENCE_PREFIX);
    if (await deps.repo.claimReference(candidate)) return candidate;
  }
  throw new Error('could not allocate a unique reference');
}

function newRecord(
  deps: CreateDeps,
  id: number,
  reference: string,
  begin: Begin,
  fields: CreationFields,
  doc: { key: string; sha256: string; size: number },
  ref: { key: string; sha256: string },
  /** The account's biometric retention (identity.settings.changed), if it set one. */
  accountDays: number | undefined,
): TransactionRecord {
  const now = deps.clock();
  const emails = [fields.signer_email, ...fields.signer_emails];
  const signers = emails.map((email, index) =>
    newSigner(index, index === 0 ? fields.signer_name : email, email, newSigningToken(), deps.cfg.MAX_ATTEMPTS),
  );
  return {
    _id: id,
    owner_id: begin.ownerId,
    issuer_name: begin.orgName,
    reference,
    status: 'created',
    attestation_type: fields.attestation_type,
    document_name: fields.document_name,
    document_key: doc.key,
    document_sha256: doc.sha256,
    document_size: doc.size,
    reference_key: ref.key,
    reference_sha256: ref.sha256,
    commitment_salt: randomBytes(16).toString('hex'),
    signers,
    log: [
      { type: 'created', at: now, actor: 'sender', detail: `created for ${signers.length} signer(s)` },
      // Requested here; the link-mail consumer sends it, and the timeline shows the mail from its record.
      ...signers.map((s) => ({ type: 'link_requested', at: now, actor: 'system', detail: `signing link queued for ${s.email}` })),
    ],
    certificate_issued: false,
    created_at: now,
    verified_at: null,
    last_resent_at: null,
    version: 0,
    retention_days: retentionDays(accountDays, deps.cfg.BIOMETRIC_RETENTION_DAYS, deps.cfg.BIOMETRIC_RETENTION_MAX_DAYS),
    biometrics_delete_after: null,
    biometrics_erased_at: null,
  };
}

/**
 * Inserts the record with its creation outbox under its lock, then publishes. A duplicate id (replicas
 * racing on FerretDB's non-atomic $inc) takes the next one.
 */
async function insertRecord(deps: CreateDeps, rec: TransactionRecord): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const id = rec._id;
    const inserted = await deps.lock(id, async () => {
      if (!(await deps.repo.insert(rec, creationOutbox(rec)))) return false;
      await deps.outbox.flush(id);
      return true;
    });
    if (inserted) return;
    if (attempt >= 10) throw new Error('could not allocate a transaction id');
    rec._id = await deps.repo.nextId();
  }
}
