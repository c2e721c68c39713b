import type { z } from 'zod';
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
