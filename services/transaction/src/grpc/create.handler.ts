import { randomBytes, randomUUID } from 'node:crypto';
import { status, type ServerReadableStream, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import {
  invalid,
  outboxEvent,
  RpcError,
  toServiceError,
  type KeyedLock,
  type Logger,
  type Metrics,
  type OutboxEntry,
  type OutboxRelay,
  type ServiceClient,
} from '@signet/kit';
import { eventsV1, type billingV1, type transactionV1 } from '@signet/proto';
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
import type { Signer } from '../domain/transaction.js';
import { linkMailRequest } from '../events/link-mail.consumer.js';
import type { DocumentUpload, ObjectStore } from '../store/object.store.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';
import type { TransactionMetrics } from '../metrics.js';

/** A Buffer view of the decoded bytes, without copying them. */
const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export type CreateDeps = {
  repo: TransactionRepository;
  objects: ObjectStore;
  billing: ServiceClient<billingV1.BillingServiceClient>;
  cfg: { PUBLIC_BASE_URL: string; REFERENCE_PREFIX: string; MAX_ATTEMPTS: number };
  metrics: Metrics;
  tm: TransactionMetrics;
  logger: Logger;
  lock: KeyedLock<number>;
  outbox: OutboxRelay<number>;
};

type Result = transactionV1.CreateTransactionResult;

function outcomeOf(err: unknown): string {
  if (err instanceof RpcError) return err.reason === 'QUOTA_EXHAUSTED' ? 'quota_exhausted' : 'upstream_error';
  const reason = (err as { reason?: string }).reason;
  if (reason === 'PAYLOAD_TOO_LARGE') return 'too_large';
  if (reason === 'INVALID_FIELD' || reason === 'INVALID_ARGUMENT') return 'invalid';
  if (reason === 'CANCELLED') return 'aborted';
  if (reason?.startsWith('IDEMPOTENCY')) return 'idempotency_conflict';
  return 'error';
}

/**
 * CreateTransaction (client streaming). The document streams into object storage under a fresh key
 * while it is hashed; the reference photo (≤ 10 MB) is held and decoded. Only when every check has
 * passed is a signature consumed and the record written; any failure removes what was stored and
 * refunds what was consumed.
 */
export function createTransactionHandler(deps: CreateDeps) {
  const outcomes = deps.tm.creations;
  return (call: ServerReadableStream<transactionV1.CreateTransactionChunk, Result>, callback: sendUnaryData<Result>) => {
    const end = deps.metrics.grpcServerDuration.startTimer({
      method: 'signet.transaction.v1.TransactionService/CreateTransaction',
    });
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
      call.destroy(new Error('cancelled by the client'));
    });
    create(call, deps, () => cancelled).then(
      (res) => {
        outcomes.inc({ outcome: res.replayed ? 'replayed' : 'created' });
        end({ code: 'OK' });
        callback(null, res);
      },
      (err: unknown) => {
        const outcome = cancelled ? 'aborted' : outcomeOf(err);
        outcomes.inc({ outcome });
        const se = toServiceError(err);
        end({ code: status[se.code ?? status.INTERNAL] });
        if (outcome === 'error' || outcome === 'upstream_error') deps.logger.error({ err }, 'transaction creation failed');
        callback(se as ServiceError, null);
      },
    );
  };
}

async function create(
  call: ServerReadableStream<transactionV1.CreateTransactionChunk, Result>,
  deps: CreateDeps,
  isCancelled: () => boolean,
): Promise<Result> {
  let begin: transactionV1.CreateTransactionBegin | undefined;
  let rawFields: transactionV1.CreateTransactionFields | undefined;
  let doc: DocumentUpload | undefined;
  let docHead = Buffer.alloc(0);
  let docDone = false;
  let lastPart: string | undefined;
  const refParts: Buffer[] = [];
  let refSize = 0;
  let refChecked = false;
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };

  try {
    for await (const msg of call as AsyncIterable<transactionV1.CreateTransactionChunk>) {
      const part = msg.part;
      if (!part) continue;
      if (!begin && part.$case !== 'begin') throw invalid('the first message must be begin');
      if (rawFields) throw invalid('fields must be the last message');
      if (lastPart === 'document' && part.$case !== 'document') docDone = true;
      switch (part.$case) {
        case 'begin':
          if (begin) throw invalid('begin sent twice');
          if (!part.value.ownerId) throw invalid('owner_id is required');
          begin = part.value;
          break;
        case 'document': {
          if (docDone) throw fieldInvalid('document', 'sent more than once');
          let chunk = asBuffer(part.value);
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
          const chunk = asBuffer(part.value);
          refSize += chunk.length;
          if (refSize > MAX_REFERENCE_BYTES) throw fieldInvalid('reference', 'must be at most 10 MB');
          refParts.push(chunk);
          if (!refChecked) {
            const kind = imageKind(Buffer.concat(refParts));
            if (kind === null) throw fieldInvalid('reference', 'must be a JPEG or PNG image');
            if (kind) refChecked = true;
          }
          break;
        }
        case 'fields':
          rawFields = part.value;
          break;
      }
      lastPart = part.$case;
    }
    if (isCancelled()) throw invalid('cancelled by the client');
    if (!begin) throw invalid('the first message must be begin');
    if (!rawFields) throw invalid('fields are missing');
    const fields = validateFields({
      signerName: rawFields.signerName,
      signerEmail: rawFields.signerEmail,
      signerEmails: rawFields.signerEmails,
      attestationType: rawFields.attestationType,
      documentName: rawFields.documentName,
    });
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
    return result;
  } catch (err) {
    await cleanup();
    if (err instanceof Replay) return err.result;
    throw err;
  }
}

