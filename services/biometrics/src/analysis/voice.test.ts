import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import { SAMPLE_RATE, voiceActivity } from './voice.js';

const cfg = analysisConfig.voice;

/** Deterministic pseudo-random noise in −1..1. */
function noise(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}

/** `seconds` of PCM: background noise of amplitude `floor`, plus voiced bursts (a 150 Hz buzz with
 *  harmonics, like a vowel) at the given [start, end] spans. */
function pcm(seconds: number, floor: number, bursts: [number, number][], burstAmp = 0.3): Int16Array {
  const n = Math.round(seconds * SAMPLE_RATE);
  const out = new Int16Array(n);
  const r = noise(7);
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    let x = floor * r();
    if (bursts.some(([a, b]) => t >= a && t < b))
      x +=
        burstAmp *
        (0.6 * Math.sin(2 * Math.PI * 150 * t) + 0.3 * Math.sin(2 * Math.PI * 300 * t) + 0.1 * Math.sin(2 * Math.PI * 450 * t));
    out[i] = Math.max(-32768, Math.min(32767, Math.round(x * 32767)));
  }
  return out;
}

describe('voice activity', () => {
  it('counts voiced time inside the reading window only', () => {
    const r = voiceActivity(
      pcm(10, 0.002, [
        [0.5, 1.0],
        [1.3, 1.9],
        [7, 9],
      ]),
      cfg,
    );
    expect(r.hasAudio).toBe(true);
    expect(r.voicedSeconds).toBeGreaterThan(1.0);
    expect(r.voicedSeconds).toBeLessThan(1.2); // the 7–9 s burst lies outside the 6 s window
  });

  it('finds nothing in steady background noise, however loud', () => {
    expect(voiceActivity(pcm(10, 0.002, []), cfg).voicedSeconds).toBe(0);
    expect(voiceActivity(pcm(10, 0.2, []), cfg).voicedSeconds).toBe(0);
  });

  it('ignores clicks shorter than the minimum run', () => {
    const clicks: [number, number][] = Array.from({ length: 10 }, (_, k) => [0.5 + k * 0.5, 0.5 + k * 0.5 + 0.04]);
    expect(voiceActivity(pcm(10, 0.002, clicks), cfg).voicedSeconds).toBe(0);
  });

  it('reports a missing audio track', () => {
    expect(voiceActivity(null, cfg)).toEqual({ hasAudio: false, voicedSeconds: 0, noiseFloorDb: null, peakDb: null });
  });

  it('treats speech filling the whole window as voiced when the rest of the recording is quiet', () => {
    expect(voiceActivity(pcm(12, 0.002, [[0, 6]]), cfg).voicedSeconds).toBeGreaterThan(5.5);
  });
});
