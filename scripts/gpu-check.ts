/**
 * gpu-check: does biometrics compute where it should, and how fast? Renders one genuine corpus
 * capture (10 s, 640×480, services/biometrics/test/corpus), then prints the backend, the device
 * TensorFlow placed its ops on, the per-frame detection timings at the analysis's own sampling, and
 * one full verdict. Run through scripts/gpu-check.sh; on a machine without a GPU it is a dry run on
 * the CPU. Exits 1 when TF_BACKEND=node-gpu was asked for and the ops did not land on a GPU.
 *
 *   node --conditions=@signet/source --import tsx scripts/gpu-check.ts [auto|node-gpu|node|wasm|cpu]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analysisConfig, analyzeCapture, loadModels, type Action } from '../services/biometrics/src/analysis/index.js';
import {
  planBackend,
  systemProbes,
  TF_BACKEND_CHOICES,
  TFJS_NAME,
  type TfBackendChoice,
} from '../services/biometrics/src/analysis/backend.js';
import { detectFacesLocal, type DetectOpts } from '../services/biometrics/src/analysis/detect.js';
import { decodeVideo } from '../services/biometrics/src/analysis/media.js';
import { makeGenuineCapture } from '../services/biometrics/test/corpus/make-corpus.js';

const choice = (process.argv[2] ?? process.env.TF_BACKEND ?? 'auto') as TfBackendChoice;
if (!(TF_BACKEND_CHOICES as readonly string[]).includes(choice)) {
  console.error(`usage: gpu-check [${TF_BACKEND_CHOICES.join('|')}]`);
  process.exit(2);
}
const q = (xs: number[], k: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(k * s.length) - 1)]!;
};
const ms = (x: number) => `${Math.round(x)} ms`;
const row = (k: string, v: string) => console.log(`${k.padEnd(10)} ${v}`);

const plan = planBackend(choice, 'auto', { env: process.env });
const t0 = performance.now();
const m = await loadModels({ backend: plan.backend, workers: plan.workers });
const device = m.tfjsBackend.device;
row(
  'backend',
  `${plan.backend} (tfjs ${TFJS_NAME[plan.backend]}, ${m.tfjsBackend.package}@${m.tfjsBackend.version}): ${plan.reason}`,
);
row('device', `${device}; GPU visible: ${systemProbes.gpu() ?? 'none'}`);
row(
  'threads',
  `detector workers ${plan.workers}${
    Object.keys(plan.threads).length
      ? ', ' +
        Object.entries(plan.threads)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')
      : ''
  }`,
);
row('models', `loaded in ${ms(performance.now() - t0)}`);

const dir = mkdtempSync(path.join(tmpdir(), 'signet-gpu-check-'));
try {
  const actions: Action[] = ['turn_left', 'blink', 'smile'];
  const tr = performance.now();
  const cap = await makeGenuineCapture(dir, actions, { models: m });
  const video = readFileSync(cap.video!);
  row('capture', `genuine, ${actions.join(', ')}; rendered in ${ms(performance.now() - tr)}`);

  const { fps, width } = analysisConfig.sampling;
  const decoded = await decodeVideo(video, { fps, width });
  const opts: DetectOpts = {
    embed: true,
    supporting: false,
    maxFaces: analysisConfig.maxFacesPerFrame,
    minRelativeFaceWidth: analysisConfig.minRelativeFaceWidth,
  };
  const times: number[] = [];
  let faces = 0;
  for (const f of decoded.frames) {
    const r = m.pool ? await m.pool.detect(f, opts) : await detectFacesLocal(m, f, opts);
    times.push(r.ms);
    if (r.faces.length > 0) faces++;
  }
  const [first, ...rest] = times;
  const f0 = decoded.frames[0];
  row(
    'frames',
    `${times.length} at ${fps} fps, ${f0?.width}×${f0?.height}, a face in ${faces}; detect+mesh+iris+description per frame: first ${ms(first ?? 0)} (warm-up), then p50 ${ms(q(rest, 0.5))}, p95 ${ms(q(rest, 0.95))}, max ${ms(Math.max(...rest))}`,
  );
  row('per frame', times.map((t) => Math.round(t)).join(' ') + ' (ms)');

  const r = await analyzeCapture(m, {
    video,
    finalFrame: readFileSync(cap.finalFrame!),
    reference: readFileSync(cap.reference),
    challenge: { actions },
    deadlineMs: 120_000,
  });
  row(
    'verdict',
    `${r.outcome}${r.failed_checks.length ? ` (failed: ${r.failed_checks.join(', ')})` : ''} in ${ms(r.duration_ms)}: decode ${ms(r.timings.decode_ms)}, inference ${ms(r.timings.inference_ms)} over ${r.timings.inference_calls} calls, ${r.frames_analysed} frames`,
  );
  row('memory', `rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
} finally {
  await m.close();
  rmSync(dir, { recursive: true, force: true });
}
if (choice === 'node-gpu' && device !== 'gpu') {
  console.error('gpu-check: TF_BACKEND=node-gpu, but TensorFlow placed no op on a GPU (driver? CUDA libraries in deps/nvidia?)');
  process.exit(1);
}
