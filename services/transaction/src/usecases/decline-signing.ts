import { fieldInvalid, signingTokenNotFound } from '../domain/errors.js';
import { applyDecline, MAX_DECLINE_REASON } from '../domain/lifecycle.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { applyChange, type ChangeDeps } from './apply-change.js';
import { resolveSigningToken } from './resolve-signing-token.js';

export type DeclineDeps = ChangeDeps & {
  repo: Pick<TransactionRepository, 'resolveToken'>;
  tm: Pick<TransactionMetrics, 'declines'>;
};

/**
 * The signer behind a signing link declines (POST /api/sign/{token}/decline): the link must still
 * work (else NOT_FOUND saying why), the reason is at most 500 characters (else INVALID_ARGUMENT and
 * nothing changes). The transaction becomes `declined` in one write with its log entry and the
 * signer.changed, status.changed and signer.declined events; the sender is mailed from those events.
 */
export async function declineSigning(deps: DeclineDeps, token: string, reason: string): Promise<{ status: string; at: Date }> {
  if (reason.trim().length > MAX_DECLINE_REASON) throw fieldInvalid('reason', `must be at most ${MAX_DECLINE_REASON} characters`);
  const { rec, signer } = await resolveSigningToken(deps, token);
  const updated = await applyChange(deps, { id: rec._id }, (state, now) => applyDecline(state, signer.index, reason, now));
  // null only when the record vanished between the two reads: the link no longer works.
  if (!updated) throw signingTokenNotFound();
  deps.tm.declines.inc({});
  return { status: updated.status, at: deps.clock() };
}
