import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import type { TransactionRepository } from '../store/transaction.repository.js';

export const ACCOUNT_SETTINGS_DURABLE = 'transaction-account-settings';

/**
 * `identity.settings.changed`: keeps the account's biometric retention for the transactions it
 * creates from now on (written before the ack; an older or redelivered event changes nothing).
 */
export function accountSettingsConsumer(deps: { repo: Pick<TransactionRepository, 'setAccountRetention'> }) {
  return async (ev: DeliveredEvent): Promise<void> => {
    const e = events.settingsChanged.message.decode(ev.data);
    if (!e.userId) return;
    await deps.repo.setAccountRetention(e.userId, e.biometricRetentionDays, e.occurredAt ? new Date(e.occurredAt) : new Date());
  };
}
