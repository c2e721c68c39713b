import { invalid } from '@signet/kit';
import { RECORDABLE, type AuditAction, type ClientInfo } from '../domain/audit.js';
import { userNotFound } from '../domain/errors.js';
import type { AuditRepository } from '../store/audit.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import { recordAudit } from './record-audit.js';
import type { SecurityDeps } from './security-deps.js';

const MAX_DETAILS = 10;
const MAX_TEXT = 200;

/**
 * RecordAuditEvent: an entry for an action identity did not write itself (another service deleted a
 * transaction) or a read with no write to ride on (an export), made by the member named. Only the
 * RECORDABLE actions, at most ten short details; the gateway sends names and counts, never content.
 */
export async function recordAuditEvent(
  deps: Pick<SecurityDeps, 'now' | 'securityMetrics'> & {
    users: Pick<UserRepository, 'byId'>;
    audit: Pick<AuditRepository, 'append'>;
  },
  input: { userId: string; action: string; target: string; details: Record<string, string>; client: ClientInfo },
): Promise<void> {
  if (!RECORDABLE.includes(input.action as AuditAction)) throw invalid(`action must be one of ${RECORDABLE.join(', ')}`);
  const details = Object.entries(input.details ?? {});
  if (details.length > MAX_DETAILS) throw invalid(`at most ${MAX_DETAILS} details`);
  if (input.target.length > MAX_TEXT || details.some(([k, v]) => k.length > 64 || v.length > MAX_TEXT))
    throw invalid(`target and details must be at most ${MAX_TEXT} characters`);
  const user = input.userId ? await deps.users.byId(input.userId) : null;
  if (!user) throw userNotFound();
  await recordAudit(deps, user, input.action as AuditAction, input.client, {
    target: input.target,
    details: Object.fromEntries(details),
  });
}
