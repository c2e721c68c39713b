/**
 * Voice activity in the word-reading window of a ceremony video.
 *
 * The audio track is decoded by ffmpeg (band-limited to the speech band, mono, 16 kHz PCM, piped
 * from memory), cut into short frames, and a frame counts as voiced when its level stands clearly
 * above the recording's own noise floor and its zero-crossing rate is that of voiced speech rather
 * than hiss. This shows that someone made speech-like sound while the words were on screen; it does
 * not recognise the words (no speech model is shipped in an installable package here).
 */
import { runFfmpeg, withMediaInput } from './media.js';

export interface VoiceConfig {
  /** Reading window [0, windowSeconds] from the start of the recording. */
  windowSeconds: number;
  /** Voiced time needed inside the window. */
  minVoicedSeconds: number;
  frameMs: number;
  /** A frame is voiced when its level is this many dB above the noise floor… */
  marginDb: number;
  /** …and above this absolute level (dBFS). */
  minDb: number;
  /** …and its zero-crossing rate (crossings per sample) is below this (hiss is far above). */
  maxZcr: number;
  /** Voiced frames only count in runs of at least this many (clicks are shorter). */
  minRunFrames: number;
}

export interface VoiceResult {
  /** false when the recording has no audio track at all */
  hasAudio: boolean;
  voicedSeconds: number;
  noiseFloorDb: number | null;
  peakDb: number | null;
}

export const SAMPLE_RATE = 16_000;

/** Mono 16 kHz PCM of (at most the first `seconds` of) the audio track, or null when there is none. */
export async function decodeAudio(media: Buffer, seconds: number, timeoutMs = 30_000): Promise<Int16Array | null> {
  try {
    const { stdout } = await withMediaInput(media, (input, stdin) =>
      runFfmpeg(
        [
          '-i',
          input,
          '-map',
          '0:a:0',
          '-t',
          String(seconds),
          '-af',
          'highpass=f=100,lowpass=f=4000',
          '-ac',
          '1',
          '-ar',
          String(SAMPLE_RATE),
          '-f',
          's16le',
          'pipe:1',
        ],
        stdin,
        timeoutMs,
      ),
    );
    if (stdout.length < 2) return null;
    const copy = Buffer.from(stdout);
    return new Int16Array(copy.buffer, copy.byteOffset, copy.length >> 1);
  } catch (e) {
    // ffmpeg says so when the map matches no stream: the recording has no audio track
    if (e instanceof Error && /matches no streams|does not contain any stream/i.test(e.message)) return null;
    throw e;
  }
}

/**
 * Frame-level voice activity (pure; unit-tested). The noise floor is taken over the whole
 * recording, so speech that fills the reading window still stands out against the quieter rest;
 * voiced time is counted inside the window only.
 */
export function voiceActivity(pcm: Int16Array | null, cfg: VoiceConfig, sampleRate = SAMPLE_RATE): VoiceResult {
  if (!pcm) return { hasAudio: false, voicedSeconds: 0, noiseFloorDb: null, peakDb: null };
  const len = Math.max(1, Math.round((cfg.frameMs / 1000) * sampleRate));
  const frames = Math.floor(pcm.length / len);
  if (frames === 0) return { hasAudio: true, voicedSeconds: 0, noiseFloorDb: null, peakDb: null };
  const db = new Float64Array(frames);
  const zcr = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    let crossings = 0;
    let prev = pcm[f * len];
    for (let i = f * len; i < (f + 1) * len; i++) {
      const x = pcm[i] / 32768;
      sum += x * x;
      if (pcm[i] >= 0 !== prev >= 0) crossings++;
      prev = pcm[i];
    }
    db[f] = 10 * Math.log10(sum / len + 1e-12);
    zcr[f] = crossings / len;
  }
  const sorted = [...db].sort((a, b) => a - b);
  const floor = sorted[Math.floor(0.1 * (sorted.length - 1))];
  const peak = sorted[sorted.length - 1];
  const gate = Math.max(floor + cfg.marginDb, cfg.minDb);
  let voiced = 0;
  let run = 0;
  const windowFrames = Math.min(frames, Math.floor((cfg.windowSeconds * sampleRate) / len));
  for (let f = 0; f <= windowFrames; f++) {
    const on = f < windowFrames && db[f] >= gate && zcr[f] <= cfg.maxZcr;
    if (on) run++;
    else {
      if (run >= cfg.minRunFrames) voiced += run;
      run = 0;
    }
  }
  return { hasAudio: true, voicedSeconds: (voiced * len) / sampleRate, noiseFloorDb: floor, peakDb: peak };
}
