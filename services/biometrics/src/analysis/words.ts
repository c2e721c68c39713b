/**
 * Words verified: were the four issued words spoken, in order, inside their window?
 *
 * The recognition runs in one long-lived Python process (services/biometrics/speech/recognise.py,
 * pocketsphinx from the pinned PyPI wheel with its bundled US English model), started once and
 * reused; it is restarted on the next call when it has died, and killed when a call outlives its
 * timeout. Only the window's samples are sent to it, so speech outside the window cannot count.
 * The worker force-aligns the expected words in order, scores each aligned phone against a free
 * phone loop over the same frames (a per-frame log-likelihood ratio), averages a word's phones and
 * takes the lowest word, so one wrong word fails the phrase. Method, threshold and the measured
 * accept/reject table: docs/decisions.md ("Words verified") and docs/words-evaluation.md
 * (eval/words_eval.py).
 *
 * Audio is never logged. `detail` is for the forensic record (which words were heard, where, their
 * scores); the signer is only told that the words were not heard.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Logger, Metrics } from '@signet/kit';

/** Lowest word score accepted (mean over the word's phones of the per-frame log-likelihood ratio);
 *  chosen on the tuning split of eval/words_eval.py, reported on its test split
 *  (docs/words-evaluation.md). */
export const WORDS_THRESHOLD = -10;
export const SPEECH_SAMPLE_RATE = 16_000;
/** Default interpreter: the venv scripts/speech-venv.sh builds (SPEECH_PYTHON overrides it). */
export const DEFAULT_SPEECH_PYTHON = '~/.cache/signet/speech-venv/bin/python';
const DEFAULT_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 20_000;

export interface WordsResult {
  passed: boolean;
  score: number | null;
  threshold: number;
  detail: string;
}

export type WordsOutcome = 'passed' | 'not_heard' | 'not_aligned' | 'no_audio' | 'unknown_word';

/** The worker could not answer (not installed, did not start, died, timed out): not a verdict on
 *  the signer; the caller decides whether to retry or fail the analysis as an error. */
export class SpeechUnavailableError extends Error {
  constructor(
    public readonly reason: 'start' | 'timeout' | 'exited' | 'protocol' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'SpeechUnavailableError';
  }
}

export interface SpeechOptions {
  /** Python interpreter with pocketsphinx (config SPEECH_PYTHON); `~/` is the user's home. */
  python?: string;
  /** Default timeout of one call (config SPEECH_TIMEOUT_MS). */
  timeoutMs?: number;
  logger?: Logger;
  /** Registers signet_biometrics_words_checks_total, _words_check_seconds and
   *  _speech_worker_starts_total on it. */
  metrics?: Metrics;
}

interface WordAnswer {
  word: string;
  start: number;
  end: number;
  score: number | null;
}
interface VerifyAnswer {
  ok: boolean;
  error?: string;
  aligned: boolean;
  score: number | null;
  words: WordAnswer[];
  missing: string[];
  ms: number;
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'speech', 'recognise.py');

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** One recogniser process; requests go one at a time, each with its own timeout. */
export class SpeechWorker {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private pending: { id: number; resolve: (v: unknown) => void; reject: (e: Error) => void } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;
  private stderrTail = '';
  private readonly python: string;
  private readonly timeoutMs: number;
  private readonly logger?: Logger;
  private readonly checks?: { inc(l: { outcome: string }): void };
  private readonly seconds?: { observe(v: number): void };
  private readonly starts?: { inc(): void };

  constructor(opts: SpeechOptions = {}) {
    this.python = expandHome(opts.python ?? DEFAULT_SPEECH_PYTHON);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.logger = opts.logger;
    if (opts.metrics) {
      this.checks = opts.metrics.counter('signet_biometrics_words_checks_total', 'Words checks by outcome', ['outcome']);
      this.seconds = opts.metrics.histogram(
        'signet_biometrics_words_check_seconds',
        'Time of one words check',
        [],
        [0.1, 0.25, 0.5, 1, 2, 5, 10],
      );
      this.starts = opts.metrics.counter('signet_biometrics_speech_worker_starts_total', 'Speech worker processes started');
    }
  }