async function commit(
  deps: CreateDeps,
  begin: transactionV1.CreateTransactionBegin,
  fields: CreationFields,
  doc: { key: string; sha256: string; size: number },
  ref: { key: string; sha256: string },
  cleanups: (() => Promise<void>)[],
): Promise<Result> {
  const owner = begin.ownerId;
  const key = begin.idempotencyKey;
  if (key) {
    const fingerprint = requestFingerprint(fields, doc.sha256, ref.sha256);
    for (let i = 0; i < 3; i++) {
      const existing = await deps.repo.findKey(owner, key);
      if (existing && Date.now() - new Date(existing.created_at).getTime() > IDEMPOTENCY_WINDOW_MS) {
        await deps.repo.releaseKey(existing);
        continue;
      }
      if (existing) {
        if (existing.fingerprint !== fingerprint) throw idempotencyMismatch();
        if (existing.state !== 'done' || !existing.result) throw idempotencyInProgress();
        // The first result; this request's uploads are removed by the caller's cleanup.
        const r = existing.result as unknown as Result;
        throw new Replay({ ...r, replayed: true });
      }
      if (await deps.repo.claimKey(owner, key, fingerprint)) break;
    }
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

  let id = await deps.repo.nextId();
  let reference = '';
  for (let i = 0; i < 20 && !reference; i++) {
    const candidate = newReference(deps.cfg.REFERENCE_PREFIX);
    if (await deps.repo.claimReference(candidate)) reference = candidate;
  }
  if (!reference) throw new Error('could not allocate a unique reference');

  const now = new Date();
  const emails = [fields.signer_email, ...fields.signer_emails];
  const signers: Signer[] = emails.map((email, index) => ({
    index,
    name: index === 0 ? fields.signer_name : email,
    email,
    token: newSigningToken(),
    state: 'created',
    verification_mode: index === 0 ? 'biometric' : 'liveness',
    attempts_left: deps.cfg.MAX_ATTEMPTS,
    capture_id: '',
    attempt: 0,
    video_sha256: '',
    frame_sha256: '',
    verified_at: null,
  }));
  const rec: TransactionRecord = {
    _id: id,
    owner_id: owner,
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
  };
  // A duplicate id (replicas racing on FerretDB's non-atomic $inc) takes the next one.
  for (let attempt = 0; ; attempt++) {
    const inserted = await deps.lock(id, async () => {
      if (!(await deps.repo.insert(rec, creationOutbox(rec)))) return false;
      await deps.outbox.flush(id);
      return true;
    });
    if (inserted) break;
    if (attempt >= 10) throw new Error('could not allocate a transaction id');
    id = await deps.repo.nextId();
    rec._id = id;
  }
  deps.tm.transitions.inc({ to: 'created' });

  const signUrl = (token: string) => `${deps.cfg.PUBLIC_BASE_URL.replace(/\/$/, '')}/sign/${token}`;
  const result: Result = {
    id,
    reference,
    token: signers[0]!.token,
    signUrl: signUrl(signers[0]!.token),
    status: 'created',
    replayed: false,
  };
  if (key) await deps.repo.completeKey(owner, key, { ...result });
  // The record is written: from here on nothing is undone. The signing-link mail was requested on
  // its outbox; the link-mail consumer sends it (durably, once per signer).
  cleanups.length = 0;
  return result;
}

/** Thrown inside commit to return the first result of an Idempotency-Key after cleaning up this request's uploads. */
class Replay extends Error {
  constructor(readonly result: Result) {
    super('replay');
  }
}

/**
 * What the creation puts on the record's outbox, in the same write: the created event and the request
 * to mail every signer their link.
 */
export function creationOutbox(
  rec: Pick<TransactionRecord, '_id' | 'owner_id' | 'reference' | 'attestation_type' | 'signers'>,
): OutboxEntry[] {
  return [
    outboxEvent('signet.transaction.created', (m) =>
      eventsV1.TransactionCreated.encode({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: rec._id,
        ownerId: rec.owner_id,
        reference: rec.reference,
        signerCount: rec.signers.length,
        attestationType: rec.attestation_type,
      }).finish(),
    ),
    linkMailRequest(
      rec,
      'invite',
      0,
      rec.signers.map((s) => s.index),
    ),
  ];
}
