import { invitationNotFound } from '../domain/errors.js';
import type { InvitationRepository } from '../store/invitation.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { actorWith } from './member-actor.js';

/** Withdraws a pending invitation of the actor's organisation: its code stops working. */
export async function revokeInvitation(
  deps: Pick<IdentityDeps, 'metrics' | 'now'> & {
    users: Pick<UserRepository, 'byId'>;
    invitations: Pick<InvitationRepository, 'revoke'>;
  },
  input: { actorId: string; id: string },
): Promise<void> {
  const actor = await actorWith(deps, input.actorId, 'admin');
  if (!input.id || !(await deps.invitations.revoke(actor.orgId, input.id, new Date(deps.now())))) throw invitationNotFound();
  deps.metrics.members.inc({ action: 'invitation_revoked' });
}
