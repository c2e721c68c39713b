/**
 * Corpus generator: renders synthetic 640×480, ~10 s WebM (VP8) ceremony videos from face photos
 * shipped in installed npm packages, plus final frames, reference photos and a manifest.
 *
 *   npx tsx corpus/make-corpus.ts [outDir]      (default: corpus/out)
 *
 * Deterministic (seeded). Generated media must not be committed; tests regenerate it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeCapture } from '../../src/analysis/analyze.js';
import type { Action } from '../../src/analysis/config.js';
import { IDX, meanEar } from '../../src/analysis/geometry.js';
import { FFMPEG, rawRgbInput, type RgbImage } from '../../src/analysis/media.js';
import { loadModels, type LoadedModels } from '../../src/analysis/models.js';
import { findSourceFaces, type SourceFace } from './faces.js';
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
  warpFace,
  type FaceRig,
  type FaceState,
  type LightModel,
  type LightSequence,
  type Placement,
} from './render.js';

export const FPS = 15;
export const DURATION_S = 10;
const FACE_WIDTH = 200; // mesh width in frame px for a single-face scene

export interface CorpusCase {
  name: string;
  description: string;
  video: string;
  finalFrame: string;
  reference?: string;
  challenge: { words: string[]; actions: Action[] };
  expected: 'PASS' | 'FAIL';
  /** checks expected to fail (for FAIL cases) */
  expectedFailedChecks: string[];
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
}

/** How long after a window opens the rendered person starts the action (a reaction time), s. */
export const REACTION_S = 0.35;

/**
 * What a genuine signer does for a server timeline: each action a reaction time after its window
 * opens, the words read from just after their window opens, the face lit by each segment's colour
 * from its scheduled start (plus the offset of the recording's start in the video, `leadS`).
 */
export function followTimeline(t: ServerTimeline, leadS = 0) {
  return {
    timeline: { start: 0, slot: 0, starts: t.actions.map((a) => leadS + a.start_ms / 1000 + REACTION_S) },
    speechStartS: leadS + t.words_start_ms / 1000 + 0.25,
    durationS: leadS + t.total_ms / 1000,
    light: {
      colours: t.colours,
      changes: t.colours.map((_, k) => leadS + (k * t.segment_ms) / 1000),
    },
  };
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
}

