// The stored shapes of the transaction service: its records, their schemas and the indexes each query needs.
import { Schema } from 'mongoose';
import { outboxField, outboxIndex } from '@signet/kit';
import type { LegalHold } from '../domain/deletion.js';
import type { FormField } from '../domain/form-fields.js';
import type { ErasureRequest } from '../domain/retention.js';
import type { AttestationType, LogEntry, Signer, Status, Viewer } from '../domain/transaction.js';

export type TransactionRecord = {
  _id: number;
  owner_id: string;
  issuer_name: string;
  reference: string;
  status: Status;
  attestation_type: AttestationType;
  document_name: string;
  document_key: string;
  document_sha256: string;
  document_size: number;
  reference_key: string;
  reference_sha256: string;
  commitment_salt: string;
  signers: Signer[];
  /** Parties who only receive the result (absent on older records). */
  viewers?: Viewer[];
  /** The fields placed on the document, each filled by one signer (issue 33; absent: none). */
  form_fields?: FormField[];
  log: LogEntry[];
  certificate_issued: boolean;
  created_at: Date;
  verified_at: Date | null;
  last_resent_at: Date | null;
  /** Bumped by every update; transitions are conditional on it, so racing writers cannot both win. */
  version: number;
  /** Days the biometric data is kept after the end (fixed at creation, stated in the consent; docs/privacy.md). */
  retention_days?: number;
  /** Set when the transaction ends: when its biometric data is due for erasure. */
  biometrics_delete_after?: Date | null;
  /** Set once the reference photo is erased and the capture media's erasure is requested. */
  biometrics_erased_at?: Date | null;
  /** The replica erasing it now, and until when its claim holds (a killed one's claim expires). */
  erasure_lease?: string | null;
  erasure_lease_until?: Date | null;
  /** A signer's erasure request through the completion mail's link (usecases/request-signer-erasure.ts). */
  erasure_request?: ErasureRequest | null;
  /** Made with a test-mode API key: free, never listed with live data, sealed in the ledger's test log. Absent: live. */
  test?: boolean;
  /** Where sender notifications go (the creating user's email; absent on older records: none are sent). */
  sender_email?: string;
  /** The Idempotency-Key the transaction was created under (as given), if any: a bulk job finds a row's transaction by it after a crash. */
  idempotency_key?: string;
  /** The member of the organisation who created it (issue 34); absent on older records (their owner's). */
  created_by?: string;
  /** Lifecycle timers (domain/lifecycle.ts, jobs/lifecycle-timers.job.ts); absent on records written before them. */
  expires_at?: Date | null;
  reminder_due_at?: Date | null;
  reminder_every_ms?: number;
  reminder_max?: number;
  reminders_sent?: number;
  /** The replica running this record's due timer now, and until when its claim holds. */
  timer_lease?: string | null;
  timer_lease_until?: Date | null;
  /** The owner's legal hold: while set nothing of the transaction is deleted (domain/deletion.ts). */
  legal_hold?: LegalHold | null;
  /** Set when the owner deleted the transaction: the record is a tombstone from then on (domain/deletion.ts). */
  deleted_at?: Date | null;
  /** When it ended (its last status change), kept on the tombstone. */
  ended_at?: Date | null;
};

const signerSchema = new Schema(
  {
    index: Number,
    name: String,
    email: String,
    token: String,
    state: String,
    verification_mode: String,
    attempts_left: Number,
    capture_id: { type: String, default: '' },
    attempt: { type: Number, default: 0 },
    video_sha256: { type: String, default: '' },
    frame_sha256: { type: String, default: '' },
    verified_at: { type: Date, default: null },
    assurance: { type: String, default: '' },
    // What the ceremony recorded, for the signed PDF's audit trail (domain/trail.ts; absent on older records).
    trail: { type: Object, default: undefined },
    decline_reason: { type: String },
    role: { type: String, default: 'signer' },
    order: { type: Number, default: 1 },
    reference_key: { type: String, default: '' },
    reference_sha256: { type: String, default: '' },
    webauthn: { type: Boolean, default: false },
    webauthn_verified: { type: Boolean, default: false },
    // No default: a record written before the requirement existed has none (read as recorded).
    required_assurance: { type: String },
    // The language the sender chose for this signer (absent: not chosen).
    locale: { type: String },
    // The values of this signer's fields and their adopted signature/initials (issue 33; absent: none submitted).
    fields: { type: Object, default: undefined },
  },
  { _id: false },
);

const viewerSchema = new Schema({ name: String, email: String, order: Number, locale: String }, { _id: false });

