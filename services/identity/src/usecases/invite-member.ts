import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import { accountExists, notAllowed } from '../domain/errors.js';
import { checkRole, mayManage } from '../domain/roles.js';
import { newOpaqueToken, sha256 } from '../domain/secrets.js';
import { normEmail } from '../domain/validate.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import { memberChangedEvent } from '../events/member-changed.publisher.js';
import type { InvitationRecord, InvitationRepository } from '../store/invitation.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { actorWith } from './member-actor.js';

/** An invitation is good for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

/** The additional data the sealed code is bound to: it opens only as this invitation's. */
export const invitationAad = (id: string) => `invitation:${id}`;

/**
 * Invites an address to the actor's organisation with a role (admins invite up to admin, owners any
 * role). An address that already has an account is refused: joining would leave its own
 * organisation's transactions, keys and billing behind. The invitation is inserted with its
 * `member.invited` event and its audit entry in one write; the mail goes out from that event
 * (identity-invitation-mail), so a crash after the insert delays the mail instead of losing it. The
 * code (32 random bytes) is in no event: the invitation keeps its SHA-256 and, until the mail is sent,
 * the code sealed with identity's secret box.
 */
export async function inviteMember(
  deps: Pick<IdentityDeps, 'now' | 'onUserCreated' | 'metrics' | 'box'> & {
    users: Pick<UserRepository, 'byId' | 'exists'>;
    invitations: Pick<InvitationRepository, 'create'>;
  },
  input: { actorId: string; email: string; role: string; acceptUrl: string; client?: ClientInfo },
): Promise<InvitationRecord> {
  const actor = await actorWith(deps, input.actorId, 'admin');
  const email = normEmail(input.email);
  const role = checkRole(input.role);
  if (!mayManage(actor.role, role)) throw notAllowed(`an ${actor.role} cannot invite an ${role}`);
  if (await deps.users.exists(email)) throw accountExists();
  const code = newOpaqueToken();
  const now = new Date(deps.now());
  const inv = await deps.invitations.create(
    {
      org_id: actor.orgId,
      email,
      role,
      code_hash: sha256(code),
      invited_by: actor.user._id,
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      accept_url: input.acceptUrl,
    },
    now,
    (id) => [
      memberChangedEvent('invited', { orgId: actor.orgId, actorId: actor.user._id, memberId: '', email, role, invitationId: id }),
      auditRecordedEvent({
        action: 'member.invited',
        actor: actor.user,
        client: input.client ?? NO_CLIENT,
        target: id,
        details: { email, role },
      }),
    ],
    (id) => deps.box.seal(code, invitationAad(id)),
  );
  deps.onUserCreated();
  deps.metrics.members.inc({ action: 'invited' });
  return inv;
}
