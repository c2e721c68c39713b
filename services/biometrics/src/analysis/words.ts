/**
 * Words verified: were the four issued words spoken, in order, inside their window?
 *
 * The recognition runs in one long-lived Python process (words-worker.ts starts, reuses, restarts
 * and times it out; services/biometrics/speech/recognise.py does the work). Only the window's
 * samples are sent to it, so speech outside the window cannot count. The worker force-aligns the
 * expected words in order, scores each aligned phone against a free phone loop over the same
 * frames (a per-frame log-likelihood ratio) and averages a word's phones; the rule here
 * (wordsVerdict) takes the lowest word, so one wrong word fails the phrase. When the worker has its
 * second recogniser (Whisper base, speech/whisper_score.py), each word's score is Whisper's
 * log-probability of it plus half pocketsphinx's ratio: on the evaluation's test split it accepts
 * as many genuine phrases and fewer with one wrong word. Method, thresholds and the measured accept/reject
 * table: docs/decisions.md ("Words verified", "Words gate: a second recogniser") and
 * docs/words-evaluation.md (eval/words_eval.py).
 *
 * Audio is never logged. `detail` is for the forensic record (which words were heard, where, their
 * scores); the signer is only told that the words were not heard.
 */
import { SpeechProcess, SpeechUnavailableError, type SpeechOptions, type VerifyAnswer, type WordAnswer } from './words-worker.js';

export {
  DEFAULT_SPEECH_PYTHON,
  SpeechUnavailableError,
  type SpeechOptions,
  type VerifyAnswer,
  type WordAnswer,
} from './words-worker.js';

/** Pocketsphinx alone (a worker without Whisper): lowest word score accepted (mean over the word's
 *  phones of the per-frame log-likelihood ratio); chosen on the tuning split of eval/words_eval.py,
 *  reported on its test split (docs/words-evaluation.md). */
export const WORDS_THRESHOLD = -10;
/** Both recognisers: a word is heard when Whisper's mean token log-probability plus `weight` times
 *  pocketsphinx's ratio reaches `threshold`; chosen on the same tuning split (eval/words_eval.py
 *  reads these two lines). */
export const WORDS_FUSED = { weight: 0.5, threshold: -10.75 } as const;
export const SPEECH_SAMPLE_RATE = 16_000;

export interface WordsResult {
  passed: boolean;
  score: number | null;
  threshold: number;
  detail: string;
}

export type WordsOutcome = 'passed' | 'not_heard' | 'not_aligned' | 'no_audio' | 'unknown_word';

export type WordsDecision = WordsResult & { outcome: WordsOutcome; missing?: string[] };

/** A word's score under the rule in force: fused when the answer carries Whisper's scores. */
function wordScore(w: WordAnswer, fused: boolean, weight: number): number | null {
  if (!fused) return w.score;
  return w.score === null || w.second === null || w.second === undefined ? null : w.second + weight * w.score;
}

/**
 * The verdict on one worker answer (pure; unit-tested): every word must score at least the
 * threshold. `offset` is the window's start in the recording (seconds), `span` its printed range.
 * An answer with Whisper's scores (`second`) is judged by the fused rule, one without by
 * pocketsphinx's alone.
 */
export function wordsVerdict(
  r: Pick<VerifyAnswer, 'aligned' | 'score' | 'words' | 'missing'> & { second?: number | null },
  words: readonly string[],
  offset: number,
  span: string,
  psThreshold = WORDS_THRESHOLD,
  rule: { weight: number; threshold: number } = WORDS_FUSED,
): WordsDecision {
  const fused = r.second !== null && r.second !== undefined;
  const threshold = fused ? rule.threshold : psThreshold;
  if (r.missing.length)
    return {
      passed: false,
      score: null,
      threshold,
      outcome: 'unknown_word',
      missing: r.missing,
      detail: `cannot verify: not in the pronunciation dictionary: ${r.missing.join(', ')}`,
    };
  if (!r.aligned || r.score === null)
    return {
      passed: false,
      score: null,
      threshold,
      outcome: 'not_aligned',
      detail: `words not heard in ${span}: the audio cannot be aligned to the ${words.length} words in order`,
    };
  const heardWord = (s: number | null) => s !== null && s >= threshold;
  const fmt = (s: number | null | undefined) => (s === null || s === undefined ? 'n/a' : s.toFixed(2));
  const scores = r.words.map((w) => wordScore(w, fused, rule.weight));
  const per = r.words.map((w, i) => {
    const at = `${(offset + w.start).toFixed(2)}–${(offset + w.end).toFixed(2)} s`;
    const parts = fused ? `: whisper ${fmt(w.second)}, pocketsphinx ${fmt(w.score)}` : '';
    return `${w.word} ${heardWord(scores[i]!) ? 'heard' : 'not heard'} ${at} (${fmt(scores[i])}${parts})`;
  });
  const heard = scores.filter(heardWord).length;
  const lowest = fused ? Math.min(...scores.map((s) => s ?? -Infinity)) : r.score;
  const passed = lowest >= threshold && heard === words.length && r.words.length === words.length;
  const how = fused ? ` (whisper + ${rule.weight} × pocketsphinx)` : '';
  return {
    passed,
    score: Number.isFinite(lowest) ? Math.round(lowest * 1000) / 1000 : null,
    threshold,
    outcome: passed ? 'passed' : 'not_heard',
    detail: `${heard}/${words.length} words heard in ${span}: ${per.join('; ')}; lowest ${fmt(Number.isFinite(lowest) ? lowest : null)}, threshold ${threshold}${how}`,
  };
}

