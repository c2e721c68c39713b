/**
 * The speech worker process behind words.ts: one long-lived Python process
 * (services/biometrics/speech/recognise.py, pocketsphinx from the pinned PyPI wheel with its bundled
 * US English model), started once and reused; it is restarted on the next call when it has died,
 * and killed when a call outlives its timeout. Requests go one at a time, one JSON line each way.
 * Audio is never logged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@signet/kit';

/** Default interpreter: the venv scripts/speech-venv.sh builds (SPEECH_PYTHON overrides it). */
export const DEFAULT_SPEECH_PYTHON = '~/.cache/signet/speech-venv/bin/python';
const DEFAULT_TIMEOUT_MS = 10_000;
/** Loading Whisper's weights (145 MB) takes a few seconds idle and about 20 s on a busy machine. */
const START_TIMEOUT_MS = 60_000;

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

export interface SpeechMetrics {
  checks: { inc(l: { outcome: string }): void };
  seconds: { observe(v: number): void };
  starts: { inc(): void };
}

export interface SpeechOptions {
  /** Python interpreter with pocketsphinx (config SPEECH_PYTHON); `~/` is the user's home. */
  python?: string;
  /** Default timeout of one call (config SPEECH_TIMEOUT_MS). */
  timeoutMs?: number;
  logger?: Logger;
  /** The service's instruments for the words checks and the worker's starts (declared in src/metrics.ts). */
  metrics?: SpeechMetrics;
}

/** One aligned word as the worker reports it (start/end in seconds from the window's start). */
export interface WordAnswer {
  word: string;
  start: number;
  end: number;
  score: number | null;
  /** Whisper's mean token log-probability of the word; absent without the second recogniser. */
  second?: number | null;
}
export interface VerifyAnswer {
  ok: boolean;
  error?: string;
  aligned: boolean;
  score: number | null;
  /** Whisper's lowest word; null when the worker has no second recogniser or nothing aligned. */
  second?: number | null;
  words: WordAnswer[];
  missing: string[];
  ms: number;
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'speech', 'recognise.py');

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** One recogniser process; requests go one at a time, each with its own timeout. */
export class SpeechProcess {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private pending: { id: number; resolve: (v: unknown) => void; reject: (e: Error) => void } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;
  private stderrTail = '';
  /** The second recogniser the running worker reported ('whisper-base'), null without one. */
  second: string | null = null;
  private readonly python: string;
  protected readonly timeoutMs: number;
  protected readonly logger?: Logger;
  private readonly starts?: { inc(): void };

  constructor(opts: SpeechOptions = {}) {
    this.python = expandHome(opts.python ?? DEFAULT_SPEECH_PYTHON);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.logger = opts.logger;
    this.starts = opts.metrics?.starts;
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
      // A write to a worker that has just been killed (timeout) or died fails with EPIPE; the call
      // already fails through its timer or the exit handler, so the stream error is not news.
      child.stdin?.on('error', (e) => this.logger?.debug({ err: e.message }, 'speech worker stdin closed'));
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
          this.second = typeof msg.second === 'string' ? msg.second : null;
          this.logger?.info(
            { pid: child.pid, pocketsphinx: msg.pocketsphinx, second: this.second },
            this.second ? 'speech worker ready' : 'speech worker ready without its second recogniser (pocketsphinx alone)',
          );
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
  protected request<T>(body: Record<string, unknown>, timeoutMs: number): Promise<T> {
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
