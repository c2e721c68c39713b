import { randomUUID } from 'node:crypto';
import { type KeyedLock, type Logger, type OutboxRelay, type ServiceClient, invalid } from '@signet/kit';
import type { billingV1, biometricsV1 } from '@signet/proto';
import {
  checkReferenceImage,
  newReference,
  requestFingerprint,
  validateFields,
  type CreationFields,
} from '../domain/creation.js';
import { fieldInvalid, idempotencyInProgress, idempotencyMismatch } from '../domain/errors.js';
import { photoField, type PhotoSlot } from '../domain/photos.js';
import {
  accountDefaults,
  initialTimers,
  lifecycleDefaults,
  lifecycleRequest,
  type LifecycleConfig,
} from '../domain/lifecycle.js';
import { creationOutbox } from '../events/transaction.publisher.js';
import type { TransactionMetrics } from '../metrics.js';
import type { ObjectStore } from '../store/object.store.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';
import { readUpload, type Begin, type Cleanups, type CreationPart } from './creation-upload.js';
import { newRecord } from './creation-record.js';
import { storeSealableDocument } from './store-sealable-document.js';

export type { CreationPart } from './creation-upload.js';

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export type CreateDeps = {
  repo: TransactionRepository;
  objects: ObjectStore;
  billing: ServiceClient<billingV1.BillingServiceClient>;
  biometrics: Pick<ServiceClient<biometricsV1.BiometricsServiceClient>, 'countFaces'>;
  cfg: {
    PUBLIC_BASE_URL: string;
    REFERENCE_PREFIX: string;
    MAX_ATTEMPTS: number;
    BIOMETRIC_RETENTION_DAYS: number;
    BIOMETRIC_RETENTION_MAX_DAYS: number;
    /** on: every reference photo must show exactly one face (biometrics counts them); off only outside production. */
    REFERENCE_FACE_CHECK: 'on' | 'off';
  } & LifecycleConfig;
  tm: Pick<TransactionMetrics, 'transitions' | 'documentsRefused'>;
  logger: Logger;
  lock: KeyedLock<number>;
  outbox: Pick<OutboxRelay<number>, 'flush'>;
  clock: () => Date;
};

export type CreationResult = { id: number; reference: string; token: string; signUrl: string; status: string; replayed: boolean };
/** A stored reference photo, by the position of its party in the fields' party list. */
export type StoredRefs = Map<number, { key: string; sha256: string }>;

/**
 * Creates a transaction from its upload stream (creation-upload.ts reads it). Each reference photo is
 * decoded, stored and shown to biometrics, which must find exactly one face in it; only when every
 * check has passed is a signature consumed and the record written; any failure, or `isCancelled()`,
 * removes what was stored and refunds what was consumed. A repeated Idempotency-Key returns the
 * first result (`replayed`).
 */
