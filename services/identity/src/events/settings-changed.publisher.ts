import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/** The `settings.changed` outbox entry, written in the update that changes the account's biometric retention. */
export function settingsChangedEvent(userId: string, biometricRetentionDays: number): OutboxEntry {
  return outboxEvent(events.settingsChanged, (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    userId,
    biometricRetentionDays,
  }));
}
