import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import { invitationNotFound } from '../domain/errors.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import type { InvitationRepository } from '../store/invitation.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { actorWith } from './member-actor.js';

/**
 * Withdraws a pending invitation of the actor's organisation: its code stops working, an unsent mail
 * is not sent, and the audit entry (member.invitation_revoked) is written with the withdrawal.
 */
export async function revokeInvitation(
  deps: Pick<IdentityDeps, 'metrics' | 'now'> &
    Partial<Pick<IdentityDeps, 'onUserCreated'>> & {
      users: Pick<UserRepository, 'byId'>;
      invitations: Pick<InvitationRepository, 'revoke' | 'openInOrg'>;
    },
  input: { actorId: string; id: string; client?: ClientInfo },
): Promise<void> {
  const actor = await actorWith(deps, input.actorId, 'admin');
  const inv = input.id ? await deps.invitations.openInOrg(actor.orgId, input.id) : null;
  if (!inv) throw invitationNotFound();
  const event = auditRecordedEvent({
    action: 'member.invitation_revoked',
    actor: actor.user,
    client: input.client ?? NO_CLIENT,
    target: inv._id,
    details: { email: inv.email, role: inv.role },
  });
  if (!(await deps.invitations.revoke(actor.orgId, inv._id, new Date(deps.now()), [event]))) throw invitationNotFound();
  deps.metrics.members.inc({ action: 'invitation_revoked' });
  deps.onUserCreated?.();
}
