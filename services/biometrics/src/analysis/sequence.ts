/**
 * Pure action detection and sequence matching on per-frame face signals. No model, no I/O.
 * Every action is judged as a change from the signer's own baseline (first frames), never as an
 * absolute angle or ratio.
 */
import type { Action, AnalysisConfig } from './config.js';
import { median } from './geometry.js';

/** Per sampled frame signals of the primary (largest) face; `null` fields when no face. */
export interface FrameSignals {
  t: number; // seconds
  yaw: number | null; // Human degrees
  pitch: number | null;
  ear: number | null; // mean eye aspect ratio
  mouthWidth: number | null; // width / inter-ocular
  cornerLift: number | null; // inter-ocular units
}

export interface Baseline {
  yaw: number;
  pitch: number;
  ear: number;
  mouthWidth: number;
  cornerLift: number;
  frames: number;
}

export interface ActionEvent {
  action: Action;
  start: number; // seconds
  end: number;
  frames: number;
  /** peak magnitude: degrees for turns/look-up, relative drop for blink, relative increase for smile */
  peak: number;
}

/** Neutral values from the frames in the first `seconds` (at least 3 face frames if available). */
export function computeBaseline(frames: readonly FrameSignals[], seconds: number): Baseline | null {
  const withFace = frames.filter((f) => f.yaw !== null);
  let base = withFace.filter((f) => f.t < seconds);
  if (base.length < 3) base = withFace.slice(0, 3);
  if (base.length === 0) return null;
  // the eye-aspect ratio is read only on some frames (frame-plan.ts): null elsewhere
  const med = (k: keyof Omit<FrameSignals, 't'>) => {
    const xs = base.map((f) => f[k]).filter((v): v is number => v !== null);
    return xs.length ? median(xs) : 0;
  };
  return {
    yaw: med('yaw'),
    pitch: med('pitch'),
    ear: med('ear'),
    mouthWidth: med('mouthWidth'),
    cornerLift: med('cornerLift'),
    frames: base.length,
  };
}

/** Per-frame deltas from the baseline (null when no face in the frame). */
export interface FrameDeltas {
  t: number;
  left: number | null; // + = turned to the subject's left, Human degrees
  up: number | null; // + = looking up
  earDrop: number | null; // 1 − ear/baseEar
  widthIncrease: number | null; // mouthWidth/base − 1
  liftIncrease: number | null; // cornerLift − base
}

export function computeDeltas(frames: readonly FrameSignals[], b: Baseline, cfg: AnalysisConfig): FrameDeltas[] {
  return frames.map((f) =>
    f.yaw === null
      ? { t: f.t, left: null, up: null, earDrop: null, widthIncrease: null, liftIncrease: null }
      : {
          t: f.t,
          left: (f.yaw - b.yaw) * cfg.turn.leftSign,
          up: ((f.pitch as number) - b.pitch) * cfg.lookUp.upSign,
          earDrop: f.ear === null ? null : b.ear > 0 ? 1 - f.ear / b.ear : 0,
          widthIncrease: b.mouthWidth > 0 ? (f.mouthWidth as number) / b.mouthWidth - 1 : 0,
          liftIncrease: (f.cornerLift as number) - b.cornerLift,
        },
  );
}

/**
 * Action runs with hysteresis: a run starts at a frame where `active` holds and ends at the first
 * later frame where `returned` holds (the face came back towards neutral). Frames in between that
 * are neither active nor returned, and frames without a face, keep the run open but do not count.
 * A run counts when it has at least `minFrames` active frames; a run still open when the video
 * ends does not count (the action must be done "and back").
 */
export function findRuns(
  d: readonly FrameDeltas[],
  active: (x: FrameDeltas) => boolean,
  returned: (x: FrameDeltas) => boolean,
  magnitude: (x: FrameDeltas) => number,
  minFrames: number,
): { start: number; end: number; frames: number; peak: number }[] {
  const out: { start: number; end: number; frames: number; peak: number }[] = [];
  let run: { start: number; end: number; frames: number; peak: number } | null = null;
  for (const x of d) {
    if (x.left === null) continue; // no face in this frame
    if (active(x)) {
      if (!run) run = { start: x.t, end: x.t, frames: 0, peak: 0 };
      run.frames++;
      run.end = x.t;
      run.peak = Math.max(run.peak, magnitude(x));
    } else if (run && returned(x)) {
      if (run.frames >= minFrames) out.push(run);
      run = null;
    }
  }
  return out;
}

type Run = ReturnType<typeof findRuns>[number];

/** Runs of one action no more than `gapS` apart (end to start) joined into one: one action seen twice. */
export function mergeRuns(runs: readonly Run[], gapS: number): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    const last = out[out.length - 1];
    if (last && r.start - last.end <= gapS + 1e-9)
      out[out.length - 1] = { start: last.start, end: r.end, frames: last.frames + r.frames, peak: Math.max(last.peak, r.peak) };
    else out.push({ ...r });
  }
  return out;
}