export const transactionSchema = new Schema(
  {
    _id: Number,
    owner_id: { type: String, required: true },
    issuer_name: { type: String, default: '' },
    reference: { type: String, required: true },
    status: { type: String, required: true },
    attestation_type: { type: String, required: true },
    document_name: String,
    document_key: String,
    document_sha256: String,
    document_size: Number,
    reference_key: String,
    reference_sha256: String,
    commitment_salt: String,
    signers: [signerSchema],
    viewers: { type: [viewerSchema], default: undefined },
    // The fields placed on the document (domain/form-fields.ts; absent: none).
    form_fields: { type: [Object], default: undefined },
    log: [{ _id: false, type: { type: String }, at: Date, actor: String, detail: String }],
    certificate_issued: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
    verified_at: { type: Date, default: null },
    last_resent_at: { type: Date, default: null },
    version: { type: Number, default: 0 },
    retention_days: { type: Number },
    biometrics_delete_after: { type: Date, default: null },
    biometrics_erased_at: { type: Date, default: null },
    erasure_lease: { type: String, default: null },
    erasure_lease_until: { type: Date, default: null },
    erasure_request: {
      type: { _id: false, by: String, at: Date, due: Date, sender_notified_at: { type: Date, default: null } },
      default: null,
    },
    test: { type: Boolean },
    sender_email: { type: String },
    idempotency_key: { type: String },
    created_by: { type: String },
    expires_at: { type: Date, default: null },
    reminder_due_at: { type: Date, default: null },
    reminder_every_ms: { type: Number },
    reminder_max: { type: Number },
    reminders_sent: { type: Number, default: 0 },
    timer_lease: { type: String, default: null },
    timer_lease_until: { type: Date, default: null },
    legal_hold: { type: { _id: false, since: Date, reason: String, by: String }, default: null },
    deleted_at: { type: Date, default: null },
    ended_at: { type: Date },
    outbox: outboxField,
  },
  { collection: 'transactions', versionKey: false },
);
// The list and the export read one owner's transactions newest first, paged by id. A search (q) walks
// this index too: the owner bounds it, and the text match is checked on each record in id order until
// the page is full (an unanchored case-insensitive match cannot use an index on MongoDB either).
transactionSchema.index({ owner_id: 1, _id: -1 });
// The list filtered by status: equality on owner and status, already in id order, so a page is a
// range scan that stops at the limit however many transactions the owner has in other statuses.
transactionSchema.index({ owner_id: 1, status: 1, _id: -1 });
// A certificate reference belongs to exactly one transaction.
transactionSchema.index({ reference: 1 }, { unique: true });
transactionSchema.index(...outboxIndex);
// The orphan sweep asks which of a batch of stored object keys a record points to.
transactionSchema.index({ document_key: 1 });
transactionSchema.index({ reference_key: 1 });
// A signer's own reference photo (issue 18), found by the orphan sweep.
transactionSchema.index({ 'signers.reference_key': 1 });
// The erasure job asks which ended transactions are due and not yet erased.
transactionSchema.index({ biometrics_delete_after: 1, biometrics_erased_at: 1 });
// The lifecycle timer job asks which pending transactions have expired or owe a reminder.
transactionSchema.index({ expires_at: 1 });
transactionSchema.index({ reminder_due_at: 1 });
// A creation interrupted after its write is found by its Idempotency-Key (bulk send resuming a row).
transactionSchema.index({ idempotency_key: 1 }, { sparse: true });

// An account's settings this service applies, as identity.settings.changed carried them: _id is the
// owner id; `at` (the retention's) and `<setting>_at` are the event's time, so an older event arriving
// late does not overwrite a newer one (store/account-settings.repository.ts).
export const accountSettingsSchema = new Schema(
  {
    _id: String,
    retention_days: Number,
    at: Date,
    expiry_days: Number,
    expiry_days_at: Date,
    reminder_first_after_hours: Number,
    reminder_first_after_hours_at: Date,
    reminder_every_hours: Number,
    reminder_every_hours_at: Date,
    reminder_max: Number,
    reminder_max_at: Date,
  },
  { collection: 'account_settings', versionKey: false },
);

// Integer ids: one counter document per sequence, advanced with $inc (race-free across replicas).
export const counterSchema = new Schema({ _id: String, seq: Number }, { collection: 'counters', versionKey: false });

// Every reference ever handed out, never deleted: a reference is not reused even when its creation failed later.
export const referenceSchema = new Schema({ _id: String, at: Date }, { collection: 'references', versionKey: false });

// Signing token → signer. _id is the token itself, so lookups are by the primary key.
export const tokenSchema = new Schema(
  { _id: String, transaction_id: Number, signer_index: Number },
  { collection: 'signing_tokens', versionKey: false },
);

// Idempotency-Key records; expired in code after 24 h (FerretDB has no TTL indexes).
export const idempotencySchema = new Schema(
  {
    owner_id: String,
    key: String,
    fingerprint: String,
    state: String,
    result: Object,
    created_at: Date,
  },
  { collection: 'idempotency_keys', versionKey: false },
);
// One record per (account, key): the unique index makes claiming a key race-free.
idempotencySchema.index({ owner_id: 1, key: 1 }, { unique: true });

// Signing-link mails sent: _id is `<transaction>:<signer>:<kind>:<round>`, written right after SMTP
// accepted the mail, so a redelivered request finds it and does not mail again.
export const linkMailSchema = new Schema(
  { _id: String, transaction_id: Number, signer_index: Number, kind: String, round: Number, result: String, at: Date },
  { collection: 'link_mails', versionKey: false },
);
// A transaction's timeline reads its mails.
linkMailSchema.index({ transaction_id: 1 });

export type LinkMailKey = { transaction_id: number; signer_index: number; kind: string; round: number };
export const linkMailId = (k: LinkMailKey) => `${k.transaction_id}:${k.signer_index}:${k.kind}:${k.round}`;

export type IdempotencyRecord = {
  _id: unknown;
  owner_id: string;
  key: string;
  fingerprint: string;
  state: 'pending' | 'done';
  result: Record<string, unknown> | null;
  created_at: Date;
};
