/**
 * Corpus generator: renders synthetic 640×480, ~10 s WebM (VP8) ceremony videos from face photos
 * shipped in installed npm packages, plus final frames, reference photos and a manifest.
 *
 *   npx tsx corpus/make-corpus.ts [outDir]      (default: corpus/out)
 *
 * Deterministic (seeded). Generated media must not be committed; tests regenerate it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeCapture, type AnalyzeInput, type WordsVerifier } from '../../src/analysis/analyze.js';
import { analysisConfig, type Action, type AnalysisConfig } from '../../src/analysis/config.js';
import { meanEar } from '../../src/analysis/geometry.js';
import { FFMPEG, rawRgbInput, type RgbImage } from '../../src/analysis/media.js';
import { loadModels, type LoadedModels } from '../../src/analysis/models.js';
import { timedChallenge, type ServerTimeline as AnalysisTimeline } from '../../src/analysis/timed-challenge.js';
import { ACTION_COUNT, WORD_COUNT, drawContent, randomActions, randomWords } from '../../../ceremony/src/domain/challenge.js';
import { drawTimeline, seededDraw } from '../../../ceremony/src/domain/timeline.js';
import { rewriteMp4Duration } from '../../../../test/fixtures/mp4-duration.js';
import { findSourceFaces, type SourceFace } from './faces.js';

// The corpus is the tests' one door to the renderer's dependencies: end-to-end and browser tests render
// captures through it and draw the ceremony's seeded challenge (CHALLENGE_TEST_SEED) with it, so none of
// them imports a service's src/ (issue 14).
export { loadModels, type LoadedModels };
export { drawContent, seededDraw };
import {
  H,
  W,
  NEUTRAL,
  DEFAULT_LIGHT_MODEL,
  applyScreenLight,
  blank,
  boxBlur,
  camera,
  compositeHead,
  makeRig,
  noiseTable,
  placeFull,
  posePoints,
  rigTriangles,
  rng,
  screenLightAt,
  shadeMap,
  warpFace,
  type FaceRig,
  type FaceState,
  type LightModel,
  type LightShading,
  type LightSequence,
  type Placement,
} from './render.js';

export const FPS = 15;
/** Length of a capture rendered without a server timeline (makeGenuineCapture without one). */
export const DURATION_S = 10;
/** The universal video performs one action every this many seconds. */
export const UNIVERSAL_PERIOD_S = 1.5;
const FACE_WIDTH = 200; // mesh width in frame px for a single-face scene

export interface CorpusCase {
  name: string;
  description: string;
  video: string;
  finalFrame: string;
  reference?: string;
  /** the challenge the capture is submitted for, as the ceremony issued it (mode: whole timeline up front) */
  challenge: { words: string[]; actions: Action[]; timeline: ServerTimeline; mode: 'upload' };
  expected: 'PASS' | 'FAIL';
  /** checks expected to fail (for FAIL cases): each must be among the verdict's failed checks */
  expectedFailedChecks: string[];
  /** the attack class of issue 15 or 30 this case stands for (null: a genuine capture or an older attack) */
  attack: string | null;
  /** what the ceremony answers this upload before biometrics sees it, where that is tested */
  ceremonyRefuses?: string;
}

export interface Manifest {
  generatedAt: string;
  generator: string;
  fps: number;
  width: number;
  height: number;
  durationS: number;
  sources: { person: string; faceId: string; file: string; package: string }[];
  cases: CorpusCase[];
  /** redraw fishing: the old recording, the 9 draws it was matched against, and the one submitted */
  redrawFishing: {
    recording: string;
    draws: { label: string; challenge: CorpusCase['challenge']; fit: { actions: number; colours: number } }[];
    submitted: number;
  };
  generationMs: number;
}

// ------------------------------------------------------------------------ timeline

/** Trapezoid envelope: ramp up over `r`, hold `h`, ramp down over `r`, starting at t0. */
function trapezoid(t: number, t0: number, r: number, h: number): number {
  const x = t - t0;
  if (x <= 0 || x >= 2 * r + h) return 0;
  const e = x < r ? x / r : x < r + h ? 1 : (2 * r + h - x) / r;
  return 0.5 - 0.5 * Math.cos(Math.PI * e); // eased
}

export const ACTION_START_S = 1.4;
export const ACTION_SLOT_S = 1.9;

/** When the actions happen: the first starts at `start` seconds, each in its own `slot` seconds. */
export interface Timeline {
  start: number;
  slot: number;
  /** per performed action, its start (s); overrides start + k × slot (a server timeline's windows) */
  starts?: readonly number[];
}

/** A challenge's timeline as the ceremony issues it (ms on the segment grid). */
export interface ServerTimeline {
  segment_ms: number;
  words_start_ms: number;
  words_end_ms: number;
  actions: { action: string; start_ms: number; end_ms: number }[];
  colours: string[];
  total_ms: number;
  /** the flash segment: from its start, colours[i] for step_ms each (null/absent: no flashes) */
  flash?: { segment: number; step_ms: number; colours: string[] } | null;
}

/**
 * The screen's colours as the page shows them on the schedule (s, from `leadS`): one per segment,
 * the flash segment's at their steps; `flashes: false` holds the flash segment's first colour (a
 * puppet that follows the once-a-second colours and not the flashes).
 */
export function timelineLight(t: ServerTimeline, leadS = 0, opts: { flashes?: boolean } = {}): LightSequence {
  const f = opts.flashes === false ? null : t.flash;
  const steps = t.colours.flatMap((colour, k) =>
    f && f.segment === k
      ? f.colours.map((c, i) => ({ c, at: (k * t.segment_ms + i * f.step_ms) / 1000 }))
      : [{ c: colour, at: (k * t.segment_ms) / 1000 }],
  );
  return { colours: steps.map((s) => s.c), changes: steps.map((s) => leadS + s.at) };
}

/** How much later than physics the late puppet's light comes (s): the flash check's lag window ends at 0.28 s. */
export const FLASH_LATE_S = 0.3;

/** How long after a window opens the rendered person starts the action (a reaction time), s. */
export const REACTION_S = 0.35;

/**
 * What a genuine signer does for a server timeline: each action a reaction time after its window
 * opens, the words read from just after their window opens, the face lit by each segment's colour
 * (and each flash) from its scheduled start (plus the offset of the recording's start in the video,
 * `leadS`).
 */
export function followTimeline(t: ServerTimeline, leadS = 0) {
  return {
    timeline: { start: 0, slot: 0, starts: t.actions.map((a) => leadS + a.start_ms / 1000 + REACTION_S) },
    speechStartS: leadS + t.words_start_ms / 1000 + 0.25,
    durationS: leadS + t.total_ms / 1000,
    light: timelineLight(t, leadS),
  };
}

// ------------------------------------------------------------------------ challenges

/** The corpus draws with the ceremony's own code (drawContent, drawTimeline) from this fixed seed. */
export const CORPUS_SEED = 'signet-corpus-v2';

export interface CorpusChallenge {
  words: string[];
  actions: Action[];
  timeline: ServerTimeline;
}

/**
 * A challenge drawn as the ceremony draws it, deterministically (`seededDraw(seed, label)`): with 3
 * actions exactly `drawContent`; with another count the same steps (words, actions, timeline).
 */
export function drawChallenge(label: string, actionCount = ACTION_COUNT, seed = CORPUS_SEED): CorpusChallenge {
  const d = seededDraw(seed, label);
  if (actionCount === ACTION_COUNT) {
    const c = drawContent(d);
    return { words: c.words, actions: c.actions, timeline: c.timeline };
  }
  const words = randomWords(WORD_COUNT, d);
  const actions = randomActions(actionCount, d);
  return { words, actions, timeline: drawTimeline(actions, d) };
}

