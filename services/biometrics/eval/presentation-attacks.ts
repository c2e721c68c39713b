/**
 * A focused evaluation of issue 30's presentation-attack checks, printed as a dated markdown section
 * for docs/biometrics-evaluation.md (the whole evaluation, eval/evaluate.ts, takes about an hour):
 *
 *   node --conditions=@signet/source --import tsx eval/presentation-attacks.ts <dir> [first] [count]
 *
 * For the draws genuine-set/first … first+count−1 of the evaluation's genuine set (its people in
 * turn, its seeds), it renders and analyses, as the service does (words not checked: no recogniser):
 *
 * - genuine: the person follows the draw, the face lit as physics gives it (the mesh's normals);
 * - uniform tint: the same puppet, the whole face tinted uniformly in each revealed colour;
 * - mild recapture: that puppet played on a screen and filmed mildly (make-corpus screenRecapture 'mild');
 * - relay recapture: the genuine capture played on a screen and filmed mildly — a relay of a capture
 *   that is right in every respect, measured to say what no check here detects;
 *
 * and Human's antispoof and liveness models on 6 frames of each capture and its final frame.
 *
 * The split: the orientation threshold (analysisConfig.light.minOrientation) was set on the tuning
 * captures only — test/light.int.test.ts's person A on its own colour sequence, and the unit
 * tests' synthetic faces; the draws here are the evaluation's, which it never saw. Rendered files
 * are kept in <dir> and rendered again only when missing; progress goes to stderr.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { AnalyzeResult, CheckName } from '../src/analysis/analyze.js';
import { planBackend } from '../src/analysis/backend.js';
import { analysisConfig } from '../src/analysis/config.js';
import { detectFacesLocal } from '../src/analysis/detect.js';
import { decodeVideo } from '../src/analysis/media.js';
import { loadModels, type LoadedModels } from '../src/analysis/models.js';
import { analyzeCase, makeGenuineSet, screenRecapture, type CorpusCase } from '../test/corpus/make-corpus.js';

const [dirArg, firstArg, countArg] = process.argv.slice(2);
if (!dirArg) throw new Error('usage: presentation-attacks.ts <dir> [first] [count]');
const dir = path.resolve(dirArg);
const first = Number(firstArg ?? 0);
const count = Number(countArg ?? 6);
const SET_N = 36; // the evaluation's set size: people are chosen as for it
const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const CLASSES = ['genuine', 'uniform tint', 'mild recapture', 'relay recapture'] as const;
type Cls = (typeof CLASSES)[number];

interface Row {
  cls: Cls;
  name: string;
  outcome: string;
  failed: string[];
  checks: Record<string, boolean | null>;
  light: { score: number | null; amplitude: number | null; agreement: number | null; orientation: number | null };
  real: number[];
  live: number[];
  ms: number;
}

const num = (detail: string | undefined, re: RegExp) => {
  const m = detail ? re.exec(detail) : null;
  return m ? Number(m[1]) : null;
};

/** Render (or find) the captures of one draw: genuine, uniform tint, and both mild recaptures. */
async function casesOf(m: LoadedModels, k: number): Promise<{ cls: Cls; c: CorpusCase }[]> {
  const manifest = path.join(dir, `draw-${k}.json`);
  if (existsSync(manifest)) {
    const known = JSON.parse(readFileSync(manifest, 'utf8')) as { cls: Cls; c: CorpusCase }[];
    if (known.every((x) => existsSync(path.join(dir, x.c.video)))) return known;
  }
  const [g] = (await makeGenuineSet(dir, SET_N, { models: m, only: [k], log })).cases;
  const [u] = (await makeGenuineSet(dir, SET_N, { models: m, only: [k], log, lightShading: 'uniform' })).cases;
  const mild = { ...u, name: `mild_${u.name}`, video: `mild_${u.video}`, attack: 'mild screen recapture' };
  await screenRecapture(path.join(dir, u.video), path.join(dir, mild.video), 'mild');
  const relay = { ...g, name: `relay_${g.name}`, video: `relay_${g.video}`, attack: 'relay recapture' };
  await screenRecapture(path.join(dir, g.video), path.join(dir, relay.video), 'mild');
  const out = [
    { cls: 'genuine' as const, c: g },
    { cls: 'uniform tint' as const, c: u },
    { cls: 'mild recapture' as const, c: mild },
    { cls: 'relay recapture' as const, c: relay },
  ];
  writeFileSync(manifest, JSON.stringify(out, null, 2));
  return out;
}

