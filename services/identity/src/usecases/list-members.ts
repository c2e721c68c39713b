import type { InvitationRecord, InvitationRepository } from '../store/invitation.repository.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { actorWith } from './member-actor.js';

/** The actor's organisation: its members (every role may see who is in it) and pending invitations. */
export async function listMembers(
  deps: Pick<IdentityDeps, 'now'> & {
    users: Pick<UserRepository, 'byId' | 'members'>;
    invitations: Pick<InvitationRepository, 'pending'>;
  },
  actorId: string,
): Promise<{ members: UserRecord[]; invitations: InvitationRecord[] }> {
  const actor = await actorWith(deps, actorId, 'viewer');
  const [members, invitations] = await Promise.all([
    deps.users.members(actor.orgId),
    deps.invitations.pending(actor.orgId, new Date(deps.now())),
  ]);
  return { members, invitations };
}
