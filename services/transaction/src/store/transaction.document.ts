// A new transaction record as the store keeps it, built directly rather than through a mongoose document.
import type { Signer, Viewer, LogEntry } from '../domain/transaction.js';
import type { TransactionRecord } from './transaction.schema.js';

/** `value` when given, else the schema's default; undefined (left out) when neither. */
const or = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);

/** Copies the defined values only, in the given key order: mongoose stores no key whose value is undefined. */
function defined(fields: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of fields) if (v !== undefined) out[k] = v;
  return out;
}

const signerDocument = (s: Signer) =>
  defined([
    ['index', s.index],
    ['name', s.name],
    ['email', s.email],
    ['token', s.token],
    ['state', s.state],
    ['verification_mode', s.verification_mode],
    ['attempts_left', s.attempts_left],
    ['capture_id', or(s.capture_id, '')],
    ['attempt', or(s.attempt, 0)],
    ['video_sha256', or(s.video_sha256, '')],
    ['frame_sha256', or(s.frame_sha256, '')],
    ['verified_at', or(s.verified_at, null)],
    ['assurance', or(s.assurance, '')],
    ['decline_reason', s.decline_reason],
    ['role', or(s.role, 'signer')],
    ['order', or(s.order, 1)],
    ['reference_key', or(s.reference_key, '')],
    ['reference_sha256', or(s.reference_sha256, '')],
    ['webauthn', or(s.webauthn, false)],
    ['webauthn_verified', or(s.webauthn_verified, false)],
    ['required_assurance', s.required_assurance],
    ['locale', s.locale],
  ]);

const viewerDocument = (v: Viewer) =>
  defined([
    ['name', v.name],
    ['email', v.email],
    ['order', v.order],
    ['locale', v.locale],
  ]);

const logDocument = (e: LogEntry) =>
  defined([
    ['type', e.type],
    ['at', e.at],
    ['actor', e.actor],
    ['detail', e.detail],
  ]);

const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
const validDate = (v: unknown) => v instanceof Date && !Number.isNaN(v.getTime());

/**
 * The document `transactionSchema` stores for a new record `rec` with its outbox (entries already
 * shaped as stored: kit's `asStored`): the schema's field order and defaults, undefined values left
 * out. The creation inserts it through the driver; a mongoose document per creation (cast, defaults,
 * validation, toBSON) was CPU only, and CPU per creation bounds the rate on two cores (docs/decisions.md,
 * issue 20). transaction.document.test.ts checks it against what the schema stores. The schema's
 * required fields are refused as the schema would refuse them.
 */
export function storedTransaction(rec: TransactionRecord, outbox: readonly Record<string, unknown>[]): Record<string, unknown> {
  for (const f of ['owner_id', 'reference', 'status', 'attestation_type'] as const)
    if (!nonEmpty(rec[f])) throw new Error(`transaction record: ${f} is required`);
  if (!validDate(rec.created_at)) throw new Error('transaction record: created_at is required');
  if (!Number.isFinite(rec._id)) throw new Error('transaction record: _id must be a number');
  // What only later changes write (a nested schema or a mixed object mongoose would reshape): not a new record's.
  if (rec.erasure_request || rec.legal_hold || rec.signers.some((s) => (s as { trail?: unknown }).trail !== undefined))
    throw new Error('transaction record: a new record carries no erasure request, legal hold or signer trail');
  return defined([
    ['_id', rec._id],
    ['owner_id', rec.owner_id],
    ['issuer_name', or(rec.issuer_name, '')],
    ['reference', rec.reference],
    ['status', rec.status],
    ['attestation_type', rec.attestation_type],
    ['document_name', rec.document_name],
    ['document_key', rec.document_key],
    ['document_sha256', rec.document_sha256],
    ['document_size', rec.document_size],
    ['reference_key', rec.reference_key],
    ['reference_sha256', rec.reference_sha256],
    ['commitment_salt', rec.commitment_salt],
    ['signers', or(rec.signers, []).map(signerDocument)],
    ['viewers', rec.viewers?.map(viewerDocument)],
    // Plain values (domain/form-fields.ts), stored as built: the schema keeps them as they are.
    ['form_fields', rec.form_fields],
    ['log', or(rec.log, []).map(logDocument)],
    ['certificate_issued', or(rec.certificate_issued, false)],
    ['created_at', rec.created_at],
    ['verified_at', or(rec.verified_at, null)],
    ['last_resent_at', or(rec.last_resent_at, null)],
    ['version', or(rec.version, 0)],
    ['retention_days', rec.retention_days],
    ['biometrics_delete_after', or(rec.biometrics_delete_after, null)],
    ['biometrics_erased_at', or(rec.biometrics_erased_at, null)],
    ['erasure_lease', or(rec.erasure_lease, null)],
    ['erasure_lease_until', or(rec.erasure_lease_until, null)],
    ['erasure_request', null],
    ['test', rec.test],
    ['sender_email', rec.sender_email],
    ['idempotency_key', rec.idempotency_key],
    ['created_by', rec.created_by],
    ['expires_at', or(rec.expires_at, null)],
    ['reminder_due_at', or(rec.reminder_due_at, null)],
    ['reminder_every_ms', rec.reminder_every_ms],
    ['reminder_max', rec.reminder_max],
    ['reminders_sent', or(rec.reminders_sent, 0)],
    ['timer_lease', or(rec.timer_lease, null)],
    ['timer_lease_until', or(rec.timer_lease_until, null)],
    ['legal_hold', null],
    ['deleted_at', or(rec.deleted_at, null)],
    ['ended_at', rec.ended_at],
    ['outbox', [...outbox]],
  ]);
}
