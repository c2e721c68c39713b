import { describe, expect, it } from 'vitest';
import { MFA_CHALLENGE_TTL_S } from '../domain/login-challenge.js';
import { sha256 } from '../domain/secrets.js';
import { createSessions } from '../domain/session.js';
import type { UserRecord } from '../store/user.repository.js';
import { fakeClock, fakeMetrics, fakeMfaChallenges, fakePasswords, fakeUsers, userRecord } from '../../test/fakes.js';
import { logIn } from './log-in.js';

const PASSWORD = 'correct horse battery';
const sessions = createSessions('k'.repeat(40));

async function setup(over: Partial<UserRecord>) {
  const clock = fakeClock();
  const mfaChallenges = fakeMfaChallenges();
  const m = fakeMetrics();
  const users = fakeUsers([userRecord({ password_hash: await fakePasswords.hash(PASSWORD), ...over })]);
  return {
    deps: {
      users,
      mfaChallenges,
      passwords: fakePasswords,
      sessions,
      defaultSessionTtlHours: 24,
      metrics: m.metrics,
      now: clock.now,
    },
    clock,
    ...m,
  };
}

describe('logIn', () => {
  it('gives a session as long as the account asks for, or the default when it has no setting', async () => {
    const own = await setup({ session_ttl_hours: 2 });
    const r = await logIn(own.deps, { email: ' ADA@example.test', password: PASSWORD });
    if (r.kind !== 'session') throw new Error('expected a session');
    expect(r.session.expiresAt.getTime()).toBe(own.clock.now() + 2 * 3600_000);
    expect((await sessions.verify(r.session.token))?.userId).toBe('u1');

    const none = await setup({ session_ttl_hours: 0 });
    const d = await logIn(none.deps, { email: 'ada@example.test', password: PASSWORD });
    expect(d.kind === 'session' && d.session.expiresAt.getTime()).toBe(none.clock.now() + 24 * 3600_000);
  });

  it('answers an account with two-factor on with a challenge kept only as its hash, for five minutes', async () => {
    const { deps, clock, counted } = await setup({ totp_enabled: true });
    const r = await logIn(deps, { email: 'ada@example.test', password: PASSWORD });
    if (r.kind !== 'mfa') throw new Error('expected a challenge');
    expect(r.expiresAt.getTime()).toBe(clock.now() + MFA_CHALLENGE_TTL_S * 1000);
    expect([...deps.mfaChallenges.all.entries()]).toEqual([
      [sha256(r.challenge), { userId: 'u1', attempts: 0, ttlSeconds: MFA_CHALLENGE_TTL_S }],
    ]);
    expect(counted('logins', { result: 'mfa_required' })).toBe(1);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const { deps, counted } = await setup({});
    const wrongPassword = logIn(deps, { email: 'ada@example.test', password: 'not the password' });
    const unknownEmail = logIn(deps, { email: 'bob@example.test', password: PASSWORD });
    await expect(wrongPassword).rejects.toMatchObject({ kind: 'unauthenticated', message: 'invalid email or password' });
    await expect(unknownEmail).rejects.toMatchObject({ kind: 'unauthenticated', message: 'invalid email or password' });
    expect(counted('logins', { result: 'bad_credentials' })).toBe(2);
  });
});
