import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import type { Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { bigWebm, makeJpeg, makeWebm, type Part } from '../fixtures/ceremony-media.js';
import { createTransaction, send, senderAccount, transactionStatus, type CreatedTx } from '../support/ceremony-helpers.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = {
  BUCKET_DOCUMENTS: `cer-docs-${suffix}`,
  BUCKET_REFERENCES: `cer-refs-${suffix}`,
  BUCKET_CAPTURES: `cer-caps-${suffix}`,
};

// What the bucket holds after these refusals and the accepted capture: services/ceremony/test/captures-at-rest.int.test.ts.
describe('/api/sign/{token}/* through the gateway (real transaction, ceremony, MinIO, FerretDB, NATS)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let tx: CreatedTx;
  let bus: Bus;
  const dir = mkdtempSync(join(tmpdir(), 'signet-ceremony-'));
  let webm: Buffer;
  let jpeg: Buffer;
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(stack.gatewayUrl, method, path, {
      ...init,
      headers: { 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.1`, ...init.headers },
    });
  const capture = (token: string, nonce: string | null, video: Part | null, frame: Part | null) =>
    api('POST', `/api/sign/${token}/capture`, {
      parts: [...(nonce !== null ? [{ name: 'nonce', value: nonce }] : []), ...(video ? [video] : []), ...(frame ? [frame] : [])],
    });
  const videoPart = (
    data: Part extends infer P ? (P extends { data: infer D } ? D : never) : never,
    filename = 'video.webm',
  ): Part => ({ name: 'video', filename, contentType: 'video/webm', data });
  const framePart = (): Part => ({ name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: jpeg });

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    bus = await connectBus(infra().NATS_URL, 'ceremony-test');
    webm = makeWebm(dir, 3);
    jpeg = makeJpeg(dir);
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
  });

  it('summary describes the session for the page', async () => {
    expect(tx.sign_url).toBe(`${stack.gatewayUrl}/sign/${tx.token}`);
    const r = await api('GET', `/api/sign/${tx.token}/summary`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      signer_name: 'Ada Lovelace',
      issuer_name: 'Ceremony Test Ltd',
      document_name: 'Employment contract.pdf',
      attestation_type: 'signature',
      step: 'consent',
      webauthn_offered: true,
      outcome: null,
    });
    expect(r.body.document_sha256_prefix).toMatch(/^[0-9a-f]{16}$/);
    expect(r.body.attestation_text).toContain('Ada Lovelace');
    expect(r.body.attempts_left).toBeGreaterThan(0);
  });

  it('unknown or malformed tokens are 404 with a readable detail', async () => {
    for (const t of ['A'.repeat(43), 'short', 'bad$token$characters!!']) {
      const r = await api('GET', `/api/sign/${encodeURIComponent(t)}/summary`);
      expect(r.status).toBe(404);
      expect(r.body.detail).toMatch(/not valid/);
    }
  });

  it('challenge before consent → 409; capture before consent → 409', async () => {
    const c = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(c.status).toBe(409);
    expect(c.body.detail).toMatch(/consent/);
    const cap = await capture(tx.token, 'a'.repeat(64), videoPart(webm), framePart());
    expect(cap.status).toBe(409);
  });

  it('consent is recorded once (second → 409) and moves the transaction to consent_accepted', async () => {
    const bad = await api('POST', `/api/sign/${tx.token}/consent`, { json: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/consent_text_version/);
    const wrongVersion = await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'v0' } });
    expect(wrongVersion.status).toBe(400);
    const first = await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'consent-v1' } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.step).toBe('challenge');
    const second = await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'consent-v1' } });
    expect(second.status).toBe(409);
    expect(second.body.detail).toMatch(/already/);
    await eventually(async () => (await transactionStatus(stack.gatewayUrl, acct, tx.id)) === 'consent_accepted');
  });

  it('capture before any challenge → 409', async () => {
    const r = await capture(tx.token, 'b'.repeat(64), videoPart(webm), framePart());
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/challenge/);
  });

  let nonce = '';
  it('challenge: 4 BIP-39 words, 3 actions never twice in a row, a nonce and a 2-minute expiry; asking again serves the same live one', async () => {
    const a = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.words).toHaveLength(4);
    for (const w of a.body.words) expect(w).toMatch(/^[a-z]{3,8}$/);
    expect(a.body.actions).toHaveLength(3);
    for (const x of a.body.actions) expect(['turn_left', 'turn_right', 'blink', 'smile', 'look_up']).toContain(x);
    expect(a.body.actions[0]).not.toBe(a.body.actions[1]);
    expect(a.body.actions[1]).not.toBe(a.body.actions[2]);
    expect(a.body.nonce).toMatch(/^[0-9a-f]{64}$/);
    const ttl = Date.parse(a.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    // No challenge shopping: the live challenge comes back unchanged until it is used or nearly expires.
    const b = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    // A nonce that was never issued is refused and stores nothing.
    const forged = await capture(tx.token, 'f'.repeat(64), videoPart(webm), framePart());
    expect(forged.status).toBe(409);
    expect(forged.body.detail).toMatch(/expired or has been replaced/);
    nonce = b.body.nonce;
  });

  it('a text file named .webm → 400, an image that is not JPEG/PNG → 400, a 51 MB video → 413', async () => {
    const text = await capture(
      tx.token,
      nonce,
      videoPart(Buffer.from('this is not a video, only text\n'.repeat(100))),
      framePart(),
    );
    expect(text.status).toBe(400);
    expect(text.body.detail).toMatch(/WebM or MP4/);
    const gif = await capture(tx.token, nonce, videoPart(webm), {
      name: 'frame',
      filename: 'frame.jpg',
      contentType: 'image/jpeg',
      data: Buffer.from('GIF89a....'),
    });
    expect(gif.status).toBe(400);
    expect(gif.body.detail).toMatch(/JPEG or PNG/);
    const big = await capture(tx.token, nonce, videoPart(bigWebm(51 * 1024 * 1024)), framePart());
    expect(big.status).toBe(413);
    const missing = await capture(tx.token, nonce, videoPart(webm), null);
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/frame is required/);
    const noNonce = await capture(tx.token, null, videoPart(webm), framePart());
    expect(noNonce.status).toBe(400);
    expect(noNonce.body.detail).toMatch(/nonce/);
  });

  it('forensic batches are schema-checked, size-limited and stored', async () => {
    const ok = await api('POST', `/api/sign/${tx.token}/forensic`, {
      json: {
        events: [
          { type: 'camera_enumeration', t: Date.now(), data: { video_inputs: 1 } },
          { type: 'visibility_change', t: 1, data: { state: 'hidden' } },
        ],
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    expect(ok.body.batch).toBe(1);
    expect(ok.body.batches_left).toBe(199);
    const unknown = await api('POST', `/api/sign/${tx.token}/forensic`, { json: { events: [{ type: 'keylogger', t: 1 }] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/events\.0\.type/);
    const empty = await api('POST', `/api/sign/${tx.token}/forensic`, { json: { events: [] } });
    expect(empty.status).toBe(400);
    const huge = await api('POST', `/api/sign/${tx.token}/forensic`, {
      json: { events: Array.from({ length: 300 }, (_, i) => ({ type: 'timing', t: i, data: { pad: 'x'.repeat(300) } })) },
    });
    expect(huge.status).toBe(413);
  });

  it('a valid capture is accepted, published through the outbox with its object keys and moves the transaction to capture_accepted', async () => {
    const r = await capture(tx.token, nonce, videoPart(webm), framePart());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ attempt: 1, status: 'capture_accepted' });
    expect(r.body.duration_seconds).toBeGreaterThan(2);
    const ev = await eventually(async () => {
      const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.captureSubmitted.subject] });
      const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
      for await (const m of batch) {
        const e = eventsV1.CaptureSubmitted.decode(m.data);
        if (e.captureId === r.body.capture_id) return e;
      }
      return undefined;
    });
    expect(ev).toMatchObject({
      transactionId: tx.id,
      signerIndex: 0,
      attempt: 1,
      videoKey: `${tx.id}/0/${r.body.capture_id}/video.webm`,
      frameKey: `${tx.id}/0/${r.body.capture_id}/frame.jpg`,
      verificationMode: 'biometric',
      videoSha256: r.body.video_sha256,
      frameSha256: r.body.frame_sha256,
    });
    expect(ev.challenge?.nonce).toBe(nonce);
    expect(ev.challenge?.words).toHaveLength(4);
    expect(ev.referenceKey).not.toBe('');
    expect(ev.documentSha256).toMatch(/^[0-9a-f]{64}$/);
    await eventually(async () => (await transactionStatus(stack.gatewayUrl, acct, tx.id)) === 'capture_accepted');
    // The nonce was consumed: replaying the same capture is refused.
    const again = await capture(tx.token, nonce, videoPart(webm), framePart());
    expect(again.status).toBe(409);
    const summary = await api('GET', `/api/sign/${tx.token}/summary`);
    expect(summary.body).toMatchObject({ step: 'verifying', attempt: 1 });
    expect((await api('GET', `/api/sign/${tx.token}/challenge`)).status).toBe(409);
  });

  it("a cancelled transaction's link → 404 on every route", async () => {
    const other = await createTransaction(stack.gatewayUrl, acct, 'Grace Hopper', stack.env.TRANSACTION_ADDR);
    expect((await api('GET', `/api/sign/${other.token}/summary`)).status).toBe(200);
    const cancel = await send(stack.gatewayUrl, 'POST', `/api/transactions/${other.id}/cancel`, {
      headers: { 'x-api-key': acct.apiKey },
    });
    expect(cancel.status).toBeLessThan(300);
    const t = other.token;
    const replies = [
      await api('GET', `/api/sign/${t}/summary`),
      await api('POST', `/api/sign/${t}/consent`, { json: { consent_text_version: 'consent-v1' } }),
      await api('GET', `/api/sign/${t}/challenge`),
      await capture(t, 'c'.repeat(64), videoPart(webm), framePart()),
      await api('POST', `/api/sign/${t}/webauthn/options`),
      await api('POST', `/api/sign/${t}/webauthn/verify`, { json: { response: { id: 'x', type: 'public-key' } } }),
      await api('POST', `/api/sign/${t}/forensic`, { json: { events: [{ type: 'timing', t: 1, data: {} }] } }),
      await api('GET', `/api/sign/${t}/document`),
    ];
    expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    for (const r of replies) expect(r.body.detail).toMatch(/not valid/);
    const page = await fetch(`${stack.gatewayUrl}/sign/${t}`);
    expect([200, 503]).toContain(page.status);
  });
});
