import { describe, expect, it } from 'vitest';
import { MAX_FORENSIC_BATCHES } from '../domain/forensic.js';
import type { ForensicBatchRecord } from '../store/forensic.repository.js';
import { fakeClock, fakeMetrics, fakeSessions, fakeSigningTokens, sessionRecord, signingContext } from '../../test/fakes.js';
import { logForensic } from './log-forensic.js';

function setup(batchesUsed = 0) {
  const m = fakeMetrics();
  const sessions = fakeSessions(sessionRecord({ forensic_batches: batchesUsed }));
  const stored: ForensicBatchRecord[] = [];
  const deps = {
    signingTokens: fakeSigningTokens(signingContext()),
    sessions,
    forensic: { append: async (d: ForensicBatchRecord) => void stored.push(d) },
    metrics: m.metrics,
    now: fakeClock().now,
  };
  return { deps, sessions, stored, ...m };
}
const batch = (events: unknown) => ({ token: 'tok', batchJson: JSON.stringify({ events }), ip: '203.0.113.9', userAgent: 'ua' });
const ok = [{ type: 'timing', t: 12, data: { step: 'consent' } }];

describe('logForensic', () => {
  it('stores a valid batch under the next number with the server time', async () => {
    const t = setup(4);
    const r = await logForensic(t.deps, batch(ok));
    expect(r).toMatchObject({ batch: 5, batchesLeft: MAX_FORENSIC_BATCHES - 5 });
    expect(t.stored).toEqual([
      { session_id: '42:0', batch: 5, received_at: r.receivedAt, ip: '203.0.113.9', user_agent: 'ua', events: ok },
    ]);
  });

  it('refuses an unknown event type, bad JSON and an oversized batch without taking a batch number', async () => {
    const t = setup();
    await expect(logForensic(t.deps, batch([{ type: 'keystrokes', t: 1 }]))).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(logForensic(t.deps, { ...batch(ok), batchJson: '{' })).rejects.toMatchObject({ kind: 'invalid_argument' });
    const big = [{ type: 'timing', t: 1, data: { s: 'x'.repeat(500) } }];
    await expect(logForensic(t.deps, batch(Array(140).fill(big[0])))).rejects.toMatchObject({ reason: 'PAYLOAD_TOO_LARGE' });
    expect(t.sessions.current.forensic_batches).toBe(0);
    expect(t.stored).toEqual([]);
  });

  it('refuses a batch once the session has used all of them', async () => {
    const t = setup(MAX_FORENSIC_BATCHES);
    await expect(logForensic(t.deps, batch(ok))).rejects.toMatchObject({ reason: 'FORENSIC_LIMIT' });
    expect(t.counted('forensic', { result: 'limit' })).toBe(1);
  });
});

describe('logForensic: injection signals (informational, client-controlled, so bounded)', () => {
  const source = {
    type: 'capture_source',
    t: 1_700_000_000_000,
    data: {
      label: 'OBS Virtual Camera',
      width: 640,
      height: 480,
      frame_rate: 30,
      device_id_sha256: 'ab'.repeat(32),
      facing_mode: 'user',
      resize_mode: 'none',
    },
  };
  const timing = {
    type: 'frame_timing',
    t: 1_700_000_020_000,
    data: {
      source: 'video_frame_callback',
      frames: 598,
      dropped: 2,
      mean_interval_ms: 33.4,
      jitter_ms: 1.9,
      max_interval_ms: 70,
      window_ms: 20_000,
    },
  };

  it('stores the camera label, track settings and frame timing; the server flags a virtual camera by its label', async () => {
    const t = setup();
    await logForensic(t.deps, batch([source, timing, ...ok]));
    expect(t.stored[0]!.events).toEqual([{ ...source, data: { ...source.data, virtual_label: true } }, timing, ...ok]);
    expect(t.counted('captureSources', { camera: 'virtual_label' })).toBe(1);
    const real = setup();
    await logForensic(real.deps, batch([{ ...source, data: { label: 'FaceTime HD Camera', width: 1280, height: 720 } }]));
    expect(real.stored[0]!.events[0]!.data).toEqual({
      label: 'FaceTime HD Camera',
      width: 1280,
      height: 720,
      virtual_label: false,
    });
    expect(real.counted('captureSources', { camera: 'other' })).toBe(1);
  });

  it("never keeps a virtual_label the page sent: the flag is the server's", async () => {
    const t = setup();
    const lying = { ...source, data: { ...source.data, label: 'OBS Virtual Camera', virtual_label: false } };
    await expect(logForensic(t.deps, batch([lying]))).rejects.toMatchObject({ kind: 'invalid_argument' });
    expect(t.stored).toEqual([]);
  });

  it.each([
    ['a raw device id', { ...source.data, device_id_sha256: 'c0ffee-device-id' }],
    ['a device id under another name', { ...source.data, device_id: 'abc' }],
    ['an absurd size', { ...source.data, width: 1e9 }],
    ['a fractional height', { ...source.data, height: 480.5 }],
    ['a negative frame rate', { ...source.data, frame_rate: -1 }],
    ['an unknown facing mode', { ...source.data, facing_mode: 'sideways' }],
    ['a label of 300 characters', { ...source.data, label: 'x'.repeat(300) }],
    ['a nested object', { ...source.data, label: { name: 'x' } }],
  ])('refuses a capture_source with %s, storing nothing and taking no batch number', async (_what, data) => {
    const t = setup();
    const r = logForensic(t.deps, batch([{ ...source, data }]));
    await expect(r).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(r).rejects.toThrow(/events\.0/);
    expect(t.stored).toEqual([]);
    expect(t.sessions.current.forensic_batches).toBe(0);
    expect(t.counted('forensic', { result: 'invalid' })).toBe(1);
  });

  it.each([
    ['a mean above its max', { ...timing.data, mean_interval_ms: 90 }],
    ['an unknown source', { ...timing.data, source: 'guess' }],
    ['a missing count', { ...timing.data, frames: undefined }],
    ['a negative jitter', { ...timing.data, jitter_ms: -3 }],
    ['an endless window', { ...timing.data, window_ms: 1e12 }],
    ['an extra field', { ...timing.data, fps_claimed: 30 }],
  ])('refuses a frame_timing with %s', async (_what, data) => {
    const t = setup();
    await expect(logForensic(t.deps, batch([ok[0], { ...timing, data }]))).rejects.toThrow(/events\.1\.data/);
    expect(t.stored).toEqual([]);
  });
});
