import { signingLinkEnded, signingTokenNotFound } from '../domain/errors.js';
import { isExpired } from '../domain/lifecycle.js';
import { isPending, type Signer } from '../domain/transaction.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

/**
 * A signing link's signer and transaction, for the ceremony; unknown, cancelled or finished → NOT_FOUND.
 * A declined or expired one (past `expires_at`, even before the expiry job ran) → NOT_FOUND saying so.
 */
export async function resolveSigningToken(
  deps: { repo: Pick<TransactionRepository, 'resolveToken' | 'findById'>; clock?: () => Date },
  token: string,
): Promise<{ rec: TransactionRecord; signer: Signer }> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) throw signingTokenNotFound();
  const t = await deps.repo.resolveToken(token);
  const rec = t ? await deps.repo.findById(t.transaction_id) : null;
  const signer = rec?.signers[t!.signer_index];
  if (!rec || !signer || signer.token !== token) throw signingTokenNotFound();
  if (rec.status === 'declined') throw signingLinkEnded('declined');
  if (rec.status === 'expired' || (isPending(rec.status) && isExpired(rec.expires_at, (deps.clock ?? (() => new Date()))())))
    throw signingLinkEnded('expired');
  if (!isPending(rec.status)) throw signingTokenNotFound();
  return { rec, signer };
}
