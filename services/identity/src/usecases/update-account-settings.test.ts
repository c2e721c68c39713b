import { describe, expect, it } from 'vitest';
import { eventsV1 } from '@signet/proto';
import type { OutboxEntry } from '@signet/kit';
import type { UserRecord } from '../store/user.repository.js';
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
  const changed: string[] = [];
  let kicks = 0;
  const deps = {
    defaultSessionTtlHours: 24,
    biometricRetention: { defaultDays: 30, maxDays: 90 },
    metrics: { settings: { inc: (l: { setting: string }) => void changed.push(l.setting) } } as never,
    logger: { info: () => undefined, warn: () => undefined },
    onUserCreated: () => void kicks++,
    users: {
      byId: async (id: string) => (id === user._id ? { ...user } : null),
      setSessionTtl: async (id: string, hours: number) => {
        if (id !== user._id) return null;
        const previous = user.session_ttl_hours;
        user.session_ttl_hours = hours;
        return { previous };
      },
      setBiometricRetention: async (id: string, days: number, event: OutboxEntry) => {
        if (id !== user._id) return undefined;
        const previous = user.biometric_retention_days ?? null;
        user.biometric_retention_days = days;
        outbox.push(event);
        return { previous };
      },
    },
  };
  return { deps, user, outbox, changed, kicks: () => kicks };
}

describe('updateAccountSettings: the biometric retention', () => {
  it('defaults to the operator’s, sets the account’s with its event in the same write, and leaves the session length', async () => {
    const t = setup();
    expect((await updateAccountSettings(t.deps, 'u1', 24)).biometricRetentionDays).toBe(30);
    expect(t.outbox).toHaveLength(0);
    const p = await updateAccountSettings(t.deps, 'u1', 0, 7);
    expect(p).toMatchObject({ biometricRetentionDays: 7, sessionTtlHours: 24 });
    expect(eventsV1.AccountSettingsChanged.decode(t.outbox[0]!.payload)).toMatchObject({
      userId: 'u1',
      biometricRetentionDays: 7,
    });
    expect(t.kicks()).toBe(1);
    expect(t.changed).toEqual(['biometric_retention_days']);
  });

  it('refuses a retention above the maximum or not whole, and writes nothing', async () => {
    const t = setup();
    await expect(updateAccountSettings(t.deps, 'u1', 48, 91)).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(updateAccountSettings(t.deps, 'u1', 0, 1.5)).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(updateAccountSettings(t.deps, 'u1', 0)).rejects.toMatchObject({ kind: 'invalid_argument' });
    expect(t.user.session_ttl_hours).toBe(24);
    expect(t.outbox).toHaveLength(0);
    await expect(updateAccountSettings(t.deps, 'nobody', 0, 7)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
