/**
 * Benchmark: verdict time of each corpus video (10 s, 640×480) per tfjs backend — `node`
 * (tfjs-node, tfjs name `tensorflow`) and `wasm` in the same run — p50/p95/max, frames analysed
 * per second, total ÷ (inference ÷ threads) and the CPU time per verdict (every thread of the
 * process: a figure other load on the machine disturbs less than wall time), with the ratios of the
 * backends to each other.
 *
 *   node --conditions=@signet/source --import tsx test/bench/biometrics.bench.ts [corpusDir] [--rounds N] [--configs node,wasm]
 *
 * A config is `backend[:workers[:full]]` (workers default, or `auto`: what the service's ANALYSIS_WORKERS=auto
 * picks; `full`: every model on every frame, the analysis before the frame plan — the baseline).
 * Each config runs in its own process, as the service does (libtensorflow sizes its thread pools
 * once per process: TF_NUM_* in the environment are passed on), with one warm-up analysis that is
 * not counted; rounds alternate the order of the configs. The machine is shared: the load average
 * before, after and per round is printed; compare runs only at similar load. Nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planBackend, TF_BACKEND_CHOICES, type TfBackend } from '../../services/biometrics/src/analysis/backend.js';
import { loadModels } from '../../services/biometrics/src/analysis/index.js';
import { analysisConfig } from '../../services/biometrics/src/analysis/config.js';
import { analyzeCase, makeCorpus, type Manifest } from '../../services/biometrics/test/corpus/make-corpus.js';

interface Row {
  case: string;
  total: number;
  inf: number;
  frames: number;
  decode: number;
  /** CPU time of the whole process (every thread) during the analysis: less sensitive to other load than wall time */
  cpu: number;
}
interface ChildResult {
  config: string;
  tfjs: string;
  device: string;
  workers: number;
  threads: Record<string, string>;
  rows: Row[];
}

const q = (xs: number[], k: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(k * s.length) - 1)]!;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** `backend[:workers[:full]]`: `full` turns the frame plan off (every model on every frame), the baseline. */
function parseConfig(c: string): { backend: TfBackend; workers: 'auto' | number; full: boolean } {
  const [b, w, f] = c.split(':');
  if (!(TF_BACKEND_CHOICES as readonly string[]).includes(b!) || b === 'auto') throw new Error(`unknown backend in config ${c}`);
  if (f !== undefined && f !== 'full') throw new Error(`unknown option ${f} in config ${c}`);
  return { backend: b as TfBackend, workers: w === undefined || w === 'auto' ? 'auto' : Number(w), full: f === 'full' };
}

