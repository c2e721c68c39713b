import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

/**
 * An account's own expiry and reminder defaults (issue 18 item 3) through the real gateway, identity
 * and transaction service: PATCH /api/admin/account/settings, identity.settings.changed over NATS,
 * the transaction service's copy, and the expires_at and reminder schedule of the next transaction
 * created without its own. Bad values are refused with a 400 naming the field, and change nothing.
 */
const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` };
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

describe('account expiry and reminder defaults', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let other: Account;
  /** Test-mode keys: their creations are free (a free plan's quota is 3 a month), bounded by a rate limit. */
  const testKeys = new Map<string, string>();

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      // The operator's: 30 days to expiry (at most 60), reminders after 3 days, every 3 days, at most 3.
      env: { ...BUCKETS, EXPIRY_DEFAULT_SECONDS: String(30 * 86_400), EXPIRY_MAX_SECONDS: String(60 * 86_400) },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Defaults Ltd', tag: 'lc-defaults' });
    other = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Others Ltd', tag: 'lc-others' });
    for (const who of [acct, other]) {
      const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: who.token })).body.csrf as string;
      const k = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
        json: { name: 'sandbox', mode: 'test' },
        token: who.token,
      });
      expect(k.status, JSON.stringify(k.body)).toBe(201);
      testKeys.set(who.userId, k.body.key as string);
    }
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (who: Account, fields: Record<string, string> = {}) => {
    const parts: Part[] = [
      { name: 'signer_name', value: 'Grace Hopper' },
      { name: 'signer_email', value: `signer-${randomBytes(4).toString('hex')}@example.com` },
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'document', data: tinyPdf(randomUUID()), filename: 'Offer.pdf', contentType: 'application/pdf' },
      { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
    ];
    const before = Date.now();
    const apiKey = testKeys.get(who.userId)!;
    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', { parts, apiKey });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const d = await send(stack.gatewayUrl, 'GET', `/api/transactions/${r.body.id}`, { apiKey });
    return { before, after: Date.now(), d: d.body as { expires_at: string; reminders: { max: number; next_at: string | null } } };
  };
  const me = async (who: Account) => (await send(stack.gatewayUrl, 'POST', '/api/auth/me', { token: who.token })).body;
  const patch = async (who: Account, json: unknown) => {
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: who.token })).body.csrf as string;
    return send(stack.gatewayUrl, 'PATCH', `/api/admin/account/settings?csrf=${encodeURIComponent(csrf)}`, {
      json,
      token: who.token,
    });
  };
  /** ms from creation to `iso`, within the request's time window. */
  const expectAhead = (c: { before: number; after: number }, iso: string | null, ms: number) => {
    const t = new Date(iso!).getTime();
    expect(t).toBeGreaterThanOrEqual(c.before + ms - 1000);
    expect(t).toBeLessThanOrEqual(c.after + ms + 1000);
  };

  it('a new transaction without expires_at follows the account’s expiry and reminder schedule; others keep the operator’s', async () => {
    expect(await me(acct)).toMatchObject({
      expiry_days: 30,
      reminder_first_after_hours: 72,
      reminder_every_hours: 72,
      reminder_max: 3,
    });
    const set = await patch(acct, { expiry_days: 2, reminder_first_after_hours: 5, reminder_every_hours: 7, reminder_max: 2 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ expiry_days: 2, reminder_first_after_hours: 5, reminder_every_hours: 7, reminder_max: 2 });
    expect(await me(acct)).toMatchObject({ expiry_days: 2, reminder_max: 2, session_ttl_hours: 24 });

    // The setting reaches the transaction service by event: the next creation follows it.
    const c = await eventually(
      async () => {
        const x = await create(acct);
        return new Date(x.d.expires_at).getTime() < x.before + 3 * DAY_MS ? x : undefined;
      },
      20_000,
      500,
    );
    expectAhead(c, c.d.expires_at, 2 * DAY_MS);
    expectAhead(c, c.d.reminders.next_at, 5 * HOUR_MS);
    expect(c.d.reminders.max).toBe(2);

    // The creation's own expires_at still wins, and another account keeps the operator's defaults.
    const own = new Date(Date.now() + 10 * DAY_MS).toISOString();
    expect((await create(acct, { expires_at: own })).d.expires_at).toBe(own);
    const o = await create(other);
    expectAhead(o, o.d.expires_at, 30 * DAY_MS);
    expect(o.d.reminders.max).toBe(3);

    // reminder_max 0: transactions created afterwards owe no reminder.
    expect((await patch(acct, { reminder_max: 0 })).status).toBe(200);
    const none = await eventually(
      async () => {
        const x = await create(acct);
        return x.d.reminders.max === 0 ? x : undefined;
      },
      20_000,
      500,
    );
    expect(none.d.reminders.next_at).toBeNull();
    expectAhead(none, none.d.expires_at, 2 * DAY_MS);
  }, 120_000);

  it('bad values answer 400 naming the field, and change nothing', async () => {
    const before = await me(other);
    for (const [body, detail] of [
      [{ expiry_days: 61 }, /expiry_days must be a whole number of days from 1 to 60/],
      [{ expiry_days: 0 }, /^expiry_days: must be at least 1$/],
      [{ expiry_days: 'soon' }, /^expiry_days: must be a whole number of days$/],
      [{ reminder_every_hours: 1.5 }, /^reminder_every_hours: must be a whole number of hours$/],
      [{ reminder_max: 21 }, /^reminder_max: must be at most 20$/],
      [{ expiry_days: 5, reminder_first_after_hours: 0 }, /^reminder_first_after_hours: must be at least 1$/],
      [{ expiry_days: 5, remindr_max: 1 }, /^remindr_max: unknown setting/],
    ] as const) {
      const r = await patch(other, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.detail).toMatch(detail);
    }
    expect(await me(other)).toEqual(before);
    const o = await create(other);
    expectAhead(o, o.d.expires_at, 30 * DAY_MS);
  }, 60_000);
});
