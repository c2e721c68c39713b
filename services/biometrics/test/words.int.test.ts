/**
 * The words check on real recordings: speech synthesised by espeak-ng from BIP-39 words, placed in
 * a quiet room, encoded to Opus in WebM as the page records it, decoded by voice.ts decodeAudio,
 * then verified by the real worker (the venv scripts/install.sh builds): pocketsphinx's alignment
 * and Whisper base as its second recogniser, judged by the fused rule of words.ts.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../src/analysis/voice.js';
import {
  SPEECH_SAMPLE_RATE as SR,
  SpeechUnavailableError,
  SpeechWorker,
  WORDS_FUSED,
  WORDS_THRESHOLD,
} from '../src/analysis/words.js';
import { FFMPEG } from '../src/analysis/media.js';

const run = promisify(execFile);
const ceremony = createRequire(path.join(import.meta.dirname, '../../ceremony/package.json'));

async function bip39(): Promise<string[]> {
  const mod = (await import(ceremony.resolve('@scure/bip39/wordlists/english.js'))) as { wordlist: string[] };
  return mod.wordlist;
}

/** Deterministic generator (the draws are random words, fixed so a failure can be replayed). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function ffmpegPcm(input: Buffer, inputArgs: string[]): Promise<Int16Array> {
  const child = execFile(
    FFMPEG,
    ['-loglevel', 'error', ...inputArgs, '-i', 'pipe:0', '-ac', '1', '-ar', String(SR), '-f', 's16le', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 64 << 20,
    },
  );
  const out = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout!.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`ffmpeg exited ${code}`))));
  });
  child.stdin!.end(input);
  const b = Buffer.from(await out);
  return new Int16Array(b.buffer, b.byteOffset, b.length >> 1);
}

/** espeak-ng speaking the words one by one with pauses, trimmed of its leading/trailing silence. */
async function speak(words: string[], voice: string, speed: number): Promise<Int16Array> {
  const { stdout } = await run('espeak-ng', ['-v', voice, '-s', String(speed), '-g', '12', '--stdout', words.join(', ')], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  const x = await ffmpegPcm(stdout as Buffer, ['-f', 'wav']);
  let a = 0;
  let b = x.length;
  while (a < b && Math.abs(x[a]) < 300) a++;
  while (b > a && Math.abs(x[b - 1]) < 300) b--;
  return x.subarray(Math.max(0, a - 800), Math.min(x.length, b + 800));
}

/** `seconds` of a quiet room (noise around −60 dBFS) with `parts` added at their start times. */
function recording(seconds: number, parts: [Int16Array | Float32Array, number][], seed = 1): Int16Array {
  const r = rng(seed);
  const out = new Float32Array(Math.round(seconds * SR));
  let b = 0;
  for (let i = 0; i < out.length; i++) {
    b = 0.98 * b + 0.02 * (2 * r() - 1); // low-passed noise: a room, not hiss
    out[i] = 400 * b;
  }
  for (const [x, at] of parts) {
    const i0 = Math.round(at * SR);
    for (let i = 0; i < x.length && i0 + i < out.length; i++) out[i0 + i] += x[i];
  }
  return Int16Array.from(out, (v) => Math.max(-32768, Math.min(32767, Math.round(v))));
}

function synth(seconds: number, f: (t: number, i: number) => number): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * SR) }, (_, i) => f(i / SR, i));
}

/** As the page uploads it: Opus in WebM; then decoded by the service's own decodeAudio. */
async function captured(pcm: Int16Array): Promise<Int16Array> {
  const child = execFile(
    FFMPEG,
    [
      '-loglevel',
      'error',
      '-f',
      's16le',
      '-ar',
      String(SR),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      '-f',
      'webm',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  const webm = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout!.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`ffmpeg exited ${code}`))));
  });
  child.stdin!.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  const decoded = await decodeAudio(await webm, 60);
  if (!decoded) throw new Error('no audio decoded');
  return decoded;
}

const WINDOW: [number, number] = [2, 7.5];

