import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import type { TransactionRepository } from '../store/transaction.repository.js';

export const ACCOUNT_SETTINGS_DURABLE = 'transaction-account-settings';

/**
 * `identity.settings.changed`: keeps the account's biometric retention and its expiry and reminder
 * defaults for the transactions it creates from now on (written before the ack; an older or
 * redelivered event changes nothing). An event carries the settings that changed; one from before the
 * lifecycle settings carried the retention alone, and a retention of 0 left the field empty on the wire.
 */
export function accountSettingsConsumer(deps: { repo: Pick<TransactionRepository, 'setAccountSettings'> }) {
  return async (ev: DeliveredEvent): Promise<void> => {
    const e = events.settingsChanged.message.decode(ev.data);
    if (!e.userId) return;
    const lifecycle = {
      expiry_days: e.expiryDays,
      reminder_first_after_hours: e.reminderFirstAfterHours,
      reminder_every_hours: e.reminderEveryHours,
      reminder_max: e.reminderMax,
    };
    const legacy = Object.values(lifecycle).every((v) => v === undefined);
    const retention = e.biometricRetentionDays ?? (legacy ? 0 : undefined);
    await deps.repo.setAccountSettings(
      e.userId,
      { retention_days: retention, ...lifecycle },
      e.occurredAt ? new Date(e.occurredAt) : new Date(),
    );
  };
}
