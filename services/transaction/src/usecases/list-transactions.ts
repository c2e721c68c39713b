import { invalid } from '@signet/kit';
import { STATUSES, type Status } from '../domain/transaction.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_QUERY = 100;

const encodeCursor = (id: number) => Buffer.from(`id:${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const m = /^id:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw invalid('cursor is not valid');
  return Number(m[1]);
}

/**
 * One page of the owner's transactions, newest first: `limit` (≤ 200, 0 = 50) after the opaque
 * `cursor`, optionally only one `status` and those matching `query` (see the repository's listFilter).
 * `nextCursor` is empty on the last page.
 */
export async function listTransactions(
  deps: { repo: Pick<TransactionRepository, 'list'> },
  req: { ownerId: string; limit: number; cursor: string; status: string; query: string; test?: boolean },
): Promise<{ items: TransactionRecord[]; nextCursor: string }> {
  if (!req.ownerId) throw invalid('owner_id is required');
  if (req.limit < 0 || req.limit > MAX_LIMIT) throw invalid(`limit must be between 1 and ${MAX_LIMIT}`);
  const limit = req.limit || DEFAULT_LIMIT;
  const before = req.cursor ? decodeCursor(req.cursor) : undefined;
  if (req.status && !(STATUSES as readonly string[]).includes(req.status))
    throw invalid(`status must be one of ${STATUSES.join(', ')}`);
  const query = req.query.trim();
  if (query.length > MAX_QUERY) throw invalid(`query must be at most ${MAX_QUERY} characters`);
  const recs = await deps.repo.list(req.ownerId, limit + 1, before, {
    ...(req.status ? { status: req.status as Status } : {}),
    ...(query ? { query } : {}),
    test: req.test ?? false,
  });
  const items = recs.slice(0, limit);
  return { items, nextCursor: recs.length > limit ? encodeCursor(items.at(-1)!._id) : '' };
}