  /** Starts the process (if it is not running) and waits for its ready line. */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new SpeechUnavailableError('closed', 'speech worker closed'));
    if (this.ready) return this.ready;
    this.ready = new Promise<void>((resolve, reject) => {
      const child = spawn(this.python, ['-u', SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
      this.child = child;
      this.starts?.inc();
      let started = false;
      const fail = (e: SpeechUnavailableError) => {
        if (this.child === child) this.reset();
        child.kill('SIGKILL');
        if (!started) reject(e);
        this.pending?.reject(e);
        this.pending = null;
      };
      const timer = setTimeout(
        () => fail(new SpeechUnavailableError('start', `speech worker not ready after ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      child.on('error', (e) => {
        clearTimeout(timer);
        fail(new SpeechUnavailableError('start', `speech worker could not start (${this.python}): ${e.message}`));
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (s: string) => {
        this.stderrTail = (this.stderrTail + s).slice(-500);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.child === child) this.logger?.warn({ code, signal }, 'speech worker exited');
        fail(
          new SpeechUnavailableError(
            started ? 'exited' : 'start',
            `speech worker exited (${signal ?? code})${this.stderrTail ? `: ${this.stderrTail.trim().split('\n').pop()}` : ''}`,
          ),
        );
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        let msg: { ready?: boolean; id?: number } & Record<string, unknown>;
        try {
          msg = JSON.parse(line);
        } catch {
          return fail(new SpeechUnavailableError('protocol', 'speech worker wrote a line that is not JSON'));
        }
        if (!started && msg.ready) {
          started = true;
          clearTimeout(timer);
          this.logger?.info({ pid: child.pid, pocketsphinx: msg.pocketsphinx }, 'speech worker ready');
          return resolve();
        }
        const p = this.pending;
        if (p && msg.id === p.id) {
          this.pending = null;
          p.resolve(msg);
        }
      });
    });
    return this.ready;
  }

  private reset() {
    this.child = null;
    this.ready = null;
  }

  /** Sends one request when the previous one has been answered; kills the worker on timeout. */
  private request<T>(body: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const run = async (): Promise<T> => {
      await this.start();
      const child = this.child!;
      const id = this.nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.pending = null;
          this.reset();
          child.kill('SIGKILL');
          reject(new SpeechUnavailableError('timeout', `speech worker gave no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        this.pending = {
          id,
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v as T);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        child.stdin!.write(`${JSON.stringify({ id, ...body })}\n`);
      });
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** Which of `words` the recogniser's pronunciation dictionary lacks (they can never be verified). */
  async missingWords(words: readonly string[], timeoutMs = this.timeoutMs): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < words.length; i += 16) {
      const r = await this.request<{ ok: boolean; error?: string; missing: string[] }>(
        { op: 'lookup', words: words.slice(i, i + 16) },
        timeoutMs,
      );
      if (!r.ok) throw new SpeechUnavailableError('protocol', `speech worker refused the lookup: ${r.error}`);
      out.push(...r.missing);
    }
    return out;
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
  ): Promise<WordsResult & { outcome: WordsOutcome; missing?: string[] }> {
    const threshold = WORDS_THRESHOLD;
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
      return { passed: false, score: null, threshold, outcome: 'no_audio', detail: `no audio in the words window ${span}` };
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
        detail: `words not heard in ${span}: the audio cannot be aligned to the ${norm.length} words in order`,
      };
    const per = r.words.map((w) => {
      const ok = w.score !== null && w.score >= threshold;
      const at = `${(w0 + w.start).toFixed(2)}–${(w0 + w.end).toFixed(2)} s`;
      return `${w.word} ${ok ? 'heard' : 'not heard'} ${at} (${w.score === null ? 'n/a' : w.score.toFixed(2)})`;
    });
    const passed = r.score >= threshold;
    const heard = r.words.filter((w) => w.score !== null && w.score >= threshold).length;
    return {
      passed,
      score: r.score,
      threshold,
      outcome: passed ? 'passed' : 'not_heard',
      detail: `${heard}/${norm.length} words heard in ${span}: ${per.join('; ')}; lowest ${r.score.toFixed(2)}, threshold ${threshold}`,
    };
  }

  /** Ends the process; later calls fail with SpeechUnavailableError('closed'). */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.reset();
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.stdin?.end();
    });
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