/** Analyses one corpus case in this process, reading its files from the corpus folder. */
export function analyzeCase(models: LoadedModels, dir: string, c: Manifest['cases'][number], deadlineMs: number) {
  const read = (f: string) => readFileSync(path.join(dir, f));
  return analyzeCapture(models, {
    video: read(c.video),
    finalFrame: read(c.finalFrame),
    reference: c.reference ? read(c.reference) : undefined,
    challenge: c.challenge,
    deadlineMs,
  });
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
      const oval = posed ? IDX.faceOval.map((k) => [posed[k * 3], posed[k * 3 + 1]]) : null;
      // the face covers roughly a seventh of the frame: that share of its tint is what white balance sees
      const k = 1 - Math.exp(-1 / FPS / lm.awbS);
      for (let c = 0; c < 3; c++) awb[c] += ((oval ? lm.strength / 7 : lm.background) * light[c] - awb[c]) * k;
      applyScreenLight(
        frame,
        oval,
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

export async function makeCorpus(
  outDir: string,
  opts: { models?: LoadedModels; log?: (s: string) => void } = {},
): Promise<Manifest> {
  const t0 = performance.now();
  const log = opts.log ?? (() => undefined);
  mkdirSync(outDir, { recursive: true });
  const m = opts.models ?? (await loadModels({ supportingModels: false }));
  const faces = await findSourceFaces(m);
  const people = pickPeople(faces);
  if (people.length < 4) throw new Error(`generator needs 4 usable package faces, found ${people.length}`);
  // spread persons across photos for variety
  const byPhoto = new Map<string, SourceFace>();
  for (const f of people) if (!byPhoto.has(f.photo.id)) byPhoto.set(f.photo.id, f);
  const chosen = [...byPhoto.values(), ...people.filter((f) => ![...byPhoto.values()].includes(f))].slice(0, 4);
  const [A, B, C, D] = chosen;
  log(`people: ${chosen.map((f) => f.id).join(', ')}`);
  const tris = rigTriangles(m.human.faceTriangulation);
  const center: [number, number] = [W / 2, H / 2 - 10];

  const single = async (
    face: SourceFace,
    opts2: { fc?: [number, number]; width?: number; bgFace?: SourceFace } = {},
  ): Promise<Scene> => {
    const p = placementFor(face, opts2.fc ?? center, opts2.width ?? FACE_WIDTH);
    const bg = opts2.bgFace ? placementFor(opts2.bgFace, opts2.fc ?? center, opts2.width ?? FACE_WIDTH) : p;
    return buildScene(m, bg, [{ face, placement: p }]);
  };
  const sA = await single(A),
    sB = await single(B),
    sC = await single(C),
    sD = await single(D);
  const sAother = await single(A, { fc: [250, 250], width: 180, bgFace: D });
  const pA2 = placementFor(A, [200, 230], 150),
    pB2 = placementFor(B, [450, 230], 150);
  const sTwo = await buildScene(m, pA2, [
    { face: A, placement: pA2 },
    { face: B, placement: pB2 },
  ]);
  const sNone = await buildScene(m, placementFor(C, center, FACE_WIDTH), [], 30);

  const reference = async (face: SourceFace, file: string): Promise<string> => {
    // an "ID photo": the same source photo, different framing/scale, brighter, JPEG
    const p = placementFor(face, [W / 2, H / 2], 260);
    const img = placeFull(p);
    const out = camera(img, 0, 0, 1.08, null, 0);
    await writeImage(path.join(outDir, file), out);
    return file;
  };
  const refA = await reference(A, 'ref_A.jpg');
  const refB = await reference(B, 'ref_B.jpg');
  const refC = await reference(C, 'ref_C.jpg');

  const cases: CorpusCase[] = [];
  const add = async (
    name: string,
    description: string,
    spec: VideoSpec,
    challenge: Action[],
    ref: string | undefined,
    expected: 'PASS' | 'FAIL',
    expectedFailedChecks: string[],
    finalFrom?: RgbImage,
  ) => {
    const tc = performance.now();
    const last = await renderVideo(path.join(outDir, `${name}.webm`), spec, tris);
    await writeImage(path.join(outDir, `${name}.final.jpg`), finalFrom ?? last);
    cases.push({
      name,
      description,
      video: `${name}.webm`,
      finalFrame: `${name}.final.jpg`,
      reference: ref,
      challenge: { words: CORPUS_WORDS, actions: challenge },
      expected,
      expectedFailedChecks,
    });
    log(`${name}: ${((performance.now() - tc) / 1000).toFixed(1)} s`);
    return last;
  };

  const seqA: Action[] = ['turn_left', 'blink', 'smile'];
  const seqB: Action[] = ['turn_right', 'look_up', 'blink', 'smile'];
  const live = (scene: Scene, performed: readonly Action[], seed: number): VideoSpec => ({
    sceneAt: () => scene,
    performed,
    live: true,
    noise: true,
    seed,
    speech: CORPUS_WORDS,
  });

  await add(
    'genuine_a',
    'person A performs turn_left, blink, smile as asked; reference of A',
    live(sA, seqA, 11),
    seqA,
    refA,
    'PASS',
    [],
  );
  await add(
    'genuine_b',
    'person B performs turn_right, look_up, blink, smile as asked; reference of B',
    live(sB, seqB, 12),
    seqB,
    refB,
    'PASS',
    [],
  );
  await add(
    'wrong_order',
    'person A performs smile, blink, turn_left but was asked turn_left, blink, smile',
    live(sA, ['smile', 'blink', 'turn_left'], 13),
    seqA,
    refA,
    'FAIL',
    ['sequence'],
  );
  await add(
    'still_photo',
    'a printed photo of C held to the camera: sensor noise and hand jitter, no head motion',
    { sceneAt: () => sC, performed: [], live: false, noise: true, seed: 14, speech: CORPUS_WORDS },
    seqA,
    refC,
    'FAIL',
    ['liveness_motion', 'sequence'],
  );
  await add(
    'frozen_replay',
    'one image of C repeated (virtual camera): identical frames, no noise, no audio track',
    { sceneAt: () => sC, performed: [], live: false, noise: false, seed: 15 },
    seqA,
    refC,
    'FAIL',
    ['liveness_motion', 'sequence', 'sensor_noise', 'voice_activity'],
  );
  const half = (FPS * DURATION_S) / 2;
  await add(
    'face_swap',
    'person A for the first half, person D for the second half, actions in the right order',
    { sceneAt: (i) => (i < half ? sA : sD), performed: seqA, live: true, noise: true, seed: 16, speech: CORPUS_WORDS },
    seqA,
    refA,
    'FAIL',
    ['identity_consistency'],
  );
  const otherLast = await renderVideo(path.join(outDir, 'tmp_other.webm'), live(sAother, seqA, 17), tris);
  await add(
    'final_frame_other',
    'genuine video of A, but the final frame comes from another video of A',
    live(sA, seqA, 18),
    seqA,
    refA,
    'FAIL',
    ['final_frame_match'],
    otherLast,
  );
  await add(
    'two_faces',
    'person A performs the sequence while person B stands beside',
    live(sTwo, seqA, 19),
    seqA,
    refA,
    'FAIL',
    ['single_face'],
  );
  await add(
    'no_face',
    'background only, nobody in view, room noise',
    { sceneAt: () => sNone, performed: [], live: false, noise: true, seed: 20, speech: null },
    seqA,
    refA,
    'FAIL',
    ['face_present'],
  );
  await add(
    'reference_other',
    'genuine video of B doing what was asked, but the reference photo is of C',
    live(sB, seqB, 21),
    seqB,
    refC,
    'FAIL',
    ['reference_match'],
  );

  await add(
    'silent_reading',
    'person A performs the sequence as asked but never reads the words (room noise only)',
    { ...live(sA, seqA, 22), speech: null },
    seqA,
    refA,
    'FAIL',
    ['voice_activity'],
  );

  const manifest: Manifest = {
    generatedAt: new Date().toISOString(),
    generator: 'corpus/make-corpus.ts',
    fps: FPS,
    width: W,
    height: H,
    durationS: DURATION_S,
    sources: chosen.map((f, k) => ({
      person: 'ABCD'[k],
      faceId: f.id,
      file: path.relative(process.cwd(), f.photo.file),
      package: f.photo.packageName,
    })),
    cases,
    generationMs: Math.round(performance.now() - t0),
  };
  writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
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
    /** screen colours on the recording's timeline, reflected by the face */
    light?: LightSequence;
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
      light: opts.light,
      ...(opts.serverTimeline ? followTimeline(opts.serverTimeline) : {}),
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
  readS: number;
  actionS: number;
  seed?: number;
  /** the page's screen colours, `changes` in recording time (the feed shows them `leadS` later) */
  light?: LightSequence;
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
        speechStartS: p.leadS + 0.5,
        // each action starts half a second into its slot, so ±0.5 s of start-up jitter keeps it inside
        timeline: { start: p.leadS + p.readS + 0.5, slot: p.actionS },
        // the page records readS + actions + 1 s; 2 s more covers a late start
        durationS: p.leadS + p.readS + p.actions.length * p.actionS + 3,
        light: p.light && { colours: p.light.colours, changes: p.light.changes.map((c) => c + p.leadS) },
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
