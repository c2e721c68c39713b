import { describe, expect, it } from 'vitest';
import { createSecretBox, sha256 } from '../domain/secrets.js';
import { createSessions } from '../domain/session.js';
import { TOTP_STEP_SECONDS, matchStep, newTotpSecret, totpAt } from '../domain/totp.js';
import { fakeClock, fakeMetrics, fakeMfaChallenges, fakeUsers, userRecord } from '../../test/fakes.js';
import { completeMfaLogin } from './complete-mfa-login.js';

const box = createSecretBox('ab'.repeat(32));
const CHALLENGE = 'challenge-one';

function setup() {
  const clock = fakeClock();
  const secret = newTotpSecret();
  const users = fakeUsers([userRecord({ totp_enabled: true, totp_secret: box.seal(secret, 'u1'), session_ttl_hours: 5 })]);
  const mfaChallenges = fakeMfaChallenges();
  const m = fakeMetrics();
  const deps = {
    users,
    mfaChallenges,
    box,
    sessions: createSessions('s'.repeat(40)),
    defaultSessionTtlHours: 24,
    metrics: m.metrics,
    now: clock.now,
  };
  const code = () => totpAt(secret, clock.now());
  /** A well-formed code that matches no step in the accepted window. */
  const wrong = () => {
    for (let n = 0; ; n++) {
      const c = String(n).padStart(6, '0');
      if (matchStep(secret, c, clock.now()) === null) return c;
    }
  };
  return { deps, mfaChallenges, clock, code, wrong, counted: m.counted };
}

describe('completeMfaLogin', () => {
  it('spends the challenge and the code: a session once, then the challenge is gone', async () => {
    const { deps, mfaChallenges, clock, code } = setup();
    await mfaChallenges.create(sha256(CHALLENGE), 'u1', 300);
    const s = await completeMfaLogin(deps, { challenge: CHALLENGE, code: code() });
    expect(s.userId).toBe('u1');
    expect(s.expiresAt.getTime()).toBe(clock.now() + 5 * 3600_000);
    expect(mfaChallenges.all.size).toBe(0);
    await expect(completeMfaLogin(deps, { challenge: CHALLENGE, code: code() })).rejects.toMatchObject({
      kind: 'unauthenticated',
      message: expect.stringMatching(/challenge/),
    });
  });

  it('refuses a code already used in an earlier login (same time step), and takes the next step', async () => {
    const { deps, mfaChallenges, clock, code } = setup();
    await mfaChallenges.create(sha256('first'), 'u1', 300);
    await mfaChallenges.create(sha256('second'), 'u1', 300);
    const used = code();
    await completeMfaLogin(deps, { challenge: 'first', code: used });
    await expect(completeMfaLogin(deps, { challenge: 'second', code: used })).rejects.toMatchObject({
      message: 'the two-factor code is wrong or already used',
    });
    clock.advance(TOTP_STEP_SECONDS * 1000);
    await expect(completeMfaLogin(deps, { challenge: 'second', code: code() })).resolves.toMatchObject({ userId: 'u1' });
  });

  it('survives four wrong codes and drops the challenge at the fifth', async () => {
    const four = setup();
    await four.mfaChallenges.create(sha256(CHALLENGE), 'u1', 300);
    for (let i = 0; i < 4; i++)
      await expect(completeMfaLogin(four.deps, { challenge: CHALLENGE, code: four.wrong() })).rejects.toThrow();
    await expect(completeMfaLogin(four.deps, { challenge: CHALLENGE, code: four.code() })).resolves.toMatchObject({
      userId: 'u1',
    });

    const five = setup();
    await five.mfaChallenges.create(sha256(CHALLENGE), 'u1', 300);
    for (let i = 0; i < 5; i++)
      await expect(completeMfaLogin(five.deps, { challenge: CHALLENGE, code: five.wrong() })).rejects.toMatchObject({
        message: 'the two-factor code is wrong or already used',
      });
    expect(five.mfaChallenges.all.size).toBe(0);
    await expect(completeMfaLogin(five.deps, { challenge: CHALLENGE, code: five.code() })).rejects.toMatchObject({
      message: expect.stringMatching(/challenge is invalid/),
    });
    expect(five.counted('logins', { result: 'mfa_wrong_code' })).toBe(5);
    expect(five.counted('logins', { result: 'mfa_challenge_invalid' })).toBe(1);
  });

  it('refuses an unknown challenge, and one whose user has turned two-factor off', async () => {
    const { deps, mfaChallenges, code, counted } = setup();
    await expect(completeMfaLogin(deps, { challenge: 'never-issued', code: code() })).rejects.toMatchObject({
      message: expect.stringMatching(/challenge is invalid/),
    });
    await mfaChallenges.create(sha256(CHALLENGE), 'u1', 300);
    deps.users.all.get('u1')!.totp_enabled = false;
    await expect(completeMfaLogin(deps, { challenge: CHALLENGE, code: code() })).rejects.toMatchObject({
      message: expect.stringMatching(/challenge is invalid/),
    });
    expect(mfaChallenges.all.size).toBe(0);
    expect(counted('logins', { result: 'mfa_challenge_invalid' })).toBe(2);
  });
});
