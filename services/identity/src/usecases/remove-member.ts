import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import { founderStays, memberNotFound, notAllowed } from '../domain/errors.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import { mayManage, roleOf } from '../domain/roles.js';
import { memberChangedEvent } from '../events/member-changed.publisher.js';
import type { ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { actorWith } from './member-actor.js';

/**
 * Removes a member: their user is deleted (sessions and keys no longer resolve to anyone) and their
 * keys are revoked too; the gateway drops its cached credentials after this answers. The founding
 * owner stays; admins remove anyone but owners; a member may also leave (remove themselves).
 * The transactions they created stay the organisation's. The removal's event and audit entry go on
 * the organisation's document right after the member's is deleted (two documents: see the decision).
 */
export async function removeMember(
  deps: Pick<IdentityDeps, 'metrics' | 'onUserCreated'> & {
    users: Pick<UserRepository, 'byId' | 'removeMember' | 'pushEvent'>;
    apiKeys: Pick<ApiKeyRepository, 'revokeAllOf'>;
  },
  input: { actorId: string; userId: string; client?: ClientInfo },
): Promise<void> {
  const self = input.actorId === input.userId;
  const actor = await actorWith(deps, input.actorId, self ? 'viewer' : 'admin');
  if (input.userId === actor.orgId) throw founderStays();
  const target = input.userId ? await deps.users.byId(input.userId) : null;
  if (!target || target.org_id !== actor.orgId) throw memberNotFound();
  if (!self && !mayManage(actor.role, roleOf(target))) throw notAllowed(`an ${actor.role} cannot remove an ${roleOf(target)}`);
  if (!(await deps.users.removeMember(actor.orgId, target._id))) throw memberNotFound();
  await deps.apiKeys.revokeAllOf(target._id);
  await deps.users.pushEvent(actor.orgId, [
    memberChangedEvent('removed', {
      orgId: actor.orgId,
      actorId: actor.user._id,
      memberId: target._id,
      email: target.email,
      role: '',
      previousRole: roleOf(target),
    }),
    auditRecordedEvent({
      action: 'member.removed',
      actor: actor.user,
      client: input.client ?? NO_CLIENT,
      target: target._id,
      details: { email: target.email, previous_role: roleOf(target), ...(self ? { left: 'true' } : {}) },
    }),
  ]);
  deps.onUserCreated();
  deps.metrics.members.inc({ action: 'removed' });
}
