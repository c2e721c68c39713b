import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import { accountExists, invitationInvalid } from '../domain/errors.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import { sha256 } from '../domain/secrets.js';
import { checkPassword, checkText } from '../domain/validate.js';
import { memberChangedEvent } from '../events/member-changed.publisher.js';
import type { InvitationRepository } from '../store/invitation.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { issueSession, type IssuedSession } from './issue-session.js';

/**
 * A new user registers through an invitation: the mail proved the address, so the account is made
 * at once as a member of the inviting organisation with the invited role, and signed in. The code is
 * spent first (one winner of concurrent uses); when the account cannot be made it is reopened. The
 * account is inserted with its `member.joined` event and its audit entry.
 */
export async function acceptInvitation(
  deps: Pick<IdentityDeps, 'sessions' | 'defaultSessionTtlHours' | 'metrics' | 'onUserCreated' | 'now' | 'passwords'> & {
    users: Pick<UserRepository, 'byId' | 'create'>;
    invitations: Pick<InvitationRepository, 'take' | 'reopen'>;
  },
  input: { code: string; name: string; password: string; client?: ClientInfo },
): Promise<IssuedSession> {
  const name = checkText(input.name, 'name');
  const password = checkPassword(input.password);
  if (!input.code || input.code.length > 128) throw invitationInvalid();
  const inv = await deps.invitations.take(sha256(input.code), new Date(deps.now()));
  if (!inv) throw invitationInvalid();
  const org = await deps.users.byId(inv.org_id);
  if (!org) throw invitationInvalid();
  const user = await deps.users.create(
    {
      email: inv.email,
      name,
      org_name: org.org_name,
      password_hash: await deps.passwords.hash(password),
      session_ttl_hours: org.session_ttl_hours ?? deps.defaultSessionTtlHours,
      created_at: new Date(deps.now()),
      org_id: inv.org_id,
      role: inv.role,
    },
    (userId) => [
      memberChangedEvent('joined', { orgId: inv.org_id, actorId: userId, memberId: userId, email: inv.email, role: inv.role }),
      auditRecordedEvent({
        action: 'member.joined',
        actor: { _id: userId, email: inv.email, org_id: inv.org_id },
        client: input.client ?? NO_CLIENT,
        target: userId,
        details: { email: inv.email, role: inv.role, invitation: inv._id },
      }),
    ],
  );
  if (!user) {
    await deps.invitations.reopen(inv._id);
    throw accountExists();
  }
  deps.onUserCreated();
  deps.metrics.members.inc({ action: 'joined' });
  return issueSession(deps, user);
}
