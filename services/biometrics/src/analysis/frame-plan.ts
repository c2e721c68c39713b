/**
 * Which models each sampled frame needs, so that a verdict costs what the checks use and no more
 * (measured per frame on tfjs-node, one thread: detector and mesh ≈ 65 ms, the faceres description
 * ≈ 35–55 ms, the iris refinement ≈ 30–40 ms; docs/decisions.md "Verdict speed").
 *
 * - The description (identity) on every `identity.embedEvery`-th frame (the last of each run of
 *   `embedEvery`: a frame with tracked boxes, never a detector frame), and on every frame of the
 *   last `finalFrame.lastSeconds` (the final frame is compared with those): an action lasts at
 *   least `minFrames` ≥ 2 sampled frames, so a face swapped in for an action is still described.
 * - The iris refinement only where the eye-aspect ratio is read: the blink needs it (without it
 *   Human's eyelids move about half as much: a rendered blink dropped 25 % instead of 45 %, with
 *   13 % of noise), so with a server timeline it runs on the baseline frames and around each blink
 *   window; without a timeline (no windows), on every frame as before.
 * - The face detector on every `sampling.detectEvery`-th frame (and the first); the frames between
 *   track the boxes of the previous frame's mesh (detect.ts), falling back to the detector when the
 *   mesh loses the face.
 *
 * While the decode still runs, the end of the video is not known: `ended: false` plans a frame
 * without the last seconds' descriptions (the only part that depends on the end), and the pass
 * describes afterwards the frames the whole video's plan adds (`lateDescriptions`).
 */
import type { AnalysisConfig } from './config.js';

export interface FramePlan {
  embed: boolean[];
  iris: boolean[];
  /** run the face detector (else reuse the boxes tracked from the previous frame's mesh) */
  detect: boolean[];
}

/** Seconds around a blink window that keep the iris on: before its start, after its end. */
const BLINK_MARGIN: readonly [number, number] = [0.25, 1.0];

export function framePlan(
  times: readonly number[],
  challenge: { actions: readonly string[]; windows?: readonly (readonly [number, number])[] },
  cfg: Pick<AnalysisConfig, 'identity' | 'finalFrame' | 'baselineSeconds' | 'sampling'>,
  opts: { ended?: boolean } = {},
): FramePlan {
  const ended = opts.ended ?? true;
  if (!cfg.sampling.plan) return { embed: times.map(() => true), iris: times.map(() => true), detect: times.map(() => true) };
  const detectEvery = Math.max(1, cfg.sampling.detectEvery);
  const detect = times.map((_, i) => i % detectEvery === 0);
  const last = times.length ? times[times.length - 1] : 0;
  const every = Math.max(1, cfg.identity.embedEvery);
  // the last of every `every` frames: between two detector frames (detectEvery a multiple of it), so
  // the frames identity compares are all cut from tracked boxes — Human's descriptor of one face
  // differs by far more between a detector box and a tracked one than between two frames of one
  // kind (identity.ts, docs/biometrics-evaluation.md "the identity margin")
  const embed = times.map((t, i) => i % every === every - 1 || (ended && t >= last - cfg.finalFrame.lastSeconds));
  const windows = challenge.windows;
  if (!windows || windows.length !== challenge.actions.length) return { embed, iris: times.map(() => true), detect };
  const blinkWindows = windows.filter((_, k) => challenge.actions[k] === 'blink');
  const iris = times.map(
    (t) =>
      blinkWindows.length > 0 &&
      (t < cfg.baselineSeconds + BLINK_MARGIN[0] ||
        blinkWindows.some(([a, b]) => t >= a - BLINK_MARGIN[0] && t <= b + BLINK_MARGIN[1])),
  );
  return { embed, iris, detect };
}

/**
 * The frames the whole video's plan describes that were analysed, under a plan made while the
 * decode still ran, without a description: only ever frames of the last `finalFrame.lastSeconds`
 * (tested); few when the decode runs ahead of the pass, as it usually does.
 */
export function lateDescriptions(whole: FramePlan, described: readonly boolean[]): number[] {
  return whole.embed.flatMap((e, i) => (e && !described[i] ? [i] : []));
}
