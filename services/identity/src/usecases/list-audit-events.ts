import { forbidden, invalid } from '@signet/kit';
import { decodeCursor, encodeCursor } from '../domain/audit.js';
import type { AuditRecord, AuditRepository } from '../store/audit.repository.js';
import { userNotFound } from '../domain/errors.js';
import type { UserRepository } from '../store/user.repository.js';
import { accountOf } from './record-audit.js';

export const AUDIT_PAGE_MAX = 500;

export type AuditQuery = {
  userId: string;
  actorId: string;
  action: string;
  from: string;
  to: string;
  limit: number;
  cursor: string;
};

function time(v: string, field: string): Date | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw invalid(`${field} must be an ISO 8601 time`);
  return d;
}

/** A page of the reading user's account log, newest first; the cursor continues after its last entry. */
export async function listAuditEvents(
  deps: { users: Pick<UserRepository, 'byId'>; audit: Pick<AuditRepository, 'page'> },
  q: AuditQuery,
): Promise<{ events: AuditRecord[]; nextCursor: string }> {
  const user = await deps.users.byId(q.userId);
  if (!user) throw userNotFound();
  // Owners and admins read the log (a user without a stored role owns their own account).
  const role = (user as { role?: string | null }).role;
  if (role && role !== 'owner' && role !== 'admin') throw forbidden('the audit log is for owners and admins');
  const limit = q.limit || 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX) throw invalid(`limit must be 1 to ${AUDIT_PAGE_MAX}`);
  const before = q.cursor ? decodeCursor(q.cursor) : undefined;
  if (before === null) throw invalid('cursor is not one this API returned');
  if (q.action.length > 100) throw invalid('action must be at most 100 characters');
  const filter = {
    accountId: accountOf(user),
    actorId: q.actorId || undefined,
    action: q.action || undefined,
    from: time(q.from, 'from'),
    to: time(q.to, 'to'),
    before,
  };
  const rows = await deps.audit.page(filter, limit + 1);
  const events = rows.slice(0, limit);
  const last = events[events.length - 1];
  return { events, nextCursor: rows.length > limit && last ? encodeCursor(last.at, last._id) : '' };
}
