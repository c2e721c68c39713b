import { DomainError, invalid } from '@signet/kit';
import { applyResend } from '../domain/transaction.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord } from '../store/transaction.repository.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/**
 * The sender has the link re-sent to every signer still to sign: pending only, once a minute per
 * transaction. The reminder is requested on the outbox in the same update (round = the version it
 * writes) and mailed by the link-mail consumer, like the invitation.
 */
export async function resendLinks(
  deps: ChangeDeps & { tm: Pick<TransactionMetrics, 'transitions' | 'resends'> },
  req: { ownerId: string; id: number; test?: boolean },
): Promise<TransactionRecord> {
  if (!req.ownerId) throw invalid('owner_id is required');
  try {
    // With an owner, applyChange returns the record or throws: a resend that is allowed always writes.
    const updated = (await applyChange(deps, req, (s, now) => applyResend(s, now)))!;
    deps.tm.resends.inc({ result: 'sent' });
    return updated;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'rate_limited') deps.tm.resends.inc({ result: 'rate_limited' });
    throw err;
  }
}
