import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { AccountSetting } from '../store/user.repository.js';

/**
 * The `settings.changed` outbox entry, written in the update that changes settings the transaction
 * service applies: it carries the ones that changed (absent: unchanged).
 */
export function settingsChangedEvent(userId: string, set: Partial<Record<AccountSetting, number>>): OutboxEntry {
  return outboxEvent(events.settingsChanged, (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    userId,
    biometricRetentionDays: set.biometric_retention_days,
    expiryDays: set.expiry_days,
    reminderFirstAfterHours: set.reminder_first_after_hours,
    reminderEveryHours: set.reminder_every_hours,
    reminderMax: set.reminder_max,
  }));
}
