/**
 * The live ceremony attacked through the gateway (issue 30 item 1): every way "live" was obtained
 * without producing the answer in real time gets "recorded" at most. Each chunk is demuxed as it
 * arrives, so padding is refused, media held back or sent ahead of the clock is seen, and shown
 * times are checked against the media received. Real transaction, ceremony, Redis, MinIO, FerretDB
 * and NATS; the media are an ffmpeg test pattern cut into short clusters so the chunks can be cut
 * by media time, as a recorder does, or rearranged as an attacker would.
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
import { chunksByTime, voidElement, webmClusters } from '../fixtures/webm-clusters.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../support/ceremony-helpers.js';

type Reveal = { segment: number };
type LiveStart = { nonce: string; segment_ms: number; segments: number; reveal: Reveal };
/** One chunk of a scripted stream: sent at `at` ms after the live start (or at once); `shown` overrides the page's reports. */
type Step = { at?: number; data: Buffer; shown?: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live ceremony attacks: at most "recorded" unless produced in real time', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let bus: Bus;
  const dir = mkdtempSync(join(tmpdir(), 'signet-live-attacks-'));
  let jpeg: Buffer;
  let long: string;
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, headers: { 'x-forwarded-for': '10.77.0.2', ...init.headers } });
  let created = 0;
  /** A transaction with consent given (required assurance: recorded); a new sender every three (the Free plan's quota). */
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
    return { live: r.body as LiveStart, t0: Date.now() };
  };
  const chunk = (tx: CreatedTx, nonce: string, seq: number, data: Buffer, shown = '') =>
    api('POST', `/api/sign/${tx.token}/live/${nonce}/chunks/${seq}${shown ? `?shown=${shown}` : ''}`, {
      raw: { data, contentType: 'application/octet-stream' },
    });
  const finish = (tx: CreatedTx, nonce: string) =>
    api('POST', `/api/sign/${tx.token}/live/${nonce}/finish`, { raw: { data: jpeg, contentType: 'image/jpeg' } });
  /** The recording for a challenge: `segments` seconds of the test pattern in clusters of ≤ 100 ms. */
  const recording = (segments: number, name: string) => {
    const out = join(dir, `${name}.webm`);
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-v', 'error', '-y', '-i', long, '-c', 'copy', '-t', String(segments)],
      ...['-cluster_time_limit', '100', out],
    ]);
    return readFileSync(out);
  };
  /**
   * Sends the steps in order, each at its time; like the page, each reveal is reported shown with
   * the next chunk, at the time its answer came (ms since the start), unless the step says otherwise.
   */
  const stream = async (tx: CreatedTx, live: LiveStart, t0: number, steps: Step[], from = 0) => {
    const replies = [];
    let pending = '';
    let seq = from;
    for (const s of steps) {
      if (s.at !== undefined) await sleep(Math.max(0, t0 + s.at - Date.now()));
      const r = await chunk(tx, live.nonce, seq, s.data, s.shown ?? pending);
      replies.push(r);
      if (r.status === 200) {
        seq++;
        pending = r.body.reveal ? `${r.body.reveal.segment}:${Date.now() - t0}` : '';
      }
    }
    return replies;
  };
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
  /**
   * The finish proves "recorded" at most: accepted as recorded (the receipt, and the event biometrics
   * analyses, with this reason) or, where the signer's required assurance is live, refused for that.
   */
  const expectRecorded = async (tx: CreatedTx, live: LiveStart, reason: RegExp) => {
    const f = await finish(tx, live.nonce);
    if (f.status === 409) {
      expect(f.body.detail).toMatch(/could not be confirmed as live/);
      return undefined;
    }
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const ev = await captureEvent(live.nonce);
    expect(f.body.assurance, ev.live?.detail).toBe('recorded');
    expect(ev.live?.assurance).toBe('recorded');
    expect(ev.live?.detail).toMatch(reason);
    return ev;
  };
  /** The chunks of an honest recorder, each sent 50 ms after its segment ends. */
  const paced = (parts: Buffer[], segMs: number): Step[] => parts.map((data, k) => ({ at: (k + 1) * segMs + 50, data }));

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway']);
    bus = await connectBus(infra().NATS_URL, 'ceremony-live-attacks-test');
    jpeg = makeJpeg(dir);
    makeWebm(dir, 22, 'long.webm');
    long = join(dir, 'long.webm');
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
  });

  it('a header and padding chunks sent in a burst are refused and reveal nothing; the answer sent after them is only recorded', async () => {
    const tx = await consented();
    const { live, t0 } = await start(tx);
    const video = recording(live.segments, 'burst');
    const { header } = webmClusters(video);
    const parts = chunksByTime(video, live.segment_ms, live.segments);
    const alone = await chunk(tx, live.nonce, 0, header);
    expect(alone.status).toBe(400);
    expect(alone.body.detail).toMatch(/chunk 0 carries no video frame/);
    expect(alone.body.reveal).toBeUndefined();
    const padded = await chunk(tx, live.nonce, 0, Buffer.concat([header, voidElement(2000)]));
    expect(padded.status).toBe(400);
    const first = await chunk(tx, live.nonce, 0, parts[0]!);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    for (let i = 0; i < 5; i++) {
      const pad = await chunk(tx, live.nonce, 1, voidElement(3000));
      expect(pad.status).toBe(400);
      expect(pad.body.detail).toMatch(/no video frame.*can no longer count as live/);
    }
    // the whole answer, rendered offline, sent at once
    const rest = await stream(
      tx,
      live,
      t0,
      parts.slice(1).map((data) => ({ data })),
      1,
    );
    expect(
      rest.map((r) => r.status),
      JSON.stringify(rest.map((r) => r.body)),
    ).toEqual(parts.slice(1).map(() => 200));
    await expectRecorded(tx, live, /no video frame/);
  }, 60_000);

  it('padding on schedule with the media after the last reveal: the padding is refused, held-back media is only recorded', async () => {
    const tx = await consented();
    const { live, t0 } = await start(tx);
    const seg = live.segment_ms;
    const video = recording(live.segments, 'schedule');
    const parts = chunksByTime(video, seg, live.segments);
    const pads = await stream(tx, live, t0, [
      { at: seg + 50, data: parts[0]! },
      ...Array.from({ length: live.segments - 1 }, (_, k) => ({ at: (k + 2) * seg + 50, data: voidElement(1500) })),
    ]);
    expect(pads[0]!.status).toBe(200);
    expect(pads.slice(1).every((r) => r.status === 400 && /no video frame/.test(r.body.detail))).toBe(true);
    const late = await stream(
      tx,
      live,
      t0,
      parts.slice(1).map((data) => ({ data })),
      1,
    );
    expect(late.every((r) => r.status === 200)).toBe(true);
    await expectRecorded(tx, live, /no video frame/);
  }, 60_000);

  it('one keep-alive frame per segment on schedule, the rest of the media after the last reveal: only recorded', async () => {
    const tx = await consented();
    const { live, t0 } = await start(tx);
    const seg = live.segment_ms;
    const video = recording(live.segments, 'keepalive');
    const { header, clusters } = webmClusters(video);
    // chunk 0 honest; then chunk k only the last cluster with video of segment k, so each chunk
    // "reaches" its segment's end while the frames of the answer are held back
    const first = clusters.filter((c) => c.ms < seg);
    const keep = Array.from({ length: live.segments - 1 }, (_, k) =>
      clusters.filter((c) => c.video && c.ms < (k + 2) * seg).at(-1)!,
    );
    const held = clusters.filter((c) => !first.includes(c) && !keep.includes(c));
    const steps: Step[] = [
      { at: seg + 50, data: Buffer.concat([header, ...first.map((c) => c.bytes)]) },
      ...keep.map((c, k) => ({ at: (k + 2) * seg + 50, data: c.bytes })),
    ];
    const third = Math.ceil(held.length / 3);
    for (let i = 0; i < 3; i++) steps.push({ data: Buffer.concat(held.slice(i * third, (i + 1) * third).map((c) => c.bytes)) });
    const replies = await stream(tx, live, t0, steps);
    expect(
      replies.map((r) => r.status),
      JSON.stringify(replies.map((r) => r.body)),
    ).toEqual(steps.map(() => 200));
    // the reordered file may not even decode as a capture (400); if it does, it is only recorded
    const f = await finish(tx, live.nonce);
    if (f.status === 400) return;
    if (f.status === 409) return expect(f.body.detail).toMatch(/could not be confirmed as live/);
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    expect(f.body.assurance).toBe('recorded');
    expect((await captureEvent(live.nonce)).live?.detail).toMatch(/stamped earlier than frames already received/);
  }, 60_000);

  it('a pre-recorded file cut by media time and sent faster than real time (media ahead of the clock) is only recorded', async () => {
    const tx = await consented();
    const { live, t0 } = await start(tx);
    const parts = chunksByTime(recording(live.segments, 'ahead'), live.segment_ms, live.segments);
    // twice real time, each reveal reported like the page
    const replies = await stream(
      tx,
      live,
      t0,
      parts.map((data, k) => ({ at: ((k + 1) * live.segment_ms) / 2, data })),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    await expectRecorded(tx, live, /ms of media .* after the live start/);
  }, 60_000);

  it('shown times that lie — earlier than the reveal, or later than the media received — are only recorded, and the analysis gets the schedule', async () => {
    const lie = async (name: string, shownAt: (k: number, seg: number) => number, reason: RegExp) => {
      const tx = await consented();
      const { live, t0 } = await start(tx);
      const seg = live.segment_ms;
      const steps = paced(chunksByTime(recording(live.segments, name), seg, live.segments), seg).map((s, k) =>
        k === 0 ? s : { ...s, shown: `${k}:${Math.max(0, shownAt(k, seg))}` },
      );
      const replies = await stream(tx, live, t0, steps);
      expect(replies.every((r) => r.status === 200)).toBe(true);
      const ev = await expectRecorded(tx, live, reason);
      if (ev) expect(ev.live?.shownMs).toEqual(Array.from({ length: live.segments }, (_, k) => k * seg));
    };
    await Promise.all([
      // each segment claimed shown 700 ms before the media of the segment before it had arrived
      lie('early', (k, seg) => k * seg - 700, /before it could have been revealed/),
      // each segment claimed shown 3.5 s later than it was, beyond the media received with the report
      lie('late', (k, seg) => k * seg + 3500, /after the media received/),
    ]);
  }, 90_000);

  it('an honest recorder cut by media time and sent in real time, each reveal reported when it came, is live', async () => {
    const tx = await consented();
    const { live, t0 } = await start(tx);
    const parts = chunksByTime(recording(live.segments, 'honest'), live.segment_ms, live.segments);
    const replies = await stream(tx, live, t0, paced(parts, live.segment_ms));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const f = await finish(tx, live.nonce);
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const ev = await captureEvent(live.nonce);
    expect(f.body.assurance, ev.live?.detail).toBe('live');
    expect(ev.live?.shownMs[1]).toBeGreaterThan(live.segment_ms);
  }, 60_000);
});
