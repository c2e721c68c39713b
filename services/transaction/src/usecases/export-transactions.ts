import { invalid } from '@signet/kit';
import type { TransactionRepository } from '../store/transaction.repository.js';

/** All of the owner's transactions, newest first, as a database cursor (never all in memory); close it when done. */
export function exportTransactions(
  deps: { repo: Pick<TransactionRepository, 'cursor'> },
  req: { ownerId: string; test?: boolean },
): ReturnType<TransactionRepository['cursor']> {
  if (!req.ownerId) throw invalid('owner_id is required');
  return deps.repo.cursor(req.ownerId, req.test ?? false);
}