/** Child: one config, every corpus case once after one uncounted warm-up; JSON on the last line. */
async function child(config: string, dir: string): Promise<void> {
  const { backend, workers, full } = parseConfig(config);
  const cfg = full ? { ...analysisConfig, sampling: { ...analysisConfig.sampling, plan: false } } : analysisConfig;
  const plan = planBackend(backend, workers, { env: process.env });
  const m = await loadModels({ backend: plan.backend, workers: plan.workers });
  const man = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  await analyzeCase(m, dir, man.cases[0]!, 300_000, null, cfg);
  const rows: Row[] = [];
  for (const c of man.cases) {
    const c0 = process.cpuUsage();
    const r = await analyzeCase(m, dir, c, 300_000, null, cfg);
    const cu = process.cpuUsage(c0);
    rows.push({
      case: c.name,
      total: r.duration_ms,
      inf: r.timings.inference_ms,
      frames: r.frames_analysed,
      decode: r.timings.decode_ms,
      cpu: Math.round((cu.user + cu.system) / 1000),
    });
  }
  await m.close();
  const out: ChildResult = {
    config,
    tfjs: m.backend,
    device: m.tfjsBackend.device,
    workers: plan.workers,
    threads: plan.threads,
    rows,
  };
  console.log(JSON.stringify(out));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  const childConfig = opt('--child');
  if (childConfig) return child(childConfig, args[0]!);
  const rounds = Number(opt('--rounds') ?? 1);
  const configs = (opt('--configs') ?? 'node,wasm').split(',');
  configs.forEach(parseConfig);

  let dir = args[0];
  let tmp = '';
  if (!dir) {
    tmp = mkdtempSync(path.join(tmpdir(), 'bio-bench-'));
    dir = tmp;
    const m = await loadModels({ supportingModels: false });
    const t0 = performance.now();
    await makeCorpus(dir, { models: m });
    await m.close();
    console.log(`corpus generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const man = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  console.log(
    `${man.cases.length} cases (${man.width}×${man.height}, ${man.durationS} s), ${rounds} round(s); load average before: ${load()}`,
  );
  const self = fileURLToPath(import.meta.url);
  const results = new Map<string, ChildResult>();
  const unavailable = new Map<string, string>();
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? configs : [...configs].reverse();
    for (const config of order) {
      if (unavailable.has(config)) continue;
      const p = spawnSync(process.execPath, [...process.execArgv, self, '--child', config, dir], {
        encoding: 'utf8',
        env: { TF_CPP_MIN_LOG_LEVEL: '2', ...process.env },
        maxBuffer: 64 * 1024 * 1024,
      });
      const last = p.stdout.trim().split('\n').pop() ?? '';
      if (p.status !== 0 || !last.startsWith('{')) {
        const why = (
          p.stderr.split('\n').find((l) => /^\s*(\w*Error\b|TF_BACKEND=)/.test(l)) ??
          `exit ${p.status ?? p.signal}: ${p.stderr.trim().split('\n').pop() ?? ''}`
        )
          .trim()
          .slice(0, 300);
        // a backend that cannot load here is skipped for the rest of the run; anything else only this round
        if (/cannot be used/.test(why)) unavailable.set(config, why);
        console.log(`  ${config}: not measured (${why})`);
        continue;
      }
      const res = JSON.parse(last) as ChildResult;
      const t = res.rows.map((x) => x.total);
      console.log(`  ${config}: ${t.length} verdicts, p50 ${q(t, 0.5)} ms, max ${Math.max(...t)} ms (load ${load()})`);
      const prev = results.get(config);
      if (prev) prev.rows.push(...res.rows);
      else results.set(config, res);
    }
    console.log(`round ${r + 1}: load average ${load()}`);
  }

  const stats = new Map<string, { p50: number; p95: number }>();
  console.log('');
  console.log(
    '| config | tfjs | device | workers | TF threads (intra/inter) | analyses | verdict p50 | p95 | max | per 10 s of video p50 / p95 | frames/s p50 | inference p50 | total/(inference/threads) p50 | CPU per verdict p50 |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [config, res] of results) {
    const tot = res.rows.map((x) => x.total);
    const fps = res.rows.map((x) => (x.frames / x.total) * 1000);
    const ratio = res.rows.map((x) => x.total / (x.inf / Math.max(1, res.workers)));
    const s = { p50: q(tot, 0.5), p95: q(tot, 0.95) };
    // the target is for a 10 s capture: 80 analysed frames at 8 fps
    const per10 = res.rows.map((x) => (x.total * (10 * analysisConfig.sampling.fps)) / Math.max(1, x.frames));
    stats.set(config, s);
    const th = res.tfjs === 'tensorflow' ? `${res.threads.TF_NUM_INTRAOP_THREADS}/${res.threads.TF_NUM_INTEROP_THREADS}` : '–';
    console.log(
      `| ${config} | ${res.tfjs} | ${res.device} | ${res.workers} | ${th} | ${tot.length} | ${s.p50} ms | ${s.p95} ms | ${Math.max(...tot)} ms | ${q(per10, 0.5).toFixed(0)} / ${q(per10, 0.95).toFixed(0)} ms | ${q(fps, 0.5).toFixed(1)} | ${q(
        res.rows.map((x) => x.inf),
        0.5,
      )} ms | ${q(ratio, 0.5).toFixed(2)} | ${q(
        res.rows.map((x) => x.cpu),
        0.5,
      )} ms |`,
    );
  }
  const names = [...stats.keys()];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++) {
      const a = stats.get(names[i]!)!;
      const b = stats.get(names[j]!)!;
      console.log(`${names[i]} ÷ ${names[j]}: p50 ${(a.p50 / b.p50).toFixed(2)}×, p95 ${(a.p95 / b.p95).toFixed(2)}×`);
    }
  console.log(`load average after: ${load()}`);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}

await main();
