import { describe, expect, it } from 'vitest';
import { CODE_TTL_MS, ONBOARDING_TTL_MS } from '../domain/codes.js';
import { codeHash, sha256 } from '../domain/secrets.js';
import type { SignupRecord } from '../store/signup.repository.js';
import { fakeClock, fakeMetrics, fakeSignups } from '../../test/fakes.js';
import { verifyEmail } from './verify-email.js';

const EMAIL = 'grace@example.test';
const CODE = '123456';

function setup(codeAgeMs = 0) {
  const clock = fakeClock();
  const intent: SignupRecord = {
    _id: EMAIL,
    name: 'Grace',
    password_hash: 'h',
    code_hash: codeHash('signup', EMAIL, CODE),
    code_expires_at: new Date(clock.now() - codeAgeMs + CODE_TTL_MS),
    code_attempts: 0,
    verified_at: null,
    onboarding_token_hash: null,
    onboarding_expires_at: null,
    created_at: new Date(clock.now()),
  };
  const signups = fakeSignups([intent]);
  const m = fakeMetrics();
  const deps = { signups, metrics: m.metrics, now: clock.now };
  return { deps, signups, counted: m.counted, clock };
}

describe('verifyEmail', () => {
  it('exchanges the right code for a one-time onboarding token, kept only as its hash for an hour', async () => {
    const { deps, signups, clock, counted } = setup();
    const token = await verifyEmail(deps, { email: ' Grace@Example.test ', code: CODE });
    const stored = signups.all.get(EMAIL)!;
    expect(stored.onboarding_token_hash).toBe(sha256(token));
    expect(stored.onboarding_expires_at!.getTime()).toBe(clock.now() + ONBOARDING_TTL_MS);
    expect(stored.code_hash).toBeNull();
    expect(counted('codes', { purpose: 'signup', result: 'ok' })).toBe(1);
    // Spent: the same code does not verify twice.
    await expect(verifyEmail(deps, { email: EMAIL, code: CODE })).rejects.toMatchObject({ reason: 'BAD_CODE' });
  });

  it('keeps the code through four wrong tries and burns it at the fifth', async () => {
    const four = setup();
    for (let i = 0; i < 4; i++)
      await expect(verifyEmail(four.deps, { email: EMAIL, code: '000000' })).rejects.toMatchObject({ reason: 'BAD_CODE' });
    expect(four.counted('codes', { result: 'wrong' })).toBe(4);
    await expect(verifyEmail(four.deps, { email: EMAIL, code: CODE })).resolves.toEqual(expect.any(String));

    const five = setup();
    for (let i = 0; i < 5; i++) await expect(verifyEmail(five.deps, { email: EMAIL, code: '000000' })).rejects.toThrow();
    expect(five.signups.all.get(EMAIL)!.code_hash).toBeNull();
    await expect(verifyEmail(five.deps, { email: EMAIL, code: CODE })).rejects.toMatchObject({ reason: 'BAD_CODE' });
    expect(five.counted('codes', { result: 'expired' })).toBe(1);
  });

  it('accepts a code up to its expiry and refuses it a millisecond later, without counting a try', async () => {
    const atExpiry = setup(CODE_TTL_MS);
    await expect(verifyEmail(atExpiry.deps, { email: EMAIL, code: CODE })).resolves.toEqual(expect.any(String));

    const late = setup(CODE_TTL_MS + 1);
    await expect(verifyEmail(late.deps, { email: EMAIL, code: CODE })).rejects.toMatchObject({ reason: 'BAD_CODE' });
    expect(late.counted('codes', { purpose: 'signup', result: 'expired' })).toBe(1);
    expect(late.signups.all.get(EMAIL)!.code_attempts).toBe(0);
  });

  it('answers an unknown email like an expired code', async () => {
    const { deps, counted } = setup();
    await expect(verifyEmail(deps, { email: 'nobody@example.test', code: CODE })).rejects.toMatchObject({ reason: 'BAD_CODE' });
    expect(counted('codes', { result: 'expired' })).toBe(1);
  });
});
