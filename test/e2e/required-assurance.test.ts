/**
 * A sender requires an assurance level per signer (issue 30): `required_assurance` recorded | live |
 * live+webauthn at creation (default live), returned per signer in the detail and in the signing
 * session; a capture below it is refused with a clear reason before analysis and uses up its
 * challenge (the draw limit applies); the single upload is offered only where recorded is accepted;
 * live+webauthn without WebAuthn is refused. Through the gateway, with the real transaction,
 * ceremony, Redis, MinIO, FerretDB and NATS; no biometrics: nothing is analysed here, and a refused
 * capture must never reach the capture.submitted stream that feeds the analysis.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import type { Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { makeJpeg, makePng, makeWebm, tinyPdf } from '../fixtures/ceremony-media.js';
import { send, senderAccount, type Reply } from '../support/ceremony-helpers.js';

type LiveStart = { nonce: string; segment_ms: number; segments: number; draws_left: number };
type Part = NonNullable<Parameters<typeof send>[3]>['parts'];

describe('required assurance per signer', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let bus: Bus;
  const dir = mkdtempSync(join(tmpdir(), 'signet-assurance-'));
  let jpeg: Buffer;
  let png: Buffer;
  let recording: Buffer;
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, headers: { 'x-forwarded-for': '10.78.0.1', ...init.headers } });
  const email = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;
  const doc = () => ({ name: 'document', filename: 'a.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) });
  let created = 0;
  /** POST /api/transactions; a new sender every three creations (the Free plan's monthly quota). */
  const create = async (parts: NonNullable<Part>): Promise<Reply> => {
    if (created++ % 3 === 0) acct = await senderAccount(stack.gatewayUrl);
    return api('POST', '/api/transactions', { apiKey: acct.apiKey, parts: [...parts, doc()] });
  };
  /** The one-signer form, with `required_assurance` when given; answers the created transaction. */
  const oneSigner = async (required?: string) => {
    const r = await create([
      { name: 'signer_name', value: 'Ada Lovelace' },
      { name: 'signer_email', value: email('ada') },
      ...(required ? [{ name: 'required_assurance', value: required }] : []),
      { name: 'reference', filename: 'face.png', contentType: 'image/png', data: png },
    ]);
    expect(r.status, r.text).toBe(201);
    return r.body as { id: number; token: string };
  };
  const consent = async (token: string) =>
    expect((await api('POST', `/api/sign/${token}/consent`, { json: { consent_text_version: 'consent-v1' } })).status).toBe(201);
  const summary = async (token: string) => (await api('GET', `/api/sign/${token}/summary`)).body;
  const detail = async (id: number) => (await api('GET', `/api/transactions/${id}`, { apiKey: acct.apiKey })).body;

  /**
   * A live start, then the whole recording sent in a burst (every chunk at once, no pacing): the
   * timing proves only "recorded" (the stream did not keep pace with the reveals). Answers the finish.
   */
  const burst = async (token: string): Promise<{ live: LiveStart; finish: Reply }> => {
    const s = await api('POST', `/api/sign/${token}/live`);
    expect(s.status, s.text).toBe(201);
    const live = s.body as LiveStart;
    for (let k = 0; k < live.segments; k++) {
      const part = recording.subarray(
        Math.floor((k * recording.length) / live.segments),
        Math.floor(((k + 1) * recording.length) / live.segments),
      );
      const shown = k === 0 ? '' : `?shown=${k}:${k * live.segment_ms + 60}`;
      const c = await api('POST', `/api/sign/${token}/live/${live.nonce}/chunks/${k}${shown}`, {
        raw: { data: part, contentType: 'application/octet-stream' },
      });
      expect(c.status, c.text).toBe(200);
    }
    const finish = await api('POST', `/api/sign/${token}/live/${live.nonce}/finish`, {
      raw: { data: jpeg, contentType: 'image/jpeg' },
    });
    return { live, finish };
  };
  /** The nonces of every capture.submitted on the stream (what the analysis consumes). */
  const submittedNonces = async (): Promise<Set<string>> => {
    const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.captureSubmitted.subject] });
    const out = new Set<string>();
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
      let n = 0;
      for await (const m of batch) {
        n++;
        out.add(eventsV1.CaptureSubmitted.decode(m.data).challenge?.nonce ?? '');
      }
      if (n === 0) return out;
    }
  };

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway']);
    bus = await connectBus(infra().NATS_URL, 'required-assurance-test');
    jpeg = makeJpeg(dir);
    png = makePng(dir);
    // a recording as long as the timeline (a stream copy of a longer test pattern is fast)
    const long = join(dir, 'long.webm');
    makeWebm(dir, 22, 'long.webm');
    const out = join(dir, 'recording.webm');
    execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-i', long, '-c', 'copy', '-t', '20', out]);
    recording = readFileSync(out);
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
  });

  it('creation: a bad value is a 400 naming it (nothing created); the default is live; each party has its own; live+webauthn asks for WebAuthn', async () => {
    const ann = { name: 'Ann', email: email('ann'), verification: 'liveness_only' };
    for (const [parts, detail] of [
      [
        [
          { name: 'signer_name', value: 'Ada' },
          { name: 'signer_email', value: email('ada') },
          { name: 'required_assurance', value: 'selfie' },
          { name: 'reference', filename: 'face.png', contentType: 'image/png', data: png },
        ],
        /^required_assurance: must be one of recorded, live, live\+webauthn$/,
      ],
      [
        [{ name: 'signers', value: JSON.stringify([{ ...ann, required_assurance: 'LIVE' }]) }],
        /^signers\[0\]\.required_assurance: must be one of recorded, live, live\+webauthn$/,
      ],
      [
        [{ name: 'signers', value: JSON.stringify([{ ...ann, required_assurance: 'live+webauthn', webauthn: false }]) }],
        /^signers\[0\]\.webauthn: must not be false with required_assurance live\+webauthn/,
      ],
      [
        [
          { name: 'signers', value: JSON.stringify([ann]) },
          { name: 'required_assurance', value: 'recorded' },
        ],
        /^required_assurance: with signers, each party gives its own/,
      ],
      [
        [
          {
            name: 'signers',
            value: JSON.stringify([ann, { name: 'Vi', email: email('vi'), role: 'viewer', required_assurance: 'live' }]),
          },
        ],
        /^signers\[1\] \(vi-[0-9a-f]+@example\.com\): a viewer has no ceremony/,
      ],
    ] as const) {
      const r = await create([...parts]);
      expect(r.status, r.text).toBe(400);
      expect(r.body.detail).toMatch(detail);
    }
    expect((await api('GET', '/api/transactions', { apiKey: acct.apiKey })).body).toEqual([]);

    const plain = await oneSigner();
    expect((await detail(plain.id)).signers[0].required_assurance).toBe('live');
    expect(await summary(plain.token)).toMatchObject({ required_assurance: 'live', webauthn_required: false });

    const listed = await create([
      {
        name: 'signers',
        value: JSON.stringify([
          { ...ann, required_assurance: 'recorded' },
          { name: 'Bo', email: email('bo'), verification: 'liveness_only', required_assurance: 'live+webauthn' },
          { name: 'Cy', email: email('cy'), verification: 'liveness_only', webauthn: true },
        ]),
      },
    ]);
    expect(listed.status, listed.text).toBe(201);
    const signers = (await detail(listed.body.id)).signers as { required_assurance: string; webauthn: boolean }[];
    expect(signers.map((s) => [s.required_assurance, s.webauthn])).toEqual([
      ['recorded', false],
      ['live+webauthn', true],
      // WebAuthn asked with the default live is what the ceremony enforces: live+webauthn
      ['live+webauthn', true],
    ]);
  });

  it('offers the single upload only where the sender accepts recorded: refused outright otherwise (nothing drawn), accepted as recorded where allowed', async () => {
    const live = await oneSigner();
    await consent(live.token);
    const refused = await api('GET', `/api/sign/${live.token}/challenge`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.detail).toMatch(/requires a live recording.*single upload can only be "recorded"/);
    expect(await summary(live.token)).toMatchObject({ step: 'challenge', draws_left: 3 });

    const recorded = await oneSigner('recorded');
    await consent(recorded.token);
    expect(await summary(recorded.token)).toMatchObject({ required_assurance: 'recorded' });
    const ch = await api('GET', `/api/sign/${recorded.token}/challenge`);
    expect(ch.status, ch.text).toBe(200);
    const cap = await api('POST', `/api/sign/${recorded.token}/capture`, {
      parts: [
        { name: 'nonce', value: ch.body.nonce },
        { name: 'video', filename: 'v.webm', contentType: 'video/webm', data: makeWebm(dir, 3, 'upload.webm') },
        { name: 'frame', filename: 'f.jpg', contentType: 'image/jpeg', data: jpeg },
      ],
    });
    expect(cap.status, cap.text).toBe(201);
    expect(cap.body.assurance).toBe('recorded');
  });

  it('refuses a live recording that proves only recorded where live is required: before analysis, with a clear reason, its draw used up; the fourth draw spends the attempt', async () => {
    const tx = await oneSigner();
    await consent(tx.token);
    const refused: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const { live, finish } = await burst(tx.token);
      expect(live.draws_left).toBe(3 - k);
      expect(finish.status, finish.text).toBe(409);
      expect(finish.body.detail).toMatch(/could not be confirmed as live, which the sender requires/);
      expect(finish.body.detail).toMatch(/This challenge is used up/);
      refused.push(live.nonce);
      // the challenge is gone: the same recording cannot be finished again
      const again = await api('POST', `/api/sign/${tx.token}/live/${live.nonce}/finish`, {
        raw: { data: jpeg, contentType: 'image/jpeg' },
      });
      expect(again.status).toBe(409);
      expect(await summary(tx.token)).toMatchObject({ step: 'challenge', draws_left: 3 - k, attempts_left: 3 });
    }
    expect((await detail(tx.id)).signers[0]).toMatchObject({ state: 'consent_accepted', attempts_left: 3 });
    // nothing reached the stream the analysis consumes
    const submitted = await submittedNonces();
    for (const n of refused) expect(submitted.has(n)).toBe(false);
    // no free probing: asking for a fourth challenge spends the attempt
    const spent = await api('POST', `/api/sign/${tx.token}/live`);
    expect(spent.status).toBe(409);
    expect(spent.body.detail).toMatch(/attempt is spent/);

    // the same kind of recording is accepted, as recorded, where the sender allows it
    const lenient = await oneSigner('recorded');
    await consent(lenient.token);
    const ok = await burst(lenient.token);
    expect(ok.finish.status, ok.finish.text).toBe(201);
    expect(ok.finish.body.assurance).toBe('recorded');
  }, 120_000);

  it('refuses live+webauthn without a WebAuthn step for the challenge, and never offers it the single upload', async () => {
    const r = await create([
      {
        name: 'signers',
        value: JSON.stringify([
          { name: 'Bo', email: email('bo'), verification: 'liveness_only', required_assurance: 'live+webauthn' },
        ]),
      },
    ]);
    expect(r.status, r.text).toBe(201);
    const token = (r.body as { token: string }).token;
    await consent(token);
    expect(await summary(token)).toMatchObject({ required_assurance: 'live+webauthn', webauthn_required: true });
    const upload = await api('GET', `/api/sign/${token}/challenge`);
    expect(upload.status).toBe(409);
    expect(upload.body.detail).toMatch(/requires a live\+webauthn recording/);
    const { finish } = await burst(token);
    expect(finish.status, finish.text).toBe(409);
    expect(finish.body.detail).toMatch(/passkey or security key/);
  }, 60_000);
});
