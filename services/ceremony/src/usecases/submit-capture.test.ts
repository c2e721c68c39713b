import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsV1 } from '@signet/proto';
import { makeJpeg, makeWebm } from '../../../../test/fixtures/ceremony-media.js';
import { newChallenge, type ChallengeRecord } from '../domain/challenge.js';
import type { LiveChunkMeta } from '../domain/live.js';
import { MAX_VIDEO_BYTES } from '../domain/media.js';
import { fakeClock, fakeMetrics, fakeSessions, fakeSigningTokens, sessionRecord, signingContext } from '../../test/fakes.js';
import { submitCapture, type CapturePart } from './submit-capture.js';

let dir: string;
let webm: Buffer;
let jpeg: Buffer;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'signet-submit-'));
  webm = makeWebm(dir, 2);
  jpeg = makeJpeg(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = signingContext();

function setup(
  challenge: ChallengeRecord | null,
  live: { video: Buffer; metas: LiveChunkMeta[] } = { video: Buffer.alloc(0), metas: [] },
  signer = ctx,
) {
  const clock = fakeClock(Date.now());
  const m = fakeMetrics();
  const sessions = fakeSessions(sessionRecord({ challenge }));
  const objects = new Map<string, number>();
  const removed: string[] = [];
  const dropped: string[] = [];
  let acceptHook: (() => void) | null = null;
  const deps = {
    signingTokens: fakeSigningTokens(signer),
    sessions: {
      ...sessions,
      acceptCapture: async (...a: Parameters<typeof sessions.acceptCapture>) => {
        acceptHook?.();
        return sessions.acceptCapture(...a);
      },
    } as unknown as Parameters<typeof submitCapture>[0]['sessions'],
    live: {
      read: async () => live,
      drop: async (_s: string, nonce: string) => void dropped.push(nonce),
    } as unknown as Parameters<typeof submitCapture>[0]['live'],
    captures: {
      put: async (key: string, _body: unknown, size: number) => void objects.set(key, size),
      remove: async (keys: string[]) => {
        removed.push(...keys);
        for (const k of keys) objects.delete(k);
      },
    },
    media: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', timeoutMs: 30_000, maxSeconds: 30 },
    metrics: m.metrics,
    logger: { error: () => undefined, warn: () => undefined, info: () => undefined },
    onOutbox: () => undefined,
    now: clock.now,
  };
  return { deps, sessions, objects, removed, dropped, ...m, loseRace: (f: () => void) => void (acceptHook = f) };
}

const challenge = (mode: 'upload' | 'live', over: Partial<ChallengeRecord> = {}) => ({
  ...newChallenge({ documentSha256: ctx.documentSha256, transactionId: 42, signerIndex: 0, signerEmail: ctx.signerEmail }, mode),
  ...over,
});

async function* stream(...parts: CapturePart[]): AsyncGenerator<CapturePart> {
  yield* parts;
}
const begin = (nonce: string, live = false): CapturePart => ({
  kind: 'begin',
  begin: { token: 'tok', nonce, live, ip: '203.0.113.9', userAgent: 'test' },
});
const video = (data: Buffer): CapturePart => ({ kind: 'video', data });
const frame = (data: Buffer): CapturePart => ({ kind: 'frame', data });

describe('submitCapture', () => {
  it('stores an accepted capture: both objects, one record that consumes the challenge, its event', async () => {
    const ch = challenge('upload');
    const t = setup(ch);
    const r = await submitCapture(t.deps, stream(begin(ch.nonce), video(webm), frame(jpeg)), () => false);
    expect(r).toMatchObject({ attempt: 1, status: 'capture_accepted', assurance: 'recorded' });
    const rec = t.sessions.current.captures[0]!;
    expect(t.sessions.current.challenge).toBeNull();
    expect([...t.objects.keys()].sort()).toEqual([rec.frame_key, rec.video_key].sort());
    expect(rec.video_key).toBe(`42/0/${r.captureId}/video.webm`);
    expect(rec).toMatchObject({ nonce: ch.nonce, video_bytes: webm.length, frame_bytes: jpeg.length, outcome: null });
    const ev = eventsV1.CaptureSubmitted.decode(t.sessions.outbox[0]!.payload);
    expect(ev).toMatchObject({ captureId: r.captureId, videoKey: rec.video_key, videoSha256: r.videoSha256 });
    expect(ev.challenge?.nonce).toBe(ch.nonce);
    expect(t.counted('captures', { result: 'accepted' })).toBe(1);
  });

  it('removes its uploads when another request consumed the challenge meanwhile (no orphan objects)', async () => {
    const ch = challenge('upload');
    const t = setup(ch);
    t.loseRace(() => {
      t.sessions.current.challenge = { ...ch, nonce: 'f'.repeat(64) };
    });
    await expect(submitCapture(t.deps, stream(begin(ch.nonce), video(webm), frame(jpeg)), () => false)).rejects.toMatchObject({
      reason: 'STALE_NONCE',
    });
    expect(t.objects.size).toBe(0);
    expect(t.removed).toHaveLength(2);
    expect(t.sessions.current.captures).toHaveLength(0);
    expect(t.sessions.outbox).toHaveLength(0);
    expect(t.counted('captures', { result: 'stale_nonce' })).toBe(1);
  });

  it('refuses the capture of a signer asked to confirm with WebAuthn until that step is verified for this challenge', async () => {
    const ch = challenge('upload');
    const t = setup(ch, undefined, signingContext({ webauthnRequired: true }));
    const send = () => submitCapture(t.deps, stream(begin(ch.nonce), video(webm), frame(jpeg)), () => false);
    // Not done, or done for an earlier challenge: refused, nothing stored.
    await expect(send()).rejects.toMatchObject({ reason: 'WEBAUTHN_REQUIRED' });
    const done = { kind: 'authentication', credential_id: 'c', challenge: 'x', verified_at: new Date() };
    t.sessions.current.webauthn = { ...done, nonce: 'e'.repeat(64) };
    await expect(send()).rejects.toMatchObject({ reason: 'WEBAUTHN_REQUIRED' });
    expect(t.objects.size).toBe(0);
    expect(t.counted('captures', { result: 'webauthn_required' })).toBe(2);
    t.sessions.current.webauthn = { ...done, nonce: ch.nonce };
    await send();
    expect(eventsV1.CaptureSubmitted.decode(t.sessions.outbox[0]!.payload).verificationMode).toBe('biometric+webauthn');
  });

  it('refuses a stale nonce before reading any media, and changes nothing', async () => {
    const ch = challenge('upload');
    const t = setup(ch);
    let read = 0;
    const parts = (async function* () {
      yield begin('b'.repeat(64));
      read++;
      yield video(webm);
    })();
    await expect(submitCapture(t.deps, parts, () => false)).rejects.toMatchObject({ reason: 'STALE_NONCE' });
    expect(read).toBe(0);
    expect(t.sessions.current).toMatchObject({ attempt: 0, challenge: ch, captures: [] });
    expect(t.objects.size).toBe(0);
  });

  it('refuses a video over the limit while it streams and a video that is not WebM or MP4, storing nothing', async () => {
    const ch = challenge('upload');
    const big = setup(ch);
    const huge = Buffer.alloc(MAX_VIDEO_BYTES / 2 + 1);
    await expect(
      submitCapture(big.deps, stream(begin(ch.nonce), video(huge), video(huge), frame(jpeg)), () => false),
    ).rejects.toMatchObject({ reason: 'PAYLOAD_TOO_LARGE' });
    const text = setup(ch);
    await expect(
      submitCapture(text.deps, stream(begin(ch.nonce), video(Buffer.from('not a video')), frame(jpeg)), () => false),
    ).rejects.toMatchObject({ reason: 'VIDEO_TYPE' });
    for (const t of [big, text]) {
      expect(t.objects.size).toBe(0);
      expect(t.sessions.current).toMatchObject({ attempt: 0, challenge: ch, captures: [] });
    }
    expect(text.counted('captures', { result: 'video_type' })).toBe(1);
  });

  it('counts a refusal of a call the caller gave up on as cancelled', async () => {
    const ch = challenge('upload');
    const t = setup(ch);
    await expect(submitCapture(t.deps, stream(begin(ch.nonce), frame(jpeg)), () => true)).rejects.toThrow('video is required');
    expect(t.counted('captures', { result: 'cancelled' })).toBe(1);
  });

  it('takes a live capture from the stream already received, with the chunk arrival and shown times as evidence', async () => {
    const ch = challenge('live', { live_started_at: new Date() });
    const metas: LiveChunkMeta[] = [
      { seq: 0, arrival_ms: 1010, shown: [] },
      { seq: 1, arrival_ms: 2020, shown: [[1, 1005]] },
    ];
    const t = setup(ch, { video: webm, metas });
    await expect(submitCapture(t.deps, stream(begin(ch.nonce, true), video(webm), frame(jpeg)), () => false)).rejects.toThrow(
      'a live capture carries only the frame',
    );
    expect(t.objects.size).toBe(0);

    const r = await submitCapture(t.deps, stream(begin(ch.nonce, true), frame(jpeg)), () => false);
    const rec = t.sessions.current.captures[0]!;
    expect(rec.live?.arrival_ms).toEqual([1010, 2020]);
    expect(rec.live?.shown_ms[1]).toBe(1005);
    expect(r.assurance).toBe(rec.assurance);
    expect(rec.video_bytes).toBe(webm.length);
    const ev = eventsV1.CaptureSubmitted.decode(t.sessions.outbox[0]!.payload);
    expect(ev.live).toMatchObject({ arrivalMs: [1010, 2020], assurance: rec.assurance });
    expect(ev.challenge?.mode).toBe('live');
    expect(t.dropped).toEqual([ch.nonce]);
  });

  describe('below the required assurance (issue 30)', () => {
    const liveCh = () => challenge('live', { live_started_at: new Date() });
    // Two chunks for a timeline of many segments: the timing proves only "recorded".
    const metas: LiveChunkMeta[] = [
      { seq: 0, arrival_ms: 1010, shown: [] },
      { seq: 1, arrival_ms: 2020, shown: [[1, 1005]] },
    ];

    it('refuses a live capture that proves only recorded before anything is stored or analysed, and uses up its challenge', async () => {
      const ch = liveCh();
      const t = setup(ch, { video: webm, metas }, signingContext({ requiredAssurance: 'live' }));
      const send = () => submitCapture(t.deps, stream(begin(ch.nonce, true), frame(jpeg)), () => false);
      const err = await send().catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'conflict', reason: 'ASSURANCE_INSUFFICIENT' });
      expect((err as Error).message).toMatch(/could not be confirmed as live.*This challenge is used up/s);
      // nothing stored, no capture, no event (nothing reaches biometrics); the challenge is gone, the draws stay counted
      expect(t.objects.size).toBe(0);
      expect(t.sessions.current.captures).toHaveLength(0);
      expect(t.sessions.outbox).toHaveLength(0);
      expect(t.sessions.current.challenge).toBeNull();
      expect(t.sessions.current.refusals).toMatchObject([{ nonce: ch.nonce, required: 'live', offered: 'recorded' }]);
      expect(t.dropped).toEqual([ch.nonce]);
      expect(t.counted('belowRequired', { required: 'live', offered: 'recorded' })).toBe(1);
      expect(t.counted('captures', { result: 'assurance_insufficient' })).toBe(1);
      // the same challenge cannot be finished again
      await expect(send()).rejects.toMatchObject({ reason: 'NO_LIVE_CHALLENGE' });
    });

    it('accepts the same recording where the sender allows recorded', async () => {
      const ch = liveCh();
      const t = setup(ch, { video: webm, metas }, signingContext({ requiredAssurance: 'recorded' }));
      const r = await submitCapture(t.deps, stream(begin(ch.nonce, true), frame(jpeg)), () => false);
      expect(r.assurance).toBe('recorded');
      expect(t.sessions.outbox).toHaveLength(1);
    });

    it('refuses a single upload where live is required before reading its media, and uses up the challenge', async () => {
      const ch = challenge('upload');
      const t = setup(ch, undefined, signingContext({ requiredAssurance: 'live' }));
      let read = 0;
      const parts = (async function* () {
        yield begin(ch.nonce);
        read++;
        yield video(webm);
      })();
      await expect(submitCapture(t.deps, parts, () => false)).rejects.toMatchObject({ reason: 'ASSURANCE_INSUFFICIENT' });
      expect(read).toBe(0);
      expect(t.sessions.current).toMatchObject({ challenge: null, captures: [] });
      expect(t.counted('belowRequired', { required: 'live', offered: 'recorded' })).toBe(1);
    });

    it('refuses live+webauthn without a WebAuthn step for the challenge, even when the flag alone is not set', async () => {
      const ch = liveCh();
      const t = setup(
        ch,
        { video: webm, metas },
        signingContext({ requiredAssurance: 'live+webauthn', webauthnRequired: false }),
      );
      await expect(submitCapture(t.deps, stream(begin(ch.nonce, true), frame(jpeg)), () => false)).rejects.toMatchObject({
        reason: 'WEBAUTHN_REQUIRED',
      });
      expect(t.objects.size).toBe(0);
      // with the step, the timing still has to prove live: refused, challenge used up
      t.sessions.current.webauthn = {
        kind: 'authentication',
        credential_id: 'c',
        challenge: 'x',
        nonce: ch.nonce,
        verified_at: new Date(),
      };
      await expect(submitCapture(t.deps, stream(begin(ch.nonce, true), frame(jpeg)), () => false)).rejects.toMatchObject({
        reason: 'ASSURANCE_INSUFFICIENT',
      });
      expect(t.counted('belowRequired', { required: 'live+webauthn', offered: 'recorded' })).toBe(1);
      expect(t.sessions.current.challenge).toBeNull();
    });
  });
});
