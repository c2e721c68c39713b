import type { transactionV1 } from '@signet/proto';
import { achievedSignerAssurance } from '../domain/assurance.js';
import { fieldsComplete } from '../domain/field-values.js';
import { LEGACY_ASSURANCE, signerReference } from '../domain/signers.js';
import type { Signer } from '../domain/transaction.js';
import type { LinkMailKey, TransactionRecord } from '../store/transaction.repository.js';

/** What the signer must prove; a record from before the requirement existed asked for none (recorded). */
const requiredAssuranceOfSigner = (s: Signer) => s.required_assurance || LEGACY_ASSURANCE;

export function toSummary(rec: TransactionRecord): transactionV1.TransactionSummary {
  const primary = rec.signers[0]!;
  return {
    id: rec._id,
    token: primary.token,
    signerName: primary.name,
    signerEmail: primary.email,
    status: rec.status,
    verificationMode: primary.verification_mode,
    createdAt: rec.created_at.toISOString(),
    verifiedAt: rec.status === 'ledger_issued' && rec.verified_at ? rec.verified_at.toISOString() : '',
    reference: rec.reference,
    test: rec.test === true,
  };
}

type MailRecord = LinkMailKey & { result: string; at: Date };

/** A handled signing-link mail as a timeline entry: sent when the SMTP server took it, else refused. */
function mailEntry(rec: TransactionRecord, m: MailRecord) {
  // The sender's notices (usecases/notify-sender.ts) are kept with the link mails as kind sender_<event>.
  if (m.kind.startsWith('sender_')) {
    const about = m.kind.slice('sender_'.length).replace('_', ' ');
    return m.result === 'sent'
      ? { type: 'sender_notified', at: new Date(m.at), actor: 'system', detail: `sender notified: ${about}` }
      : {
          type: 'sender_notice_refused',
          at: new Date(m.at),
          actor: 'system',
          detail: `notice to the sender (${about}) refused by the mail server`,
        };
  }
  const email = rec.signers[m.signer_index]?.email ?? `signer ${m.signer_index}`;
  const what = m.kind === 'reminder' ? 'reminder' : 'signing link';
  return m.result === 'sent'
    ? { type: 'link_mailed', at: new Date(m.at), actor: 'system', detail: `${what} mailed to ${email}` }
    : { type: 'link_refused', at: new Date(m.at), actor: 'system', detail: `${what} to ${email} refused by the mail server` };
}

/** `defaultRetentionDays`: for records written before the retention was stored on them. */
export function toDetail(
  rec: TransactionRecord,
  mails: MailRecord[] = [],
  defaultRetentionDays = 30,
): transactionV1.TransactionDetail {
  // the stored log and the mail records, in time order (a stable sort keeps same-time log order)
  const timeline = [...rec.log.map((e) => ({ ...e, at: new Date(e.at) })), ...mails.map((m) => mailEntry(rec, m))].sort(
    (a, b) => a.at.getTime() - b.at.getTime(),
  );
  return {
    summary: toSummary(rec),
    attestationType: rec.attestation_type,
    documentName: rec.document_name,
    documentSha256: rec.document_sha256,
    signers: rec.signers.map((s) => ({
      index: s.index,
      name: s.name,
      email: s.email,
      state: s.state,
      verificationMode: s.verification_mode,
      attemptsLeft: s.attempts_left,
      role: s.role ?? 'signer',
      order: s.order ?? 1,
      webauthn: s.webauthn ?? false,
      requiredAssurance: requiredAssuranceOfSigner(s),
      assurance: achievedSignerAssurance(s) ?? '',
      locale: s.locale ?? '',
    })),
    events: timeline.map((e) => ({ type: e.type, at: e.at.toISOString(), actor: e.actor, detail: e.detail })),
    retentionDays: rec.retention_days ?? defaultRetentionDays,
    biometricsDeleteAfter: rec.biometrics_delete_after ? new Date(rec.biometrics_delete_after).toISOString() : undefined,
    biometricsErasedAt: rec.biometrics_erased_at ? new Date(rec.biometrics_erased_at).toISOString() : undefined,
    viewers: (rec.viewers ?? []).map((v) => ({ name: v.name, email: v.email, order: v.order })),
    expiresAt: rec.expires_at ? new Date(rec.expires_at).toISOString() : undefined,
    nextReminderAt: rec.reminder_due_at ? new Date(rec.reminder_due_at).toISOString() : undefined,
    remindersSent: rec.reminders_sent ?? 0,
    reminderMax: rec.reminder_max ?? 0,
    legalHold: rec.legal_hold
      ? { since: new Date(rec.legal_hold.since).toISOString(), reason: rec.legal_hold.reason ?? '' }
      : undefined,
    createdBy: rec.created_by ?? '',
    createdByEmail: rec.created_by ? (rec.sender_email ?? '') : '',
  };
}

/** What the ceremony needs of a signing link: the signer and the transaction's context. */
/** `defaultRetentionDays`: for records written before the retention was stored on them. */
export function toSigningContext(
  rec: TransactionRecord,
  signer: Signer,
  defaultRetentionDays: number,
): transactionV1.SigningContext {
  return {
    transactionId: rec._id,
    signerIndex: signer.index,
    signerName: signer.name,
    signerEmail: signer.email,
    signerState: signer.state,
    transactionStatus: rec.status,
    documentName: rec.document_name,
    documentSha256: rec.document_sha256,
    documentKey: rec.document_key,
    // Each face-match signer is matched against their own photo (issue 18).
    referenceKey: signerReference(rec, signer).key,
    attestationType: rec.attestation_type,
    issuerName: rec.issuer_name,
    verificationMode: signer.verification_mode,
    attemptsLeft: signer.attempts_left,
    retentionDays: rec.retention_days ?? defaultRetentionDays,
    signerRole: signer.role ?? 'signer',
    webauthnRequired: signer.webauthn ?? false,
    requiredAssurance: requiredAssuranceOfSigner(signer),
    ownerId: rec.owner_id,
    locale: signer.locale ?? '',
    fieldsPending: !fieldsComplete(rec.form_fields ?? [], signer, new Date()),
  };
}