describe('verifyWords with the speech worker (pocketsphinx + Whisper)', () => {
  const worker = new SpeechWorker({ python: process.env.SPEECH_PYTHON, timeoutMs: 20_000 });
  /** The threshold of the rule the worker's answers are judged by. */
  const threshold = () => (worker.second ? WORDS_FUSED.threshold : WORDS_THRESHOLD);
  let list: string[] = [];
  const r = rng(15);
  const draw = (n: number, avoid: string[] = []) => {
    const out: string[] = [];
    while (out.length < n) {
      const w = list[Math.floor(r() * list.length)];
      if (!avoid.includes(w) && !out.includes(w)) out.push(w);
    }
    return out;
  };
  /** The expected words spoken (or `said` instead) at `at` seconds into a 9 s recording. */
  const clip = async (said: string[], voice = 'en-us', speed = 150, at = 2.6) =>
    captured(recording(9, [[await speak(said, voice, speed), at]]));

  beforeAll(async () => {
    list = await bip39();
    await worker.start();
  }, 90_000);
  afterAll(() => worker.close());

  it('knows every BIP-39 word (the one cmudict lacks, artefact, comes from speech/extra.dict)', async () => {
    expect(list).toHaveLength(2048);
    expect(await worker.missingWords(list)).toEqual([]);
  });

  it('runs Whisper base as its second recogniser (installed from speech/requirements.txt)', () => {
    expect(worker.second).toBe('whisper-base');
  });

  it.each([
    ['en-us', 150],
    ['en-gb-x-rp', 135],
    ['en-us+f2', 170],
  ])('accepts the issued words spoken by espeak-ng (%s, %i wpm)', async (voice, speed) => {
    const words = draw(4);
    const res = await worker.verify(await clip(words, voice, speed), words, WINDOW);
    expect(res, res.detail).toMatchObject({ passed: true, threshold: threshold() });
    expect(res.score).toBeGreaterThanOrEqual(threshold());
    expect(res.detail).toMatch(/^4\/4 words heard/);
    expect(res.detail).toMatch(/: whisper -?\d+\.\d\d, pocketsphinx -?\d+\.\d\d\)/);
  });

  it("accepts espeak-ng's default English voice (non-rhotic) on words the dictionary spells with an R: elevator, car", async () => {
    // espeak-ng's 'en' says elevator as EH L IH V EY T AH: aligned only to cmudict's rhotic
    // EH L AH V EY T ER, the phrase of the evaluation's genuine_27 could not be aligned at all
    for (const words of [
      ['team', 'stumble', 'advance', 'elevator'],
      ['repeat', 'vast', 'pizza', 'car'],
    ]) {
      const res = await worker.verify(await clip(words, 'en', 150), words, WINDOW);
      expect(res, res.detail).toMatchObject({ passed: true, threshold: threshold() });
    }
  });

  it('still refuses other words read by the same non-rhotic voice', async () => {
    // the variants give the aligner a second way to read an R word, not a way to hear other words
    const res = await worker.verify(
      await clip(['repeat', 'vast', 'pizza', 'car'], 'en', 150),
      ['team', 'stumble', 'advance', 'elevator'],
      WINDOW,
    );
    expect(res.passed, res.detail).toBe(false);
  });

  it('scores a window longer than 10 s (Whisper then reads 30 s instead of 10 s)', async () => {
    const words = draw(4);
    const pcm = await captured(recording(16, [[await speak(words, 'en-us', 150), 5]]));
    const res = await worker.verify(pcm, words, [1, 15], { timeoutMs: 60_000 });
    expect(res, res.detail).toMatchObject({ passed: true, threshold: threshold() });
  });

  const nonSpeech: [string, () => Float32Array][] = [
    ['a 170 Hz tone', () => synth(5, (t) => 6000 * Math.sin(2 * Math.PI * 170 * t))],
    [
      'mains hum',
      () => synth(5, (t) => [1, 2, 3, 4, 5, 6, 7].reduce((s, k) => s + (3000 / k) * Math.sin(2 * Math.PI * 50 * k * t), 0)),
    ],
    [
      'pink noise',
      () => {
        const g = rng(3);
        let b0 = 0;
        let b1 = 0;
        let b2 = 0;
        return synth(5, () => {
          const w = 2 * g() - 1;
          b0 = 0.99765 * b0 + w * 0.099046;
          b1 = 0.963 * b1 + w * 0.2965164;
          b2 = 0.57 * b2 + w * 1.0526913;
          return 2500 * (b0 + b1 + b2 + w * 0.1848);
        });
      },
    ],
    ['silence', () => new Float32Array(0)],
  ];
  it.each(nonSpeech)('refuses %s in the window', async (_name, make) => {
    const pcm = await captured(recording(9, [[make(), 2.3]]));
    const res = await worker.verify(pcm, draw(4), WINDOW);
    expect(res.passed, res.detail).toBe(false);
  });

  it('refuses four other words', async () => {
    const words = draw(4);
    const res = await worker.verify(await clip(draw(4, words)), words, WINDOW);
    expect(res.passed, res.detail).toBe(false);
  });

  it('refuses the right words in the wrong order', async () => {
    const words = draw(4);
    const res = await worker.verify(await clip([words[1], words[0], words[3], words[2]]), words, WINDOW);
    expect(res.passed, res.detail).toBe(false);
  });

  it('refuses three right words and one wrong one', async () => {
    const words = draw(4);
    const said = [...words];
    said[2] = draw(1, words)[0];
    const res = await worker.verify(await clip(said), words, WINDOW);
    expect(res.passed, res.detail).toBe(false);
    expect(res.detail).toMatch(new RegExp(`${words[2]} not heard|cannot be aligned`));
  });

  it('refuses the right words spoken before the window, and accepts the same recording with the window on them', async () => {
    const words = draw(4);
    const speech = await speak(words, 'en-us', 160);
    const pcm = await captured(recording(12, [[speech, 0.3]]));
    const late: [number, number] = [0.3 + speech.length / SR + 0.3, 11.5];
    const before = await worker.verify(pcm, words, late);
    expect(before.passed, before.detail).toBe(false);
    const onTime = await worker.verify(pcm, words, [0, late[0]]);
    expect(onTime.passed, onTime.detail).toBe(true);
  });

  it('cannot verify a word outside the pronunciation dictionary, and says so', async () => {
    const res = await worker.verify(await clip(['abandon']), ['abandon', 'zzyzxq'], WINDOW);
    expect(res).toMatchObject({ passed: false, score: null });
    expect(res.detail).toBe('cannot verify: not in the pronunciation dictionary: zzyzxq');
  });

  it('fails a call that outlives its timeout, then answers again with a fresh worker', async () => {
    const words = draw(4);
    const pcm = await clip(words);
    await expect(worker.verify(pcm, words, WINDOW, { timeoutMs: 1 })).rejects.toBeInstanceOf(SpeechUnavailableError);
    const res = await worker.verify(pcm, words, WINDOW);
    expect(res.passed, res.detail).toBe(true);
  });
});

describe('a worker that cannot run', () => {
  it('rejects with SpeechUnavailableError when the interpreter is missing', async () => {
    const w = new SpeechWorker({ python: '/nonexistent/python3' });
    await expect(w.verify(new Int16Array(SR * 3), ['abandon'], [0, 3])).rejects.toMatchObject({
      name: 'SpeechUnavailableError',
      reason: 'start',
    });
    await w.close();
  });
});
