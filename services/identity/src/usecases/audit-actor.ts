import { NO_CLIENT, type AuditActor, type ClientInfo } from '../domain/audit.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';

/** Who a change to an account was made by, as the gateway names them (actorId empty: the account's owner). */
export type AuditBy = { actorId?: string; client?: ClientInfo };

/**
 * The member an account change is attributed to: the one the gateway named when they belong to the
 * account, else the account's owner (a call without metadata, e.g. an operator's script).
 */
export async function auditActorOf(
  deps: { users: Pick<UserRepository, 'byId'> },
  owner: UserRecord,
  by: AuditBy = {},
): Promise<{ actor: AuditActor; client: ClientInfo }> {
  const client = by.client ?? NO_CLIENT;
  if (!by.actorId || by.actorId === owner._id) return { actor: owner, client };
  const member = await deps.users.byId(by.actorId);
  const account = owner.org_id || owner._id;
  if (member && (member.org_id || member._id) === account) return { actor: member, client };
  return { actor: owner, client };
}
