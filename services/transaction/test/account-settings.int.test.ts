/**
 * The account settings the transaction service keeps from identity.settings.changed, on the real
 * store (FerretDB): each setting keeps its newest value even when events of different settings arrive
 * out of order or create the document at the same time, and an event from before the lifecycle
 * settings (the retention alone, 0 left empty on the wire) still sets the retention.
 */
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import { infra } from '../../../test/harness/services.js';
import { accountSettingsConsumer } from '../src/events/account-settings.consumer.js';
import { createTransactionRepository, type TransactionRepository } from '../src/store/transaction.repository.js';

describe('account settings store', () => {
  let conn: Connection;
  let repo: TransactionRepository;
  const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  const owner = () => `u-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    conn = await connectMongo(infra().MONGO_URL, `t_acct_settings_${randomBytes(3).toString('hex')}`);
    repo = createTransactionRepository(conn);
    await repo.init();
  }, 60_000);
  afterAll(async () => {
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
  });

  it('keeps each setting’s newest value whatever order the events of different settings arrive in', async () => {
    const u = owner();
    expect(await repo.accountLifecycle(u)).toEqual({});
    await repo.setAccountSettings(u, { expiry_days: 5 }, t(10));
    // An older retention event arriving after a newer expiry still sets the retention (its own time).
    await repo.setAccountSettings(u, { retention_days: 9 }, t(1));
    // An older expiry does not overwrite the newer one; a newer one does; the same time changes nothing.
    await repo.setAccountSettings(u, { expiry_days: 3, reminder_max: 0 }, t(5));
    expect(await repo.accountLifecycle(u)).toEqual({ expiry_days: 5, reminder_max: 0 });
    expect(await repo.accountRetention(u)).toBe(9);
    expect(await repo.accountSettingsOf(u)).toEqual({ retentionDays: 9, lifecycle: await repo.accountLifecycle(u) });
    await repo.setAccountSettings(u, { expiry_days: 7, reminder_every_hours: 12 }, t(20));
    await repo.setAccountSettings(u, { expiry_days: 8 }, t(20));
    expect(await repo.accountLifecycle(u)).toEqual({ expiry_days: 7, reminder_max: 0, reminder_every_hours: 12 });
    await repo.setAccountRetention(u, 1, t(0));
    expect(await repo.accountRetention(u)).toBe(9);
  });

  it('events of different settings creating the document at once both stay', async () => {
    const u = owner();
    await Promise.all([
      repo.setAccountSettings(u, { expiry_days: 4 }, t(2)),
      repo.setAccountSettings(u, { retention_days: 6 }, t(1)),
      repo.setAccountSettings(u, { reminder_first_after_hours: 3 }, t(3)),
    ]);
    expect(await repo.accountLifecycle(u)).toEqual({ expiry_days: 4, reminder_first_after_hours: 3 });
    expect(await repo.accountRetention(u)).toBe(6);
  });

  it('the consumer: an event carries the settings that changed; an older one without any is a retention of 0', async () => {
    const consume = accountSettingsConsumer({ repo });
    const deliver = (e: Partial<eventsV1.AccountSettingsChanged>) =>
      consume({
        subject: 'signet.identity.settings.changed',
        data: eventsV1.AccountSettingsChanged.encode(e as never).finish(),
      } as never);
    const u = owner();
    await deliver({ userId: u, occurredAt: t(1).toISOString(), expiryDays: 2, reminderMax: 1 });
    expect(await repo.accountLifecycle(u)).toEqual({ expiry_days: 2, reminder_max: 1 });
    expect(await repo.accountRetention(u)).toBeUndefined();
    await deliver({ userId: u, occurredAt: t(2).toISOString() });
    expect(await repo.accountRetention(u)).toBe(0);
    expect(await repo.accountLifecycle(u)).toEqual({ expiry_days: 2, reminder_max: 1 });
  });
});
