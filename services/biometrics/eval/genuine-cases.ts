/**
 * Named captures of the evaluation's genuine set, rendered and analysed alone, to look into a
 * failure without the whole evaluation (eval/evaluate.ts renders and analyses all of them):
 *
 *   node --conditions=@signet/source --import tsx eval/genuine-cases.ts <dir> 11 15 27 35
 *
 * Capture k is exactly the evaluation's `genuine_<k>_p<person>` (same people, draw `genuine-set/k`,
 * seed). Rendered captures are kept in <dir> (manifest.json) and rendered again only when missing.
 * For each capture it prints the verdict, the failed checks' details and the detected events, and
 * writes <dir>/<name>.frames.json: every pass-1 frame's pose, eye-aspect ratio, mouth metrics and
 * mesh (the detector's output), for looking at the signals offline.
 * GENUINE_SET_N: the evaluation's set size (default 36; the people are chosen as for that size).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { planBackend } from '../src/analysis/backend.js';
import { meanEar, mouthMetrics } from '../src/analysis/geometry.js';
import { loadModels } from '../src/analysis/models.js';
import { closeSpeech, startSpeech, verifyWords } from '../src/analysis/words.js';
import { analyzeCase, makeGenuineSet, type CorpusCase } from '../test/corpus/make-corpus.js';
import { recordingModels } from './identity-pose.js';

const [dirArg, ...ks] = process.argv.slice(2);
if (!dirArg || !ks.length) throw new Error('usage: genuine-cases.ts <dir> <k> [<k> …]');
const dir = path.resolve(dirArg);
const only = ks.map(Number);
const count = Number(process.env.GENUINE_SET_N ?? 36);
const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

const plan = planBackend('auto', 0, { env: process.env });
const m = await loadModels({ backend: plan.backend, workers: 0 });
const manifestFile = path.join(dir, 'manifest.json');
const known: CorpusCase[] = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as CorpusCase[]) : [];
const has = (k: number) => known.find((c) => c.name.startsWith(`genuine_${String(k).padStart(2, '0')}_`));
const missing = only.filter((k) => !has(k) || !existsSync(path.join(dir, has(k)!.video)));
if (missing.length) {
  const gs = await makeGenuineSet(dir, count, { models: m, only: missing, log });
  for (const c of gs.cases) {
    const i = known.findIndex((x) => x.name === c.name);
    if (i >= 0) known[i] = c;
    else known.push(c);
  }
  writeFileSync(manifestFile, JSON.stringify(known, null, 2));
}

await startSpeech({ python: process.env.SPEECH_PYTHON });
const rec = recordingModels(m);
for (const k of only) {
  const c = has(k)!;
  const t = performance.now();
  const r = await analyzeCase(rec.models, dir, c, 600_000, verifyWords);
  const calls = rec.take().slice(0, r.frames_analysed);
  const fps = 8;
  writeFileSync(
    path.join(dir, `${c.name}.frames.json`),
    JSON.stringify(
      calls.map((faces, i) => {
        const f = faces[0];
        if (!f) return { t: i / fps };
        const mm = mouthMetrics(f.mesh);
        return { t: i / fps, yaw: f.yawDeg, pitch: f.pitchDeg, ear: meanEar(f.mesh), ...mm, mesh: f.mesh };
      }),
    ),
  );
  console.log(
    `${c.name} (${c.challenge.actions.join(', ')}): ${r.outcome} ${r.failed_checks.join(',')} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  for (const [name, ch] of Object.entries(r.checks))
    if (ch.detail && (ch.passed === false || name === 'sequence' || name === 'words')) console.log(`  ${name}: ${ch.detail}`);
  console.log(
    `  events: ${r.events.map((e) => `${e.action}@${e.start.toFixed(2)}-${e.end.toFixed(2)}(${e.peak.toFixed(2)})`).join(' ')}`,
  );
  console.log(`  scores: ${JSON.stringify(r.scores)}`);
}
await closeSpeech();
await m.close();
