import type { transactionV1 } from '@signet/proto';
import type { TransactionRecord } from '../store/transaction.repository.js';

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
  };
}

export function toDetail(rec: TransactionRecord): transactionV1.TransactionDetail {
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
    })),
    events: rec.log.map((e) => ({ type: e.type, at: new Date(e.at).toISOString(), actor: e.actor, detail: e.detail })),
  };
}
