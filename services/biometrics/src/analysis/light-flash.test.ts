import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import { flashRate } from './analyze.js';
import { flashResponse, type FlashInput } from './light-flash.js';
import { LIGHT_PALETTE } from './light.js';
import { expectedVectors, mulberry32, type Vec3 } from './light-measure.js';

const FPS = 8;
const cfg = analysisConfig.flash;
const vecs = expectedVectors(LIGHT_PALETTE);
const P = LIGHT_PALETTE.length;

/**
 * A timeline of 1 s segments with four 250 ms flashes in segment `flashSeg`, drawn as the ceremony
 * draws (no colour twice in a row), and the face's response to `shown` (a sequence and its times):
 * each change `lag` late with a first-order ramp, `gain` in log-chromaticity, plus sensor noise.
 */
function scenario(
  seed: number,
  opts: { lag?: number; gain?: number; noise?: number; respond?: 'flashes' | 'segments' | 'random' } = {},
) {
  const r = mulberry32(seed);
  const segments = 12;
  const flashSeg = 6;
  const seq: number[] = [];
  const changes: number[] = [];
  const pick = (not: number) => {
    const c = Math.floor(r() * (P - 1));
    return c >= not ? c + 1 : c;
  };
  for (let k = 0; k < segments; k++) {
    const n = k === flashSeg ? 4 : 1;
    for (let i = 0; i < n; i++) {
      seq.push(seq.length ? pick(seq.at(-1)!) : Math.floor(r() * P));
      changes.push(k + i * 0.25);
    }
  }
  // the segment after the flashes never repeats the last flash
  const first = flashSeg;
  const after = first + 4;
  if (seq[after] === seq[after - 1]) seq[after] = (seq[after]! + 1) % P;
  const end = segments;
  const respond = opts.respond ?? 'flashes';
  // what the face answers: the flashes, or the segment's first colour held through them
  const answered = respond === 'segments' ? seq.map((s, k) => (k > first && k < after ? seq[first]! : s)) : seq;
  const lag = opts.lag ?? 0.1;
  const gain = opts.gain ?? 0.01;
  const noise = opts.noise ?? 0.0015;
  const tau = 0.12;
  const times = Array.from({ length: FPS * segments }, (_, i) => i / FPS + 0.03);
  const obs: (Vec3 | null)[] = times.map((t) => {
    const e = [0, 0, 0];
    let prev = [0, 0, 0];
    answered.forEach((s, k) => {
      const x = t - changes[k]! - lag;
      if (x <= 0) return;
      const v = vecs[s]!;
      const ramp = 1 - Math.exp(-x / tau);
      for (let c = 0; c < 3; c++) e[c]! += (v[c]! - prev[c]!) * ramp;
      prev = v;
    });
    const n = () => (r() + r() + r() - 1.5) * 2 * noise;
    if (respond === 'random') return [n() * 4, n() * 4, n() * 4] as Vec3;
    return [gain * e[0]! + n(), gain * e[1]! + n(), gain * e[2]! + n()] as Vec3;
  });
  const input: FlashInput = { times, obs, seq: Int32Array.from(seq), changes, end, flash: { first, count: 4 }, vecs };
  return input;
}

