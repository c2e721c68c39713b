import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { connectMongo, createClient, Metrics, RpcError, type ServiceClient } from '@signet/kit';
import { identityV1 } from '@signet/proto';
import { infra, startServices } from '../../../test/harness/services.js';
import { codeFromMail, mailsTo, totp, uniqueEmail } from '../../../test/support/identity-helpers.js';

type Identity = ServiceClient<identityV1.IdentityServiceClient>;

async function rpcError(p: Promise<unknown>): Promise<RpcError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof RpcError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** Register and verify over gRPC, reading the code from Mailpit; returns the onboarding token. */
async function verified(id: Identity, email: string, password = 'password-at-rest') {
  await id.register({ email, password, name: 'Grace Hopper' });
  const v = await id.verifyEmail({ email, code: await codeFromMail(email) });
  return v.onboardingToken;
}

describe('identity service over gRPC (real FerretDB, Redis, Mailpit)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let id: Identity;
  let conn: Connection;
  const db = { collection: (name: string) => conn.db!.collection(name) };

  beforeAll(async () => {
    stack = await startServices(['identity']);
    id = createClient(identityV1.IdentityServiceClient, stack.env.IDENTITY_ADDR!, { metrics: new Metrics('test') });
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.identity);
  });
  afterAll(async () => {
    id?.close();
    await conn?.close();
    await stack?.stop();
  });

  it('keeps passwords as argon2id, codes and API keys as hashes, TOTP secrets encrypted', async () => {
    const email = uniqueEmail('rest');
    await id.register({ email, password: 'password-at-rest', name: 'Grace Hopper' });
    const code = await codeFromMail(email);
    const intent = await db.collection('signups').findOne({ _id: email as never });
    expect(intent!.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(intent)).not.toContain(code);
    expect(JSON.stringify(intent)).not.toContain('password-at-rest');

    const v = await id.verifyEmail({ email, code });
    const s = await id.completeOnboarding({ onboardingToken: v.onboardingToken, orgName: 'Navy' });
    expect(await db.collection('signups').countDocuments({ _id: email as never })).toBe(0);
    const setup = await id.setupTotp({ userId: s.userId });
    const user = await db.collection('users').findOne({ email });
    expect(user!.password_hash).toMatch(/^\$argon2id\$/);
    expect(user!.totp_pending_secret).toMatch(/^v1\./);
    expect(JSON.stringify(user)).not.toContain(setup.secret);

    const key = await id.createApiKey({ userId: s.userId, name: 'ci', mode: '', scopes: [], expiresAt: '' });
    const stored = await db.collection('api_keys').findOne({ _id: key.key!.id as never });
    expect(stored!.hash).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(stored!.prefix).toBe(key.secret.slice(0, 12));
    expect(stored!.mode).toBe('live'); // no mode given: live, as every key made before test mode
    expect(JSON.stringify(stored)).not.toContain(key.secret);

    // A test key: its own prefix, stored as such, and authentication says so.
    const test = await id.createApiKey({ userId: s.userId, name: 'sandbox', mode: 'test', scopes: [], expiresAt: '' });
    expect(test.secret).toMatch(/^sgn_test_/);
    expect(test.key).toMatchObject({ mode: 'test', prefix: test.secret.slice(0, 17) });
    expect((await db.collection('api_keys').findOne({ _id: test.key!.id as never }))!.mode).toBe('test');
    expect(await id.authenticate({ credential: { $case: 'apiKey', value: test.secret } })).toMatchObject({ mode: 'test' });
    expect(await id.authenticate({ credential: { $case: 'apiKey', value: key.secret } })).toMatchObject({
      mode: 'live',
      // The founder's own organisation; a key made without scopes has every scope of the role, and the
      // highest scope (admin) is what it may do: a key never acts as owner (billing, ownership).
      ownerId: s.userId,
      role: 'admin',
      scopes: ['read', 'write', 'admin'],
    });
    await expect(
      id.createApiKey({ userId: s.userId, name: 'x', mode: 'sandbox', scopes: [], expiresAt: '' }),
    ).rejects.toMatchObject({
      details: expect.stringMatching(/mode/),
    });
  });

  it('creates one account when two onboardings race with the same token, and announces it once', async () => {
    const email = uniqueEmail('race');
    const token = await verified(id, email);
    const results = await Promise.allSettled([
      id.completeOnboarding({ onboardingToken: token, orgName: 'One' }),
      id.completeOnboarding({ onboardingToken: token, orgName: 'Two' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(['ALREADY_EXISTS', 'ACCOUNT_EXISTS', 'UNAUTHENTICATED']).toContain((lost.reason as RpcError).reason);
    expect(await db.collection('users').countDocuments({ email })).toBe(1);
    // The relay emptied the outbox after publishing.
    await expect.poll(async () => (await db.collection('users').findOne({ email }))!.outbox.length, { timeout: 10_000 }).toBe(0);
  });

  it('ends a two-factor challenge after five wrong codes', async () => {
    const email = uniqueEmail('mfa');
    const s = await id.completeOnboarding({ onboardingToken: await verified(id, email), orgName: 'MFA' });
    const setup = await id.setupTotp({ userId: s.userId });
    await id.enableTotp({ userId: s.userId, code: totp(setup.secret) });
    const login = await id.login({ email, password: 'password-at-rest' });
    expect(login.result?.$case).toBe('mfa');
    const challenge = login.result!.$case === 'mfa' ? login.result!.value.challenge : '';
    const good = totp(setup.secret, Date.now() + 30_000);
    const bad = good === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++)
      expect((await rpcError(id.completeMfaLogin({ challenge, code: bad }))).reason).toBe('UNAUTHENTICATED');
    expect((await rpcError(id.completeMfaLogin({ challenge, code: good }))).details).toMatch(/challenge/);
  });

  it('burns a reset code after five wrong tries', async () => {
    const email = uniqueEmail('reset');
    await id.completeOnboarding({ onboardingToken: await verified(id, email), orgName: 'Reset' });
    await id.sendResetCode({ email });
    const code = await codeFromMail(email, 2);
    const bad = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++)
      expect((await rpcError(id.resetPassword({ email, code: bad, newPassword: 'new-password-1' }))).reason).toBe('BAD_CODE');
    expect((await rpcError(id.resetPassword({ email, code, newPassword: 'new-password-1' }))).reason).toBe('BAD_CODE');
    const login = await id.login({ email, password: 'password-at-rest' });
    expect(login.result?.$case).toBe('session');
  });

  it('exposes its domain counters', async () => {
    const text = await (await fetch(`http://127.0.0.1:${stack.opsPorts.identity}/metrics`)).text();
    expect(text).toMatch(/signet_identity_signups_total\{[^}]*step="onboarded"[^}]*\} [1-9]/);
    expect(text).toMatch(/signet_identity_logins_total\{[^}]*result="mfa_required"[^}]*\} [1-9]/);
    expect(text).toMatch(/signet_identity_mails_total\{[^}]*kind="signup_code"[^}]*result="sent"[^}]*\} [1-9]/);
  });
});

describe('identity with its mail server down', () => {
  it('refuses to register (503 upstream) and leaves no signup intent behind', async () => {
    const stack = await startServices(['identity'], { env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    const id = createClient(identityV1.IdentityServiceClient, stack.env.IDENTITY_ADDR!, { metrics: new Metrics('test') });
    const conn = await connectMongo(infra().MONGO_URL, stack.dbs.identity);
    try {
      const email = uniqueEmail('nomail');
      const err = await rpcError(id.register({ email, password: 'password-nomail', name: 'N' }));
      expect(err.reason).toBe('MAIL_UNAVAILABLE');
      expect(await conn.db!.collection('signups').countDocuments({})).toBe(0);
      expect(await mailsTo(email)).toEqual([]);
    } finally {
      id.close();
      await conn.close();
      await stack.stop();
    }
  });
});