/** The first of the draws `label`, `label#1`, `label#2`, … that `ok` accepts. */
export function findChallenge(label: string, actionCount: number, ok: (c: CorpusChallenge) => boolean): CorpusChallenge {
  for (let k = 0; k < 1000; k++) {
    const c = drawChallenge(k === 0 ? label : `${label}#${k}`, actionCount);
    if (ok(c)) return c;
  }
  throw new Error(`no draw of ${label} fits`);
}

/** A server timeline as the analysis takes it (the capture event's field names). */
export function analysisTimeline(t: ServerTimeline): AnalysisTimeline {
  return {
    segmentMs: t.segment_ms,
    wordsStartMs: t.words_start_ms,
    wordsEndMs: t.words_end_ms,
    actions: t.actions.map((a) => ({ action: a.action, startMs: a.start_ms, endMs: a.end_ms })),
    colours: [...t.colours],
    totalMs: t.total_ms,
    ...(t.flash ? { flash: { segment: t.flash.segment, stepMs: t.flash.step_ms, colours: [...t.flash.colours] } } : {}),
  };
}

/** What the analysis is asked for a case: its actions, and the windows, words and light of its timeline. */
export function caseChallenge(c: CorpusCase['challenge']): AnalyzeInput['challenge'] {
  return { actions: c.actions, ...timedChallenge(analysisTimeline(c.timeline), c.words) };
}

/** Face state at time t for a performed action list (each action in its own slot). */
export function stateAt(
  t: number,
  performed: readonly Action[],
  wobbleSeed: number,
  live = true,
  timeline: Timeline = { start: ACTION_START_S, slot: ACTION_SLOT_S },
): FaceState {
  const s: FaceState = { ...NEUTRAL };
  if (live) {
    // natural micro-motion of a live head
    s.yaw = 1.2 * Math.sin(2 * Math.PI * 0.23 * t + wobbleSeed) + 0.6 * Math.sin(2 * Math.PI * 0.61 * t + 2 * wobbleSeed);
    s.pitch = 0.8 * Math.sin(2 * Math.PI * 0.17 * t + 3 * wobbleSeed);
  }
  performed.forEach((a, k) => {
    const t0 = timeline.starts?.[k] ?? timeline.start + k * timeline.slot;
    switch (a) {
      case 'turn_left':
        s.yaw += 35 * trapezoid(t, t0, 0.45, 0.55);
        break;
      case 'turn_right':
        s.yaw -= 35 * trapezoid(t, t0, 0.45, 0.55);
        break;
      case 'look_up':
        s.pitch += 24 * trapezoid(t, t0, 0.45, 0.55);
        break;
      case 'smile':
        s.smile = Math.max(s.smile, trapezoid(t, t0, 0.35, 0.7));
        break;
      case 'blink':
        s.blink = Math.max(s.blink, Math.min(1, 1.3 * trapezoid(t, t0 + 0.3, 0.12, 0.42)));
        break;
    }
  });
  return s;
}

// ------------------------------------------------------------------------ scenes

interface Actor {
  face: SourceFace;
  placement: Placement;
  rig?: FaceRig;
}

function placementFor(face: SourceFace, frameCenter: [number, number], meshWidth: number): Placement {
  const scale = meshWidth / face.meshWidth;
  return { src: face.image, srcCenter: face.center, scale, frameCenter, radii: [meshWidth * 0.78, meshWidth * 1.0] };
}

interface Scene {
  neutral: RgbImage;
  actors: Actor[];
}

/** Compose a neutral frame: blurred background from `bg`, sharp heads of the actors; detect meshes. */
async function buildScene(m: LoadedModels, bg: Placement | null, actors: Actor[], bgBlur = 14): Promise<Scene> {
  const neutral = bg ? boxBlur(placeFull(bg), bgBlur, 3) : blank();
  for (const a of actors) compositeHead(neutral, a.placement);
  if (actors.length > 0) {
    const t = m.tf.tensor4d(neutral.data, [1, H, W, 3], 'int32');
    const res = await m.human.detect(t as never, { face: { detector: { maxDetected: 3 } } } as never);
    t.dispose();
    for (const a of actors) {
      const [fx, fy] = a.placement.frameCenter;
      const f = res.face.find(
        (r) => Math.abs(r.box[0] + r.box[2] / 2 - fx) < r.box[2] / 2 && Math.abs(r.box[1] + r.box[3] / 2 - fy) < r.box[3] / 2,
      );
      if (!f) throw new Error(`generator: no face detected for ${a.face.id} in its neutral frame`);
      a.rig = makeRig(f.mesh as number[][], f.box[2]);
    }
  }
  return { neutral, actors };
}

// ------------------------------------------------------------------------ encoding

/** The words every corpus case reads (espeak-ng speaks them into the audio track). */
export const CORPUS_WORDS = ['orbit', 'velvet', 'harbor', 'tunnel'];
/** When the reading starts in the corpus videos (seconds). */
export const SPEECH_START_S = 0.4;

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    p.on('error', reject);
    p.on('close', (c) => (c === 0 ? resolve() : reject(new Error(`${cmd} failed (${c}): ${err.trim()}`))));
  });
}

/**
 * The audio track of a capture: quiet room noise for the whole video and, when `words` are given,
 * espeak-ng reading them from SPEECH_START_S (a WAV, 48 kHz mono, `seconds` long).
 */
export async function makeSpeechTrack(
  file: string,
  words: readonly string[] | null,
  seconds: number,
  seed = 1,
  startS = SPEECH_START_S,
): Promise<void> {
  const room = `anoisesrc=d=${seconds}:c=pink:a=0.004:r=48000:seed=${seed}`;
  if (!words) return run(FFMPEG, ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', room, '-ac', '1', file]);
  const speech = `${file}.speech.wav`;
  await run('espeak-ng', ['-s', '150', '-w', speech, words.join(', ')]);
  const ms = Math.round(startS * 1000);
  await run(FFMPEG, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    room,
    '-i',
    speech,
    '-filter_complex',
    `[1]aresample=48000,adelay=${ms}|${ms},apad[s];[0][s]amix=inputs=2:duration=first:normalize=0`,
    '-ac',
    '1',
    file,
  ]);
  const { rm } = await import('node:fs/promises');
  await rm(speech, { force: true });
}

