/**
 * What the identity check sees, frame by frame, for measuring its pose thresholds: the analysis is
 * run as the service runs it, with its detector calls recorded (a stand-in for the worker pool that
 * detects in this thread), and the per-frame descriptors, poses and distances are recomputed from
 * the record with the analysis's own steps (baseline, deltas, pose buckets, baseline descriptor).
 */
import { analysisConfig } from '../src/analysis/config.js';
import { detectFacesLocal, type DetectOpts, type DetectResult, type FaceObs } from '../src/analysis/detect.js';
import { descriptorDistance, l2normalize, meanEar, mouthMetrics } from '../src/analysis/geometry.js';
import { oneCrop, poseBucket, type PoseBucket } from '../src/analysis/identity.js';
import type { LoadedModels } from '../src/analysis/models.js';
import { computeBaseline, computeDeltas, type FrameSignals } from '../src/analysis/sequence.js';

export interface PoseFrame {
  t: number;
  pose: PoseBucket;
  embedding: number[] | null;
}

export interface IdentityRecord {
  frames: PoseFrame[];
  /** the signer's baseline descriptor, as analyze.ts forms it (first near-neutral frames) */
  baseline: number[] | null;
}

/**
 * Models whose detections are recorded: every call of one analysis, in order (a pool of "half a
 * worker" makes the analysis detect one frame at a time, so the order is the frames' order).
 */
export function recordingModels(m: LoadedModels): { models: LoadedModels; take(): FaceObs[][] } {
  let calls: FaceObs[][] = [];
  const pool = {
    size: 0.5,
    async detect(img: Parameters<typeof detectFacesLocal>[1], o: DetectOpts): Promise<DetectResult> {
      const r = await detectFacesLocal(m, img, o);
      calls.push(r.faces);
      return r;
    },
    cancelQueued() {},
  };
  return {
    models: { ...m, pool: pool as unknown as LoadedModels['pool'] },
    take() {
      const out = calls;
      calls = [];
      return out;
    },
  };
}

function meanEmbedding(es: number[][]): number[] {
  const out = new Array<number>(es[0].length).fill(0);
  for (const e of es) {
    const n = l2normalize(e);
    for (let i = 0; i < n.length; i++) out[i] += n[i];
  }
  return l2normalize(out);
}

/** The per-frame poses and descriptors of a recorded analysis (its first `frames` calls are pass 1). */
export function identityRecord(calls: FaceObs[][], frames: number, fps = analysisConfig.sampling.fps): IdentityRecord {
  const cfg = analysisConfig;
  const perFrame = calls.slice(0, frames);
  const signals: FrameSignals[] = perFrame.map((faces, i) => {
    const f = faces[0];
    const t = i / fps;
    if (!f) return { t, yaw: null, pitch: null, ear: null, mouthWidth: null, cornerLift: null };
    const mm = mouthMetrics(f.mesh);
    return { t, yaw: f.yawDeg, pitch: f.pitchDeg, ear: meanEar(f.mesh), mouthWidth: mm.widthRatio, cornerLift: mm.cornerLift };
  });
  const b = computeBaseline(signals, cfg.baselineSeconds);
  const deltas = b ? computeDeltas(signals, b, cfg) : [];
  // the descriptors the check compares: one crop only (identity.ts oneCrop)
  const kept = new Set(
    oneCrop(
      perFrame,
      perFrame.flatMap((faces, i) => (faces[0]?.embedding ? [i] : [])),
    ),
  );
  const out: PoseFrame[] = perFrame.map((faces, i) => ({
    t: i / fps,
    pose: poseBucket(deltas[i], cfg),
    embedding: kept.has(i) ? faces[0]!.embedding! : null,
  }));
  const near = out.map((f, i) => (f.embedding && f.pose === 'neutral' ? i : -1)).filter((i) => i >= 0);
  const withEmb = out.map((f, i) => (f.embedding ? i : -1)).filter((i) => i >= 0);
  const base = (near.length >= 2 ? near : withEmb).slice(0, 3);
  return { frames: out, baseline: base.length ? meanEmbedding(base.map((i) => out[i].embedding!)) : null };
}

/** Distances of `frames` (at their own poses) to `baseline`, grouped by pose. */
export function distancesByPose(baseline: number[], frames: readonly PoseFrame[]): Record<PoseBucket, number[]> {
  const out: Record<PoseBucket, number[]> = { neutral: [], turned: [], up: [] };
  for (const f of frames) if (f.embedding) out[f.pose].push(descriptorDistance(baseline, f.embedding));
  return out;
}
