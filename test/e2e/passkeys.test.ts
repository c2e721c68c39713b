/**
 * Passkeys and recovery codes for senders (issue 34 item 8) through the real gateway and identity
 * (FerretDB, Redis, Mailpit). The authenticator is a software one (test/support/software-authenticator.ts):
 * real ES256 keys and CBOR answering the server's real options, verified by @simplewebauthn/server
 * in identity, unmocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices } from '../harness/services.js';
import { client, codeFromMail, uniqueEmail, uniqueIp } from '../support/identity-helpers.js';
import { softwareAuthenticator, type SoftwareCredential } from '../support/software-authenticator.js';

type Stack = Awaited<ReturnType<typeof startServices>>;
const PASSWORD = 'correct horse battery';

describe('passkeys and recovery codes through the gateway', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let auth: ReturnType<typeof softwareAuthenticator>;

  beforeAll(async () => {
    stack = await startServices(['identity', 'gateway']);
    // A fresh client address per call unless one is given: each test's own rate-limit counters.
    const raw = client(stack.gatewayUrl);
    api = (method, path, c = {}) => raw(method, path, { ip: uniqueIp(), ...c });
    auth = softwareAuthenticator(new URL(stack.gatewayUrl).origin);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function signUp(email: string, ip = uniqueIp()) {
    expect(
      (await api('POST', '/api/auth/register', { body: { email, password: PASSWORD, name: 'Ada Lovelace' }, ip })).status,
    ).toBe(202);
    const ver = await api('POST', '/api/auth/verify-email', { body: { email, code: await codeFromMail(email) }, ip });
    expect(ver.status, JSON.stringify(ver.body)).toBe(200);
    const onb = await api('POST', '/api/auth/onboarding', {
      body: { onboarding_token: ver.body.onboarding_token, org_name: 'Engines Ltd' },
      ip,
    });
    expect(onb.status, JSON.stringify(onb.body)).toBe(201);
    return onb.body.token as string;
  }
  async function register(token: string, name: string): Promise<{ cred: SoftwareCredential; id: string; response: unknown }> {
    const opts = await api('POST', '/api/auth/passkeys/options', { token });
    expect(opts.status, JSON.stringify(opts.body)).toBe(200);
    const { credential, response } = auth.create(opts.body);
    const reg = await api('POST', '/api/auth/passkeys', { token, body: { name, response } });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    return { cred: credential, id: reg.body.id, response };
  }
  const password = (email: string, ip = uniqueIp()) =>
    api('POST', '/api/auth/login', { body: { email, password: PASSWORD }, ip });
  const me = async (token: string) => (await api('POST', '/api/auth/me', { token })).body?.email as string | undefined;

  it('registers named passkeys and signs in with one after the password and alone; every check holds', async () => {
    const email = uniqueEmail('passkey');
    const token = await signUp(email);
    expect((await api('POST', '/api/auth/passkeys/options', {})).status).toBe(401);

    // Without a passkey the password alone signs in.
    expect((await password(email)).body.token).toBeTruthy();

    const laptop = await register(token, 'Laptop');
    // The same answer again: its challenge was taken by the first.
    const again = await api('POST', '/api/auth/passkeys', { token, body: { name: 'Again', response: laptop.response } });
    expect(again.status).toBe(400);
    const phone = await register(token, 'Phone');
    const list = await api('GET', '/api/auth/passkeys', { token });
    expect(list.body.passkeys.map((p: { name: string }) => p.name)).toEqual(['Laptop', 'Phone']);
    expect(list.body.passkeys[0].last_used_at).toBeNull();
    // The creation options of a user with passkeys exclude them.
    const next = await api('POST', '/api/auth/passkeys/options', { token });
    expect(next.body.excludeCredentials.map((c: { id: string }) => c.id).sort()).toEqual(
      [laptop.cred.id.toString('base64url'), phone.cred.id.toString('base64url')].sort(),
    );

    // After the password: a challenge naming the passkey, then an assertion over options bound to it.
    const ip = uniqueIp();
    const first = await password(email, ip);
    expect(first.body).toMatchObject({ mfa_required: true, methods: ['passkey'] });
    expect(first.body.token).toBeUndefined();
    const opts = await api('POST', '/api/auth/passkey/options', { body: { challenge: first.body.challenge }, ip });
    expect(opts.status).toBe(200);
    expect(opts.body.allowCredentials).toHaveLength(2);
    const assertion = auth.get(opts.body, laptop.cred);
    const ok = await api('POST', '/api/auth/passkey/login', {
      body: { challenge: first.body.challenge, response: assertion },
      ip,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await me(ok.body.token)).toBe(email);
    // The assertion, and the second-factor challenge, answer once.
    expect(
      (await api('POST', '/api/auth/passkey/login', { body: { challenge: first.body.challenge, response: assertion } })).status,
    ).toBe(401);
    expect((await api('POST', '/api/auth/2fa/login', { body: { challenge: first.body.challenge, code: '123456' } })).status).toBe(
      401,
    );

    // Alone (discoverable): the options ask for user verification and list no credential.
    const alone = await api('POST', '/api/auth/passkey/options', { body: {} });
    expect(alone.body).toMatchObject({ userVerification: 'required' });
    expect(alone.body.allowCredentials ?? []).toHaveLength(0);
    const s2 = await api('POST', '/api/auth/passkey/login', { body: { response: auth.get(alone.body, phone.cred) } });
    expect(s2.status, JSON.stringify(s2.body)).toBe(200);
    expect(await me(s2.body.token)).toBe(email);
    const used = await api('GET', '/api/auth/passkeys', { token });
    expect(used.body.passkeys.every((p: { last_used_at: string | null }) => p.last_used_at)).toBe(true);

    // Alone without user verification: refused (it would be one factor).
    const noUv = softwareAuthenticator(new URL(stack.gatewayUrl).origin, { userVerified: false });
    const o3 = await api('POST', '/api/auth/passkey/options', { body: {} });
    expect((await api('POST', '/api/auth/passkey/login', { body: { response: noUv.get(o3.body, phone.cred) } })).status).toBe(
      401,
    );

    // A counter that does not advance (a cloned authenticator): refused, and so is a bad signature or origin.
    const o4 = await api('POST', '/api/auth/passkey/options', { body: {} });
    const stale = auth.get(o4.body, laptop.cred, { counter: 1 });
    expect((await api('POST', '/api/auth/passkey/login', { body: { response: stale } })).status).toBe(401);
    const o5 = await api('POST', '/api/auth/passkey/options', { body: {} });
    const forged = auth.get(o5.body, laptop.cred) as { response: { signature: string } };
    const sig = Buffer.from(forged.response.signature, 'base64url');
    sig[sig.length - 1] = sig[sig.length - 1]! ^ 1;
    forged.response.signature = sig.toString('base64url');
    expect((await api('POST', '/api/auth/passkey/login', { body: { response: forged } })).status).toBe(401);
    const o6 = await api('POST', '/api/auth/passkey/options', { body: {} });
    const elsewhere = softwareAuthenticator('https://evil.example').get(o6.body, laptop.cred);
    expect((await api('POST', '/api/auth/passkey/login', { body: { response: elsewhere } })).status).toBe(401);
    // A made-up challenge: no options were given for it.
    const made = auth.get({ challenge: 'bm90LWEtcmVhbC1jaGFsbGVuZ2U', rpId: o6.body.rpId }, laptop.cred);
    expect((await api('POST', '/api/auth/passkey/login', { body: { response: made } })).status).toBe(401);
  });

  it('passkeys of one user sign in nobody else, and removal ends one', async () => {
    const ada = uniqueEmail('pk-ada');
    const grace = uniqueEmail('pk-grace');
    const adaToken = await signUp(ada);
    const graceToken = await signUp(grace);
    const adaKey = await register(adaToken, 'Ada key');
    await register(graceToken, 'Grace key');

    // Grace's second-factor options, answered with Ada's passkey.
    const g = await password(grace);
    const go = await api('POST', '/api/auth/passkey/options', { body: { challenge: g.body.challenge } });
    const cross = await api('POST', '/api/auth/passkey/login', {
      body: { challenge: g.body.challenge, response: auth.get(go.body, adaKey.cred) },
    });
    expect(cross.status).toBe(401);
    // Grace cannot remove Ada's passkey.
    expect((await api('DELETE', `/api/auth/passkeys/${adaKey.id}`, { token: graceToken })).status).toBe(404);

    expect((await api('DELETE', `/api/auth/passkeys/${adaKey.id}`, { token: adaToken })).status).toBe(204);
    expect((await api('DELETE', `/api/auth/passkeys/${adaKey.id}`, { token: adaToken })).status).toBe(404);
    const o = await api('POST', '/api/auth/passkey/options', { body: {} });
    expect((await api('POST', '/api/auth/passkey/login', { body: { response: auth.get(o.body, adaKey.cred) } })).status).toBe(
      401,
    );
    // No passkey and no TOTP left: the password alone signs in again.
    const back = await password(ada);
    expect(back.body.token).toBeTruthy();
    expect((await api('GET', '/api/auth/security', { token: adaToken })).body).toEqual({
      totp_enabled: false,
      passkeys: 0,
      recovery_codes_left: 0,
    });
  });

  it('renames a passkey: only its owner, a blank or too long name is a 400, and the log keeps the old and new name', async () => {
    const adaToken = await signUp(uniqueEmail('pk-rename'));
    const graceToken = await signUp(uniqueEmail('pk-rename-other'));
    const key = await register(adaToken, 'Laptop');
    const rename = (token: string | undefined, id: string, body: unknown) =>
      api('PATCH', `/api/auth/passkeys/${id}`, { ...(token ? { token } : {}), body });
    const names = async () =>
      (await api('GET', '/api/auth/passkeys', { token: adaToken })).body.passkeys.map((p: { name: string }) => p.name);

    expect((await rename(undefined, key.id, { name: 'Mine' })).status).toBe(401);
    // Another user's passkey, an unknown one: 404, nothing changed.
    expect((await rename(graceToken, key.id, { name: 'Mine' })).status).toBe(404);
    expect((await rename(adaToken, 'no-such-passkey', { name: 'Mine' })).status).toBe(404);
    for (const bad of [{ name: '   ' }, { name: 'x'.repeat(65) }, {}, { name: 5 }]) {
      const r = await rename(adaToken, key.id, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.detail, JSON.stringify(bad)).toMatch(/name/);
    }
    expect(await names()).toEqual(['Laptop']);

    const ok = await rename(adaToken, key.id, { name: '  Work laptop ' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ id: key.id, name: 'Work laptop', last_used_at: null });
    expect(await names()).toEqual(['Work laptop']);
    // The same name again changes nothing and records nothing.
    expect((await rename(adaToken, key.id, { name: 'Work laptop' })).status).toBe(200);
    const log = await api('GET', '/api/admin/audit-log', { token: adaToken, query: { action: 'passkey.renamed' } });
    expect(log.status).toBe(200);
    expect(log.body.events).toHaveLength(1);
    expect(log.body.events[0]).toMatchObject({ target: key.id, details: { name: 'Work laptop', previous_name: 'Laptop' } });
    // Renamed, it still signs in.
    const o = await api('POST', '/api/auth/passkey/options', { body: {} });
    expect((await api('POST', '/api/auth/passkey/login', { body: { response: auth.get(o.body, key.cred) } })).status).toBe(200);
  });

  it('recovery codes: ten, shown once, each usable once instead of the second factor; regenerating replaces all', async () => {
    const email = uniqueEmail('recovery');
    const token = await signUp(email);
    await register(token, 'Only key');
    const gen = await api('POST', '/api/auth/recovery-codes', { token });
    expect(gen.status).toBe(200);
    const codes = gen.body.codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await api('GET', '/api/auth/security', { token })).body).toMatchObject({ passkeys: 1, recovery_codes_left: 10 });

    const c1 = await password(email);
    expect(c1.body.methods).toEqual(['passkey', 'recovery_code']);
    expect(
      (await api('POST', '/api/auth/2fa/login', { body: { challenge: c1.body.challenge, recovery_code: 'ABCD-EFGH-JKMN' } }))
        .status,
    ).toBe(401);
    const ok = await api('POST', '/api/auth/2fa/login', {
      body: { challenge: c1.body.challenge, recovery_code: codes[0]!.toLowerCase() },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await me(ok.body.token)).toBe(email);
    // Once only.
    const c2 = await password(email);
    expect(
      (await api('POST', '/api/auth/2fa/login', { body: { challenge: c2.body.challenge, recovery_code: codes[0] } })).status,
    ).toBe(401);
    expect((await api('GET', '/api/auth/security', { token })).body.recovery_codes_left).toBe(9);
    // Both or neither of code and recovery_code: 400.
    const both = await api('POST', '/api/auth/2fa/login', {
      body: { challenge: c2.body.challenge, code: '123456', recovery_code: codes[1] },
    });
    expect(both.status).toBe(400);
    expect((await api('POST', '/api/auth/2fa/login', { body: { challenge: c2.body.challenge } })).status).toBe(400);

    // Regenerating replaces every earlier code.
    const fresh = (await api('POST', '/api/auth/recovery-codes', { token })).body.codes as string[];
    const c3 = await password(email);
    expect(
      (await api('POST', '/api/auth/2fa/login', { body: { challenge: c3.body.challenge, recovery_code: codes[1] } })).status,
    ).toBe(401);
    const ok2 = await api('POST', '/api/auth/2fa/login', { body: { challenge: c3.body.challenge, recovery_code: fresh[5] } });
    expect(ok2.status).toBe(200);
  });

  it('bad input is a 400 with a detail, the sign-in routes are rate limited per address', async () => {
    const email = uniqueEmail('pk-bad');
    const token = await signUp(email);
    for (const body of [
      {},
      { response: 'x' },
      { response: { id: 'a', type: 'public-key', response: {} } },
      { name: 'x'.repeat(65), response: {} },
    ]) {
      const r = await api('POST', '/api/auth/passkeys', { token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.detail).toBe('string');
    }
    const notJson = await api('POST', '/api/auth/passkey/login', { raw: '{"response":', ip: uniqueIp() });
    expect(notJson.status).toBe(400);
    expect((await api('POST', '/api/auth/passkey/options', { body: { challenge: 'not-a-challenge' } })).status).toBe(401);
    expect((await api('GET', '/api/auth/passkeys', { token })).body.passkeys).toEqual([]);

    const ip = uniqueIp();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await api('POST', '/api/auth/passkey/options', { body: {}, ip })).status);
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