class WebmWriter {
  private p;
  private err = '';
  private done: Promise<void>;
  constructor(file: string, fps = FPS, audio?: string) {
    const audioArgs = audio ? ['-i', audio, '-map', '0:v', '-map', '1:a', '-c:a', 'libopus', '-b:a', '48k', '-shortest'] : [];
    this.p = spawn(
      FFMPEG,
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        '-y',
        ...rawRgbInput(W, H),
        '-r',
        String(fps),
        '-i',
        'pipe:0',
        ...audioArgs,
        '-c:v',
        'libvpx',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-b:v',
        '1200k',
        '-pix_fmt',
        'yuv420p',
        '-auto-alt-ref',
        '0',
        file,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    this.p.stderr.on('data', (b: Buffer) => {
      this.err += b.toString();
    });
    this.done = new Promise((resolve, reject) => {
      this.p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg encode failed (${code}): ${this.err}`))));
      this.p.on('error', reject);
    });
  }
  async write(f: RgbImage): Promise<void> {
    if (!this.p.stdin.write(f.data)) await new Promise<void>((r) => this.p.stdin.once('drain', () => r()));
  }
  async close(): Promise<void> {
    this.p.stdin.end();
    await this.done;
  }
}

// ------------------------------------------------------------------------ derived media (no rendering)

const FF = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];

/** Room noise as the renderer makes it, optionally with a steady tone (Hz) over it, as an ffmpeg lavfi source. */
function roomAudio(seconds: number, toneHz: number | null, seed = 3): string {
  const room = `anoisesrc=d=${seconds}:c=pink:a=0.004:r=48000:seed=${seed}`;
  return toneHz === null
    ? room
    : `sine=frequency=${toneHz}:sample_rate=48000:duration=${seconds},volume=0.25[t];${room}[r];[t][r]amix=inputs=2:normalize=0`;
}

/** The same video with its audio replaced by room noise (`toneHz` null) or a tone over room noise. */
export async function replaceAudio(src: string, dst: string, seconds: number, toneHz: number | null): Promise<void> {
  await run(FFMPEG, [
    ...FF,
    '-i',
    src,
    '-f',
    'lavfi',
    '-i',
    roomAudio(seconds, toneHz),
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c:v',
    'copy',
    '-c:a',
    'libopus',
    '-b:a',
    '48k',
    '-shortest',
    dst,
  ]);
}

/** 160×120 at 150 kb/s: the issue's low-quality capture (the audio kept). */
export async function reencodeSmall(src: string, dst: string): Promise<void> {
  await run(FFMPEG, [
    ...FF,
    '-i',
    src,
    '-vf',
    'scale=160:120',
    '-c:v',
    'libvpx',
    '-b:v',
    '150k',
    '-maxrate',
    '150k',
    '-bufsize',
    '300k',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-c:a',
    'copy',
    dst,
  ]);
}

/** The header-lying MP4 of the issue: the real length and what the header states, seconds. */
export const LYING_MP4 = { realS: 65, statedS: 10 } as const;

/** The video looped to LYING_MP4.realS in an MP4 (H.264 + AAC) whose mvhd/tkhd/mdhd say LYING_MP4.statedS. */
export async function lyingMp4(src: string, dst: string, srcSeconds: number): Promise<void> {
  const long = `${dst}.long.mp4`;
  await run(FFMPEG, [
    ...FF,
    '-stream_loop',
    String(Math.ceil(LYING_MP4.realS / srcSeconds)),
    '-i',
    src,
    '-t',
    String(LYING_MP4.realS),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    long,
  ]);
  writeFileSync(dst, rewriteMp4Duration(readFileSync(long), LYING_MP4.statedS));
  rmSync(long, { force: true });
}

/**
 * A recording played on a monitor and filmed with another camera: slight keystone, the screen's
 * pixel grid beating with the sensor's (moiré), glare, softer focus, a flatter gamma and less
 * saturation, sensor noise; the audio through a speaker (band-limited). `mild`: a better setup —
 * a third of the moiré, no glare, a barely visible keystone, sharper focus, gamma and saturation
 * nearly kept, less noise.
 */
export async function screenRecapture(src: string, dst: string, level: 'strong' | 'mild' = 'strong'): Promise<void> {
  const mild = level === 'mild';
  const pattern = mild
    ? "geq=lum='128+3*sin(2*PI*(0.31*X+0.07*Y))+2*sin(2*PI*(0.05*X-0.29*Y))':cb=128:cr=128"
    : "geq=lum='128+9*sin(2*PI*(0.31*X+0.07*Y))+7*sin(2*PI*(0.05*X-0.29*Y))+70*exp(-(pow(X-470,2)+pow(Y-110,2))/9000)':cb=128:cr=128";
  const keystone = mild
    ? `perspective=x0=5:y0=3:x1=${W - 2}:y1=0:x2=1:y2=${H - 1}:x3=${W - 6}:y3=${H - 4}:sense=destination`
    : `perspective=x0=18:y0=10:x1=${W - 6}:y1=0:x2=4:y2=${H - 4}:x3=${W - 20}:y3=${H - 14}:sense=destination`;
  const look = mild
    ? 'gblur=sigma=0.6,eq=gamma=1.04:contrast=0.96:saturation=0.95'
    : 'gblur=sigma=1.1,eq=gamma=1.15:contrast=0.88:saturation=0.85';
  await run(FFMPEG, [
    ...FF,
    '-i',
    src,
    '-f',
    'lavfi',
    '-i',
    `color=c=gray:s=${W}x${H}:d=1,format=yuv420p,${pattern}`,
    '-filter_complex',
    [
      `[0:v]${keystone},`,
      `${look},format=yuv420p[v];`,
      '[1:v]loop=loop=-1:size=1,format=yuv420p[p];',
      `[v][p]blend=all_mode=grainmerge:shortest=1,noise=alls=${mild ? 3 : 5}:allf=t,format=yuv420p[out];`,
      '[0:a]highpass=f=180,lowpass=f=6000[a]',
    ].join(''),
    '-map',
    '[out]',
    '-map',
    '[a]',
    '-c:v',
    'libvpx',
    '-b:v',
    '1200k',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-c:a',
    'libopus',
    '-b:a',
    '48k',
    dst,
  ]);
}

async function writeImage(file: string, img: RgbImage): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const args = [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...rawRgbInput(img.width, img.height),
      '-i',
      'pipe:0',
      '-frames:v',
      '1',
    ];
    if (file.endsWith('.jpg')) args.push('-q:v', '3');
    const p = spawn(FFMPEG, [...args, file], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    p.on('close', (c) => (c === 0 ? resolve() : reject(new Error(`ffmpeg image write failed: ${err}`))));
    p.stdin.end(img.data);
  });
}

interface VideoSpec {
  /** scene per frame index (allows a swap mid-way) */
  sceneAt: (frame: number) => Scene;
  /** performed actions of the animated actor (index 0 of the scene) */
  performed: readonly Action[];
  live: boolean; // micro-motion
  noise: boolean; // sensor noise + jitter
  seed: number;
  /** words spoken in the audio track; null = room noise only; undefined = no audio track */
  speech?: readonly string[] | null;
  /** default: the 10 s corpus timeline */
  timeline?: Timeline;
  durationS?: number;
  speechStartS?: number;
  /** the page's screen colours on the recording's timeline, reflected by the face (none when absent) */
  light?: LightSequence;
  lightModel?: LightModel;
  /** how the face takes the light (default physics: by its orientation to the screen) */
  lightShading?: LightShading;
}

/**
 * Analyses one corpus case in this process as the service does (its timeline's windows, words and
 * light), reading its files from the corpus folder. The words are checked only when a recogniser is
 * given (e.g. words.ts `verifyWords`, which starts a Python worker the caller must close with
 * `closeSpeech`); without one the words check is not applicable.
 */
export function analyzeCase(
  models: LoadedModels,
  dir: string,
  c: Pick<CorpusCase, 'video' | 'finalFrame' | 'reference' | 'challenge'>,
  deadlineMs: number,
  verify: WordsVerifier | null = null,
  cfg: AnalysisConfig = analysisConfig,
) {
  const read = (f: string) => readFileSync(path.join(dir, f));
  return analyzeCapture(
    models,
    {
      video: read(c.video),
      finalFrame: read(c.finalFrame),
      reference: c.reference ? read(c.reference) : undefined,
      challenge: caseChallenge(c.challenge),
      verifyWords: verify ?? undefined,
      deadlineMs,
    },
    cfg,
  );
}

/** Render and encode one video; returns its last raw frame (for the final-frame image). */
async function renderVideo(file: string, spec: VideoSpec, tris: Int32Array): Promise<RgbImage> {
  const duration = spec.durationS ?? DURATION_S;
  const nFrames = Math.round(FPS * duration);
  let audio: string | undefined;
  if (spec.speech !== undefined) {
    audio = `${file}.audio.wav`;
    await makeSpeechTrack(audio, spec.speech, duration, spec.seed, spec.speechStartS);
  }
  const writer = new WebmWriter(file, FPS, audio);
  const r = rng(spec.seed);
  const noise = spec.noise ? noiseTable(3, spec.seed) : null;
  let dx = 0,
    dy = 0,
    last: RgbImage = blank();
  const lm = spec.lightModel ?? DEFAULT_LIGHT_MODEL;
  const awb = [0, 0, 0]; // the camera white balance's slow estimate of the screen's tint
  for (let i = 0; i < nFrames; i++) {
    const t = i / FPS;
    const scene = spec.sceneAt(i);
    const frame: RgbImage = { width: W, height: H, data: Uint8Array.from(scene.neutral.data) };
    const a0 = scene.actors[0];
    const state = stateAt(t, spec.performed, spec.seed % 7, spec.live, spec.timeline);
    if (a0?.rig) warpFace(frame, scene.neutral, a0.rig, tris, state);
    if (spec.light) {
      const light = screenLightAt(spec.light, t, lm);
      const posed = a0?.rig ? posePoints(a0.rig, state) : null;
      const shade = posed ? shadeMap(posed, tris, W, H, spec.lightShading) : null;
      // the face covers roughly a seventh of the frame: that share of its tint is what white balance sees
      const k = 1 - Math.exp(-1 / FPS / lm.awbS);
      for (let c = 0; c < 3; c++) awb[c] += ((shade ? lm.strength / 7 : lm.background) * light[c] - awb[c]) * k;
      applyScreenLight(
        frame,
        shade,
        light,
        awb.map((a) => 1 / (1 + lm.awb * a)),
        lm,
      );
    }
    if (spec.noise) {
      if (r() < 0.35) dx = Math.max(-3, Math.min(3, dx + (r() < 0.5 ? -1 : 1)));
      if (r() < 0.35) dy = Math.max(-2, Math.min(2, dy + (r() < 0.5 ? -1 : 1)));
    }
    const gain = spec.noise ? 1 + 0.015 * Math.sin(2 * Math.PI * 0.4 * t + spec.seed) : 1;
    last = camera(frame, dx, dy, gain, noise, noise ? Math.floor(r() * 65536) : 0);
    await writer.write(last);
  }
  await writer.close();
  if (audio) {
    const { rm } = await import('node:fs/promises');
    await rm(audio, { force: true });
  }
  return last;
}

// ------------------------------------------------------------------------ cases

function pickPeople(faces: SourceFace[]): SourceFace[] {
  // large, frontal, confident faces with open eyes from the full-resolution face-api photos
  return faces
    .filter(
      (f) =>
        f.photo.id.startsWith('face-api/') &&
        f.score >= 0.95 &&
        Math.abs(f.yawDeg) <= 12 &&
        Math.abs(f.pitchDeg) <= 15 &&
        f.meshWidth >= 160 &&
        meanEar(f.mesh) >= 0.3,
    )
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** People for the corpus: one per photo first (variety), then the rest, in a fixed order. */
function spreadPeople(people: SourceFace[]): SourceFace[] {
  const byPhoto = new Map<string, SourceFace>();
  for (const f of people) if (!byPhoto.has(f.photo.id)) byPhoto.set(f.photo.id, f);
  const first = [...byPhoto.values()];
  return [...first, ...people.filter((f) => !first.includes(f))];
}

/** The reference photo of a person: the same source photo, another framing and scale, brighter, JPEG. */
async function writeReference(face: SourceFace, file: string): Promise<void> {
  await writeImage(file, camera(placeFull(placementFor(face, [W / 2, H / 2], 260)), 0, 0, 1.08, null, 0));
}

/** Seconds of a server timeline. */
const seconds = (t: ServerTimeline) => t.total_ms / 1000;

/** Performed action starts of a capture that follows `t` (what followTimeline renders). */
export function performedStarts(t: ServerTimeline): number[] {
  return t.actions.map((a) => a.start_ms / 1000 + REACTION_S);
}

/**
 * How well a recording that followed `made` happens to fit another challenge `asked`: the
 * challenged actions it performed inside their windows (the analysis's slack), in order, plus the
 * share of segments whose screen colour is the same. Used to pick the draw a fishing attacker would
 * submit an old recording to.
 */
export function structuralFit(made: CorpusChallenge, asked: CorpusChallenge): { actions: number; colours: number } {
  const starts = performedStarts(made.timeline);
  let actions = 0;
  asked.timeline.actions.forEach((w) => {
    const hit = made.actions.some(
      (a, k) => a === w.action && starts[k] >= w.start_ms / 1000 - 0.25 && starts[k] <= w.end_ms / 1000 + 0.6,
    );
    if (hit) actions++;
  });
  const n = Math.min(made.timeline.colours.length, asked.timeline.colours.length);
  let same = 0;
  for (let k = 0; k < n; k++) if (made.timeline.colours[k] === asked.timeline.colours[k]) same++;
  return { actions, colours: same / Math.max(1, asked.timeline.colours.length) };
}

export interface CorpusOptions {
  models?: LoadedModels;
  log?: (s: string) => void;
  /** called as soon as each case's files are written (a test can submit it while the rest renders) */
  onCase?: (c: CorpusCase) => Promise<void> | void;
  /**
   * The longest timeline each rendered case may have, ms (3-action, 2-action): each case takes the
   * first of its draws (`name`, `name#1`, …) no longer than this. The analysis costs per second of
   * video, so the test corpus takes the shorter draws; Infinity takes every first draw as it comes.
   */
  maxTotalMs?: { three: number; two: number };
}

/** Where a single face stands in the corpus's scenes (frame px). */
const SCENE_CENTER: [number, number] = [W / 2, H / 2 - 10];

/** The corpus's scenes: each person alone, A elsewhere, A beside B, and nobody in view. */
interface CorpusScenes {
  A: Scene;
  B: Scene;
  C: Scene;
  D: Scene;
  /** A at another place and size in front of D's background (another final frame of A) */
  Aother: Scene;
  /** A and B side by side */
  two: Scene;
  /** C's background, nobody in view */
  none: Scene;
}

/** What every part of one corpus run shares: made once, by startCorpus. */
interface CorpusRun {
  outDir: string;
  log: (s: string) => void;
  onCase?: CorpusOptions['onCase'];
  /** persons A, B, C, D */
  people: SourceFace[];
  scenes: CorpusScenes;
  /** the reference photos' file names */
  refs: { A: string; B: string; C: string };
  tris: Int32Array;
  maxMs: NonNullable<CorpusOptions['maxTotalMs']>;
  /** the cases made so far, in the order they were made */
  cases: CorpusCase[];
}

/** A scene of `face` alone (optionally elsewhere, at another size, in front of another face's background). */
async function singleScene(
  m: LoadedModels,
  face: SourceFace,
  opts: { fc?: [number, number]; width?: number; bgFace?: SourceFace } = {},
): Promise<Scene> {
  const p = placementFor(face, opts.fc ?? SCENE_CENTER, opts.width ?? FACE_WIDTH);
  const bg = opts.bgFace ? placementFor(opts.bgFace, opts.fc ?? SCENE_CENTER, opts.width ?? FACE_WIDTH) : p;
  return buildScene(m, bg, [{ face, placement: p }]);
}

/** The corpus's scenes of persons A, B, C and D (each detects its faces' meshes once). */
async function corpusScenes(m: LoadedModels, [A, B, C, D]: SourceFace[]): Promise<CorpusScenes> {
  const sA = await singleScene(m, A),
    sB = await singleScene(m, B),
    sC = await singleScene(m, C),
    sD = await singleScene(m, D);
  const Aother = await singleScene(m, A, { fc: [250, 250], width: 180, bgFace: D });
  const pA2 = placementFor(A, [200, 230], 150),
    pB2 = placementFor(B, [450, 230], 150);
  const two = await buildScene(m, pA2, [
    { face: A, placement: pA2 },
    { face: B, placement: pB2 },
  ]);
  const none = await buildScene(m, placementFor(C, SCENE_CENTER, FACE_WIDTH), [], 30);
  return { A: sA, B: sB, C: sC, D: sD, Aother, two, none };
}

/** A corpus run: the models, the four people, their scenes and the reference photos of A, B and C. */
async function startCorpus(outDir: string, opts: CorpusOptions): Promise<CorpusRun> {
  const log = opts.log ?? (() => undefined);
  mkdirSync(outDir, { recursive: true });
  const m = opts.models ?? (await loadModels({ supportingModels: false }));
  const faces = await findSourceFaces(m);
  const people = pickPeople(faces);
  if (people.length < 4) throw new Error(`generator needs 4 usable package faces, found ${people.length}`);
  const chosen = spreadPeople(people).slice(0, 4);
  log(`people: ${chosen.map((f) => f.id).join(', ')}`);
  const tris = rigTriangles(m.human.faceTriangulation);
  const scenes = await corpusScenes(m, chosen);
  const refs = { A: 'ref_A.jpg', B: 'ref_B.jpg', C: 'ref_C.jpg' };
  await writeReference(chosen[0], path.join(outDir, refs.A));
  await writeReference(chosen[1], path.join(outDir, refs.B));
  await writeReference(chosen[2], path.join(outDir, refs.C));
  const maxMs = opts.maxTotalMs ?? { three: 15_000, two: 12_000 };
  return { outDir, log, onCase: opts.onCase, people: chosen, scenes, refs, tris, maxMs, cases: [] };
}

/** A case's challenge: the first of its draws (`label`, `label#1`, …) within the run's length that `ok` accepts. */
function drawFor(ctx: CorpusRun, label: string, n = 3, ok: (c: CorpusChallenge) => boolean = () => true) {
  return findChallenge(label, n, (c) => c.timeline.total_ms <= (n === 3 ? ctx.maxMs.three : ctx.maxMs.two) && ok(c));
}

const outFile = (ctx: CorpusRun, f: string) => path.join(ctx.outDir, f);

async function pushCase(ctx: CorpusRun, c: CorpusCase, tc: number): Promise<void> {
  ctx.cases.push(c);
  ctx.log(`${c.name}: ${((performance.now() - tc) / 1000).toFixed(1)} s`);
  await ctx.onCase?.(c);
}

/** Render a case's video (and its final frame, unless one is given). */
async function addCase(
  ctx: CorpusRun,
  c: Omit<CorpusCase, 'video' | 'finalFrame'> & { finalFrame?: string },
  spec: VideoSpec,
  finalFrom?: RgbImage,
): Promise<CorpusCase> {
  const tc = performance.now();
  const last = await renderVideo(outFile(ctx, `${c.name}.webm`), spec, ctx.tris);
  const finalFrame = c.finalFrame ?? `${c.name}.final.jpg`;
  if (!c.finalFrame) await writeImage(outFile(ctx, finalFrame), finalFrom ?? last);
  const out: CorpusCase = { ...c, video: `${c.name}.webm`, finalFrame };
  await pushCase(ctx, out, tc);
  return out;
}

/** A case made from another case's media without rendering (ffmpeg, or the same files). */
async function deriveCase(ctx: CorpusRun, c: CorpusCase, make?: () => Promise<void>): Promise<void> {
  const tc = performance.now();
  await make?.();
  await pushCase(ctx, c, tc);
}

/** A genuine capture of a challenge: the scene's person follows its timeline (actions, words, light). */
function genuineSpec(scene: Scene, ch: CorpusChallenge, seed: number): VideoSpec {
  return {
    sceneAt: () => scene,
    performed: ch.actions,
    live: true,
    noise: true,
    seed,
    speech: ch.words,
    ...followTimeline(ch.timeline),
  };
}

function challengeOf(ch: CorpusChallenge): CorpusCase['challenge'] {
  return { words: ch.words, actions: ch.actions, timeline: ch.timeline, mode: 'upload' };
}

/** Checks a genuine recording of one challenge fails when submitted for another. */
function otherChallengeFails(made: CorpusChallenge, asked: CorpusChallenge): string[] {
  return ['words', 'light', ...(structuralFit(made, asked).actions < asked.actions.length ? ['sequence'] : [])];
}

/** A rendered case and the challenge it was rendered for. */
interface Rendered {
  case: CorpusCase;
  ch: CorpusChallenge;
}

/**
 * Renders the corpus into `outDir`, case by case in a fixed order (each part below renders one family
 * of cases; `onCase` hears of each case as soon as its files are written), and writes manifest.json.
 */
export async function makeCorpus(outDir: string, opts: CorpusOptions = {}): Promise<Manifest> {
  const t0 = performance.now();
  const ctx = await startCorpus(outDir, opts);
  await attacksOnGenuineA(ctx, await genuineA(ctx));
  const earlier = await replaysOfAnEarlierRecording(ctx);
  await lightPuppets(ctx);
  const fishing = await redrawFishing(ctx, earlier);
  await personB(ctx);
  await universalVideo(ctx);
  await actedAttacks(ctx);
  await presentationAttacks(ctx);
  const manifest: Manifest = {
    generatedAt: new Date().toISOString(),
    generator: 'corpus/make-corpus.ts',
    fps: FPS,
    width: W,
    height: H,
    durationS: Math.max(...ctx.cases.map((c) => seconds(c.challenge.timeline))),
    sources: ctx.people.map((f, k) => ({
      person: 'ABCD'[k],
      faceId: f.id,
      file: path.relative(process.cwd(), f.photo.file),
      package: f.photo.packageName,
    })),
    cases: ctx.cases,
    redrawFishing: fishing,
    generationMs: Math.round(performance.now() - t0),
  };
  writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** genuine_a: a genuine capture of the ceremony's draw, followed (actions in their windows, words in theirs, light). */
async function genuineA(ctx: CorpusRun): Promise<Rendered> {
  const chA = drawFor(ctx, 'genuine_a');
  const c = await addCase(
    ctx,
    {
      name: 'genuine_a',
      description:
        'person A follows the timeline: actions in their windows, the words read in theirs, the face lit by the screen',
      reference: ctx.refs.A,
      challenge: challengeOf(chA),
      expected: 'PASS',
      expectedFailedChecks: [],
      attack: null,
    },
    genuineSpec(ctx.scenes.A, chA, 11),
  );
  return { case: c, ch: chA };
}

/** The cheap attacks made from genuine_a's files: another final frame, its audio replaced, its media degraded. */
async function attacksOnGenuineA(ctx: CorpusRun, { case: genuine, ch: chA }: Rendered): Promise<void> {
  const file = (f: string) => outFile(ctx, f);
  await deriveCase(
    ctx,
    {
      ...genuine,
      name: 'final_frame_other',
      description: 'genuine video of A, but the final frame is a photo of A from another scene',
      finalFrame: 'final_frame_other.final.jpg',
      expected: 'FAIL',
      expectedFailedChecks: ['final_frame_match'],
    },
    () => writeImage(file('final_frame_other.final.jpg'), camera(ctx.scenes.Aother.neutral, 0, 0, 1, noiseTable(3, 18), 0)),
  );
  await deriveCase(
    ctx,
    {
      ...genuine,
      name: 'silent_reading',
      description: 'genuine video of A, but the words are never read (the audio is room noise only)',
      video: 'silent_reading.webm',
      expected: 'FAIL',
      expectedFailedChecks: ['voice_activity', 'words'],
    },
    () => replaceAudio(file(genuine.video), file('silent_reading.webm'), seconds(chA.timeline), null),
  );
  await deriveCase(
    ctx,
    {
      ...genuine,
      name: 'tone',
      description: 'genuine video of A whose audio is a 170 Hz tone instead of the words',
      video: 'tone.webm',
      expected: 'FAIL',
      expectedFailedChecks: ['words'],
      attack: 'tone instead of the words',
    },
    () => replaceAudio(file(genuine.video), file('tone.webm'), seconds(chA.timeline), 170),
  );
  await deriveCase(
    ctx,
    {
      ...genuine,
      name: 'low_quality',
      description: 'genuine video of A re-encoded at 160×120, 150 kb/s',
      video: 'low_quality.webm',
      expected: 'FAIL',
      expectedFailedChecks: ['media'],
      attack: 'low quality',
      ceremonyRefuses: '400 VIDEO_RESOLUTION_TOO_LOW (test/e2e/capture-media.test.ts)',
    },
    () => reencodeSmall(file(genuine.video), file('low_quality.webm')),
  );
  await deriveCase(
    ctx,
    {
      ...genuine,
      name: 'header_lying_mp4',
      description: `genuine video of A looped to ${LYING_MP4.realS} s in an MP4 whose header says ${LYING_MP4.statedS} s`,
      video: 'header_lying_mp4.mp4',
      expected: 'FAIL',
      expectedFailedChecks: ['media'],
      attack: 'header-lying MP4',
      ceremonyRefuses: '400 VIDEO_DURATION_MISMATCH (test/e2e/capture-media.test.ts)',
    },
    () => lyingMp4(file(genuine.video), file('header_lying_mp4.mp4'), seconds(chA.timeline)),
  );
}

/** An earlier genuine recording of the victim (A) for another challenge, replayed as it is and filmed off a screen. */
async function replaysOfAnEarlierRecording(ctx: CorpusRun): Promise<Rendered> {
  const chX = drawFor(ctx, 'genuine_a_earlier');
  const earlier = await addCase(
    ctx,
    {
      name: 'genuine_a_earlier',
      description: 'person A follows another challenge (the recording the replay attacks reuse)',
      reference: ctx.refs.A,
      challenge: challengeOf(chX),
      expected: 'PASS',
      expectedFailedChecks: [],
      attack: null,
    },
    genuineSpec(ctx.scenes.A, chX, 31),
  );
  const chReplay = drawChallenge('replay_across_challenges');
  await deriveCase(ctx, {
    ...earlier,
    name: 'replay_across_challenges',
    description: "A's genuine recording for another challenge, submitted for this one",
    challenge: challengeOf(chReplay),
    expected: 'FAIL',
    expectedFailedChecks: otherChallengeFails(chX, chReplay),
    attack: 'replay across challenges',
  });
  const chScreen = drawChallenge('screen_recapture');
  await deriveCase(
    ctx,
    {
      ...earlier,
      name: 'screen_recapture',
      description:
        "A's genuine recording for another challenge played on a screen and filmed (blur, moiré, gamma, keystone, glare, noise), submitted for this one",
      video: 'screen_recapture.webm',
      challenge: challengeOf(chScreen),
      expected: 'FAIL',
      expectedFailedChecks: otherChallengeFails(chX, chScreen),
      attack: 'screen recapture',
    },
    () => screenRecapture(outFile(ctx, earlier.video), outFile(ctx, 'screen_recapture.webm')),
  );
  return { case: earlier, ch: chX };
}

/**
 * Issue 30's puppets of A that follow their challenge's timeline (actions, words, colours) but not
 * the light as a face takes it: a uniform tint of each revealed colour, the same puppet played on a
 * screen and filmed mildly, one holding the flash segment's first colour through its flashes, and
 * one following everything, flashes included, 300 ms later than the screen's light reaches a real
 * face (a puppet rendered after each reveal: the light check alone allows a lag up to 0.6 s).
 */
async function lightPuppets(ctx: CorpusRun): Promise<void> {
  const chTint = drawFor(ctx, 'uniform_tint');
  const uniform = await addCase(
    ctx,
    {
      name: 'uniform_tint',
      description:
        "a puppet of A made from one photo that follows this challenge's timeline (actions, words, colours) and tints the whole face uniformly in each revealed colour",
      reference: ctx.refs.A,
      challenge: challengeOf(chTint),
      expected: 'FAIL',
      expectedFailedChecks: ['light'],
      attack: 'uniform tint puppet',
    },
    { ...genuineSpec(ctx.scenes.A, chTint, 41), lightShading: 'uniform' },
  );
  await deriveCase(
    ctx,
    {
      ...uniform,
      name: 'mild_recapture',
      description:
        'the uniform-tint puppet played on a screen and filmed mildly (less blur, moiré and keystone than screen_recapture, no glare), submitted for its own challenge',
      video: 'mild_recapture.webm',
      attack: 'mild screen recapture',
    },
    () => screenRecapture(outFile(ctx, uniform.video), outFile(ctx, 'mild_recapture.webm'), 'mild'),
  );
  const chIgnore = drawFor(ctx, 'flash_ignored');
  await addCase(
    ctx,
    {
      name: 'flash_ignored',
      description:
        "a puppet of A that follows this challenge's timeline and its once-a-second colours, shaded as physics gives it, but not the short flashes (it holds the flash segment's first colour)",
      reference: ctx.refs.A,
      challenge: challengeOf(chIgnore),
      expected: 'FAIL',
      expectedFailedChecks: ['light'],
      attack: 'puppet ignoring the flashes',
    },
    { ...genuineSpec(ctx.scenes.A, chIgnore, 43), light: timelineLight(chIgnore.timeline, 0, { flashes: false }) },
  );
  const chLate = drawFor(ctx, 'flash_late');
  await addCase(
    ctx,
    {
      name: 'flash_late',
      description:
        "a puppet of A that follows this challenge's timeline, colours and flashes, shaded as physics gives it, but 300 ms later than the screen's light reaches a face",
      reference: ctx.refs.A,
      challenge: challengeOf(chLate),
      expected: 'FAIL',
      expectedFailedChecks: ['light'],
      attack: 'puppet 300 ms late',
    },
    {
      ...genuineSpec(ctx.scenes.A, chLate, 44),
      lightModel: { ...DEFAULT_LIGHT_MODEL, lagS: DEFAULT_LIGHT_MODEL.lagS + FLASH_LATE_S },
    },
  );
}

/**
 * Redraw fishing with the earlier recording: the draw limit gives 3 draws per attempt, 3 attempts;
 * the attacker submits the draw that fits best. Returns the manifest's account of the 9 draws.
 */
async function redrawFishing(ctx: CorpusRun, { case: earlier, ch: chX }: Rendered): Promise<Manifest['redrawFishing']> {
  const fishing = [1, 2, 3].flatMap((a) => [1, 2, 3].map((d) => drawChallenge(`redraw_fishing/attempt${a}/draw${d}`)));
  const fits = fishing.map((ch) => structuralFit(chX, ch));
  const best = fits.reduce((b, f, k) => (f.actions + f.colours > fits[b].actions + fits[b].colours ? k : b), 0);
  await deriveCase(ctx, {
    ...earlier,
    name: 'redraw_fishing',
    description: `A's old genuine recording against 9 fresh draws (3 attempts × 3 draws); submitted for the best-fitting one (draw ${best + 1}: ${fits[best].actions}/3 actions in their windows, ${(fits[best].colours * 100).toFixed(0)} % of the colours)`,
    challenge: challengeOf(fishing[best]),
    expected: 'FAIL',
    expectedFailedChecks: otherChallengeFails(chX, fishing[best]),
    attack: 'redraw fishing',
  });
  return {
    recording: earlier.name,
    draws: fishing.map((ch, k) => ({
      label: `attempt ${Math.floor(k / 3) + 1}, draw ${(k % 3) + 1}`,
      challenge: challengeOf(ch),
      fit: fits[k],
    })),
    submitted: best,
  };
}

/** Person B's genuine capture, and B's video with another person's reference. */
async function personB(ctx: CorpusRun): Promise<void> {
  const chB = drawFor(ctx, 'genuine_b');
  const genuineB = await addCase(
    ctx,
    {
      name: 'genuine_b',
      description: 'person B follows the timeline; reference of B',
      reference: ctx.refs.B,
      challenge: challengeOf(chB),
      expected: 'PASS',
      expectedFailedChecks: [],
      attack: null,
    },
    genuineSpec(ctx.scenes.B, chB, 12),
  );
  await deriveCase(ctx, {
    ...genuineB,
    name: 'reference_other',
    description: 'genuine video of B, but the reference photo is of C',
    reference: ctx.refs.C,
    expected: 'FAIL',
    expectedFailedChecks: ['reference_match'],
  });
}

/** One pre-recorded video for any challenge: all five actions in turn, unrelated words, no screen light. */
async function universalVideo(ctx: CorpusRun): Promise<void> {
  const chU = drawFor(ctx, 'universal_video');
  const cycle: Action[] = ['turn_left', 'turn_right', 'blink', 'smile', 'look_up'];
  const uStarts: number[] = [];
  for (let t = 1; t < seconds(chU.timeline) - 1; t += UNIVERSAL_PERIOD_S) uStarts.push(t);
  await addCase(
    ctx,
    {
      name: 'universal_video',
      description: `one pre-recorded video for any challenge: A performs all five actions in turn, one every ${UNIVERSAL_PERIOD_S} s, and reads unrelated words; no screen light`,
      reference: ctx.refs.A,
      challenge: challengeOf(chU),
      expected: 'FAIL',
      expectedFailedChecks: ['sequence', 'light', 'words'],
      attack: 'universal video',
    },
    {
      sceneAt: () => ctx.scenes.A,
      performed: uStarts.map((_, k) => cycle[k % cycle.length]),
      live: true,
      noise: true,
      seed: 40,
      speech: CORPUS_WORDS,
      speechStartS: 1.25,
      timeline: { start: 0, slot: 0, starts: uStarts },
      durationS: seconds(chU.timeline),
    },
  );
}

/** A follows the timeline, but not alone or not as asked: another person does the actions, the wrong order, a swap, two faces. */
async function actedAttacks(ctx: CorpusRun): Promise<void> {
  const { A: sA, D: sD, two: sTwo } = ctx.scenes;
  // a head action in the challenge, so that the other person is seen turned or looking up
  const chO = drawFor(ctx, 'other_person_actions', 2, (c) => c.actions.some((a) => a !== 'blink' && a !== 'smile'));
  const windows = chO.timeline.actions.map((a) => [a.start_ms / 1000, a.end_ms / 1000 + 0.5] as const);
  await addCase(
    ctx,
    {
      name: 'other_person_actions',
      description: 'person A at neutral and reading the words, person D in view during the action windows',
      reference: ctx.refs.A,
      challenge: challengeOf(chO),
      expected: 'FAIL',
      expectedFailedChecks: ['identity_consistency'],
      attack: 'other person during the actions',
    },
    {
      ...genuineSpec(sA, chO, 41),
      sceneAt: (i) => (windows.some(([a, b]) => i / FPS >= a && i / FPS < b) ? sD : sA),
    },
  );
  const chW = drawFor(ctx, 'wrong_order', 2);
  await addCase(
    ctx,
    {
      name: 'wrong_order',
      description: 'person A performs the two actions in the reverse order, each in the other one’s window',
      reference: ctx.refs.A,
      challenge: challengeOf(chW),
      expected: 'FAIL',
      expectedFailedChecks: ['sequence'],
      attack: null,
    },
    { ...genuineSpec(sA, chW, 13), performed: [...chW.actions].reverse() },
  );
  const chS = drawFor(ctx, 'face_swap', 2);
  const half = Math.round((FPS * seconds(chS.timeline)) / 2);
  await addCase(
    ctx,
    {
      name: 'face_swap',
      description: 'person A for the first half, person D for the second half, actions in their windows',
      reference: ctx.refs.A,
      challenge: challengeOf(chS),
      expected: 'FAIL',
      expectedFailedChecks: ['identity_consistency'],
      attack: null,
    },
    { ...genuineSpec(sA, chS, 16), sceneAt: (i) => (i < half ? sA : sD) },
  );
  const chT = drawFor(ctx, 'two_faces', 2);
  await addCase(
    ctx,
    {
      name: 'two_faces',
      description: 'person A follows the timeline while person B stands beside',
      reference: ctx.refs.A,
      challenge: challengeOf(chT),
      expected: 'FAIL',
      expectedFailedChecks: ['single_face'],
      attack: null,
    },
    genuineSpec(sTwo, chT, 19),
  );
}

/** Nobody live in front of the camera: a printed photo, one frozen frame, and nobody at all. */
async function presentationAttacks(ctx: CorpusRun): Promise<void> {
  const { C: sC, none: sNone } = ctx.scenes;
  const chP = drawFor(ctx, 'still_photo', 2);
  await addCase(
    ctx,
    {
      name: 'still_photo',
      description:
        'a printed photo of C held to the camera (sensor noise, hand jitter, lit by the screen: the flat sheet takes the light alike everywhere), the words played',
      reference: ctx.refs.C,
      challenge: challengeOf(chP),
      expected: 'FAIL',
      expectedFailedChecks: ['liveness_motion', 'sequence'],
      attack: null,
    },
    { ...genuineSpec(sC, chP, 14), performed: [], live: false, lightShading: 'uniform' },
  );
  const chF = drawFor(ctx, 'frozen_replay', 2);
  await addCase(
    ctx,
    {
      name: 'frozen_replay',
      description: 'one image of C repeated (virtual camera): identical frames, no noise, no light, no audio track',
      reference: ctx.refs.C,
      challenge: challengeOf(chF),
      expected: 'FAIL',
      expectedFailedChecks: ['liveness_motion', 'sequence', 'sensor_noise', 'voice_activity', 'light'],
      attack: null,
    },
    { sceneAt: () => sC, performed: [], live: false, noise: false, seed: 15, durationS: seconds(chF.timeline) },
  );
  const chN = drawFor(ctx, 'no_face', 2);
  await addCase(
    ctx,
    {
      name: 'no_face',
      description: 'background only, nobody in view, room noise',
      reference: ctx.refs.A,
      challenge: challengeOf(chN),
      expected: 'FAIL',
      expectedFailedChecks: ['face_present'],
      attack: null,
    },
    { sceneAt: () => sNone, performed: [], live: false, noise: true, seed: 20, speech: null, durationS: seconds(chN.timeline) },
  );
}

/**
 * Genuine captures for the evaluation's accept rate: `count` captures, person k % people (every
 * usable package face, one per photo first), each for its own draw as the ceremony draws it
 * (`genuine-set/k`, lengths as they come), with the person's reference photo.
 */
export async function makeGenuineSet(
  outDir: string,
  count: number,
  opts: {
    models?: LoadedModels;
    log?: (s: string) => void;
    people?: number;
    onCase?: (c: CorpusCase) => Promise<void> | void;
    /** render only these captures (their k in 0…count−1); the others are skipped, not renumbered */
    only?: readonly number[];
    /** how the face takes the screen's light (default physics); `uniform` makes the uniform-tint
     *  puppet of each draw instead (named uniform_tint_…, expected to fail the light check) */
    lightShading?: LightShading;
    /** a puppet of each draw instead that follows the once-a-second colours but not the short
     *  flashes (`ignored`: flash_ignored_…), or everything FLASH_LATE_S late (`late`: flash_late_…) */
    flashPuppet?: 'ignored' | 'late';
  } = {},
): Promise<{ cases: CorpusCase[]; people: string[] }> {
  const log = opts.log ?? (() => undefined);
  mkdirSync(outDir, { recursive: true });
  const m = opts.models ?? (await loadModels({ supportingModels: false }));
  const people = spreadPeople(pickPeople(await findSourceFaces(m))).slice(0, opts.people ?? 8);
  const tris = rigTriangles(m.human.faceTriangulation);
  const scenes = new Map<string, Scene>();
  const cases: CorpusCase[] = [];
  for (let k = 0; k < count; k++) {
    if (opts.only && !opts.only.includes(k)) continue;
    const face = people[k % people.length];
    const tag = `p${k % people.length}`;
    if (!scenes.has(face.id)) {
      const p = placementFor(face, [W / 2, H / 2 - 10], FACE_WIDTH);
      scenes.set(face.id, await buildScene(m, p, [{ face, placement: p }]));
      await writeReference(face, path.join(outDir, `ref_${tag}.jpg`));
    }
    const ch = drawChallenge(`genuine-set/${k}`);
    const tint = opts.lightShading === 'uniform';
    const puppet = opts.flashPuppet;
    const kind = tint ? 'uniform_tint' : puppet ? `flash_${puppet}` : 'genuine';
    const name = `${kind}_${String(k).padStart(2, '0')}_${tag}`;
    const tc = performance.now();
    const last = await renderVideo(
      path.join(outDir, `${name}.webm`),
      {
        sceneAt: () => scenes.get(face.id)!,
        performed: ch.actions,
        live: true,
        noise: true,
        seed: 100 + k,
        speech: ch.words,
        ...followTimeline(ch.timeline),
        lightShading: opts.lightShading,
        ...(puppet === 'ignored' ? { light: timelineLight(ch.timeline, 0, { flashes: false }) } : {}),
        ...(puppet === 'late' ? { lightModel: { ...DEFAULT_LIGHT_MODEL, lagS: DEFAULT_LIGHT_MODEL.lagS + FLASH_LATE_S } } : {}),
      },
      tris,
    );
    await writeImage(path.join(outDir, `${name}.final.jpg`), last);
    const c: CorpusCase = {
      name,
      description: `${face.id} follows the draw genuine-set/${k}${tint ? ', the face tinted uniformly' : ''}${puppet === 'ignored' ? ', not the flashes' : puppet === 'late' ? `, its light ${FLASH_LATE_S * 1000} ms late` : ''}`,
      video: `${name}.webm`,
      finalFrame: `${name}.final.jpg`,
      reference: `ref_${tag}.jpg`,
      challenge: { words: ch.words, actions: ch.actions, timeline: ch.timeline, mode: 'upload' },
      expected: tint || puppet ? 'FAIL' : 'PASS',
      expectedFailedChecks: tint || puppet ? ['light'] : [],
      attack: tint
        ? 'uniform tint puppet'
        : puppet === 'ignored'
          ? 'puppet ignoring the flashes'
          : puppet === 'late'
            ? 'puppet 300 ms late'
            : null,
    };
    cases.push(c);
    log(`${name}: ${(ch.timeline.total_ms / 1000).toFixed(0)} s timeline, ${((performance.now() - tc) / 1000).toFixed(1)} s`);
    await opts.onCase?.(c);
  }
  return { cases, people: people.map((f) => f.id) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? 'corpus/out');
  const man = await makeCorpus(out, { log: (s) => console.log(s) });
  console.log(`corpus: ${man.cases.length} cases in ${out}, ${(man.generationMs / 1000).toFixed(1)} s`);
}

/**
 * One genuine capture for a challenge issued at test time: a person from the package photos
 * performs exactly `actions`; with the matching reference photo. Used by end-to-end tests, where
 * the ceremony picks the actions at random.
 */
export async function makeGenuineCapture(
  outDir: string,
  actions: readonly Action[] | null,
  opts: {
    models?: LoadedModels;
    seed?: number;
    words?: readonly string[];
    /** screen colours on the recording's timeline, reflected by the face (default: the server
     *  timeline's, if any; null: no light, even on a server timeline) */
    light?: LightSequence | null;
    /** how the face takes that light (default physics; uniform: a puppet's tint) */
    lightShading?: LightShading;
    /** the challenge's server timeline: actions in their windows, words and light on its schedule */
    serverTimeline?: ServerTimeline;
  } = {},
): Promise<{ video?: string; finalFrame?: string; reference: string }> {
  mkdirSync(outDir, { recursive: true });
  const m = opts.models ?? (await loadModels({ supportingModels: false }));
  const people = pickPeople(await findSourceFaces(m));
  const face = people[0];
  if (!face) throw new Error('no usable face in the package photos');
  const reference = path.join(outDir, 'reference.jpg');
  await writeImage(reference, camera(placeFull(placementFor(face, [W / 2, H / 2], 260)), 0, 0, 1.08, null, 0));
  if (!actions) return { reference };
  const tris = rigTriangles(m.human.faceTriangulation);
  const p = placementFor(face, [W / 2, H / 2 - 10], FACE_WIDTH);
  const scene = await buildScene(m, p, [{ face, placement: p }]);
  const video = path.join(outDir, 'capture.webm');
  const last = await renderVideo(
    video,
    {
      sceneAt: () => scene,
      performed: actions,
      live: true,
      noise: true,
      seed: opts.seed ?? 21,
      speech: opts.words ?? CORPUS_WORDS,
      lightShading: opts.lightShading,
      ...(opts.serverTimeline ? followTimeline(opts.serverTimeline) : {}),
      ...(opts.light !== undefined ? { light: opts.light ?? undefined } : {}),
    },
    tris,
  );
  const finalFrame = path.join(outDir, 'capture.final.jpg');
  await writeImage(finalFrame, last);
  return { video, finalFrame, reference };
}

/** A corpus WebM as Chromium's fake camera wants it: Y4M, 4:2:0 (about 460 KB a 640×480 frame). */
export async function webmToY4m(webm: string, y4m: string): Promise<string> {
  await run(FFMPEG, ['-hide_banner', '-v', 'error', '-y', '-i', webm, '-an', '-pix_fmt', 'yuv420p', '-f', 'yuv4mpegpipe', y4m]);
  return y4m;
}

/** The audio track of a corpus WebM as a 16-bit WAV for Chromium's fake microphone. */
export async function webmToWav(webm: string, wav: string): Promise<string> {
  await run(FFMPEG, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-i',
    webm,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '48000',
    '-c:a',
    'pcm_s16le',
    wav,
  ]);
  return wav;
}

export interface FeedTimeline {
  actions: readonly Action[];
  words: readonly string[];
  leadS: number;
  seed?: number;
  /** the challenge's timeline (the live page reveals it segment by segment); the feed follows it
   *  from `leadS` + `offsetS` (the time from the camera opening to the recording's start) */
  serverTimeline: ServerTimeline;
  offsetS?: number;
}

/**
 * A fake-camera feed for the signing page in Chromium: person A performs `actions` on the page's
 * own timeline (the words read aloud during the first `readS` seconds of the recording, then one
 * action per `actionS` seconds), starting `leadS` seconds after the camera opens — the time the
 * test waits before pressing "Start". Written as WebM, then Y4M + WAV for Chromium.
 *
 * Two steps, so a test can do the slow part (models, faces, the scene and the reference photo)
 * before it asks for a challenge, and only render once it knows the actions.
 */
export async function prepareCameraFeed(
  outDir: string,
  opts: { models?: LoadedModels } = {},
): Promise<{ reference: string; render: (p: FeedTimeline) => Promise<{ webm: string; y4m: string; wav: string }> }> {
  mkdirSync(outDir, { recursive: true });
  const m = opts.models ?? (await loadModels({ supportingModels: false }));
  const face = pickPeople(await findSourceFaces(m))[0];
  if (!face) throw new Error('no usable face in the package photos');
  const reference = path.join(outDir, 'reference.jpg');
  await writeImage(reference, camera(placeFull(placementFor(face, [W / 2, H / 2], 260)), 0, 0, 1.08, null, 0));
  const tris = rigTriangles(m.human.faceTriangulation);
  const pl = placementFor(face, [W / 2, H / 2 - 10], FACE_WIDTH);
  const scene = await buildScene(m, pl, [{ face, placement: pl }]);
  const render = async (p: FeedTimeline) => {
    const webm = path.join(outDir, 'feed.webm');
    await renderVideo(
      webm,
      {
        sceneAt: () => scene,
        performed: p.actions,
        live: true,
        noise: true,
        seed: p.seed ?? 23,
        speech: p.words,
        ...followTimeline(p.serverTimeline, p.leadS + (p.offsetS ?? 0)),
        // 3 s more covers a late start and the page's final flush
        durationS: p.leadS + (p.offsetS ?? 0) + p.serverTimeline.total_ms / 1000 + 3,
      },
      tris,
    );
    const [y4m, wav] = await Promise.all([
      webmToY4m(webm, path.join(outDir, 'feed.y4m')),
      webmToWav(webm, path.join(outDir, 'feed.wav')),
    ]);
    return { webm, y4m, wav };
  };
  return { reference, render };
}
