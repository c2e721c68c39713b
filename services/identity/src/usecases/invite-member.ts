import { accountExists, notAllowed } from '../domain/errors.js';
import { invitationMail } from '../domain/mail.js';
import { checkRole, mayManage } from '../domain/roles.js';
import { newOpaqueToken, sha256 } from '../domain/secrets.js';
import { normEmail } from '../domain/validate.js';
import { memberChangedEvent } from '../events/member-changed.publisher.js';
import type { InvitationRecord, InvitationRepository } from '../store/invitation.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { actorWith } from './member-actor.js';
import { sendMail, type MailDeps } from './send-mail.js';

/** An invitation is good for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

/**
 * Invites an address to the actor's organisation with a role (admins invite up to admin, owners any
 * role). The code (32 random bytes) goes only into the mail; the invitation keeps its SHA-256. An
 * address that already has an account is refused: joining would leave its own organisation's
 * transactions, keys and billing behind.
 */
export async function inviteMember(
  deps: MailDeps &
    Pick<IdentityDeps, 'now' | 'onUserCreated'> & {
      users: Pick<UserRepository, 'byId' | 'exists'>;
      invitations: Pick<InvitationRepository, 'create'>;
    },
  input: { actorId: string; email: string; role: string; acceptUrl: string },
): Promise<InvitationRecord> {
  const actor = await actorWith(deps, input.actorId, 'admin');
  const email = normEmail(input.email);
  const role = checkRole(input.role);
  if (!mayManage(actor.role, role)) throw notAllowed(`an ${actor.role} cannot invite an ${role}`);
  if (await deps.users.exists(email)) throw accountExists();
  const code = newOpaqueToken();
  const now = new Date(deps.now());
  const event = memberChangedEvent('invited', { orgId: actor.orgId, actorId: actor.user._id, memberId: '', email, role });
  const inv = await deps.invitations.create(
    {
      org_id: actor.orgId,
      email,
      role,
      code_hash: sha256(code),
      invited_by: actor.user._id,
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
    },
    now,
    event,
  );
  deps.onUserCreated();
  deps.metrics.members.inc({ action: 'invited' });
  // The gateway's link ends in `#code=`: a fragment never reaches a server's access log.
  const link = `${input.acceptUrl}${encodeURIComponent(code)}`;
  await sendMail(deps, 'invitation', invitationMail(email, actor.user.org_name, actor.user.name, role, link));
  return inv;
}
