/**
 * The live ceremony through the gateway: a challenge revealed segment by segment as the recording
 * streams in, the evidence that decides "live" against "recorded", and the limit on drawing new
 * challenges. Real transaction, ceremony, Redis, MinIO, FerretDB and NATS; the media are ffmpeg
 * test patterns (no verdict is asked for here: the biometrics service is not started).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import type { Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { makeJpeg, makeWebm } from '../fixtures/ceremony-media.js';
import { chunksByTime } from '../fixtures/webm-clusters.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../support/ceremony-helpers.js';

type Reveal = { segment: number; colour: string; prompt: string; words: string[]; action: string | null };
type LiveStart = { nonce: string; segment_ms: number; segments: number; draws_left: number; reveal: Reveal };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live ceremony: reveal per chunk, live vs recorded, challenge draws', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let bus: Bus;
  const dir = mkdtempSync(join(tmpdir(), 'signet-live-'));
  let jpeg: Buffer;
  let long: string;
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, headers: { 'x-forwarded-for': '10.77.0.1', ...init.headers } });
  let created = 0;
  /** A transaction with consent given; a new sender every three (the Free plan's monthly quota). */
  const consented = async (): Promise<CreatedTx> => {
    if (created++ % 3 === 0) acct = await senderAccount(stack.gatewayUrl);
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    expect((await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'consent-v1' } })).status).toBe(
      201,
    );
    return tx;
  };
  const start = async (tx: CreatedTx) => {
    const r = await api('POST', `/api/sign/${tx.token}/live`);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as LiveStart;
  };
  const chunk = (tx: CreatedTx, nonce: string, seq: number, data: Buffer, shown = '') =>
    api('POST', `/api/sign/${tx.token}/live/${nonce}/chunks/${seq}${shown ? `?shown=${shown}` : ''}`, {
      raw: { data, contentType: 'application/octet-stream' },
    });
  const finish = (tx: CreatedTx, nonce: string) =>
    api('POST', `/api/sign/${tx.token}/live/${nonce}/finish`, { raw: { data: jpeg, contentType: 'image/jpeg' } });
  const captureEvent = async (nonce: string) => {
    const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.captureSubmitted.subject] });
    return eventually(async () => {
      const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
      for await (const m of batch) {
        const e = eventsV1.CaptureSubmitted.decode(m.data);
        if (e.challenge?.nonce === nonce) return e;
      }
      return undefined;
    });
  };

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway']);
    bus = await connectBus(infra().NATS_URL, 'ceremony-live-test');
    jpeg = makeJpeg(dir);
    makeWebm(dir, 22, 'long.webm');
    long = join(dir, 'long.webm');
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
  });

  it('reveals only segment 0 at the start, then one segment per chunk in order; a retried chunk gets the same answer, a gap is refused', async () => {
    const tx = await consented();
    const live = await start(tx);
    expect(live.reveal).toMatchObject({ segment: 0, prompt: 'neutral', words: [], action: null });
    expect(JSON.stringify(live)).not.toMatch(/turn_|blink|smile|look_up/);
    expect(live.segments).toBeGreaterThanOrEqual(14);
    // chunks are demuxed as they arrive: chunk 0 must be the recording's start, with video frames
    const data = chunksByTime(readFileSync(long), live.segment_ms, 2)[0]!;
    const a = await chunk(tx, live.nonce, 0, data);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.reveal.segment).toBe(1);
    expect(a.body.reveal.prompt).toBe('words');
    expect(a.body.reveal.words).toHaveLength(4);
    const again = await chunk(tx, live.nonce, 0, data);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(a.body);
    const gap = await chunk(tx, live.nonce, 2, data);
    expect(gap.status).toBe(400);
    expect(gap.body.detail).toMatch(/out of order/);
    const forged = await chunk(tx, 'f'.repeat(64), 1, data);
    expect(forged.status).toBe(409);
    const badShown = await chunk(tx, live.nonce, 1, data, 'x');
    expect(badShown.status).toBe(400);
    // The live challenge is never served as an upload challenge: that draws a new one.
    const up = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(up.status).toBe(200);
    expect(up.body.nonce).not.toBe(live.nonce);
    expect(up.body.timeline.colours).toHaveLength(up.body.timeline.total_ms / up.body.timeline.segment_ms);
    expect(up.body.assurance).toBe('recorded');
    expect((await chunk(tx, live.nonce, 1, data)).status).toBe(409);
  });

  it('a recording streamed in real time, each segment shown after its reveal, is accepted as live; the same video sent in a burst only as recorded', async () => {
    for (const paced of [true, false]) {
      const tx = await consented();
      const live = await start(tx);
      const t0 = Date.now();
      // the recording lasts the timeline: a stream copy of the first `segments` seconds (fast, unlike
      // encoding) in short clusters, cut by media time as a recorder cuts its chunks
      const out = join(dir, `live-${paced}.webm`);
      execFileSync('ffmpeg', [
        ...['-hide_banner', '-v', 'error', '-y', '-i', long, '-c', 'copy', '-t', String(live.segments)],
        ...['-cluster_time_limit', '100', out],
      ]);
      const video = readFileSync(out);
      const parts = chunksByTime(video, live.segment_ms, live.segments);
      for (let k = 0; k < parts.length; k++) {
        if (paced) await sleep(Math.max(0, t0 + (k + 1) * live.segment_ms + 50 - Date.now()));
        const shown = k === 0 ? '' : `${k}:${k * live.segment_ms + 60}`;
        const r = await chunk(tx, live.nonce, k, parts[k]!, shown);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.done).toBe(k >= live.segments - 1);
      }
      const f = await finish(tx, live.nonce);
      expect(f.status, JSON.stringify(f.body)).toBe(201);
      const ev = await captureEvent(live.nonce);
      expect(f.body.assurance, ev.live?.detail).toBe(paced ? 'live' : 'recorded');
      expect(ev.challenge?.mode).toBe('live');
      expect(ev.challenge?.timeline?.colours).toHaveLength(live.segments);
      expect(ev.live?.assurance).toBe(paced ? 'live' : 'recorded');
      expect(ev.live?.arrivalMs).toHaveLength(live.segments);
      if (!paced) expect(ev.live?.detail).toMatch(/streamed in/);
      // the capture consumed the live challenge: its chunks are refused now
      expect((await chunk(tx, live.nonce, live.segments, Buffer.alloc(10))).status).toBe(409);
    }
  }, 90_000);

  it('a live challenge takes no single upload, and an upload challenge no live finish', async () => {
    const tx = await consented();
    const live = await start(tx);
    const r = await api('POST', `/api/sign/${tx.token}/capture`, {
      parts: [
        { name: 'nonce', value: live.nonce },
        { name: 'video', filename: 'v.webm', contentType: 'video/webm', data: makeWebm(dir, 3, 'x.webm') },
        { name: 'frame', filename: 'f.jpg', contentType: 'image/jpeg', data: jpeg },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/live/);
    const up = await api('GET', `/api/sign/${tx.token}/challenge`);
    const f = await finish(tx, up.body.nonce);
    expect(f.status).toBe(400);
  });

  it('three challenges may be drawn in an attempt; asking for a fourth spends the attempt, and the signer is told to redo', async () => {
    const tx = await consented();
    const first = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(first.body.draws_left).toBe(2);
    // the same upload challenge again is no new draw
    expect((await api('GET', `/api/sign/${tx.token}/challenge`)).body.draws_left).toBe(2);
    expect((await start(tx)).draws_left).toBe(1);
    expect((await start(tx)).draws_left).toBe(0);
    const spent = await api('POST', `/api/sign/${tx.token}/live`);
    expect(spent.status).toBe(409);
    expect(spent.body.detail).toMatch(/attempt is spent/);
    const s = await eventually(async () => {
      const r = await api('GET', `/api/sign/${tx.token}/summary`);
      return r.body.attempts_left === 2 ? r.body : undefined;
    });
    expect(s).toMatchObject({ step: 'challenge', outcome: 'fail', redo: ['challenge'], draws_left: 3 });
    const detail = await api('GET', `/api/transactions/${tx.id}`, { headers: { 'x-api-key': acct.apiKey } });
    expect(JSON.stringify(detail.body)).toMatch(/attempt_forfeited/);
    // a new attempt draws again
    expect((await api('GET', `/api/sign/${tx.token}/challenge`)).status).toBe(200);
  });
});
