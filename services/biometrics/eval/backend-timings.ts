/**
 * Verdict timings on one tfjs backend, as the service runs it (its backend and worker-thread plan,
 * the speech worker for the words): analyses the named corpus cases one after another and prints
 * one JSON object. A child process of eval/evaluate.ts, because a process has one tfjs engine and
 * TensorFlow reads its thread settings once.
 *
 *   node --conditions=@signet/source --import tsx eval/backend-timings.ts <backend> <corpus dir> <cases.json>
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { planBackend, type TfBackend } from '../src/analysis/backend.js';
import { loadModels } from '../src/analysis/models.js';
import { closeSpeech, startSpeech, verifyWords } from '../src/analysis/words.js';
import { analyzeCase, type CorpusCase } from '../test/corpus/make-corpus.js';

export interface BackendTimings {
  backend: string;
  tfjs: string;
  device: string;
  workers: number;
  threads: Record<string, string>;
  loadMs: number;
  loadBefore: number[];
  loadAfter: number[];
  rows: { name: string; totalMs: number; inferenceMs: number; decodeMs: number; frames: number; outcome: string }[];
}

const [backend, dir, casesFile] = process.argv.slice(2);
if (!backend || !dir || !casesFile) throw new Error('usage: backend-timings.ts <backend> <corpus dir> <cases.json>');
const cases = JSON.parse(readFileSync(casesFile, 'utf8')) as CorpusCase[];
const plan = planBackend(backend as TfBackend, 'auto', { env: process.env });
const m = await loadModels({ backend: plan.backend, workers: plan.workers });
await startSpeech({ python: process.env.SPEECH_PYTHON }); // the service's SPEECH_PYTHON, else its default
// one warm-up analysis (first calls compile kernels), not counted
await analyzeCase(m, dir, cases[0], 600_000, verifyWords);
const loadBefore = loadavg();
const rows: BackendTimings['rows'] = [];
for (const c of cases) {
  const r = await analyzeCase(m, dir, c, 600_000, verifyWords);
  rows.push({
    name: c.name,
    totalMs: r.timings.total_ms,
    inferenceMs: r.timings.inference_ms,
    decodeMs: r.timings.decode_ms,
    frames: r.frames_analysed,
    outcome: r.outcome,
  });
  process.stderr.write(`${plan.backend} ${c.name}: ${r.timings.total_ms} ms\n`);
}
const out: BackendTimings = {
  backend: plan.backend,
  tfjs: m.backend,
  device: m.tfjsBackend.device,
  workers: plan.workers,
  threads: plan.threads,
  loadMs: Math.round(m.loadMs),
  loadBefore,
  loadAfter: loadavg(),
  rows,
};
process.stdout.write(JSON.stringify(out) + '\n');
await closeSpeech();
await m.close();
process.exit(0);
