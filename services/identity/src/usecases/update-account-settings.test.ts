import { describe, expect, it } from 'vitest';
import { eventsV1 } from '@signet/proto';
import type { OutboxEntry } from '@signet/kit';
import type { AccountSetting, UserRecord } from '../store/user.repository.js';
import { updateAccountSettings } from './update-account-settings.js';

function setup() {
  const user = {
    _id: 'u1',
    email: 'a@example.test',
    name: 'A',
    org_name: 'O',
    session_ttl_hours: 24,
    totp_enabled: false,
    created_at: new Date(0),
  } as UserRecord;
  const outbox: OutboxEntry[] = [];
  const audit: OutboxEntry[] = [];
  const changed: string[] = [];
  let kicks = 0;
  const deps = {
    defaultSessionTtlHours: 24,
    biometricRetention: { defaultDays: 30, maxDays: 90 },
    lifecycle: {
      expirySeconds: 30 * 86_400,
      expiryMaxSeconds: 60 * 86_400,
      reminderFirstSeconds: 2 * 3_600,
      reminderEverySeconds: 86_400,
      reminderMax: 3,
    },
    metrics: { settings: { inc: (l: { setting: string }) => void changed.push(l.setting) } } as never,
    logger: { info: () => undefined, warn: () => undefined },
    onUserCreated: () => void kicks++,
    users: {
      byId: async (id: string) => (id === user._id ? { ...user } : null),
      setSessionTtl: async (id: string, hours: number, events: OutboxEntry[] = []) => {
        if (id !== user._id) return null;
        audit.push(...events);
        const previous = user.session_ttl_hours;
        user.session_ttl_hours = hours;
        return { previous };
      },
      setAccountSettings: async (id: string, set: Partial<Record<AccountSetting, number>>, events: OutboxEntry[]) => {
        if (id !== user._id) return undefined;
        const previous = Object.fromEntries(Object.keys(set).map((k) => [k, user[k as AccountSetting] ?? null]));
        Object.assign(user, set);
        outbox.push(events[0]!);
        audit.push(...events.slice(1));
        return { previous };
      },
    },
  };
  return { deps, user, outbox, audit, changed, kicks: () => kicks };
}

describe('updateAccountSettings: the biometric retention', () => {
  it('defaults to the operator’s, sets the account’s with its event in the same write, and leaves the session length', async () => {
    const t = setup();
    expect((await updateAccountSettings(t.deps, 'u1', 24)).biometricRetentionDays).toBe(30);
    expect(t.outbox).toHaveLength(0);
    const p = await updateAccountSettings(t.deps, 'u1', 0, { biometric_retention_days: 7 });
    expect(p).toMatchObject({ biometricRetentionDays: 7, sessionTtlHours: 24 });
    expect(eventsV1.AccountSettingsChanged.decode(t.outbox[0]!.payload)).toMatchObject({
      userId: 'u1',
      biometricRetentionDays: 7,
    });
    expect(t.kicks()).toBe(2);
    expect(t.changed).toEqual(['biometric_retention_days']);
  });

  it('writes one settings.changed audit entry with the first update: new and previous values, by the member named', async () => {
    const t = setup();
    const member = { _id: 'm1', email: 'admin@example.test', org_id: 'u1' } as UserRecord;
    const users = { ...t.deps.users, byId: async (id: string) => (id === 'm1' ? member : t.deps.users.byId(id)) };
    await updateAccountSettings(
      { ...t.deps, users },
      'u1',
      12,
      { biometric_retention_days: 7 },
      {
        actorId: 'm1',
        client: { ip: '198.51.100.4', userAgent: 'UA/2' },
      },
    );
    expect(t.audit).toHaveLength(1);
    expect(eventsV1.AuditRecorded.decode(t.audit[0]!.payload)).toMatchObject({
      accountId: 'u1',
      action: 'settings.changed',
      actorId: 'm1',
      actorEmail: 'admin@example.test',
      target: 'u1',
      ip: '198.51.100.4',
      details: {
        session_ttl_hours: '12',
        previous_session_ttl_hours: '24',
        biometric_retention_days: '7',
        previous_biometric_retention_days: 'default',
      },
    });
    // The same values again: nothing changes, no entry.
    await updateAccountSettings({ ...t.deps, users }, 'u1', 12, { biometric_retention_days: 7 }, { actorId: 'm1' });
    expect(t.audit).toHaveLength(1);
    // A member of another account is not taken as the actor: the owner is.
    await updateAccountSettings(t.deps, 'u1', 6, {}, { actorId: 'stranger' });
    expect(eventsV1.AuditRecorded.decode(t.audit[1]!.payload)).toMatchObject({ actorId: 'u1', actorEmail: 'a@example.test' });
  });

  it('refuses a retention above the maximum or not whole, and writes nothing', async () => {
    const t = setup();
    await expect(updateAccountSettings(t.deps, 'u1', 48, { biometric_retention_days: 91 })).rejects.toMatchObject({
      kind: 'invalid_argument',
    });
    await expect(updateAccountSettings(t.deps, 'u1', 0, { biometric_retention_days: 1.5 })).rejects.toMatchObject({
      kind: 'invalid_argument',
    });
    await expect(updateAccountSettings(t.deps, 'u1', 0)).rejects.toMatchObject({ kind: 'invalid_argument' });
    expect(t.user.session_ttl_hours).toBe(24);
    expect(t.outbox).toHaveLength(0);
    await expect(updateAccountSettings(t.deps, 'nobody', 0, { biometric_retention_days: 7 })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});

describe('updateAccountSettings: the expiry and reminder defaults', () => {
  it('shows the operator’s until set, then sets the given ones with one event carrying only them', async () => {
    const t = setup();
    expect((await updateAccountSettings(t.deps, 'u1', 24)).lifecycle).toEqual({
      expiry_days: 30,
      reminder_first_after_hours: 2,
      reminder_every_hours: 24,
      reminder_max: 3,
    });
    const p = await updateAccountSettings(t.deps, 'u1', 0, { expiry_days: 5, reminder_max: 0 });
    expect(p.lifecycle).toEqual({ expiry_days: 5, reminder_first_after_hours: 2, reminder_every_hours: 24, reminder_max: 0 });
    expect(p.sessionTtlHours).toBe(24);
    expect(t.outbox).toHaveLength(1);
    const e = eventsV1.AccountSettingsChanged.decode(t.outbox[0]!.payload);
    expect(e).toMatchObject({ userId: 'u1', expiryDays: 5, reminderMax: 0 });
    expect(e.biometricRetentionDays).toBeUndefined();
    expect(e.reminderEveryHours).toBeUndefined();
    expect(t.changed).toEqual(['expiry_days', 'reminder_max']);
  });

  it('refuses an expiry beyond the operator’s maximum, a zero or fractional value, and writes nothing', async () => {
    const t = setup();
    for (const bad of [
      { expiry_days: 61 },
      { expiry_days: 0 },
      { reminder_every_hours: 0 },
      { reminder_first_after_hours: 1.5 },
      { reminder_max: 21 },
      { reminder_max: -1 },
      { expiry_days: 5, reminder_max: 99 },
    ])
      await expect(updateAccountSettings(t.deps, 'u1', 0, bad)).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(updateAccountSettings(t.deps, 'u1', 0, { expiry_days: 61 })).rejects.toThrow(
      'expiry_days must be a whole number of days from 1 to 60',
    );
    expect(t.outbox).toHaveLength(0);
    expect(t.user.expiry_days).toBeUndefined();
  });
});