/** Human's antispoof (`real`) and liveness (`live`) on 6 frames spread over the capture, and the final frame. */
async function supporting(m: LoadedModels, c: CorpusCase, r: AnalyzeResult) {
  const v = await decodeVideo(readFileSync(path.join(dir, c.video)), { fps: 2, width: analysisConfig.sampling.width });
  const real: number[] = [];
  const live: number[] = [];
  const picks = [1, 2, 3, 4, 5, 6].map((q) => Math.min(v.frames.length - 1, Math.floor((q * v.frames.length) / 7)));
  for (const i of picks) {
    const d = await detectFacesLocal(m, v.frames[i], { embed: false, supporting: true, maxFaces: 1, minRelativeFaceWidth: 0.35 });
    if (d.faces[0]?.real !== undefined) real.push(d.faces[0].real);
    if (d.faces[0]?.live !== undefined) live.push(d.faces[0].live);
  }
  const s = r.scores;
  if (typeof s.antispoof_real_mean === 'number') real.push(s.antispoof_real_mean);
  if (typeof s.liveness_live_mean === 'number') live.push(s.liveness_live_mean);
  return { real, live };
}

mkdirSync(dir, { recursive: true });
const t0 = performance.now();
const loadStart = loadavg();
const plan = planBackend('auto', 0, { env: process.env });
const m = await loadModels({ backend: plan.backend, workers: 0 });
const rows: Row[] = [];
for (let k = first; k < first + count; k++) {
  for (const { cls, c } of await casesOf(m, k)) {
    const t = performance.now();
    const r = await analyzeCase(m, dir, c, 900_000, null);
    const ms = performance.now() - t;
    const sup = await supporting(m, c, r);
    const l = r.checks.light;
    rows.push({
      cls,
      name: c.name,
      outcome: r.outcome,
      failed: r.failed_checks,
      checks: Object.fromEntries(Object.entries(r.checks).map(([n, x]) => [n, x.passed])),
      light: {
        score: l.value,
        amplitude: num(l.detail, /amplitude ([-\d.]+) %/),
        agreement: num(l.detail, /segments agreeing ([\d.]+) %/),
        orientation: num(l.detail, /orientation ([-\d.]+) %/),
      },
      ...sup,
      ms,
    });
    log(`${cls} ${c.name}: ${r.outcome} ${r.failed_checks.join(',')}; ${l.detail ?? ''} (${(ms / 1000).toFixed(1)} s)`);
  }
}
writeFileSync(path.join(dir, `rows-${first}-${count}.json`), JSON.stringify(rows, null, 2));
await m.close();

// ---- report
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))];
};
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
const dist = (xs: number[], d = 3) =>
  xs.length ? `${f(Math.min(...xs), d)} / ${f(q(xs, 0.5), d)} / ${f(Math.max(...xs), d)}` : '–';
