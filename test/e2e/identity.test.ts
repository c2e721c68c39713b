import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../harness/services.js';
import { client, codeFromMail, mailsTo, totp, uniqueEmail, uniqueIp, type Reply } from '../support/identity-helpers.js';

type Stack = Awaited<ReturnType<typeof startServices>>;

/**
 * A second gateway process on its own port: same identity, Redis and key prefix, same secrets. A
 * revocation made through the first must reach it at once, although it cached the key.
 */
async function secondGateway(stack: Stack) {
  const two = await startServices(['gateway'], {
    env: {
      REDIS_KEY_PREFIX: stack.env.REDIS_KEY_PREFIX!,
      IDENTITY_ADDR: stack.env.IDENTITY_ADDR!,
      JWT_SECRET: stack.secrets.JWT_SECRET,
      TOTP_ENCRYPTION_KEY: stack.secrets.TOTP_ENCRYPTION_KEY,
    },
  });
  return {
    call: client(two.gatewayUrl),
    metrics: async () => (await fetch(`http://127.0.0.1:${two.opsPorts.gateway}/metrics`)).text(),
    stop: () => two.stop(),
  };
}

/** Sign-up through the gateway: register → code from Mailpit → verify → onboarding. */
async function signUp(api: ReturnType<typeof client>, email: string, password: string, orgName: string, ip = uniqueIp()) {
  const reg = await api('POST', '/api/auth/register', { body: { email, password, name: 'Ada Lovelace' }, ip });
  expect(reg.status, JSON.stringify(reg.body)).toBe(202);
  const code = await codeFromMail(email);
  const ver = await api('POST', '/api/auth/verify-email', { body: { email, code }, ip });
  expect(ver.status, JSON.stringify(ver.body)).toBe(200);
  const onb = await api('POST', '/api/auth/onboarding', {
    body: { onboarding_token: ver.body.onboarding_token, org_name: orgName },
    ip,
  });
  expect(onb.status, JSON.stringify(onb.body)).toBe(201);
  return onb.body as { token: string; email: string; org_name: string };
}

