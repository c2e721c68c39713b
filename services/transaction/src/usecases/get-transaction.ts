import { invalid } from '@signet/kit';
import { transactionNotFound } from '../domain/errors.js';
import type { LinkMailKey, TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

export type TransactionWithMails = { rec: TransactionRecord; mails: (LinkMailKey & { result: string; at: Date })[] };

/** One of the owner's transactions with the signing-link mails handled for it; another owner's is NOT_FOUND. */
export async function getTransaction(
  deps: { repo: Pick<TransactionRepository, 'findOwned' | 'linkMailsOf'> },
  req: { ownerId: string; id: number; test?: boolean },
): Promise<TransactionWithMails> {
  if (!req.ownerId) throw invalid('owner_id is required');
  const rec = req.id > 0 ? await deps.repo.findOwned(req.ownerId, req.id, req.test ?? false) : null;
  if (!rec) throw transactionNotFound();
  return { rec, mails: await deps.repo.linkMailsOf(rec._id) };
}
