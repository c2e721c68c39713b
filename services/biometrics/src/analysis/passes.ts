/**
 * The media half of an analysis (analyze.ts): decode the capture, its final frame, its reference
 * and its audio, and run the detector passes on them — pass 1 over the video's sampled frames as
 * ffmpeg writes them, pass 2 over the two stills once they are decoded. Returns when the decodes
 * are done, with the passes still running (their promises); a failed decode stops both.
 */
import type { AnalysisConfig } from './config.js';
import type { Detector, FaceObs, FrameOpts } from './detect.js';
import { FrameFeed, mapLimited, mapOrdered, sensorNoiseAccumulator } from './frame-ops.js';
import { framePlan, lateDescriptions } from './frame-plan.js';
import { DECODE_LIMITS, decodeImage, decodeVideo, FfmpegTimeoutError, type DecodedVideo, type RgbImage } from './media.js';
import type { LoadedModels } from './models.js';
import { decodeAudio } from './voice.js';
import type { AnalyzeInput } from './analyze.types.js';

export interface DecodedAndDetecting {
  video: DecodedVideo;
  finalImg: RgbImage;
  refImg: RgbImage | null;
  pcm: Awaited<ReturnType<typeof decodeAudio>>;
  /** the sensor noise, read from the frames as they arrived */
  noise: { value(): number };
  /** faces of every sampled frame */
  pass1: Promise<FaceObs[][]>;
  /** faces of the final frame, then of the reference if any */
  pass2: Promise<FaceObs[][]>;
}

/** What the passes run with (decodeAndDetect's `run`): the detector and the deadline. */
type PassRun = {
  detect: Detector;
  /** throws once the analysis is past its deadline */
  deadline: (stage: string) => void;
  /** the error a decode past its time budget becomes */
  onDecodeTimeout: () => Error;
};

