/**
 * Benchmark: verdict time for each corpus video (10 s, 640×480), in-process and with a worker
 * pool, p50/p95, frames analysed per second, and total/inference overhead.
 *
 *   node --conditions=@signet/source --import tsx test/bench/biometrics.bench.ts [corpusDir]     (generates a corpus in a temp dir when none is given)
 *
 * The machine is shared: the load average before and after is printed; compare runs only at
 * similar load.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadModels } from '../../services/biometrics/src/analysis/index.js';
import { analyzeCase, makeCorpus, type Manifest } from '../../services/biometrics/test/corpus/make-corpus.js';

const q = (xs: number[], k: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(k * s.length) - 1)];
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

let dir = process.argv[2];
let tmp = '';
if (!dir) {
  tmp = mkdtempSync(path.join(tmpdir(), 'bio-bench-'));
  dir = tmp;
  const m = await loadModels({ supportingModels: false });
  const t0 = performance.now();
  await makeCorpus(dir, { models: m });
  console.log(`corpus generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const man = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
console.log(`load average before: ${load()}`);
for (const workers of [0, 2]) {
  const m = await loadModels({ workers });
  const rows: { total: number; inf: number; frames: number; decode: number }[] = [];
  for (const c of man.cases) {
    const r = await analyzeCase(m, dir, c, 120_000);
    rows.push({ total: r.duration_ms, inf: r.timings.inference_ms, frames: r.frames_analysed, decode: r.timings.decode_ms });
  }
  await m.close();
  const tot = rows.map((r) => r.total);
  const fps = rows.map((r) => (r.frames / r.total) * 1000);
  const ratio = rows.map((r) => r.total / (r.inf / Math.max(1, workers)));
  console.log(
    `workers=${workers}: verdict p50 ${q(tot, 0.5)} ms, p95 ${q(tot, 0.95)} ms, max ${Math.max(...tot)} ms; frames/s p50 ${q(fps, 0.5).toFixed(1)}; decode p50 ${q(
      rows.map((r) => r.decode),
      0.5,
    )} ms; inference (sum over threads) p50 ${q(
      rows.map((r) => r.inf),
      0.5,
    )} ms; total/(inference/threads) p50 ${q(ratio, 0.5).toFixed(2)}`,
  );
}
console.log(`load average after: ${load()}`);
if (tmp) rmSync(tmp, { recursive: true, force: true });