/** The recogniser with the words rule: one process, requests one at a time. */
export class SpeechWorker extends SpeechProcess {
  private readonly checks?: { inc(l: { outcome: string }): void };
  private readonly seconds?: { observe(v: number): void };

  constructor(opts: SpeechOptions = {}) {
    super(opts);
    this.checks = opts.metrics?.checks;
    this.seconds = opts.metrics?.seconds;
  }

  async verify(
    pcm: Int16Array,
    words: readonly string[],
    window: readonly [number, number],
    opts: { timeoutMs?: number } = {},
  ): Promise<WordsResult> {
    const t0 = performance.now();
    const result = await this.decide(pcm, words, window, opts.timeoutMs ?? this.timeoutMs);
    this.seconds?.observe((performance.now() - t0) / 1000);
    this.checks?.inc({ outcome: result.outcome });
    if (result.outcome === 'unknown_word')
      this.logger?.warn({ missing: result.missing }, 'words check impossible: word not in the pronunciation dictionary');
    return { passed: result.passed, score: result.score, threshold: result.threshold, detail: result.detail };
  }

  private async decide(
    pcm: Int16Array,
    words: readonly string[],
    window: readonly [number, number],
    timeoutMs: number,
  ): Promise<WordsDecision> {
    const norm = words.map((w) => w.trim().toLowerCase());
    if (norm.length === 0 || norm.some((w) => !/^[a-z][a-z']*$/.test(w))) throw new TypeError('words must be lower-case letters');
    const [w0, w1] = window;
    if (!(Number.isFinite(w0) && Number.isFinite(w1) && w1 > w0 && w0 >= 0))
      throw new TypeError('window must be [start, end] seconds');
    const a = Math.min(pcm.length, Math.floor(w0 * SPEECH_SAMPLE_RATE));
    const b = Math.min(pcm.length, Math.ceil(w1 * SPEECH_SAMPLE_RATE));
    const slice = pcm.subarray(a, b);
    const span = `${w0.toFixed(2)}–${w1.toFixed(2)} s`;
    if (slice.length < SPEECH_SAMPLE_RATE / 2)
      return {
        passed: false,
        score: null,
        threshold: WORDS_THRESHOLD,
        outcome: 'no_audio',
        detail: `no audio in the words window ${span}`,
      };
    const r = await this.request<VerifyAnswer>(
      {
        op: 'verify',
        words: norm,
        window: [0, slice.length / SPEECH_SAMPLE_RATE],
        pcm: Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength).toString('base64'),
      },
      timeoutMs,
    );
    if (!r.ok) throw new SpeechUnavailableError('protocol', `speech worker refused the request: ${r.error}`);
    return wordsVerdict(r, norm, w0, span);
  }
}

let shared: SpeechWorker | null = null;

/** Starts the service's recogniser (the one verifyWords uses) and waits until it is ready. */
export async function startSpeech(opts: SpeechOptions = {}): Promise<SpeechWorker> {
  if (shared) await shared.close();
  shared = new SpeechWorker(opts);
  await shared.start();
  return shared;
}

/** Stops the service's recogniser. */
export async function closeSpeech(): Promise<void> {
  const w = shared;
  shared = null;
  await w?.close();
}

/**
 * Whether `words` were spoken in order inside `window` (seconds from the start of `pcm`, the
 * whole recording as decodeAudio returns it: 16 kHz mono). Uses the recogniser started by
 * startSpeech (or starts one with the defaults). Throws SpeechUnavailableError when the recogniser
 * cannot answer, TypeError on malformed words or window.
 */
export async function verifyWords(
  pcm: Int16Array /* 16 kHz mono, the whole recording */,
  words: readonly string[],
  window: readonly [number, number] /* seconds */,
  opts?: { timeoutMs?: number },
): Promise<{ passed: boolean; score: number | null; threshold: number; detail: string }> {
  shared ??= new SpeechWorker();
  return shared.verify(pcm, words, window, opts);
}