export async function decodeAndDetect(
  models: LoadedModels,
  input: Pick<AnalyzeInput, 'video' | 'finalFrame' | 'reference' | 'challenge' | 'deadlineMs'>,
  cfg: AnalysisConfig,
  run: PassRun,
): Promise<DecodedAndDetecting> {
  const parallel = models.pool ? models.pool.size * 2 : 1;
  const budget = Math.max(1, input.deadlineMs);
  const feed = new FrameFeed();
  const noise = sensorNoiseAccumulator();
  const videoDecode = decodeFrames(input.video, cfg, budget, feed, noise);
  const stillsDecode = Promise.all([
    decodeImage(input.finalFrame, 640, budget),
    input.reference ? decodeImage(input.reference, 640, budget) : Promise.resolve(null),
    decodeAudio(input.video, DECODE_LIMITS.maxSeconds, budget),
  ]);
  const pass1 = framePass(feed, input.challenge, cfg, parallel, run);
  // pass 2 once the stills are decoded; in this thread, without a pool, after pass 1 (one detection
  // at a time: Human's state is per instance)
  const stillsReady = models.pool ? stillsDecode : Promise.all([stillsDecode, pass1]).then(([stills]) => stills);
  const pass2 = stillsReady.then(([finalImg, refImg]) => stillsPass(finalImg, refImg, parallel, run));
  // awaited below; until then a failure must not surface as an unhandled rejection
  pass1.catch(() => undefined);
  pass2.catch(() => undefined);

  try {
    const [video, [finalImg, refImg, pcm]] = await Promise.all([videoDecode, stillsDecode]);
    return { video, finalImg, refImg, pcm, noise, pass1, pass2 };
  } catch (e: unknown) {
    // stop the passes: no frame is started after this, none queued runs
    feed.fail(e);
    const err = e instanceof FfmpegTimeoutError ? run.onDecodeTimeout() : e;
    models.pool?.cancelQueued(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}

/** The video's decode: each sampled frame goes to the feed (pass 1) and the sensor noise as it arrives; the feed ends or fails with it. */
function decodeFrames(
  video: Buffer,
  cfg: AnalysisConfig,
  budget: number,
  feed: FrameFeed,
  noise: ReturnType<typeof sensorNoiseAccumulator>,
): Promise<DecodedVideo> {
  return decodeVideo(video, {
    fps: cfg.sampling.fps,
    width: cfg.sampling.width,
    timeoutMs: budget,
    // the sensor noise is read from the frames as they arrive, not in the serial part after the pass
    onFrame: (f) => {
      feed.push(f);
      noise.add(f);
    },
  }).then(
    (v) => {
      feed.end();
      return v;
    },
    (e: unknown) => {
      feed.fail(e);
      throw e;
    },
  );
}

/**
 * Pass 1: mesh on every sampled frame; the detector, descriptor and iris where the plan says. The
 * frames go to the detector in runs: from one frame the plan detects to the frame before the next
 * (`sampling.detectEvery` frames), meshed in order by one thread, the frames after the first
 * tracking the boxes of the one before (detect.ts). A run is taken as soon as its frames have
 * arrived, in order; until the decode has ended its plan leaves out the last seconds' descriptions
 * (framePlan `ended`), which are made afterwards where the whole video's plan wants them
 * (lateDescriptions: few, as the decode usually runs ahead of the pass).
 */
function framePass(
  feed: FrameFeed,
  challenge: AnalyzeInput['challenge'],
  cfg: AnalysisConfig,
  parallel: number,
  run: PassRun,
): Promise<FaceObs[][]> {
  const times: number[] = [];
  const described: boolean[] = [];
  const span = cfg.sampling.plan ? Math.max(1, cfg.sampling.detectEvery) : 1;
  const perFrame: FaceObs[][] = [];
  return mapOrdered(
    async (k) => {
      // the run's first frame, then as many of the next span − 1 as the video has
      const first = await feed.get(k * span, span - 1);
      if (!first) return undefined;
      const idx: number[] = [];
      for (let i = k * span; i < (k + 1) * span && feed.frame(i); i++) idx.push(i);
      return { item: idx };
    },
    parallel,
    async (idx) => {
      while (times.length < feed.count) times.push(times.length / cfg.sampling.fps);
      const p = framePlan(times, challenge, cfg, { ended: feed.done });
      const opts: FrameOpts[] = idx.map((i) => {
        described[i] = p.embed[i];
        return { embed: p.embed[i], supporting: false, iris: p.iris[i], reuse: !p.detect[i] };
      });
      const faces = await run.detect(
        idx.map((i) => feed.frame(i)!),
        opts,
      );
      idx.forEach((i, j) => (perFrame[i] = faces[j]!));
    },
    () => run.deadline('landmarks'),
  ).then(() => describeLate(perFrame, described, feed, challenge, cfg, parallel, run));
}

/** The descriptions the whole video's plan wants that pass 1 left out: the detector runs afresh on these frames (no tracked boxes). */
async function describeLate(
  perFrame: FaceObs[][],
  described: readonly boolean[],
  feed: FrameFeed,
  challenge: AnalyzeInput['challenge'],
  cfg: AnalysisConfig,
  parallel: number,
  run: PassRun,
): Promise<FaceObs[][]> {
  const all = perFrame.map((_, i) => i / cfg.sampling.fps);
  const whole = framePlan(all, challenge, cfg);
  const late = lateDescriptions(whole, described);
  const redone = await mapLimited(
    late,
    parallel,
    (i) => run.detect([feed.frame(i)!], [{ embed: true, supporting: false, iris: whole.iris[i] }]).then((r) => r[0]!),
    () => run.deadline('landmarks'),
  );
  late.forEach((i, k) => (perFrame[i] = redone[k]!));
  return perFrame;
}

/** Pass 2: the final frame (with the supporting antispoof/liveness models), then the reference if any. */
function stillsPass(finalImg: RgbImage, refImg: RgbImage | null, parallel: number, run: PassRun): Promise<FaceObs[][]> {
  return mapLimited(
    [finalImg, ...(refImg ? [refImg] : [])],
    parallel,
    (img, k) => run.detect([img], [{ embed: true, supporting: k === 0 }]).then((r) => r[0]!),
    () => run.deadline('embeddings'),
  );
}
