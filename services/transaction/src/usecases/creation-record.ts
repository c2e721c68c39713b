import { randomBytes } from 'node:crypto';
import { newSigningToken, type CreationFields } from '../domain/creation.js';
import type { FormField } from '../domain/form-fields.js';
import { retentionDays } from '../domain/retention.js';
import { initialInvites, modeOf } from '../domain/signers.js';
import { newSigner, type Signer, type Viewer } from '../domain/transaction.js';
import type { TransactionRecord } from '../store/transaction.repository.js';
import type { CreateDeps, StoredRefs } from './create-from-stored.js';
import type { Begin } from './creation-upload.js';

/** The record of a new transaction: its signers with their tokens, viewers, log and timers. */
export function newRecord(
  deps: Pick<CreateDeps, 'clock' | 'cfg'>,
  id: number,
  reference: string,
  begin: Begin,
  fields: CreationFields,
  doc: { key: string; sha256: string; size: number },
  refs: StoredRefs,
  /** The account's biometric retention (identity.settings.changed), if it set one. */
  accountDays: number | undefined,
  /** The fields placed on the document (issue 33). */
  formFields: FormField[] = [],
): TransactionRecord {
  const now = deps.clock();
  const signers: Signer[] = [];
  const viewers: Viewer[] = [];
  fields.parties.forEach((p, i) => {
    if (p.role === 'viewer')
      return viewers.push({ name: p.name, email: p.email, order: p.order, ...(p.locale ? { locale: p.locale } : {}) });
    const opts = {
      role: p.role,
      order: p.order,
      webauthn: p.webauthn,
      required_assurance: p.required_assurance,
      locale: p.locale,
      reference: refs.get(i),
    };
    const mode = modeOf(p.verification === 'none' ? 'liveness_only' : p.verification);
    signers.push(newSigner(signers.length, p.name, p.email, newSigningToken(), deps.cfg.MAX_ATTEMPTS, { mode, ...opts }));
  });
  const invited = new Set(initialInvites(signers));
  const first = signers[0]!;
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
    // The first signer's photo, where records before issue 18 kept the only one.
    reference_key: first.reference_key ?? '',
    reference_sha256: first.reference_sha256 ?? '',
    commitment_salt: randomBytes(16).toString('hex'),
    signers,
    ...(viewers.length ? { viewers } : {}),
    ...(formFields.length ? { form_fields: formFields } : {}),
    log: [
      {
        type: 'created',
        at: now,
        actor: 'sender',
        detail: `created for ${signers.length} signer(s)${viewers.length ? ` and ${viewers.length} viewer(s)` : ''}`,
      },
      ...(formFields.length
        ? [{ type: 'fields_placed', at: now, actor: 'sender', detail: `${formFields.length} field(s) placed on the document` }]
        : []),
      // Requested here for the first order; the link-mail consumer sends it, and the timeline shows the mail from its record.
      ...signers
        .filter((s) => invited.has(s.index))
        .map((s) => ({ type: 'link_requested', at: now, actor: 'system', detail: `signing link queued for ${s.email}` })),
    ],
    certificate_issued: false,
    created_at: now,
    verified_at: null,
    last_resent_at: null,
    version: 0,
    retention_days: retentionDays(accountDays, deps.cfg.BIOMETRIC_RETENTION_DAYS, deps.cfg.BIOMETRIC_RETENTION_MAX_DAYS),
    biometrics_delete_after: null,
    biometrics_erased_at: null,
    ...(begin.test ? { test: true } : {}),
    ...(begin.senderEmail ? { sender_email: begin.senderEmail } : {}),
    ...(begin.idempotencyKey ? { idempotency_key: begin.idempotencyKey } : {}),
    ...(begin.createdBy ? { created_by: begin.createdBy } : {}),
    ...begin.timers,
  };
}
