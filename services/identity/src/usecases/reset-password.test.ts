import { describe, expect, it } from 'vitest';
import { CODE_TTL_MS } from '../domain/codes.js';
import { codeHash } from '../domain/secrets.js';
import { fakeClock, fakeMetrics, fakePasswords, fakeUsers, userRecord } from '../../test/fakes.js';
import { resetPassword } from './reset-password.js';

const EMAIL = 'ada@example.test';
const CODE = '654321';
const NEW_PASSWORD = 'a-new-long-password';

function setup(codeAgeMs = 0) {
  const clock = fakeClock();
  const users = fakeUsers([
    userRecord({
      email: EMAIL,
      password_version: 3,
      reset_code_hash: codeHash('reset', EMAIL, CODE),
      reset_code_expires_at: new Date(clock.now() - codeAgeMs + CODE_TTL_MS),
    }),
  ]);
  const m = fakeMetrics();
  return { deps: { users, passwords: fakePasswords, metrics: m.metrics, now: clock.now }, users, counted: m.counted };
}

describe('resetPassword', () => {
  it('sets the hash of the new password and bumps the password version', async () => {
    const { deps, users, counted } = setup();
    expect(await resetPassword(deps, { email: EMAIL, code: CODE, newPassword: NEW_PASSWORD })).toBe('u1');
    const u = users.all.get('u1')!;
    expect(await fakePasswords.verify(u.password_hash, NEW_PASSWORD)).toBe(true);
    expect(u.password_version).toBe(4);
    expect(counted('codes', { purpose: 'reset', result: 'ok' })).toBe(1);
  });

  it('keeps the code through four wrong tries and burns it at the fifth', async () => {
    const { deps, users, counted } = setup();
    for (let i = 0; i < 4; i++)
      await expect(resetPassword(deps, { email: EMAIL, code: '111111', newPassword: NEW_PASSWORD })).rejects.toMatchObject({
        reason: 'BAD_CODE',
      });
    expect(users.all.get('u1')!.reset_code_hash).not.toBeNull();
    await expect(resetPassword(deps, { email: EMAIL, code: '111111', newPassword: NEW_PASSWORD })).rejects.toThrow();
    expect(users.all.get('u1')!.reset_code_hash).toBeNull();
    expect(counted('codes', { purpose: 'reset', result: 'wrong' })).toBe(5);
    await expect(resetPassword(deps, { email: EMAIL, code: CODE, newPassword: NEW_PASSWORD })).rejects.toMatchObject({
      reason: 'BAD_CODE',
    });
    expect(users.all.get('u1')!.password_version).toBe(3);
  });

  it('refuses a code a millisecond past its expiry, and an email without an account, as expired', async () => {
    const late = setup(CODE_TTL_MS + 1);
    await expect(resetPassword(late.deps, { email: EMAIL, code: CODE, newPassword: NEW_PASSWORD })).rejects.toMatchObject({
      reason: 'BAD_CODE',
    });
    const unknown = { email: 'nobody@example.test', code: CODE, newPassword: NEW_PASSWORD };
    await expect(resetPassword(late.deps, unknown)).rejects.toMatchObject({ reason: 'BAD_CODE' });
    expect(late.counted('codes', { purpose: 'reset', result: 'expired' })).toBe(2);
    expect(late.users.all.get('u1')!.reset_code_attempts).toBe(0);
  });

  it('refuses a too short new password before looking at the code: no try is counted', async () => {
    const { deps, users } = setup();
    await expect(resetPassword(deps, { email: EMAIL, code: '111111', newPassword: 'short' })).rejects.toMatchObject({
      kind: 'invalid_argument',
    });
    expect(users.all.get('u1')!.reset_code_attempts).toBe(0);
  });
});
