import { clip, type AuditAction, type ClientInfo } from '../domain/audit.js';
import type { AuditRepository } from '../store/audit.repository.js';
import type { UserRecord } from '../store/user.repository.js';
import type { SecurityDeps } from './security-deps.js';

/** The account whose log a user's actions go to: their organisation (its owner's id), else their own. */
export const accountOf = (u: Pick<UserRecord, '_id'> & { org_id?: string | null }) => u.org_id || u._id;

/**
 * Appends one entry to the acting user's account log. Details are names and outcomes, never a
 * password, code, token or key.
 */
export async function recordAudit(
  deps: Pick<SecurityDeps, 'now' | 'securityMetrics'> & { audit: Pick<AuditRepository, 'append'> },
  user: Pick<UserRecord, '_id' | 'email'> & { org_id?: string | null },
  action: AuditAction,
  client: ClientInfo,
  extra: { target?: string; details?: Record<string, string> } = {},
): Promise<void> {
  await deps.audit.append({
    account_id: accountOf(user),
    at: new Date(deps.now()),
    action,
    actor_id: user._id,
    actor_email: user.email,
    target: extra.target ?? '',
    ip: clip(client.ip, 64),
    user_agent: clip(client.userAgent),
    details: extra.details ?? {},
  });
  deps.securityMetrics.audit.inc({ action });
}
