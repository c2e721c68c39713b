import { conflict } from '@signet/kit';
import { fieldInvalid } from './errors.js';
import { keyDigest } from './retention.js';
import { isPending, type LogEntry, type Signer, type Viewer } from './transaction.js';

/**
 * Deleting a whole finished transaction and the legal hold that forbids it (issue 21 item 3,
 * docs/privacy.md), as pure functions: what may be deleted, what the tombstone keeps, and the log
 * entries that prove it.
 */

/** A legal hold: while set, nothing of the transaction is deleted (the whole of it, or its biometric data). */
export type LegalHold = { since: Date; reason: string; by: string };

export const MAX_HOLD_REASON = 500;

/** The hold's reason as given: trimmed, at most MAX_HOLD_REASON characters, control characters refused. */
export function holdReason(raw: string | undefined): string {
  const reason = (raw ?? '').trim();
  if (reason.length > MAX_HOLD_REASON) throw fieldInvalid('reason', `must be at most ${MAX_HOLD_REASON} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(reason)) throw fieldInvalid('reason', 'must be one line of text');
  return reason;
}

export const onLegalHold = (what: string, since: Date) =>
  conflict(
    `cannot ${what}: the transaction is on legal hold since ${new Date(since).toISOString()}; release the hold first`,
    'LEGAL_HOLD',
  );

/** Why a transaction cannot be deleted now, or null when it can: pending (cancel it first) or on legal hold. */
export function deletionRefusal(rec: { status: string; legal_hold?: LegalHold | null }) {
  if (isPending(rec.status))
    return conflict(
      `cannot delete a transaction that is ${rec.status}: it is still in progress; cancel it first`,
      'TRANSACTION_PENDING',
    );
  if (rec.legal_hold) return onLegalHold('delete it', rec.legal_hold.since);
  return null;
}

export function holdSetEntry(hold: LegalHold): LogEntry {
  return {
    type: 'legal_hold_set',
    at: hold.since,
    actor: 'sender',
    detail: `legal hold set${hold.reason ? `: ${hold.reason}` : ''}; nothing of this transaction is deleted until it is released`,
  };
}

export function holdReleasedEntry(hold: LegalHold, at: Date): LogEntry {
  return {
    type: 'legal_hold_released',
    at,
    actor: 'sender',
    detail: `legal hold of ${new Date(hold.since).toISOString()} released; deletion and erasure apply again`,
  };
}

/** Log entries that say only what was deleted (hashes, counts): they stay readable on the tombstone. */
const PROOF_TYPES = new Set(['biometrics_erased', 'media_erased', 'transaction_deleted', 'legal_hold_released']);
const SCRUBBED = 'removed when the transaction was deleted';

/** What the transaction record holds that a deletion needs to know: its objects and personal data. */
export type Deletable = {
  document_key: string;
  reference_key: string;
  signers: Signer[];
  viewers?: Viewer[];
  log: LogEntry[];
  biometrics_erased_at?: Date | null;
};

/** Every object the transaction service stores for the transaction: the document and each reference photo. */
export function storedKeys(rec: Pick<Deletable, 'document_key' | 'reference_key' | 'signers'>): string[] {
  const keys = [rec.document_key, rec.reference_key, ...rec.signers.map((s) => s.reference_key ?? '')];
  return [...new Set(keys.filter(Boolean))];
}

/** When the transaction ended: its last status change (the record has no field for it). */
export function endedAt(log: LogEntry[]): Date | null {
  const last = [...log].reverse().find((e) => e.type === 'status_changed' || e.type === 'cancelled');
  return last ? new Date(last.at) : null;
}

/** The entry that proves the deletion: when, by whom, why, and what (object keys only as SHA-256). */
export function deletedEntry(keys: string[], at: Date): LogEntry {
  const what = keys.length
    ? `${keys.length} stored object(s) (key sha256 ${keys.map(keyDigest).join(', ')})`
    : 'no stored objects';
  return {
    type: 'transaction_deleted',
    at,
    actor: 'sender',
    detail: `document and reference photos: ${what}; signed PDF and audit trail at the ledger; capture media at the ceremony; reason sender`,
  };
}

/**
 * The record's fields once deleted (the tombstone): the id, owner, reference, status, document hash,
 * certificate flag and the times stay, so the certificate's log entry still resolves (/api/verify
 * needs the reference and the document hash); names, e-mails, tokens, object keys, the document's
 * name and every log detail that could name someone go. Proof entries (hashes only) stay.
 */
export function tombstone(rec: Deletable, at: Date) {
  const log = rec.log.map((e) => (PROOF_TYPES.has(e.type) ? e : { ...e, detail: SCRUBBED }));
  return {
    deleted_at: at,
    ended_at: endedAt(rec.log),
    document_name: '',
    document_key: '',
    document_size: 0,
    reference_key: '',
    issuer_name: '',
    sender_email: '',
    // The signers' states and media hashes stay (the certificate commits to them); who they were and what their ceremony recorded go.
    signers: rec.signers.map(({ trail: _trail, decline_reason: _why, ...s }: Signer & { trail?: unknown }) => ({
      ...s,
      name: '',
      email: '',
      token: '',
      reference_key: '',
    })),
    viewers: rec.viewers ? [] : undefined,
    erasure_request: null,
    legal_hold: null,
    // The reference photos go with the rest; the capture media's erasure is requested in the same write.
    biometrics_erased_at: rec.biometrics_erased_at ?? at,
    log: [...log, deletedEntry(storedKeys(rec), at)],
  };
}