/** Area under the ROC curve: the chance a genuine value exceeds an attack value (ties half). */
const auc = (gen: number[], att: number[]) => {
  if (!gen.length || !att.length) return NaN;
  let s = 0;
  for (const g of gen) for (const a of att) s += g > a ? 1 : g === a ? 0.5 : 0;
  return s / (gen.length * att.length);
};
const of = (cls: Cls) => rows.filter((r) => r.cls === cls);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const p: string[] = [];
const out = (s = '') => p.push(s);
const day = new Date().toISOString().slice(0, 10);
out(`## Presentation attacks of issue 30: focused evaluation (${day})`);
out();
out(
  `Made by \`node --conditions=@signet/source --import tsx eval/presentation-attacks.ts <dir> ${first} ${count}\` ` +
    `(services/biometrics) on ${day}, not by the whole evaluation: the draws genuine-set/${first}…${first + count - 1} of the genuine set above ` +
    `(its people in turn, its seeds), analysed as the service analyses them on \`${plan.backend}\` (words not checked). ` +
    `Load average ${loadStart.map((x) => x.toFixed(2)).join(' ')} at the start; ${((performance.now() - t0) / 60000).toFixed(0)} min. ` +
    `The orientation threshold (${analysisConfig.light.minOrientation}) was set on the tuning captures only (test/light.int.test.ts's person A ` +
    `on its own colour sequence and the unit tests' synthetic faces), never on these draws.`,
);
out();
out(
  '| class | captures | verdict FAIL | light failed | light: following the orientation, % (min / median / max) | light correlation | antispoof real (frames) | liveness live (frames) |',
);
out('|---|---|---|---|---|---|---|---|');
for (const cls of CLASSES) {
  const rs = of(cls);
  const orient = rs.map((r) => r.light.orientation).filter((x): x is number => x !== null);
  const score = rs.map((r) => r.light.score).filter((x): x is number => x !== null);
  out(
    `| ${cls} | ${rs.length} | ${rs.filter((r) => r.outcome === 'FAIL').length} | ${rs.filter((r) => r.checks.light === false).length} | ` +
      `${dist(orient, 0)} | ${dist(score)} | ${dist(rs.flatMap((r) => r.real))} | ${dist(rs.flatMap((r) => r.live))} |`,
  );
}
out();
const caught = (cls: Cls) => of(cls).filter((r) => r.checks.light === false).length;
out(
  `The light by its physics stopped the uniform-tint puppet in ${caught('uniform tint')} of ${of('uniform tint').length} draws and its mild recapture in ${caught('mild recapture')} of ${of('mild recapture').length}` +
    (caught('uniform tint') < of('uniform tint').length
      ? ': **not every face**. Where it let the puppet through, the discs at the sides of the face (cheeks and jaw turned from the camera) responded less than the front ones even under a tint painted alike everywhere, so the response looked as if it followed the orientation. Darker and more oblique skin keeps less of a small colour change through quantisation and the codec, and the mesh found on the rendered face reaches a little past the painted one; leaving out dark discs did not remove it (measured). Until that is understood on real captures, this gate raises the cost of a uniform tint without closing it.'
      : '.') +
    ` The relay recapture — a correct capture played on a screen and filmed — passed ${of('relay recapture').filter((r) => r.outcome === 'PASS').length} of ${of('relay recapture').length}: nothing here detects the screen.`,
);
out();
const gen = of('genuine');
const names = Object.keys(gen[0]?.checks ?? {}) as CheckName[];
out(
  `Genuine captures, per check (passed / applicable): ${names
    .map((n) => {
      const app = gen.filter((r) => r.checks[n] !== null);
      return `${n} ${app.filter((r) => r.checks[n]).length}/${app.length}`;
    })
    .join(', ')}. Whole verdict: ${gen.filter((r) => r.outcome === 'PASS').length}/${gen.length} passed.`,
);
out();
out(
  "Human's bundled models, per capture (mean over its frames): how well each separates genuine captures from each attack class (AUC: 1 = every genuine capture scores above every attack, 0.5 = chance).",
);
out();
out('| model | genuine (min / median / max) | uniform tint AUC | mild recapture AUC | relay recapture AUC |');
out('|---|---|---|---|---|');
for (const [label, key] of [
  ['antispoof `real`', 'real'],
  ['liveness `live`', 'live'],
] as const) {
  const per = (cls: Cls) => of(cls).map((r) => mean(r[key]));
  out(
    `| ${label} | ${dist(per('genuine'))} | ${f(auc(per('genuine'), per('uniform tint')), 2)} | ${f(auc(per('genuine'), per('mild recapture')), 2)} | ${f(auc(per('genuine'), per('relay recapture')), 2)} |`,
  );
}
const aucs = (['real', 'live'] as const).flatMap((key) =>
  (['uniform tint', 'mild recapture', 'relay recapture'] as const).map((cls) =>
    auc(
      of('genuine').map((r) => mean(r[key])),
      of(cls).map((r) => mean(r[key])),
    ),
  ),
);
out();
out(
  aucs.every((a) => a >= 0.95)
    ? '**Both models separate every attack class here (AUC ≥ 0.95)**; they are still not a check of the verdict: a threshold on them would have to be set on captures other than these.'
    : `**Not adopted.** Neither model separates the genuine captures from every attack class (AUC ${aucs.map((a) => f(a, 2)).join(', ')} for antispoof then liveness against uniform tint, mild recapture, relay recapture; 0.5 is chance, and below it the attacks score as more real than the genuine captures). They stay supporting scores in the verdict's \`scores\` (final frame), as before, and no check depends on them.`,
);
out();
out(
  '**A warp of the reference photo** (the capture\'s face a geometric warp of the reference photo itself) is left out. A check for it must let a genuine capture made from a *different* photo of the same person pass, and this corpus cannot hold such a pair: no two of the 24 faces in the npm-shipped photos are the same person by the descriptor (closest pair 0.795, above the 0.75 match threshold: "Face match on package photos"), and every genuine capture here is itself a mesh warp of the very photo its reference is cut from (`writeReference`: same source photo, another framing). Any near-duplicate-texture rule would therefore fail every genuine capture of this corpus, and there is nothing to measure its false rejections on; it needs real captures with separately taken reference photos.',
);
out();
out('Per capture:');
out();
out('| capture | class | verdict | failed checks | orientation % | antispoof | liveness |');
out('|---|---|---|---|---|---|---|');
for (const r of rows)
  out(
    `| ${r.name} | ${r.cls} | ${r.outcome} | ${r.failed.join(', ') || '–'} | ${f(r.light.orientation, 0)} | ${f(mean(r.real))} | ${f(mean(r.live))} |`,
  );
process.stdout.write(p.join('\n') + '\n');
process.exit(0);