export async function createTransaction(
  deps: CreateDeps,
  parts: AsyncIterable<CreationPart>,
  isCancelled: () => boolean,
): Promise<CreationResult> {
  const cleanups: Cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };

  try {
    const { begin, rawFields, doc, docHead, photos } = await readUpload(deps.objects, parts, cleanups);
    if (isCancelled()) throw invalid('cancelled by the client');
    const fields = validateFields(rawFields, new Set(photos.keys()));
    // The account's own expiry and reminder defaults, where it set them, stand in for the operator's
    // (its retention is read in the same round trip, for the record).
    const account = await deps.repo.accountSettingsOf(begin.ownerId);
    const defaults = accountDefaults(lifecycleDefaults(deps.cfg), account.lifecycle);
    const timers = initialTimers(
      deps.clock(),
      lifecycleRequest(rawFields.lifecycle, deps.cfg.REMINDER_MIN_EVERY_SECONDS),
      defaults,
    );
    if (!doc)
      throw docHead.length
        ? fieldInvalid('document', 'is not a PDF (it must begin with %PDF-)')
        : fieldInvalid('document', 'is required');
    const legacy = rawFields.signers.length === 0;
    if (legacy && !photos.has('reference')) throw fieldInvalid('reference', 'is required');
    const describe = (slot: PhotoSlot) => {
      if (slot === 'reference') return 'reference';
      return `signers[${slot}] (${fields.parties[slot]!.email}): ${photoField(slot)}`;
    };
    const images = [...photos].map(([slot, buf]) => ({ slot, buf, image: checkReferenceImage(buf, describe(slot)) }));
    // Parsed as the ledger's sealer will parse it: what it could never seal is refused here (400).
    const stored = await storeSealableDocument(
      { objects: deps.objects, refused: (reason) => deps.tm.documentsRefused.inc({ reason }) },
      doc,
    );
    const refs: StoredRefs = new Map();
    for (const { slot, buf, image } of images) {
      const ref = await deps.objects.putReference(buf, image.kind === 'png' ? 'image/png' : 'image/jpeg');
      cleanups.push(() => deps.objects.removeReference(ref.key));
      refs.set(slot === 'reference' ? 0 : slot, ref);
      if (isCancelled()) throw invalid('cancelled by the client');
      await checkOneFace(deps, ref.key, describe(slot));
    }
    if (isCancelled()) throw invalid('cancelled by the client');
    const result = await commit(deps, { ...begin, timers }, fields, stored, refs, cleanups, account.retentionDays);
    // A replay returns the first result; this request's uploads are removed.
    if (result.replayed) await cleanup();
    return result;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * A reference photo must show exactly one face (issue 18): biometrics counts them with the models
 * and limits its analysis applies to a reference, so a group photo is refused here rather than
 * failing every capture at the end. Its own errors pass through (an undecodable photo is a 400, an
 * unavailable biometrics service a 503).
 */
async function checkOneFace(deps: CreateDeps, key: string, field: string): Promise<void> {
  if (deps.cfg.REFERENCE_FACE_CHECK === 'off') return;
  // A first detection on a cold worker can take a few seconds.
  const { faces } = await deps.biometrics.countFaces({ referenceKey: key }, { deadlineMs: 30_000 });
  if (faces === 1) return;
  throw fieldInvalid(
    field,
    faces === 0
      ? 'the reference photo shows no face; it must show exactly one'
      : 'the reference photo shows more than one face; it must show exactly one',
  );
}

/** Claims the Idempotency-Key, consumes a signature and writes the record; on success nothing is left to undo. */
async function commit(
  deps: CreateDeps,
  begin: Begin,
  fields: CreationFields,
  doc: { key: string; sha256: string; size: number },
  refs: StoredRefs,
  cleanups: Cleanups,
  /** The account's biometric retention (identity.settings.changed), if it set one. */
  accountDays: number | undefined,
): Promise<CreationResult> {
  const owner = begin.ownerId;
  // Test and live requests never answer each other, even under the same Idempotency-Key.
  const key = begin.idempotencyKey && begin.test ? `test:${begin.idempotencyKey}` : begin.idempotencyKey;
  if (key) {
    const first = await claimIdempotencyKey(
      deps,
      owner,
      key,
      requestFingerprint(
        fields,
        doc.sha256,
        [...refs.values()].map((r) => r.sha256),
      ),
    );
    if (first) return { ...first, replayed: true };
    cleanups.push(() => deps.repo.releaseKeyOf(owner, key));
  }

  // Every check has passed: consume one signature (402 upstream when exhausted); test mode is free.
  if (!begin.test) {
    const consumptionId = randomUUID();
    await deps.billing.consumeSignature({ userId: owner, consumptionId });
    cleanups.push(async () => {
      await deps.billing.refundSignature({ userId: owner, consumptionId }).catch((err: unknown) => {
        deps.logger.error({ err, consumption_id: consumptionId }, 'refund after a failed creation did not go through');
      });
    });
  }

  // Independent round trips, run together (after the consumption, so a refusal takes no id).
  const [id, reference] = await Promise.all([deps.repo.nextId(), allocateReference(deps)]);
  const rec = newRecord(deps, id, reference, begin, fields, doc, refs, accountDays);
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

/**
 * Inserts the record with its creation outbox under its lock, then publishes. A duplicate id (replicas
 * racing on FerretDB's non-atomic $inc) takes the next one.
 */
async function insertRecord(deps: CreateDeps, rec: TransactionRecord): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const id = rec._id;
    const inserted = await deps.lock(id, async () => {
      const outbox = creationOutbox(rec);
      if (!(await deps.repo.insert(rec, outbox))) return false;
      // A new record holds only these entries: published without reading it back.
      await deps.outbox.flush(id, undefined, outbox);
      return true;
    });
    if (inserted) return;
    if (attempt >= 10) throw new Error('could not allocate a transaction id');
    rec._id = await deps.repo.nextId();
  }
}
