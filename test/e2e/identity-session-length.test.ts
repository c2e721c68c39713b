/**
 * The account's session length ("stay signed in for") through the real gateway and identity
 * (FerretDB, Redis, Mailpit): PATCH /api/admin/account/settings, its guards, and the JWT of the next
 * login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices } from '../harness/services.js';
import { client, codeFromMail, uniqueEmail, uniqueIp } from '../support/identity-helpers.js';

type Stack = Awaited<ReturnType<typeof startServices>>;

/** The payload of a JWT, read without verifying (the test checks what identity put in it). */
const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number; sid: string };
const lifetimeHours = (token: string) => {
  const c = claims(token);
  return (c.exp - c.iat) / 3600;
};

describe('session length setting through the gateway', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    stack = await startServices(['identity', 'gateway']);
    api = client(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function signUp(email: string, password: string, ip: string) {
    expect((await api('POST', '/api/auth/register', { body: { email, password, name: 'Grace Hopper' }, ip })).status).toBe(202);
    const code = await codeFromMail(email);
    const ver = await api('POST', '/api/auth/verify-email', { body: { email, code }, ip });
    expect(ver.status, JSON.stringify(ver.body)).toBe(200);
    const onb = await api('POST', '/api/auth/onboarding', {
      body: { onboarding_token: ver.body.onboarding_token, org_name: 'Hopper Ltd' },
      ip,
    });
    expect(onb.status, JSON.stringify(onb.body)).toBe(201);
    return onb.body.token as string;
  }
  const ttlOf = async (token: string) => {
    const me = await api('POST', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    return me.body.session_ttl_hours as number;
  };
  const settingsChanged = async (setting = 'session_ttl_hours') => {
    const text = await (await fetch(`http://127.0.0.1:${stack.opsPorts.identity}/metrics`)).text();
    const m = new RegExp(`^signet_identity_settings_changed_total\\{[^}]*setting="${setting}"[^}]*\\} (\\d+)$`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  };

  it('changes the length of sessions issued afterwards; guards and bad values change nothing', async () => {
    const ip = uniqueIp();
    const email = uniqueEmail('ttl');
    const password = 'correct horse battery';
    const first = await signUp(email, password, ip);
    const other = await signUp(uniqueEmail('ttl-other'), 'another good password', ip);
    // The default: 24 hours, in the profile and in the JWT.
    expect(await ttlOf(first)).toBe(24);
    expect(lifetimeHours(first)).toBe(24);
    const login = async () => {
      const r = await api('POST', '/api/auth/login', { body: { email, password }, ip });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as { token: string; expires_at: string };
    };
    expect(lifetimeHours((await login()).token)).toBe(24);

    const csrf = (await api('GET', '/api/admin/csrf', { token: first })).body.csrf as string;
    const patch = (c: { token?: string; apiKey?: string; csrf?: string; body?: unknown; raw?: string }) =>
      api('PATCH', '/api/admin/account/settings', {
        token: c.token,
        apiKey: c.apiKey,
        body: c.body,
        raw: c.raw,
        query: c.csrf !== undefined ? { csrf: c.csrf } : undefined,
      });
    const changedBefore = await settingsChanged();

    // Guards: no session, no or a foreign CSRF token, an API key (even with a valid CSRF token).
    expect((await patch({ csrf, body: { session_ttl_hours: 8 } })).status).toBe(401);
    const noCsrf = await patch({ token: first, body: { session_ttl_hours: 8 } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.detail).toMatch(/csrf/);
    expect((await patch({ token: first, csrf: 'x'.repeat(43), body: { session_ttl_hours: 8 } })).status).toBe(403);
    const otherCsrf = (await api('GET', '/api/admin/csrf', { token: other })).body.csrf as string;
    expect((await patch({ token: first, csrf: otherCsrf, body: { session_ttl_hours: 8 } })).status).toBe(403);
    const key = await api('POST', '/api/admin/api-keys', { token: first, body: { name: 'integration' }, query: { csrf } });
    expect(key.status).toBe(201);
    const byKey = await patch({ apiKey: key.body.key, csrf, body: { session_ttl_hours: 8 } });
    expect(byKey.status).toBe(401);
    expect(byKey.body.detail).toMatch(/API keys are not accepted/);

    // Bad values: 400 naming the field.
    const bad: [unknown, RegExp][] = [
      [{}, /^session_ttl_hours or another setting is required; the settings are session_ttl_hours, biometric_retention_days, /],
      [{ biometric_retention_days: -1 }, /^biometric_retention_days: must be at least 0$/],
      // Within the route's bounds but past the operator's maximum (BIOMETRIC_RETENTION_MAX_DAYS, 365 here): identity refuses it.
      [{ biometric_retention_days: 400 }, /biometric_retention_days must be a whole number of days from 0 to 365/],
      [{ session_ttl_hours: 0 }, /^session_ttl_hours: must be at least 1$/],
      [{ session_ttl_hours: 721 }, /^session_ttl_hours: must be at most 720/],
      [{ session_ttl_hours: -24 }, /^session_ttl_hours: must be at least 1$/],
      [{ session_ttl_hours: 7.5 }, /^session_ttl_hours: must be a whole number of hours$/],
      [{ session_ttl_hours: '8' }, /^session_ttl_hours: must be a whole number of hours$/],
      [{ session_ttl_hours: null }, /^session_ttl_hours: must be a whole number of hours$/],
      [{ session_ttl_hours: 8, session_ttl: 8 }, /^session_ttl: unknown setting/],
      [[8], /JSON object/],
    ];
    for (const [body, detail] of bad) {
      const r = await patch({ token: first, csrf, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.detail, JSON.stringify(body)).toMatch(detail);
    }
    const malformed = await patch({ token: first, csrf, raw: '{"session_ttl_hours": 8' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ detail: expect.any(String) });
    // Nothing changed: the profile and the next login still say 24 hours, and nothing was counted.
    expect(await ttlOf(first)).toBe(24);
    expect(lifetimeHours((await login()).token)).toBe(24);
    expect(await settingsChanged()).toBe(changedBefore);

    // A valid change: 200 with the setting in force.
    const ok = await patch({ token: first, csrf, body: { session_ttl_hours: 8 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({
      session_ttl_hours: 8,
      biometric_retention_days: 30,
      expiry_days: 30,
      reminder_first_after_hours: 72,
      reminder_every_hours: 72,
      reminder_max: 3,
    });
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ttlOf(first)).toBe(8);
    expect(await settingsChanged()).toBe(changedBefore + 1);
    // The next login's JWT lives 8 hours, and the login's expires_at says the same.
    const after = await login();
    expect(lifetimeHours(after.token)).toBe(8);
    expect(Date.parse(after.expires_at) / 1000).toBe(claims(after.token).exp);
    // The session that made the change keeps its 24-hour expiry and still works; it was not ended.
    expect(lifetimeHours(first)).toBe(24);
    expect((await api('POST', '/api/auth/me', { token: first })).status).toBe(200);
    // Another account is untouched.
    expect(await ttlOf(other)).toBe(24);

    // Sessions from a password change follow the setting too; 720 hours (30 days) is the maximum.
    expect((await patch({ token: first, csrf, body: { session_ttl_hours: 720 } })).body).toMatchObject({
      session_ttl_hours: 720,
    });
    const changed = await api('POST', '/api/auth/change-password', {
      token: after.token,
      body: { current_password: password, new_password: 'a newer good password' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(lifetimeHours(changed.body.token as string)).toBe(720);
    expect(await ttlOf(changed.body.token as string)).toBe(720);
    // Setting the value it already has answers 200 and is not counted as a change.
    const csrfNew = (await api('GET', '/api/admin/csrf', { token: changed.body.token })).body.csrf as string;
    const same = await patch({ token: changed.body.token, csrf: csrfNew, body: { session_ttl_hours: 720 } });
    expect(same.status).toBe(200);
    expect(await settingsChanged()).toBe(changedBefore + 2);

    // The biometric retention alone: the session length stays, the profile shows the new value.
    const kept = await patch({ token: changed.body.token, csrf: csrfNew, body: { biometric_retention_days: 7 } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toEqual({
      session_ttl_hours: 720,
      biometric_retention_days: 7,
      expiry_days: 30,
      reminder_first_after_hours: 72,
      reminder_every_hours: 72,
      reminder_max: 3,
    });
    const me = await api('POST', '/api/auth/me', { token: changed.body.token });
    expect(me.body).toMatchObject({ session_ttl_hours: 720, biometric_retention_days: 7 });
    expect(await settingsChanged()).toBe(changedBefore + 2);
    expect(await settingsChanged('biometric_retention_days')).toBe(1);
  });

  it('describes the route in /api/openapi.json', async () => {
    const doc = (await api('GET', '/api/openapi.json')).body;
    const op = doc.paths['/api/admin/account/settings'].patch;
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain('csrf');
    expect(op.requestBody.content['application/json'].schema.properties.session_ttl_hours).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 720,
    });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
  });
});
