/**
 * Running the ffmpeg binary: input piped on stdin, output streamed or collected, killed past its
 * wall-time budget or its CPU budget (media.ts decodes with it).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FFMPEG_PATH } from '../config.js';

export const FFMPEG = FFMPEG_PATH;

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/** ffmpeg did not finish within its time budget (the analysis deadline), or used more CPU than allowed. */
export class FfmpegTimeoutError extends Error {
  constructor(
    public readonly timeoutMs: number,
    what: 'wall' | 'cpu' = 'wall',
  ) {
    super(what === 'cpu' ? `ffmpeg used more than ${timeoutMs} ms of CPU` : `ffmpeg timed out after ${timeoutMs} ms`);
    this.name = 'FfmpegTimeoutError';
  }
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null where it cannot be read. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of proc(5)), in clock ticks of 10 ms
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Run ffmpeg with `input` on stdin; resolves with stdout. Rejects on non-zero exit or timeout.
 * `verbose` makes ffmpeg report (in `stderr`) what it read and decoded per input stream; a failure
 * still quotes only ffmpeg's error lines.
 */
export function runFfmpeg(
  args: string[],
  input: Buffer | null,
  timeoutMs = 60_000,
  opts: {
    verbose?: boolean;
    onStdout?: (chunk: Buffer) => void;
    onStderr?: (text: string) => void;
    /** kill ffmpeg once it has used this much CPU (checked every 100 ms; Linux) */
    maxCpuMs?: number;
  } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const level = opts.verbose ? ['-loglevel', 'level+verbose'] : ['-v', 'error'];
    const p = spawn(FFMPEG, ['-hide_banner', '-nostdin', ...level, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new FfmpegTimeoutError(timeoutMs));
    }, timeoutMs);
    const cpuCap = opts.maxCpuMs;
    const cpuTimer =
      cpuCap !== undefined
        ? setInterval(() => {
            const used = p.pid === undefined ? null : processCpuMs(p.pid);
            if (used !== null && used > cpuCap) {
              p.kill('SIGKILL');
              reject(new FfmpegTimeoutError(cpuCap, 'cpu'));
            }
          }, 100)
        : null;
    p.once('close', () => {
      if (cpuTimer) clearInterval(cpuTimer);
    });
    // a streaming caller takes each chunk as it comes; stdout is then not kept
    p.stdout.on('data', opts.onStdout ?? ((b: Buffer) => out.push(b)));
    p.stderr.on('data', (b: Buffer) => {
      err += b.toString();
      opts.onStderr?.(err);
    });
    p.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    p.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else {
        const why = opts.verbose
          ? err
              .split('\n')
              .filter((l) => /\[(error|fatal|panic)\]/.test(l))
              .join('\n') || err.slice(-500)
          : err;
        reject(new Error(`ffmpeg exited ${code}: ${why.trim().slice(0, 500)}`));
      }
    });
    p.stdin.on('error', () => {
      /* ffmpeg may close stdin early; the exit code tells */
    });
    if (input) p.stdin.end(input);
    else p.stdin.end();
  });
}
