import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectBus, publishEvent, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send as sendTo } from '../support/http.js';

/**
 * Issue 18 items 3-5 through the gateway, with short durations: a signer declines (the transaction
 * ends, the link says so, the sender is mailed, signet.transaction.signer.declined is published);
 * a transaction expires (links 404, status `expired`, the sender is mailed); reminders go out on
 * their schedule and stop when the signer finishes; a transaction service stopped across a
 * reminder's due time neither loses nor doubles it. Real identity, billing, transaction, ceremony,
 * FerretDB, NATS, MinIO and Mailpit; the biometric outcome that makes a signer finish is published
 * as the biometrics service's public events (no models run here).
 */
const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` };

type Mail = { ID: string; Subject: string };

describe('transaction lifecycle: decline, expiry, reminders, sender notifications', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let bus: Bus;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: {
        ...BUCKETS,
        // Timers are checked often; the defaults stay long so only what a test asks for happens.
        TIMER_INTERVAL_MS: '250',
        TIMER_LEASE_MS: '3000',
        EXPIRY_MAX_SECONDS: String(180 * 86_400),
        REMINDER_MAX: '0',
        // Reminders seconds apart, below the hour a creation may otherwise ask for.
        REMINDER_MIN_EVERY_SECONDS: '1',
        // One attempt: a single failed verdict fails the signer.
        MAX_ATTEMPTS: '1',
      },
    });
    bus = await connectBus(infra().NATS_URL, 'lifecycle-test');
  });
  // Each test has its own sender (a free plan's quota is small, and mailboxes stay apart).
  beforeEach(async () => {
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Lifecycle & Sons', tag: 'lifecycle' });
  });
  afterAll(async () => {
    await bus?.nc.close();
    await stack?.stop();
  });

  const api = (method: string, path: string, init: { parts?: Part[]; json?: unknown } = {}) =>
    sendTo(stack.gatewayUrl, method, path, { ...init, apiKey: acct.apiKey });
  const pub = (method: string, path: string, json?: unknown) => sendTo(stack.gatewayUrl, method, path, { json });
  const create = (fields: Record<string, string> = {}) => {
    const signerEmail = `signer-${randomBytes(4).toString('hex')}@example.com`;
    const parts: Part[] = [
      { name: 'signer_name', value: 'Grace Hopper' },
      { name: 'signer_email', value: signerEmail },
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'document', data: tinyPdf(randomUUID()), filename: 'Offer letter.pdf', contentType: 'application/pdf' },
      { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
    ];
    return api('POST', '/api/transactions', { parts }).then((r) => ({ ...r, signerEmail }));
  };
  const detail = async (id: number) => (await api('GET', `/api/transactions/${id}`)).body;
  const used = async () => (await api('POST', '/api/auth/me')).body.monthly_used as number;

  async function mailsTo(address: string): Promise<Mail[]> {
    const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
    return ((await res.json()) as { messages?: Mail[] }).messages ?? [];
  }
  async function mailBody(id: string) {
    return (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${id}`)).json()) as { Text: string; HTML: string };
  }
  /** The sender's notification about this document whose subject matches. */
  const senderMail = (subject: RegExp) =>
    eventually(async () => (await mailsTo(acct.email)).find((m) => subject.test(m.Subject)), 20_000);
  const reminders = async (to: string) => (await mailsTo(to)).filter((m) => m.Subject.startsWith('Reminder:'));
  const metrics = async () => (await fetch(`http://127.0.0.1:${stack.opsPorts.transaction}/metrics`)).text();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** The signer gets a verdict: consent through the page's API, then the capture and the verdict as their services publish them. */
  async function signerPasses(id: number, token: string, outcome: 'PASS' | 'FAIL' = 'PASS') {
    expect((await pub('POST', `/api/sign/${token}/consent`, { consent_text_version: 'consent-v1' })).status).toBe(201);
    await eventually(async () => (await detail(id)).signers[0].state === 'consent_accepted');
    const captureId = randomUUID();
    const base = { eventId: randomUUID(), occurredAt: new Date().toISOString(), transactionId: id, signerIndex: 0 };
    const capture = eventsV1.CaptureSubmitted.fromPartial({ ...base, captureId, attempt: 1, videoSha256: 'a'.repeat(64) });
    await publishEvent(bus, events.captureSubmitted, {
      eventId: base.eventId,
      payload: eventsV1.CaptureSubmitted.encode(capture).finish(),
    });
    await eventually(async () => (await detail(id)).signers[0].state === 'capture_accepted');
    const verdictId = randomUUID();
    const verdict = eventsV1.BiometricsVerdict.fromPartial({
      ...base,
      eventId: verdictId,
      captureId,
      attempt: 1,
      outcome,
    });
    await publishEvent(bus, events.verdictIssued, {
      eventId: verdictId,
      payload: eventsV1.BiometricsVerdict.encode(verdict).finish(),
    });
    await eventually(async () => (await detail(id)).signers[0].state === (outcome === 'PASS' ? 'passed' : 'failed'));
  }

  it('a decline ends the transaction, says who and why, kills the link with a readable 404, mails the sender and publishes signer.declined', async () => {
    const tx = await create();
    expect(tx.status, tx.text).toBe(201);
    const { id, token } = tx.body as { id: number; token: string };
    expect((await pub('GET', `/api/sign/${token}/summary`)).status).toBe(200);

    // Too long a reason: 400, nothing changes.
    const long = await pub('POST', `/api/sign/${token}/decline`, { reason: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.detail).toMatch(/reason/);
    expect((await detail(id)).status).toBe('created');

    const seen: { signerIndex: number; reason: string; transactionId: number }[] = [];
    const sub = bus.nc.subscribe(events.signerDeclined.subject, {
      callback: (_err, msg) => {
        const e = events.signerDeclined.message.decode(msg.data);
        seen.push({ signerIndex: e.signerIndex, reason: e.reason, transactionId: Number(e.transactionId) });
      },
    });
    try {
      const res = await pub('POST', `/api/sign/${token}/decline`, { reason: 'The salary is not what we agreed' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ status: 'declined', declined_at: expect.any(String) });

      const d = await detail(id);
      expect(d.status).toBe('declined');
      expect(d.signers[0].state).toBe('declined');
      const entry = d.events.find((e: { type: string }) => e.type === 'signer_declined');
      expect(entry.detail).toContain('Grace Hopper');
      expect(d.reminders.next_at).toBeNull();
      expect(entry.detail).toContain('The salary is not what we agreed');
      await eventually(async () => seen.find((e) => e.transactionId === id));
      expect(seen.filter((e) => e.transactionId === id)).toEqual([
        { signerIndex: 0, reason: 'The salary is not what we agreed', transactionId: id },
      ]);
    } finally {
      sub.unsubscribe();
    }

    // The link is dead, and says why; a second decline is refused the same way.
    for (const r of [await pub('GET', `/api/sign/${token}/summary`), await pub('POST', `/api/sign/${token}/decline`, {})]) {
      expect(r.status).toBe(404);
      expect(r.body.detail).toMatch(/declined/);
    }
    const doc = await pub('GET', `/api/sign/${token}/document`);
    expect(doc.status).toBe(404);
    expect(doc.body.detail).toMatch(/declined/);

    const mail = await senderMail(/Grace Hopper declined to sign "Offer letter\.pdf"/);
    // The timeline shows the notice, not as a signing-link mail.
    await eventually(async () =>
      (await detail(id)).events.find(
        (e: { type: string; detail: string }) => e.type === 'sender_notified' && /declined/.test(e.detail),
      ),
    );
    expect(mail.Subject).toContain('Lifecycle & Sons');
    const body = await mailBody(mail.ID);
    expect(body.Text).toContain('Reason given: The salary is not what we agreed');
    expect(body.Text).toContain(`/app/transactions/${id}`);
    expect(body.HTML).toContain('Lifecycle &#38; Sons');
    expect(body.Text).not.toContain(token);
    expect(await metrics()).toMatch(/signet_transaction_declines_total\{[^}]*\} [1-9]/);
  });

  it('a decline without a body has no reason; an unknown link is 404', async () => {
    const tx = await create();
    // The defaults: expiry 30 days on, no reminders in this stack (REMINDER_MAX=0).
    const d = await detail(tx.body.id);
    expect(Date.parse(d.expires_at) - Date.now()).toBeGreaterThan(30 * 86_400_000 - 60_000);
    expect(Date.parse(d.expires_at) - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    expect(d.reminders).toEqual({ sent: 0, max: 0, next_at: null });
    const res = await sendTo(stack.gatewayUrl, 'POST', `/api/sign/${tx.body.token}/decline`);
    expect(res.status, res.text).toBe(200);
    const entry = (await detail(tx.body.id)).events.find((e: { type: string }) => e.type === 'signer_declined');
    expect(entry.detail).toContain('no reason given');
    expect((await pub('POST', `/api/sign/${'A'.repeat(43)}/decline`, {})).status).toBe(404);
  });

  it('expires_at: refused when past, too far or malformed (nothing created, no quota); at expiry the links 404 and it reads expired', async () => {
    const before = await used();
    for (const [value, why] of [
      [new Date(Date.now() - 60_000).toISOString(), /future/],
      [new Date(Date.now() + 181 * 86_400_000).toISOString(), /180 days/],
      ['next tuesday', /RFC 3339/],
    ] as const) {
      const bad = await create({ expires_at: value });
      expect(bad.status, bad.text).toBe(400);
      expect(bad.body.detail).toMatch(/expires_at/);
      expect(bad.body.detail).toMatch(why);
    }
    expect(await used()).toBe(before);

    const expiresAt = new Date(Date.now() + 3000);
    const tx = await create({ expires_at: expiresAt.toISOString() });
    expect(tx.status, tx.text).toBe(201);
    const { id, token } = tx.body as { id: number; token: string };
    expect((await detail(id)).expires_at).toBe(expiresAt.toISOString());
    expect((await pub('GET', `/api/sign/${token}/summary`)).status).toBe(200);
    await eventually(async () => (await detail(id)).status === 'expired', 15_000);
    for (const r of [await pub('GET', `/api/sign/${token}/summary`), await pub('GET', `/api/sign/${token}/document`)]) {
      expect(r.status).toBe(404);
      expect(r.body.detail).toMatch(/expired/);
    }
    const d = await detail(id);
    expect(d.events.map((e: { type: string }) => e.type)).toContain('expired');
    // The signature was used when it was created and stays used (docs: quota is not refunded at expiry).
    expect(await used()).toBe(before + 1);
    const mail = await senderMail(/"Offer letter\.pdf" expired before it was signed/);
    expect((await mailBody(mail.ID)).Text).toContain('Lifecycle & Sons');
    // A cancel after the end is refused like any other action on an ended transaction.
    expect((await api('POST', `/api/transactions/${id}/cancel`)).status).toBe(409);
    expect(await metrics()).toMatch(/signet_transaction_expiries_total\{[^}]*\} [1-9]/);
  });

  it('reminders go out on schedule (at most K) and stop once the signer finished; the sender hears the signer finished', async () => {
    const capped = await create({ reminder_first_after_seconds: '1', reminder_every_seconds: '1', reminder_max: '2' });
    expect(capped.status, capped.text).toBe(201);
    const tx = await create({ reminder_first_after_seconds: '2', reminder_every_seconds: '2', reminder_max: '10' });
    expect(tx.status, tx.text).toBe(201);
    const { id, token } = tx.body as { id: number; token: string };

    await eventually(async () => (await reminders(tx.signerEmail)).length >= 1, 15_000);
    await signerPasses(id, token);
    const after = (await reminders(tx.signerEmail)).length;
    await sleep(5000);
    // At most one that was already due while the pass was being applied; none after.
    expect((await reminders(tx.signerEmail)).length).toBeLessThanOrEqual(after + 1);
    const settled = (await reminders(tx.signerEmail)).length;
    await sleep(3000);
    expect((await reminders(tx.signerEmail)).length).toBe(settled);
    expect(settled).toBeLessThan(10);

    // The capped schedule sent exactly its two, and says so.
    expect((await reminders(capped.signerEmail)).length).toBe(2);
    expect((await detail(capped.body.id)).reminders).toEqual({ sent: 2, max: 2, next_at: null });
    const timeline = (await detail(capped.body.id)).events.filter((e: { type: string }) => e.type === 'reminder_requested');
    expect(timeline).toHaveLength(2);

    const mail = await senderMail(/Grace Hopper signed "Offer letter\.pdf"/);
    expect((await mailBody(mail.ID)).Text).toContain(tx.body.reference);
    expect(await metrics()).toMatch(/signet_transaction_reminders_total\{[^}]*\} [1-9]/);
  });

  it('a signer who fails verification stops the reminders and the sender hears of it', async () => {
    const tx = await create({ reminder_first_after_seconds: '1', reminder_every_seconds: '1', reminder_max: '10' });
    expect(tx.status, tx.text).toBe(201);
    await signerPasses(tx.body.id, tx.body.token, 'FAIL');
    expect((await detail(tx.body.id)).status).toBe('failed');
    const mail = await senderMail(/Grace Hopper could not be verified for "Offer letter\.pdf"/);
    expect((await mailBody(mail.ID)).Text).toContain('the transaction has stopped');
    const n = (await reminders(tx.signerEmail)).length;
    await sleep(2500);
    expect((await reminders(tx.signerEmail)).length).toBe(n);
    expect((await detail(tx.body.id)).reminders.next_at).toBeNull();
  });

  it('a signer who already passed cannot decline (409) while the others still sign; nothing changes', async () => {
    const tx = await create({ signer_emails: `other-${randomBytes(4).toString('hex')}@example.com` });
    expect(tx.status, tx.text).toBe(201);
    await signerPasses(tx.body.id, tx.body.token);
    const res = await pub('POST', `/api/sign/${tx.body.token}/decline`, { reason: 'changed my mind' });
    expect(res.status, res.text).toBe(409);
    expect(res.body.detail).toMatch(/already finished/);
    const d = await detail(tx.body.id);
    expect(d.status).toBe('consent_accepted');
    expect(d.signers.map((s: { state: string }) => s.state)).toEqual(['passed', 'created']);
    expect(d.events.map((e: { type: string }) => e.type)).not.toContain('signer_declined');
  });

  it('a transaction service stopped across a reminder due time neither loses nor doubles the reminder', async () => {
    const tx = await create({ reminder_first_after_seconds: '3', reminder_every_seconds: '3600', reminder_max: '1' });
    expect(tx.status, tx.text).toBe(201);
    await eventually(async () => (await mailsTo(tx.signerEmail)).length === 1); // the invitation
    await stack.stopService('transaction');
    try {
      await sleep(5000); // the reminder falls due while no transaction service runs
      expect(await reminders(tx.signerEmail)).toHaveLength(0);
    } finally {
      await stack.startService('transaction');
    }
    await eventually(async () => (await reminders(tx.signerEmail)).length === 1, 15_000);
    // Stopped again right after it ran, then started: still one.
    await stack.stopService('transaction');
    await stack.startService('transaction');
    await sleep(4000);
    expect(await reminders(tx.signerEmail)).toHaveLength(1);
    expect((await detail(tx.body.id)).events.filter((e: { type: string }) => e.type === 'reminder_requested')).toHaveLength(1);
  });
});
