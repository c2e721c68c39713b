import { achievedAssurance, outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import { commitment } from '../domain/creation.js';
import { stampedFieldsJson } from '../domain/field-stamps.js';
import { trailMessage } from '../domain/trail.js';
import { certifiedChecks, initialInvites, signerReference } from '../domain/signers.js';
import type { Change } from '../domain/transaction.js';
import type { TransactionRecord } from '../store/transaction.repository.js';

/**
 * What this service publishes, encoded once: the outbox entries a creation or a state change writes
 * on the record in the same update. The relay publishes them; nothing else encodes these messages.
 */

export type LinkMailKind = 'invite' | 'reminder';

/**
 * The outbox entry asking for signing-link mail, written in the same update as the creation
 * (invite, round 0) or the resend (reminder, round = the version that update wrote).
 */
export function linkMailRequest(
  rec: Pick<TransactionRecord, '_id' | 'reference' | 'owner_id'>,
  kind: LinkMailKind,
  round: number,
  signerIndexes: number[],
): OutboxEntry {
  return outboxEvent(events.linksRequested, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId: rec._id,
    reference: rec.reference,
    kind,
    round,
    signerIndexes,
    ownerId: rec.owner_id,
  }));
}

/** What the creation puts on the record's outbox: the created event and the request to mail every signer their link. */
export function creationOutbox(
  rec: Pick<TransactionRecord, '_id' | 'owner_id' | 'reference' | 'attestation_type' | 'signers'>,
): OutboxEntry[] {
  return [
    outboxEvent(events.transactionCreated, (m) => ({
      eventId: m.event_id,
      occurredAt: m.occurred_at,
      transactionId: rec._id,
      ownerId: rec.owner_id,
      reference: rec.reference,
      signerCount: rec.signers.length,
      attestationType: rec.attestation_type,
    })),
    // The first order only; the next order's invitations go out as the change that reaches it (routing).
    linkMailRequest(rec, 'invite', 0, initialInvites(rec.signers)),
  ];
}

/**
 * The events a change announces, for the record `rec` it was computed from: the signer's change, the
 * status change, the verification when every signer has now passed, and the reminder the sender asked
 * for (round = the version the update writes).
 */
export function changeOutbox(rec: TransactionRecord, change: Change): OutboxEntry[] {
  const out: OutboxEntry[] = [];
  const sc = change.signerChanged;
  if (sc) {
    out.push(
      outboxEvent(events.signerStateChanged, (m) => ({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: rec._id,
        signerIndex: sc.index,
        from: sc.from,
        to: sc.to,
        attemptsLeft: sc.attempts_left,
      })),
    );
  }
  if (change.status !== rec.status) {
    out.push(
      outboxEvent(events.transactionStatusChanged, (m) => ({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: rec._id,
        from: rec.status,
        to: change.status,
      })),
    );
  }
  const declined = change.declined;
  if (declined)
    out.push(
      outboxEvent(events.signerDeclined, (m) => ({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: rec._id,
        signerIndex: declined.index,
        reference: rec.reference,
        reason: declined.reason,
      })),
    );
  if (change.nowVerified) out.push(verifiedEvent(rec, change));
  if (change.reminder) out.push(linkMailRequest(rec, 'reminder', rec.version + 1, change.reminder.signerIndexes));
  // Each signer is invited once (round 0, like the creation's invitations): the mail record keeps it single.
  if (change.released?.length) out.push(linkMailRequest(rec, 'invite', 0, change.released));
  return out;
}

/** signet.transaction.verified: what the ledger certifies, with salted commitments of the media hashes. */
function verifiedEvent(rec: TransactionRecord, change: Change): OutboxEntry {
  return outboxEvent(events.transactionVerified, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId: rec._id,
    reference: rec.reference,
    documentSha256: rec.document_sha256,
    issuerName: rec.issuer_name,
    attestationType: rec.attestation_type,
    ownerId: rec.owner_id,
    documentName: rec.document_name,
    documentKey: rec.document_key,
    test: rec.test === true,
    // The opening of the commitments: the ledger keeps it beside the certificate for the owner's evidence only.
    commitmentSalt: rec.commitment_salt,
    // The signers' field values (issue 33): the ledger draws them into the signed PDF after the original.
    fieldsJson: stampedFieldsJson(rec.form_fields, change.signers),
    signers: change.signers.map((s) => ({
      name: s.name,
      email: s.email,
      ...certifiedChecks(s),
      videoSha256: commitment(rec.commitment_salt, s.video_sha256),
      frameSha256: commitment(rec.commitment_salt, s.frame_sha256),
      // Each signer's own photo (issue 18); the record's for the first signer of older records.
      referenceSha256: commitment(rec.commitment_salt, signerReference(rec, s).sha256),
      media: {
        videoSha256: s.video_sha256 ?? '',
        frameSha256: s.frame_sha256 ?? '',
        referenceSha256: signerReference(rec, s).sha256 ?? '',
      },
      verifiedAt: (s.verified_at ?? new Date()).toISOString(),
      // The achieved level (live+webauthn for a live capture confirmed by WebAuthn): what the certificate seals.
      assurance: achievedAssurance(s.assurance, s.webauthn_verified),
      trail: trailMessage(s),
      role: s.role ?? 'signer',
      order: s.order ?? 1,
    })),
  }));
}
