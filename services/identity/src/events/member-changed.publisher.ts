import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events, type EventEntry, type eventsV1 } from '@signet/proto';

export type MemberChange = {
  orgId: string;
  actorId: string;
  memberId: string;
  email: string;
  role: string;
  previousRole?: string;
  /** invited: the invitation whose mail identity-invitation-mail sends. */
  invitationId?: string;
};

type Kind = 'invited' | 'joined' | 'role_changed' | 'removed';
const ENTRIES: Record<Kind, EventEntry<eventsV1.MemberChanged>> = {
  invited: events.memberInvited,
  joined: events.memberJoined,
  role_changed: events.memberRoleChanged,
  removed: events.memberRemoved,
};

/**
 * The outbox entry of a change to an organisation's members (signet.identity.member.*), for the
 * account audit log: written with the change it records where one document holds both.
 */
export function memberChangedEvent(kind: Kind, c: MemberChange): OutboxEntry {
  return outboxEvent(ENTRIES[kind], (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    orgId: c.orgId,
    actorId: c.actorId,
    memberId: c.memberId,
    email: c.email,
    role: c.role,
    previousRole: c.previousRole ?? '',
    invitationId: c.invitationId ?? '',
  }));
}
