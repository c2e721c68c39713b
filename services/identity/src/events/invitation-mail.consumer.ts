import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import { invitationMail } from '../domain/mail.js';
import type { InvitationRepository } from '../store/invitation.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from '../usecases/deps.js';
import { invitationAad } from '../usecases/invite-member.js';

export type InvitationMailDeps = Pick<IdentityDeps, 'mailer' | 'metrics' | 'logger' | 'box' | 'now'> & {
  invitations: Pick<InvitationRepository, 'forMail' | 'mailDone'>;
  users: Pick<UserRepository, 'byId'>;
};

/**
 * identity-invitation-mail: sends the mail of a `member.invited` event. The event names the
 * invitation, never its code: the code is opened from the invitation's sealed copy, which is cleared
 * once the mail is handed to SMTP (so a redelivery sends nothing more), and is gone already when the
 * invitation was withdrawn, replaced or used. A failed send throws: JetStream redelivers with backoff.
 * Invitations from before the outbox (no sealed code) were mailed directly and are skipped.
 */
export function invitationMailConsumer(deps: InvitationMailDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    const e = events.memberInvited.message.decode(ev.data);
    if (!e.invitationId) return;
    const inv = await deps.invitations.forMail(e.invitationId);
    if (!inv) return;
    if (inv.closed_at || inv.expires_at.getTime() <= deps.now() || !inv.accept_url) {
      await deps.invitations.mailDone(inv._id);
      return;
    }
    const code = deps.box.open(inv.mail_sealed, invitationAad(inv._id));
    const [org, inviter] = await Promise.all([deps.users.byId(inv.org_id), deps.users.byId(inv.invited_by)]);
    // The gateway's link ends in `#code=`: a fragment never reaches a server's access log.
    const link = `${inv.accept_url}${encodeURIComponent(code)}`;
    const mail = invitationMail(inv.email, org?.org_name ?? 'Signet', inviter?.name ?? 'A member', inv.role, link);
    try {
      await deps.mailer.send(mail);
    } catch (err) {
      deps.metrics.mails.inc({ kind: 'invitation', result: 'failed' });
      deps.logger.warn({ err: { message: (err as Error).message }, kind: 'invitation' }, 'mail not sent; redelivery retries it');
      throw new Error('invitation mail not sent');
    }
    deps.metrics.mails.inc({ kind: 'invitation', result: 'sent' });
    await deps.invitations.mailDone(inv._id);
  };
}
