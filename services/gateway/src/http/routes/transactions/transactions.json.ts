import type { z } from 'zod';
import { achievedAssurance, assuranceMeaning, lowestAssurance, type AssuranceLevel } from '@signet/kit';
import type { transactionV1 } from '@signet/proto';
import type { summarySchema } from './transactions.schemas.js';

/** The summary as the spec names its fields; verified_at only once verified. */
export function summaryJson(s: transactionV1.TransactionSummary): z.input<typeof summarySchema> {
  return {
    id: Number(s.id),
    token: s.token,
    signer_name: s.signerName,
    signer_email: s.signerEmail,
    status: s.status as z.input<typeof summarySchema>['status'],
    verification_mode: s.verificationMode,
    created_at: s.createdAt,
    ...(s.verifiedAt ? { verified_at: s.verifiedAt } : {}),
    reference: s.reference,
    test: s.test,
  };
}

/** A signer's achieved assurance and its sentence; both null until the signer passed (the level is then set). */
export function signerAssuranceJson(s: Pick<transactionV1.Signer, 'assurance'>): {
  assurance: AssuranceLevel | null;
  assurance_meaning: string | null;
} {
  if (!s.assurance) return { assurance: null, assurance_meaning: null };
  const level = achievedAssurance(s.assurance, false);
  return { assurance: level, assurance_meaning: assuranceMeaning(level) };
}

/**
 * What the transaction proves as a whole once every signer passed: the weakest signer's level (what
 * its certificate proves, and what a relying party relies on); null while any signer has not passed.
 */
export function transactionAssuranceJson(signers: Pick<transactionV1.Signer, 'assurance'>[]): {
  assurance: AssuranceLevel | null;
  assurance_meaning: string | null;
} {
  const levels = signers.map((s) => signerAssuranceJson(s).assurance);
  const lowest = levels.every((l) => l !== null) ? lowestAssurance(levels as AssuranceLevel[]) : undefined;
  return lowest
    ? { assurance: lowest, assurance_meaning: assuranceMeaning(lowest) }
    : { assurance: null, assurance_meaning: null };
}
