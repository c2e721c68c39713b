import { randomUUID } from 'node:crypto';
import type { KeyedLock, Logger, OutboxRelay, ServiceClient } from '@signet/kit';
import type { billingV1, biometricsV1 } from '@signet/proto';
import {
  newReference,
  requestFingerprint,
  validateFields,
  type CreationFields,
  type RawCreationFields,
} from '../domain/creation.js';
import { placeFields } from '../domain/field-placement.js';
import type { FormField } from '../domain/form-fields.js';
import { readLayout } from '../domain/pdf-layout.js';
import { idempotencyInProgress, idempotencyMismatch } from '../domain/errors.js';
import type { PhotoSlot } from '../domain/photos.js';
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
import type { Begin, Cleanups } from './creation-upload.js';
import { newRecord } from './creation-record.js';

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
/** A document already in the documents bucket (stored by receive-upload, or kept by a template). */
export type StoredDocument = { key: string; sha256: string; size: number };

/** What a transaction is created from besides its stored objects: who asks, and the request's fields as given. */
export type CreationRequest = { begin: Begin; fields: RawCreationFields };

/** A request checked against the account and the operator's limits, before anything is stored or consumed. */
export type PreparedCreation = {
  begin: Begin;
  fields: CreationFields;
  /** The account's biometric retention (identity.settings.changed), if it set one. */
  accountDays: number | undefined;
};

/**
 * Checks a creation request: its fields (parties, names, the photos that came with it) and its
 * lifecycle, with the account's own expiry and reminder defaults standing in for the operator's where
 * it set them. Stores and consumes nothing; every refusal is a 400 naming its field.
 */
export async function prepareCreation(
  deps: Pick<CreateDeps, 'repo' | 'cfg' | 'clock'>,
  req: CreationRequest,
  photos: ReadonlySet<PhotoSlot>,
): Promise<PreparedCreation> {
  const fields = validateFields(req.fields, photos);
  const account = await deps.repo.accountSettingsOf(req.begin.ownerId);
  const defaults = accountDefaults(lifecycleDefaults(deps.cfg), account.lifecycle);
  const timers = initialTimers(
    deps.clock(),
    lifecycleRequest(req.fields.lifecycle, deps.cfg.REMINDER_MIN_EVERY_SECONDS),
    defaults,
  );
  return { begin: { ...req.begin, timers }, fields, accountDays: account.retentionDays };
}

/** The photo slots a set of stored references stands for (the one-signer form keeps its photo at 0). */
function slotsOf(req: CreationRequest, refs: StoredRefs): Set<PhotoSlot> {
  const legacy = req.fields.signers.length === 0;
  return new Set([...refs.keys()].map((i): PhotoSlot => (legacy && i === 0 ? 'reference' : i)));
}

/**
 * Creates a transaction from objects already stored (the document, the parties' reference photos)
 * and a request: checks the request (unless the caller already did, `prepared`), claims the
 * Idempotency-Key, consumes a signature (test mode: none), writes the record with its creation events
 * on the outbox. What it consumed or claimed is undone through `cleanups` when a later step fails; the
 * stored objects are the caller's to remove. A repeated Idempotency-Key returns the first result
 * (`replayed`) and creates nothing.
 */
export async function createFromStored(
  deps: CreateDeps,
  req: CreationRequest,
  stored: { document: StoredDocument; refs: StoredRefs },
  cleanups: Cleanups,
  prepared?: PreparedCreation,
): Promise<CreationResult> {
  const p = prepared ?? (await prepareCreation(deps, req, slotsOf(req, stored.refs)));
  const formFields = await placedFields(deps, p.fields, stored.document);
  return commit(deps, p, stored.document, stored.refs, cleanups, formFields);
}

/**
 * The request's fields placed on the stored document (its pages and, for anchors, its text, read
 * with pdf.js): a field off its page, on a page that does not exist, overlapping another signer's,
 * or with an anchor not found is a 400 before anything is consumed.
 */
async function placedFields(deps: Pick<CreateDeps, 'objects'>, fields: CreationFields, document: StoredDocument) {
  if (!fields.form.length) return [];
  const anchors = new Set(fields.form.flatMap((f) => ('anchor' in f.at ? [f.at.anchor] : [])));
  const layout = await readLayout(await deps.objects.readDocument(document.key), anchors);
  // A party's signer index on the record: viewers get no signer entry.
  const signerOf = (party: number) => fields.parties.slice(0, party).filter((q) => q.role !== 'viewer').length;
  return placeFields(fields.form, layout, signerOf);
}

/** Claims the Idempotency-Key, consumes a signature and writes the record; on success nothing is left to undo. */
async function commit(
  deps: CreateDeps,
  { begin, fields, accountDays }: PreparedCreation,
  doc: StoredDocument,
  refs: StoredRefs,
  cleanups: Cleanups,
  formFields: FormField[],
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
    const consumptionId = begin.consumptionId ?? randomUUID();
    await deps.billing.consumeSignature({ userId: owner, consumptionId });
    cleanups.push(async () => {
      await deps.billing.refundSignature({ userId: owner, consumptionId }).catch((err: unknown) => {
        deps.logger.error({ err, consumption_id: consumptionId }, 'refund after a failed creation did not go through');
      });
    });
  }

  // Independent round trips, run together (after the consumption, so a refusal takes no id).
  const [id, reference] = await Promise.all([deps.repo.nextId(), allocateReference(deps)]);
  const rec = newRecord(deps, id, reference, begin, fields, doc, refs, accountDays, formFields);
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
