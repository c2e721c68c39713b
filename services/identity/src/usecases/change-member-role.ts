import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import { founderStays, memberNotFound, notAllowed } from '../domain/errors.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import { checkRole, mayManage, roleOf } from '../domain/roles.js';
import { memberChangedEvent } from '../events/member-changed.publisher.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { actorWith } from './member-actor.js';

/**
 * Gives a member another role. Admins move members between viewer, sender and admin; only owners
 * touch owners or make one. The founding owner (whose id is the organisation's) stays owner, so an
 * organisation always has one. A lower role takes effect on the member's next request (the gateway
 * drops its cached credentials). The role, its event and its audit entry are one write.
 */
export async function changeMemberRole(
  deps: Pick<IdentityDeps, 'metrics' | 'onUserCreated'> & { users: Pick<UserRepository, 'byId' | 'setRole'> },
  input: { actorId: string; userId: string; role: string; client?: ClientInfo },
): Promise<UserRecord> {
  const actor = await actorWith(deps, input.actorId, 'admin');
  const role = checkRole(input.role);
  if (input.userId === actor.orgId) throw founderStays();
  const target = input.userId ? await deps.users.byId(input.userId) : null;
  if (!target || target.org_id !== actor.orgId) throw memberNotFound();
  if (!mayManage(actor.role, roleOf(target)) || !mayManage(actor.role, role))
    throw notAllowed(`an ${actor.role} cannot change an ${roleOf(target)} to ${role}`);
  const event = memberChangedEvent('role_changed', {
    orgId: actor.orgId,
    actorId: actor.user._id,
    memberId: target._id,
    email: target.email,
    role,
    previousRole: roleOf(target),
  });
  const audit = auditRecordedEvent({
    action: 'member.role_changed',
    actor: actor.user,
    client: input.client ?? NO_CLIENT,
    target: target._id,
    details: { email: target.email, role, previous_role: roleOf(target) },
  });
  const before = await deps.users.setRole(actor.orgId, target._id, role, [event, audit]);
  if (!before) throw memberNotFound();
  deps.onUserCreated();
  deps.metrics.members.inc({ action: 'role_changed' });
  return { ...before, role };
}
