import type { Connection, mongo } from 'mongoose';
import { isDuplicateKey } from '@signet/kit';
import type { AccountLifecycle } from '../domain/lifecycle.js';
import { accountSettingsSchema } from './transaction.schema.js';

/** A setting kept from identity.settings.changed: the retention (its time in `at`, as before the others) or a lifecycle default. */
export type AccountSetting = 'retention_days' | keyof AccountLifecycle;
const LIFECYCLE: (keyof AccountLifecycle)[] = [
  'expiry_days',
  'reminder_first_after_hours',
  'reminder_every_hours',
  'reminder_max',
];
const timeOf = (setting: AccountSetting) => (setting === 'retention_days' ? 'at' : `${setting}_at`);

/**
 * The account settings this service applies (events/account-settings.consumer.ts keeps them from
 * identity.settings.changed); creation reads them. Each setting carries the time of the event that
 * set it, so events of different settings arriving out of order each keep the newest value. Part of
 * the transaction repository.
 */
export function createAccountSettingsStore(conn: Connection) {
  const accountSettings = conn.model('AccountSettings', accountSettingsSchema);

  /** Keeps one setting as of `at`; an older or repeated value changes nothing. */
  async function setOne(ownerId: string, setting: AccountSetting, value: number, at: Date): Promise<void> {
    const t = timeOf(setting);
    const newer = () =>
      accountSettings.updateOne(
        { _id: ownerId, $or: [{ [t]: { $lt: at } }, { [t]: null }] },
        { $set: { [setting]: value, [t]: at } },
      );
    if ((await newer()).matchedCount) return;
    try {
      await accountSettings.create({ _id: ownerId, [setting]: value, [t]: at });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Another setting's event created the document meanwhile, or it holds a newer (or the same) value.
      await newer();
    }
  }

  return {
    async initAccountSettings() {
      await accountSettings.init();
    },
    /** Both of the below in one read (creation needs both); through the driver, as every creation asks it (issue 20). */
    async accountSettingsOf(ownerId: string): Promise<{ retentionDays: number | undefined; lifecycle: AccountLifecycle }> {
      const filter: mongo.Document = { _id: ownerId };
      const doc = await accountSettings.collection.findOne<Record<string, unknown>>(filter);
      const lifecycle: AccountLifecycle = {};
      for (const k of LIFECYCLE) if (typeof doc?.[k] === 'number') lifecycle[k] = doc[k];
      return { retentionDays: typeof doc?.retention_days === 'number' ? doc.retention_days : undefined, lifecycle };
    },
    /** The account's biometric retention in days, or undefined when it never set one. */
    async accountRetention(ownerId: string): Promise<number | undefined> {
      const doc = await accountSettings.findOne({ _id: ownerId }).lean<{ retention_days?: number }>();
      return doc?.retention_days ?? undefined;
    },
    /** The account's expiry and reminder defaults it set (absent: the operator's). */
    async accountLifecycle(ownerId: string): Promise<AccountLifecycle> {
      const doc = await accountSettings.findOne({ _id: ownerId }).lean<Record<string, unknown>>();
      const out: AccountLifecycle = {};
      for (const k of LIFECYCLE) if (typeof doc?.[k] === 'number') out[k] = doc[k];
      return out;
    },
    /** Keeps the account's retention as of `at`; an older or repeated value changes nothing. */
    async setAccountRetention(ownerId: string, days: number, at: Date): Promise<void> {
      await setOne(ownerId, 'retention_days', days, at);
    },
    /** Keeps each given setting as of `at` (absent ones are unchanged). */
    async setAccountSettings(ownerId: string, set: Partial<Record<AccountSetting, number>>, at: Date): Promise<void> {
      for (const [setting, value] of Object.entries(set) as [AccountSetting, number | undefined][])
        if (value !== undefined) await setOne(ownerId, setting, value, at);
    },
  };
}
