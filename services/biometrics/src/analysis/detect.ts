/**
 * One Human detection on one RGB image, returning plain (structured-clone-safe) observations.
 * Used in-process and inside the worker threads of the detector pool.
 */
import type { Pt } from './geometry.js';
import type { RgbImage } from './media.js';
import type { LoadedModels } from './models.js';

export interface FaceObs {
  box: [number, number, number, number];
  mesh: Pt[];
  yawDeg: number;
  pitchDeg: number;
  embedding?: number[];
  real?: number;
  live?: number;
}

export interface DetectOpts {
  /** compute the faceres descriptor */
  embed: boolean;
  /** refine the eyes with the iris model (default true): the eye-aspect ratio of a blink needs it */
  iris?: boolean;
  /** run antispoof + liveness (supporting signals) */
  supporting: boolean;
  maxFaces: number;
  /** drop faces narrower than this fraction of the largest face */
  minRelativeFaceWidth: number;
}

export interface DetectResult {
  faces: FaceObs[];
  ms: number;
}

/** Faces largest first; `ms` is the wall time spent inside `human.detect`. */
export async function detectFacesLocal(m: LoadedModels, img: RgbImage, o: DetectOpts): Promise<DetectResult> {
  const fc = m.human.config.face as unknown as Record<string, { enabled: boolean; maxDetected?: number }>;
  fc.description.enabled = o.embed;
  fc.iris.enabled = o.iris ?? true;
  fc.antispoof.enabled = o.supporting && m.models.some((x) => x.name === 'antispoof');
  fc.liveness.enabled = o.supporting && m.models.some((x) => x.name === 'liveness');
  fc.detector.maxDetected = o.maxFaces;
  const t = m.tf.tensor4d(img.data, [1, img.height, img.width, 3], 'int32');
  try {
    const t0 = performance.now();
    const res = await m.human.detect(t as never);
    const ms = performance.now() - t0;
    const faces: FaceObs[] = res.face
      .filter((f) => f.mesh.length >= 468)
      .map((f) => ({
        box: [f.box[0], f.box[1], f.box[2], f.box[3]] as [number, number, number, number],
        mesh: f.mesh.map((p) => [p[0], p[1], p[2] ?? 0]),
        yawDeg: ((f.rotation?.angle.yaw ?? 0) * 180) / Math.PI,
        pitchDeg: ((f.rotation?.angle.pitch ?? 0) * 180) / Math.PI,
        embedding: f.embedding && f.embedding.length > 0 ? [...f.embedding] : undefined,
        real: f.real,
        live: f.live,
      }))
      .sort((a, b) => b.box[2] - a.box[2]);
    if (faces.length === 0) return { faces, ms };
    const minW = faces[0].box[2] * o.minRelativeFaceWidth;
    return { faces: faces.filter((f) => f.box[2] >= minW), ms };
  } finally {
    t.dispose();
  }
}