describe('identity through the gateway (real FerretDB, Redis, NATS, Mailpit)', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let bus: Bus;

  beforeAll(async () => {
    stack = await startServices(['identity', 'gateway']);
    api = client(stack.gatewayUrl);
    bus = await connectBus(infra().NATS_URL, 'test-identity');
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
  });

  it('walks sign-up, login, TOTP, an API key that authenticates on two gateways, and its revocation', async () => {
    const ip = uniqueIp();
    const email = uniqueEmail('walk');
    const password = 'correct horse battery';

    // Sign-up: the code arrives by mail only, never in a response.
    const reg = await api('POST', '/api/auth/register', {
      body: { email: email.toUpperCase(), password, name: 'Ada Lovelace' },
      ip,
    });
    expect(reg.status).toBe(202);
    expect(reg.body).toMatchObject({ status: 'code_sent', email });
    expect(JSON.stringify(reg.body)).not.toMatch(/\b\d{6}\b/);
    const code = await codeFromMail(email);
    expect((await api('POST', '/api/auth/check-email', { body: { email }, ip })).body).toEqual({ email, exists: false });
    const verified = await api('POST', '/api/auth/verify-email', { body: { email, code }, ip });
    expect(verified.status).toBe(200);
    expect(verified.body.onboarding_token).toEqual(expect.any(String));
    // The code is spent.
    expect((await api('POST', '/api/auth/verify-email', { body: { email, code }, ip })).status).toBe(400);
    const onboarded = await api('POST', '/api/auth/onboarding', {
      body: { onboarding_token: verified.body.onboarding_token, org_name: 'Analytical Engines Ltd' },
      ip,
    });
    expect(onboarded.status).toBe(201);
    expect(onboarded.body).toMatchObject({ token: expect.any(String), email, org_name: 'Analytical Engines Ltd' });
    // The onboarding token is single use.
    expect(
      (
        await api('POST', '/api/auth/onboarding', {
          body: { onboarding_token: verified.body.onboarding_token, org_name: 'Again' },
          ip,
        })
      ).status,
    ).toBe(401);
    expect((await api('POST', '/api/auth/check-email', { body: { email }, ip })).body.exists).toBe(true);

    // Login → session JWT (HS256), profile.
    const login = await api('POST', '/api/auth/login', { body: { email, password }, ip });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ email, org_name: 'Analytical Engines Ltd' });
    const token = login.body.token as string;
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    const me = await api('POST', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email,
      name: 'Ada Lovelace',
      org_name: 'Analytical Engines Ltd',
      two_factor_enabled: false,
      session_ttl_hours: 24,
      auth_method: 'session',
    });
    // Billing is not running in this stack: the plan fields are left out, the profile still answers.
    expect(me.body.plan).toBeUndefined();

    // The user.created event went out through the outbox.
    const userId = me.body.user_id as string;
    const created = await eventually(async () => {
      const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.userCreated.subject] });
      const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
      for await (const m of batch) {
        const ev = eventsV1.UserCreated.decode(m.data);
        if (ev.userId === userId) return ev;
      }
      return undefined;
    });
    expect(created).toMatchObject({ email, orgName: 'Analytical Engines Ltd', eventId: expect.any(String) });

    // TOTP: setup gives a secret, URI and QR; enable needs a valid code.
    const setup = await api('POST', '/api/auth/2fa/setup', { token });
    expect(setup.status).toBe(200);
    expect(setup.body.otpauth_uri).toMatch(new RegExp(`^otpauth://totp/.*secret=${setup.body.secret}`));
    expect(setup.body.qr_data_url).toMatch(/^data:image\/png;base64,/);
    const secret = setup.body.secret as string;
    const wrong = totp(secret) === '000000' ? '111111' : '000000';
    expect((await api('POST', '/api/auth/2fa/enable', { token, body: { code: wrong } })).status).toBe(400);
    const enable = await api('POST', '/api/auth/2fa/enable', { token, body: { code: totp(secret) } });
    expect(enable.status, JSON.stringify(enable.body)).toBe(200);
    expect((await api('POST', '/api/auth/me', { token })).body.two_factor_enabled).toBe(true);

    // Login now needs the code: a challenge, not a token.
    const first = await api('POST', '/api/auth/login', { body: { email, password }, ip });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mfa_required: true, challenge: expect.any(String) });
    expect(first.body.token).toBeUndefined();
    // The code that enabled TOTP is spent; a wrong one is refused; the next step's code works once.
    expect((await api('POST', '/api/auth/2fa/login', { body: { challenge: first.body.challenge, code: wrong } })).status).toBe(
      401,
    );
    const next = totp(secret, Date.now() + 30_000);
    const done = await api('POST', '/api/auth/2fa/login', { body: { challenge: first.body.challenge, code: next } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ token: expect.any(String), email, org_name: 'Analytical Engines Ltd' });
    const session = done.body.token as string;
    // The challenge and the code are both single use.
    expect((await api('POST', '/api/auth/2fa/login', { body: { challenge: first.body.challenge, code: next } })).status).toBe(
      401,
    );
    const second = await api('POST', '/api/auth/login', { body: { email, password }, ip });
    expect((await api('POST', '/api/auth/2fa/login', { body: { challenge: second.body.challenge, code: next } })).status).toBe(
      401,
    );

    // API key: JWT + CSRF. Without the csrf parameter → 403; an API key is not accepted on /api/admin.
    expect((await api('POST', '/api/admin/api-keys', { token: session, body: { name: 'backend' } })).status).toBe(403);
    const csrf = await api('GET', '/api/admin/csrf', { token: session });
    expect(csrf.status).toBe(200);
    expect((await api('GET', '/api/admin/csrf', { token: session })).body.csrf).toBe(csrf.body.csrf);
    expect(
      (await api('POST', '/api/admin/api-keys', { token: session, body: { name: 'backend' }, query: { csrf: 'x'.repeat(43) } }))
        .status,
    ).toBe(403);
    const made = await api('POST', '/api/admin/api-keys', {
      token: session,
      body: { name: 'backend' },
      query: { csrf: csrf.body.csrf },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = made.body.key as string;
    expect(made.body.prefix).toHaveLength(12);
    expect(key.startsWith(made.body.prefix)).toBe(true);
    expect((await api('GET', '/api/admin/api-keys', { apiKey: key })).status).toBe(401);

    // The key authenticates on a second gateway (cached after the first lookup) and on this one.
    // (requireCaller on another module's route: services/gateway/test/require-caller.int.test.ts.)
    const replica = await secondGateway(stack);
    try {
      const me2 = await replica.call('POST', '/api/auth/me', { apiKey: key });
      expect(me2.status).toBe(200);
      expect(me2.body).toMatchObject({ user_id: userId, email, org_name: 'Analytical Engines Ltd', auth_method: 'api_key' });
      expect((await replica.call('POST', '/api/auth/me', { apiKey: key })).status).toBe(200); // now from the cache
      expect(await replica.metrics()).toMatch(/signet_gateway_auth_cache_total\{[^}]*result="hit"[^}]*\} 1/);
      expect(
        (await replica.call('POST', '/api/auth/me', { apiKey: `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}` })).status,
      ).toBe(401);
      expect((await replica.call('POST', '/api/auth/me', { token: session })).status).toBe(200);
      expect((await replica.call('POST', '/api/auth/me', {})).status).toBe(401);
      const viaKey = await api('POST', '/api/auth/me', { apiKey: key });
      expect(viaKey.status).toBe(200);
      expect(viaKey.body).toMatchObject({ email, auth_method: 'api_key' });

      // Listed with prefix, name, times; never the secret.
      const list = await api('GET', '/api/admin/api-keys', { token: session });
      expect(list.status).toBe(200);
      expect(list.body.api_keys).toEqual([
        {
          id: made.body.id,
          name: 'backend',
          prefix: made.body.prefix,
          mode: 'live',
          // Made without scopes or expiry: every scope of the owner's role, never expiring, made by them.
          scopes: ['read', 'write', 'admin'],
          expires_at: null,
          created_by: viaKey.body.user_id,
          created_at: expect.any(String),
          last_used_at: expect.any(String),
        },
      ]);
      expect(JSON.stringify(list.body)).not.toContain(key);

      // Revoke: needs CSRF; then the key fails at once on both replicas, although it was cached.
      expect((await api('DELETE', `/api/admin/api-keys/${made.body.id}`, { token: session })).status).toBe(403);
      expect(
        (await api('DELETE', `/api/admin/api-keys/${made.body.id}`, { token: session, query: { csrf: csrf.body.csrf } })).status,
      ).toBe(204);
      expect((await replica.call('POST', '/api/auth/me', { apiKey: key })).status).toBe(401);
      expect((await api('POST', '/api/auth/me', { apiKey: key })).status).toBe(401);
      expect(
        (await api('DELETE', `/api/admin/api-keys/${made.body.id}`, { token: session, query: { csrf: csrf.body.csrf } })).status,
      ).toBe(404);
      expect((await api('GET', '/api/admin/api-keys', { token: session })).body.api_keys).toEqual([]);
    } finally {
      await replica.stop();
    }

    // 2FA off needs password and a code.
    // Three steps ahead: outside the ±1 step window even when a step boundary passes while the request
    // is served (two ahead was accepted then: the server's step had moved on by one).
    const later = totp(secret, Date.now() + 90_000);
    expect((await api('POST', '/api/auth/2fa/disable', { token: session, body: { password, code: later } })).status).toBe(403);
  });

  it('binds the CSRF token to the session and refuses another owner’s key with 404', async () => {
    const a = await signUp(api, uniqueEmail('csrf-a'), 'password-aaaa', 'A Org');
    const b = await signUp(api, uniqueEmail('csrf-b'), 'password-bbbb', 'B Org');
    const csrfA = (await api('GET', '/api/admin/csrf', { token: a.token })).body.csrf as string;
    const csrfB = (await api('GET', '/api/admin/csrf', { token: b.token })).body.csrf as string;
    expect(csrfA).not.toBe(csrfB);
    expect(
      (await api('POST', '/api/admin/api-keys', { token: b.token, body: { name: 'k' }, query: { csrf: csrfA } })).status,
    ).toBe(403);
    const keyA = await api('POST', '/api/admin/api-keys', { token: a.token, body: { name: 'k' }, query: { csrf: csrfA } });
    expect(keyA.status).toBe(201);
    expect((await api('DELETE', `/api/admin/api-keys/${keyA.body.id}`, { token: b.token, query: { csrf: csrfB } })).status).toBe(
      404,
    );
    expect((await api('POST', '/api/auth/me', { apiKey: keyA.body.key })).status).toBe(200);
    expect(
      (await api('POST', '/api/admin/api-keys', { token: a.token, body: { name: '' }, query: { csrf: csrfA } })).body.detail,
    ).toMatch(/name/);
  });

  it('answers bad input with 400 naming the field, and wrong credentials with one 401', async () => {
    const ip = uniqueIp();
    const email = uniqueEmail('bad');
    await signUp(api, email, 'right-password-1', 'Org');
    const cases: [string, Parameters<typeof api>[2], RegExp][] = [
      ['/api/auth/register', { raw: '{"email": ', ip }, /JSON/],
      ['/api/auth/register', { body: { password: 'long enough pw', name: 'N' }, ip }, /^email is required/],
      ['/api/auth/register', { body: { email: 'not-an-email', password: 'long enough pw', name: 'N' }, ip }, /^email/],
      ['/api/auth/register', { body: { email: 'x@example.com', password: 'short', name: 'N' }, ip }, /^password.*10/],
      [
        '/api/auth/register',
        { body: { email: 'x@example.com', password: 'long enough pw', name: 'N'.repeat(201) }, ip },
        /^name/,
      ],
      ['/api/auth/register', { body: { email: 'x@example.com', password: 12345678901, name: 'N' }, ip }, /^password/],
      ['/api/auth/login', { body: { email: 'x@example.com' }, ip }, /^password is required/],
      ['/api/auth/login', { body: ['x'], ip }, /JSON object/],
      ['/api/auth/verify-email', { body: { email: 'x@example.com', code: '12345' }, ip }, /^code/],
      ['/api/auth/onboarding', { body: { onboarding_token: 'abc' }, ip }, /^org_name is required/],
      ['/api/auth/reset-password-code', { body: { email, code: '123456', new_password: 'short' }, ip }, /^new_password/],
    ];
    for (const [path, call, detail] of cases) {
      const r = await api('POST', path, { ...call, ip: uniqueIp() }); // each from its own IP: the register limit is 5 per 5 minutes
      expect(r.status, `${path} ${JSON.stringify(call)}`).toBe(400);
      expect(r.body.detail, path).toMatch(detail);
    }
    // Nothing was created by the bad register calls.
    expect((await api('POST', '/api/auth/check-email', { body: { email: 'x@example.com' }, ip })).body.exists).toBe(false);
    expect(await mailsTo('x@example.com')).toEqual([]);

    const unknown = await api('POST', '/api/auth/login', {
      body: { email: uniqueEmail('nobody'), password: 'right-password-1' },
      ip,
    });
    const wrongPw = await api('POST', '/api/auth/login', { body: { email, password: 'wrong-password-1' }, ip });
    expect(unknown.status).toBe(401);
    expect(wrongPw.status).toBe(401);
    expect(unknown.body).toEqual(wrongPw.body);
    // Registering an existing account is a conflict.
    expect(
      (await api('POST', '/api/auth/register', { body: { email, password: 'another-password', name: 'N' }, ip })).status,
    ).toBe(409);
    // Unauthenticated calls to session routes.
    expect((await api('POST', '/api/auth/me', {})).status).toBe(401);
    expect((await api('POST', '/api/auth/2fa/setup', { token: 'not.a.jwt' })).status).toBe(401);
    expect((await api('GET', '/api/admin/csrf', {})).status).toBe(401);
  });

  it('burns a sign-up code after five wrong tries; send-code mails a fresh one', async () => {
    const ip = uniqueIp();
    const email = uniqueEmail('burn');
    expect((await api('POST', '/api/auth/register', { body: { email, password: 'password-burn', name: 'B' }, ip })).status).toBe(
      202,
    );
    const code = await codeFromMail(email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++)
      expect((await api('POST', '/api/auth/verify-email', { body: { email, code: wrong }, ip })).status).toBe(400);
    expect((await api('POST', '/api/auth/verify-email', { body: { email, code }, ip })).status).toBe(400);
    const resent = await api('POST', '/api/auth/send-code', { body: { email }, ip });
    expect(resent.status).toBe(202);
    const fresh = await codeFromMail(email, 2);
    expect((await api('POST', '/api/auth/verify-email', { body: { email, code: fresh }, ip })).status).toBe(200);
    expect((await api('POST', '/api/auth/send-code', { body: { email: uniqueEmail('never') }, ip })).status).toBe(404);
  });

  it('a password change ends older sessions; reset by code answers the same for unknown emails', async () => {
    const email = uniqueEmail('pw');
    const s1 = await signUp(api, email, 'first-password', 'PW Org');
    expect((await api('POST', '/api/auth/me', { token: s1.token })).status).toBe(200); // cached now
    expect(
      (
        await api('POST', '/api/auth/change-password', {
          token: s1.token,
          body: { current_password: 'nope-nope-nope', new_password: 'second-password' },
        })
      ).status,
    ).toBe(403);
    const changed = await api('POST', '/api/auth/change-password', {
      token: s1.token,
      body: { current_password: 'first-password', new_password: 'second-password' },
    });
    expect(changed.status).toBe(200);
    expect((await api('POST', '/api/auth/me', { token: s1.token })).status).toBe(401);
    expect((await api('POST', '/api/auth/me', { token: changed.body.token })).status).toBe(200);

    const ip = uniqueIp();
    const known = await api('POST', '/api/auth/send-reset-code', { body: { email }, ip });
    const nobody = uniqueEmail('nobody');
    const unknown = await api('POST', '/api/auth/send-reset-code', { body: { email: nobody }, ip });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    const code = await codeFromMail(email, 2); // the sign-up code was the first mail
    expect(await mailsTo(nobody)).toEqual([]);
    const badUnknown = await api('POST', '/api/auth/reset-password-code', {
      body: { email: nobody, code, new_password: 'third-password' },
      ip,
    });
    const badCode = await api('POST', '/api/auth/reset-password-code', {
      body: { email, code: code === '000000' ? '000001' : '000000', new_password: 'third-password' },
      ip,
    });
    expect(badUnknown.status).toBe(400);
    expect(badUnknown.body).toEqual(badCode.body);
    const reset = await api('POST', '/api/auth/reset-password-code', {
      body: { email, code, new_password: 'third-password' },
      ip,
    });
    expect(reset.status).toBe(200);
    expect((await api('POST', '/api/auth/me', { token: changed.body.token })).status).toBe(401);
    expect((await api('POST', '/api/auth/login', { body: { email, password: 'second-password' }, ip })).status).toBe(401);
    expect((await api('POST', '/api/auth/login', { body: { email, password: 'third-password' }, ip })).status).toBe(200);
    expect(
      (await api('POST', '/api/auth/reset-password-code', { body: { email, code, new_password: 'fourth-password' }, ip })).status,
    ).toBe(400);
  });

  it('describes every auth route in /api/openapi.json', async () => {
    const doc = (await api('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { responses: object }>> };
    const post = [
      'register',
      'login',
      'me',
      'check-email',
      'onboarding',
      'verify-email',
      'change-password',
      '2fa/setup',
      '2fa/enable',
      '2fa/disable',
      '2fa/login',
      'send-code',
      'send-reset-code',
      'reset-password-code',
    ];
    for (const p of post) {
      expect(doc.paths[`/api/auth/${p}`]?.post, p).toBeDefined();
      expect(Object.keys(doc.paths[`/api/auth/${p}`]!.post!.responses)).toContain('400');
    }
    expect(doc.paths['/api/auth/login']!.post).toMatchObject({ 'x-rate-limit': '10 requests per minute per client IP' });
    expect(doc.paths['/api/admin/csrf']?.get).toBeDefined();
    expect(doc.paths['/api/admin/api-keys']?.post).toBeDefined();
    expect(doc.paths['/api/admin/api-keys/{id}']?.delete).toBeDefined();
  });
});

