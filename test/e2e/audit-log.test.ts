/**
 * The account audit log (issue 34 item 3) through the real gateway and identity (FerretDB, Redis,
 * Mailpit): sign-ins and their failures with the client's address and user agent (no secret),
 * passkey and recovery-code changes; filtered by actor, action and time, paged by cursor, exported as
 * CSV and JSON; one account never sees another's; no route changes an entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServices } from '../harness/services.js';
import { client, codeFromMail, uniqueEmail, uniqueIp } from '../support/identity-helpers.js';
import { softwareAuthenticator } from '../support/software-authenticator.js';

type Stack = Awaited<ReturnType<typeof startServices>>;
type Entry = {
  id: string;
  at: string;
  action: string;
  actor_id: string;
  actor_email: string;
  ip: string;
  user_agent: string;
  details: Record<string, string>;
};
const PASSWORD = 'correct horse battery';
const UA = 'AuditTest/1.0 (e2e)';

describe('account audit log through the gateway', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    stack = await startServices(['identity', 'gateway']);
    api = client(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function signUp(email: string, ip = uniqueIp()) {
    expect(
      (await api('POST', '/api/auth/register', { body: { email, password: PASSWORD, name: 'Ada Lovelace' }, ip })).status,
    ).toBe(202);
    const ver = await api('POST', '/api/auth/verify-email', { body: { email, code: await codeFromMail(email) }, ip });
    const onb = await api('POST', '/api/auth/onboarding', {
      body: { onboarding_token: ver.body.onboarding_token, org_name: 'Engines Ltd' },
      ip,
    });
    expect(onb.status, JSON.stringify(onb.body)).toBe(201);
    return onb.body.token as string;
  }
  /** A login with a user agent (the client helper sends none of its own). */
  async function login(email: string, password: string, ip: string) {
    const res = await fetch(`${stack.gatewayUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, 'user-agent': UA },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, body: (await res.json()) as { token?: string } };
  }
  const log = async (token: string, query: Record<string, string> = {}) => {
    const r = await api('GET', '/api/admin/audit-log', { token, query });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { events: Entry[]; next_cursor: string | null };
  };

  it('records sign-ins, failures and security changes; filters, pages and exports them; other accounts see none', async () => {
    const email = uniqueEmail('audit');
    const token = await signUp(email);
    const other = await signUp(uniqueEmail('audit-other'));
    const ip = uniqueIp();
    const bad = await login(email, 'wrong password here', ip);
    expect(bad.status).toBe(401);
    const good = await login(email, PASSWORD, ip);
    expect(good.status).toBe(200);
    // A passkey and recovery codes: their changes are logged too.
    const opts = await api('POST', '/api/auth/passkeys/options', { token });
    const { response } = softwareAuthenticator(new URL(stack.gatewayUrl).origin).create(opts.body);
    const reg = await api('POST', '/api/auth/passkeys', { token, body: { name: 'Laptop', response }, ip });
    expect(reg.status).toBe(201);
    expect((await api('POST', '/api/auth/recovery-codes', { token, ip })).status).toBe(200);
    expect((await api('DELETE', `/api/auth/passkeys/${reg.body.id}`, { token, ip })).status).toBe(204);

    const all = await log(token);
    expect(all.events.map((e) => e.action)).toEqual([
      'passkey.removed',
      'recovery_codes.generated',
      'passkey.added',
      'auth.login.succeeded',
      'auth.login.failed',
    ]);
    const failed = all.events.find((e) => e.action === 'auth.login.failed')!;
    expect(failed).toMatchObject({ actor_email: email, ip, user_agent: UA, details: { reason: 'bad_password' } });
    expect(all.events.find((e) => e.action === 'auth.login.succeeded')).toMatchObject({
      ip,
      user_agent: UA,
      details: { method: 'password' },
    });
    expect(all.events.find((e) => e.action === 'passkey.added')).toMatchObject({
      target: reg.body.id,
      details: { name: 'Laptop' },
    });
    // No secret in the log: neither password nor a session token.
    const text = JSON.stringify(all);
    expect(text).not.toContain('wrong password here');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(good.body.token!);
    // Newest first.
    const times = all.events.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // Filters: an action prefix, one action, the actor, a time range.
    expect((await log(token, { action: 'auth.' })).events.map((e) => e.action)).toEqual([
      'auth.login.succeeded',
      'auth.login.failed',
    ]);
    expect((await log(token, { action: 'auth.login.failed' })).events).toHaveLength(1);
    expect((await log(token, { actor_id: failed.actor_id })).events).toHaveLength(5);
    expect((await log(token, { actor_id: 'someone-else' })).events).toHaveLength(0);
    expect((await log(token, { from: new Date(Date.now() + 60_000).toISOString() })).events).toHaveLength(0);
    expect((await log(token, { to: new Date(Date.parse(failed.at) + 1).toISOString() })).events.map((e) => e.id)).toEqual([
      failed.id,
    ]);

    // Pages of two, by cursor: every entry once, in order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p: { events: Entry[]; next_cursor: string | null } = await log(token, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(p.events.length).toBeLessThanOrEqual(2);
      seen.push(...p.events.map((e) => e.id));
      cursor = p.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.events.map((e) => e.id));

    // Exports: CSV and JSON, the same entries.
    const csv = await fetch(`${stack.gatewayUrl}/api/admin/audit-log/export?format=csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain('audit-log.csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('id,at,action,actor_id,actor_email,target,ip,user_agent,details');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(all.events.map((e) => e.id));
    const json = await fetch(`${stack.gatewayUrl}/api/admin/audit-log/export?format=json&action=auth.`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(json.status).toBe(200);
    expect(((await json.json()) as Entry[]).map((e) => e.action)).toEqual(['auth.login.succeeded', 'auth.login.failed']);

    // Another account's log holds none of these.
    const theirs = await log(other);
    expect(theirs.events.some((e) => e.actor_email === email)).toBe(false);
  });

  it('refuses bad filters with 400, API keys and anonymous callers, and has no way to change an entry', async () => {
    const token = await signUp(uniqueEmail('audit-guard'));
    const bad: Record<string, string>[] = [
      { from: 'yesterday' },
      { limit: '0' },
      { limit: '501' },
      { cursor: 'not-a-cursor' },
      { action: 'DROP TABLE' },
      { colour: 'red' },
    ];
    for (const query of bad) {
      const r = await api('GET', '/api/admin/audit-log', { token, query });
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(typeof r.body.detail).toBe('string');
    }
    expect((await api('GET', '/api/admin/audit-log/export', { token, query: { format: 'xml' } })).status).toBe(400);
    expect((await api('GET', '/api/admin/audit-log')).status).toBe(401);
    const csrf = (await api('GET', '/api/admin/csrf', { token })).body.csrf as string;
    const key = await api('POST', '/api/admin/api-keys', { token, query: { csrf }, body: { name: 'k' } });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    expect([401, 403]).toContain((await api('GET', '/api/admin/audit-log', { apiKey: key.body.key })).status);
    // The key's entry comes through identity's consumer: wait for it, so nothing arrives during the check.
    const before = await eventually(async () => {
      const l = await log(token);
      return l.events.some((e) => e.action === 'api_key.created') ? l : undefined;
    });
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const r = await api(method, '/api/admin/audit-log', { token, query: { csrf }, body: {} });
      expect(r.status, method).toBe(404);
    }
    expect((await log(token)).events).toEqual(before.events);
  });
});
