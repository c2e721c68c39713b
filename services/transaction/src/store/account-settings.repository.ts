import type { Connection } from 'mongoose';
import { isDuplicateKey } from '@signet/kit';
import { accountSettingsSchema } from './transaction.schema.js';

/**
 * The account settings this service applies (events/account-settings.consumer.ts keeps them from
 * identity.settings.changed); creation reads them. Part of the transaction repository.
 */
export function createAccountSettingsStore(conn: Connection) {
  const accountSettings = conn.model('AccountSettings', accountSettingsSchema);
  return {
    async initAccountSettings() {
      await accountSettings.init();
    },
    /** The account's biometric retention in days, or undefined when it never set one. */
    async accountRetention(ownerId: string): Promise<number | undefined> {
      const doc = await accountSettings.findOne({ _id: ownerId }).lean<{ retention_days?: number }>();
      return doc?.retention_days ?? undefined;
    },
    /** Keeps the account's retention as of `at`; an older or repeated value changes nothing. */
    async setAccountRetention(ownerId: string, days: number, at: Date): Promise<void> {
      const r = await accountSettings.updateOne({ _id: ownerId, at: { $lt: at } }, { $set: { retention_days: days, at } });
      if (r.matchedCount) return;
      try {
        await accountSettings.create({ _id: ownerId, retention_days: days, at });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // it exists with a newer (or the same) value
      }
    },
  };
}