describe('short flashes: the reflection must appear in the right frames', () => {
  it('a face lit by the screen passes, with the lag it was rendered at', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = flashResponse(scenario(seed), cfg);
      expect(r.passed, r.detail).toBe(true);
      expect(r.lagS).toBeGreaterThan(0);
      expect(r.lagS).toBeLessThan(0.2);
      expect(r.rank).toBeLessThanOrEqual(cfg.maxRank);
    }
  });

  it('passes at the edges of camera latency and of the page clock running ahead: -300, 0 and 200 ms', () => {
    for (const lag of [-0.3, 0, 0.2])
      for (let seed = 1; seed <= 10; seed++) expect(flashResponse(scenario(seed, { lag }), cfg).passed).toBe(true);
  });

  it('a puppet that follows the once-a-second colours but holds the first flash fails: not the flashes', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = flashResponse(scenario(seed, { respond: 'segments' }), cfg);
      expect(r.passed, r.detail).toBe(false);
      expect(['not_the_flashes', 'no_response']).toContain(r.reason);
    }
  });

  it('a response 300 ms or more later than physics fails: late', () => {
    for (const extra of [0.3, 0.45, 0.7])
      for (let seed = 1; seed <= 10; seed++) {
        const r = flashResponse(scenario(seed, { lag: 0.1 + extra }), cfg);
        expect(r.passed, r.detail).toBe(false);
        expect(r.reason).toBe('late');
        expect(r.lagS).toBeGreaterThan(cfg.lagMaxS);
      }
  });

  it('a response before the flashes were shown fails: early, or not the flashes once it lies mostly before the frames read', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const r = flashResponse(scenario(seed, { lag: cfg.lagMinS - 0.05 }), cfg);
      expect(r.passed, r.detail).toBe(false);
      expect(r.reason, r.detail).toBe('early');
      for (const lag of [cfg.lagMinS - 0.3, -1.5]) {
        const x = flashResponse(scenario(seed, { lag }), cfg);
        expect(x.passed, x.detail).toBe(false);
        expect(['early', 'not_the_flashes', 'no_response']).toContain(x.reason);
      }
    }
  });

  it('a response the page clock puts up to 700 ms early passes (Chromium drifts its shown times late)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const r = flashResponse(scenario(seed, { lag: -0.45 }), cfg);
      expect(r.passed, r.detail).toBe(true);
    }
  });

  it('an uncorrelated response fails', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = flashResponse(scenario(seed, { respond: 'random' }), cfg);
      expect(r.passed, r.detail).toBe(false);
      expect(['no_response', 'not_the_flashes']).toContain(r.reason);
    }
  });

  it('too few frames in the flashes is not measurable, and fails', () => {
    const s = scenario(3);
    const obs = s.obs.map((o, i) => (s.times[i]! >= 6 && s.times[i]! < 7 && i % 4 !== 0 ? null : o));
    const r = flashResponse({ ...s, obs }, cfg);
    expect(r.passed).toBe(false);
    expect(r.reason).toBe('not_measurable');
  });

  it('every other flash sequence the server could have drawn is weighed (five choices a step, no repeat)', () => {
    const r = flashResponse(scenario(5), cfg);
    // 4 steps, each not the one before; the last not the next segment's: 5·5·5·(4 or 5) sequences less the issued
    expect(r.alternatives).toBeGreaterThanOrEqual(5 * 5 * 5 * 4 - 1);
    expect(r.alternatives).toBeLessThanOrEqual(5 * 5 * 5 * 5 - 1);
  });
});

describe('flashRate: the rate the flash window is decoded at', () => {
  const c = { flash: analysisConfig.flash, sampling: analysisConfig.sampling };
  it('is the frames actually decoded over the seconds sampled, at most denseMaxFps', () => {
    expect(flashRate({ sourceFrames: 270, decodedDurationS: 18 }, c)).toBe(15);
    expect(flashRate({ sourceFrames: 540, decodedDurationS: 18 }, c)).toBe(30);
    // a stream squeezing 60 frames a second (or a header claiming more) is read at the cap
    expect(flashRate({ sourceFrames: 1080, decodedDurationS: 18 }, c)).toBe(analysisConfig.flash.denseMaxFps);
  });
  it('leaves a capture at or under the sampling rate, or without a count, to its sampled frames', () => {
    expect(flashRate({ sourceFrames: 8 * 18, decodedDurationS: 18 }, c)).toBeNull();
    expect(flashRate({ sourceFrames: 5 * 18, decodedDurationS: 18 }, c)).toBeNull();
    expect(flashRate({ sourceFrames: null, decodedDurationS: 18 }, c)).toBeNull();
    expect(flashRate({ sourceFrames: 270, decodedDurationS: 0 }, c)).toBeNull();
  });
});
