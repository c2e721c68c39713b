/**
 * A pool of worker threads, each with its own Human and backend instance (the wasm backend is
 * single-threaded in Node; tfjs-node gives each thread its own TensorFlow context, all on the
 * process's one intra-op pool, sized by backend.ts before libtensorflow loads), so one process uses
 * every core. Requests are queued and handed to the first idle worker. Workers get the backend
 * resolved at start (backend.ts), never `auto`, so they all compute with what the main thread
 * reported. With tfjs-node-gpu the GPU does the work and `auto` starts no pool. A job is a run of
 * consecutive frames of one capture (detect.ts detectRunLocal): one worker meshes them in order,
 * with nothing between them, so a frame that tracks the boxes of the one before finds them there.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DetectOpts, DetectResult } from './detect.js';
import type { RgbImage } from './media.js';
import type { LoadModelsOptions, ModelInfo } from './models.js';
import type { SessionState } from './graph-sessions.js';

interface Job {
  id: number;
  imgs: readonly RgbImage[];
  opts: readonly DetectOpts[];
  resolve: (r: DetectResult[]) => void;
  reject: (e: Error) => void;
}
interface WorkerReply {
  type: string;
  id: number;
  results?: DetectResult[];
  message?: string;
}
interface Slot {
  worker: Worker;
  busy: Job | null;
}

export class DetectorPool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  private constructor(readonly size: number) {}

  /** Start `size` workers and wait until each has loaded its models. */
  static async start(
    size: number,
    opts: LoadModelsOptions,
  ): Promise<{ pool: DetectorPool; models: ModelInfo[]; sessions: SessionState[] }> {
    const pool = new DetectorPool(size);
    const here = new URL(import.meta.url);
    const isTs = here.pathname.endsWith('.ts');
    const workerUrl = new URL(isTs ? './worker.ts' : './worker.js', here);
    // Running from TypeScript sources (tests, tsx): Node 20 does not pass module hooks to worker
    // threads and `execArgv: ['--import', 'tsx']` does not help, so a tiny bootstrap registers
    // tsx's loader inside the worker first. Compiled JavaScript loads worker.js directly.
    const workerData = {
      backend: opts.backend,
      supportingModels: opts.supportingModels,
      modelDir: opts.modelDir,
      graphSessions: opts.graphSessions,
    };
    const spawnWorker = (): Worker => {
      if (!isTs) return new Worker(workerUrl, { workerData });
      // the ESM entry of tsx's API (require.resolve would pick the CJS one, which fails here)
      const tsxPkg = createRequire(import.meta.url).resolve('tsx/package.json');
      const tsxApi = pathToFileURL(path.join(path.dirname(tsxPkg), 'dist', 'esm', 'api', 'index.mjs')).href;
      const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(workerUrl.href)}); })`;
      return new Worker(boot, { eval: true, workerData });
    };
    const ready = await Promise.all(
      Array.from(
        { length: size },
        () =>
          new Promise<{ worker: Worker; models: ModelInfo[]; sessions: SessionState[] }>((resolve, reject) => {
            const worker = spawnWorker();
            const onMsg = (m: { type: string; models?: ModelInfo[]; sessions?: SessionState[] }) => {
              if (m.type === 'ready') {
                worker.off('message', onMsg);
                resolve({ worker, models: m.models ?? [], sessions: m.sessions ?? [] });
              }
            };
            worker.on('message', onMsg);
            worker.once('error', reject);
          }),
      ),
    );
    for (const r of ready) {
      const slot: Slot = { worker: r.worker, busy: null };
      r.worker.on('message', (m: WorkerReply) => this_onResult(pool, slot, m));
      r.worker.on('error', (e) => {
        const j = slot.busy;
        slot.busy = null;
        j?.reject(e);
      });
      r.worker.unref(); // an idle pool does not keep the process alive; a busy worker does (see pump)
      pool.slots.push(slot);
    }
    // every worker loads the same files: a model any worker runs eagerly is reported eager
    const sessions = (ready[0]?.sessions ?? []).map(
      (s) => ready.map((r) => r.sessions.find((x) => x.name === s.name)).find((x) => x?.runtime === 'eager') ?? s,
    );
    return { pool, models: ready[0]?.models ?? [], sessions };
  }

  detect(img: RgbImage, opts: DetectOpts): Promise<DetectResult> {
    return this.detectRun([img], [{ ...opts, reuse: false }]).then((r) => r[0]!);
  }

  /** A run of consecutive frames of one capture, meshed in order by one worker (detectRunLocal). */
  detectRun(imgs: readonly RgbImage[], opts: readonly DetectOpts[]): Promise<DetectResult[]> {
    if (this.closed) return Promise.reject(new Error('detector pool is closed'));
    if (imgs.length !== opts.length)
      return Promise.reject(new Error(`a run of ${imgs.length} frames with ${opts.length} options`));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, imgs, opts, resolve, reject });
      this.pump();
    });
  }

  /** Drop queued (not yet running) jobs, e.g. when an analysis passed its deadline. */
  cancelQueued(reason: Error): void {
    const q = this.queue;
    this.queue = [];
    for (const j of q) j.reject(reason);
  }

  pump(): void {
    for (const s of this.slots) {
      if (s.busy || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      s.busy = job;
      s.worker.ref();
      // a frame in shared memory (media.ts) is read in place; anything else is copied and the copy
      // moved (it may be a view into a larger decode buffer)
      const transfer: ArrayBuffer[] = [];
      const frames = job.imgs.map((img) => {
        if (img.data.buffer instanceof SharedArrayBuffer) return { width: img.width, height: img.height, data: img.data };
        const data = Uint8Array.from(img.data);
        transfer.push(data.buffer as ArrayBuffer);
        return { width: img.width, height: img.height, data };
      });
      s.worker.postMessage({ type: 'detect', id: job.id, frames, opts: job.opts }, transfer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelQueued(new Error('detector pool closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }
}

function this_onResult(pool: DetectorPool, slot: Slot, m: WorkerReply): void {
  const job = slot.busy;
  if (!job || job.id !== m.id) return;
  slot.busy = null;
  slot.worker.unref();
  if (m.type === 'result' && m.results?.length === job.imgs.length) job.resolve(m.results);
  else if (m.type === 'result') job.reject(new Error(`worker answered ${m.results?.length ?? 0} of ${job.imgs.length} frames`));
  else job.reject(new Error(m.message ?? 'worker error'));
  pool.pump();
}