describe('rate limits shared by gateway replicas', () => {
  const prefix = `t_shared_${Math.random().toString(36).slice(2, 10)}:`;
  let one: Stack;
  let two: Stack;
  let untrusting: Stack;

  beforeAll(async () => {
    one = await startServices(['identity', 'gateway'], { env: { REDIS_KEY_PREFIX: prefix } });
    // A second gateway process on its own port, same Redis and prefix, same identity.
    two = await startServices(['gateway'], {
      env: { REDIS_KEY_PREFIX: prefix, IDENTITY_ADDR: one.env.IDENTITY_ADDR!, ...secretsOf(one) },
    });
    // A gateway that trusts no proxy: X-Forwarded-For must not let a client pick its IP.
    untrusting = await startServices(['gateway'], {
      env: { TRUSTED_PROXIES: '', IDENTITY_ADDR: one.env.IDENTITY_ADDR!, ...secretsOf(one) },
    });
  });
  afterAll(async () => {
    await untrusting?.stop();
    await two?.stop();
    await one?.stop();
  });

  function secretsOf(s: Stack) {
    return { JWT_SECRET: s.secrets.JWT_SECRET, TOTP_ENCRYPTION_KEY: s.secrets.TOTP_ENCRYPTION_KEY };
  }

  it('the 11th login in a minute from one IP gets 429 with Retry-After, counted across two gateways', async () => {
    const ip = uniqueIp();
    const apis = [client(one.gatewayUrl), client(two.gatewayUrl)];
    const replies: Reply[] = [];
    for (let i = 0; i < 11; i++)
      replies.push(
        await apis[i % 2]!('POST', '/api/auth/login', { body: { email: 'nobody@example.com', password: 'whatever-pw' }, ip }),
      );
    expect(replies.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(401));
    const last = replies[10]!;
    expect(last.status).toBe(429);
    const retry = Number(last.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(last.body.detail).toMatch(/too many requests/);
    // Another client IP has its own counter.
    expect(
      (
        await apis[1]!('POST', '/api/auth/login', {
          body: { email: 'nobody@example.com', password: 'whatever-pw' },
          ip: uniqueIp(),
        })
      ).status,
    ).toBe(401);
    const metrics = await (await fetch(`http://127.0.0.1:${one.opsPorts.gateway}/metrics`)).text();
    expect(metrics).toMatch(/signet_gateway_rate_limited_total\{[^}]*limit="auth_login"[^}]*\} 1/);
  });

  it('limits register to 5 per 5 minutes', async () => {
    const api = client(two.gatewayUrl);
    const ip = uniqueIp();
    const statuses: number[] = [];
    // Invalid bodies are counted too (and create nothing).
    for (let i = 0; i < 6; i++) statuses.push((await api('POST', '/api/auth/register', { body: {}, ip })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const r = await api('POST', '/api/auth/register', { body: {}, ip });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(60);
  });

  it('ignores X-Forwarded-For from an untrusted peer', async () => {
    const api = client(untrusting.gatewayUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await api('POST', '/api/auth/login', { body: { email: 'nobody@example.com', password: 'whatever-pw' }, ip: uniqueIp() }))
          .status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});