/** All action events in the video, ordered by start time. */
export function detectEvents(d: readonly FrameDeltas[], cfg: AnalysisConfig): ActionEvent[] {
  const ev: ActionEvent[] = [];
  const nz = (v: number | null) => v ?? 0;
  const push = (action: Action, runs: Run[]) => mergeRuns(runs, cfg.mergeGapS).forEach((r) => ev.push({ action, ...r }));
  const { turn, lookUp, blink, smile } = cfg;
  push(
    'turn_left',
    findRuns(
      d,
      (x) => nz(x.left) >= turn.minDeltaDeg,
      (x) => nz(x.left) < turn.returnDeg,
      (x) => nz(x.left),
      turn.minFrames,
    ),
  );
  push(
    'turn_right',
    findRuns(
      d,
      (x) => -nz(x.left) >= turn.minDeltaDeg,
      (x) => -nz(x.left) < turn.returnDeg,
      (x) => -nz(x.left),
      turn.minFrames,
    ),
  );
  push(
    'look_up',
    findRuns(
      d,
      (x) => nz(x.up) >= lookUp.minDeltaDeg,
      (x) => nz(x.up) < lookUp.returnDeg,
      (x) => nz(x.up),
      lookUp.minFrames,
    ),
  );
  const neutralPose = (x: FrameDeltas, lim: number) => Math.abs(nz(x.left)) < lim && Math.abs(nz(x.up)) < lim;
  push(
    'blink',
    findRuns(
      d,
      (x) => neutralPose(x, blink.maxPoseDeg) && nz(x.earDrop) >= blink.minDrop,
      (x) => nz(x.earDrop) < blink.recoverDrop,
      (x) => nz(x.earDrop),
      blink.minFrames,
    ),
  );
  const smiling = (x: FrameDeltas) =>
    nz(x.widthIncrease) >= smile.minWidthIncrease || nz(x.liftIncrease) >= smile.minLiftIncrease;
  const relaxed = (x: FrameDeltas) =>
    nz(x.widthIncrease) < smile.minWidthIncrease / 2 && nz(x.liftIncrease) < smile.minLiftIncrease / 2;
  push(
    'smile',
    findRuns(
      d,
      (x) => neutralPose(x, smile.maxPoseDeg) && smiling(x),
      relaxed,
      (x) => Math.max(nz(x.widthIncrease), nz(x.liftIncrease)),
      smile.minFrames,
    ),
  );
  return ev.sort((a, b) => a.start - b.start || a.end - b.end);
}

export interface SequenceMatch {
  ok: boolean;
  /** for each requested action, the matched event (or null) */
  matched: (ActionEvent | null)[];
}

/**
 * Requested actions must appear in the detected events as an ordered subsequence: each action
 * starts after the previous matched action ended. Extra events (spontaneous blinks, small turns)
 * are allowed. Optional per-action windows (seconds) restrict where each action may start.
 */
export function matchSequence(
  requested: readonly Action[],
  events: readonly ActionEvent[],
  windows?: readonly (readonly [number, number])[],
): SequenceMatch {
  const matched: (ActionEvent | null)[] = [];
  let after = -Infinity;
  let ok = requested.length > 0;
  for (let k = 0; k < requested.length; k++) {
    const w = windows?.[k];
    const e = events.find((x) => x.action === requested[k] && x.start > after && (!w || (x.start >= w[0] && x.start <= w[1])));
    matched.push(e ?? null);
    if (!e) {
      ok = false;
      continue;
    }
    after = e.end;
  }
  return { ok, matched };
}

/** Actions that move the head; between the windows of a timed challenge the head stays neutral. */
export const HEAD_ACTIONS: readonly Action[] = ['turn_left', 'turn_right', 'look_up'];

/**
 * Head movements that answer no requested action: with a server timeline, a turn or look-up
 * outside the windows means the video was not made for this challenge (one recording that performs
 * every action, hoping some fall in the windows). Blinks and smiles happen on their own and are
 * not counted. A second start of the requested action inside that action's own window (a turn
 * that wobbles back past the return angle and out again, seen in the evaluation's genuine
 * captures) answers the same request and is not a stray: it cannot make a video fit a challenge
 * it was not made for, since the window and the action are the ones asked.
 */
export function strayEvents(
  events: readonly ActionEvent[],
  matched: readonly (ActionEvent | null)[],
  asked?: { actions: readonly Action[]; windows: readonly (readonly [number, number])[] },
): ActionEvent[] {
  const used = new Set(matched.filter((e): e is ActionEvent => !!e));
  const answersMatched = (e: ActionEvent) =>
    !!asked &&
    matched.some((m, k) => {
      const w = asked.windows[k];
      return !!m && !!w && asked.actions[k] === e.action && e.start >= w[0] && e.start <= w[1];
    });
  return events.filter((e) => HEAD_ACTIONS.includes(e.action) && !used.has(e) && !answersMatched(e));
}
