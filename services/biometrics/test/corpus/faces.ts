/**
 * Face photos that ship inside installed npm packages, and the faces Human finds in them.
 * Used by the corpus generator and by the evaluation.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeImage, type RgbImage } from '../../src/analysis/media.js';
import { packageDir, type LoadedModels } from '../../src/analysis/models.js';

export interface SourcePhoto {
  id: string; // e.g. "face-api/sample1"
  file: string;
  packageName: string;
}

/**
 * Group photos shipped in packages. face-api's demo samples (6 photos, 1920 px wide, 3–5 people
 * each) are the main source; Human's `assets/samples.jpg` is a collage of small thumbnails.
 * Human's `screenshot-*.jpg` files are omitted on purpose: they are screenshots of the same
 * sample photos with overlays, so they would repeat identities across "different people".
 */
export function packagePhotos(): SourcePhoto[] {
  const out: SourcePhoto[] = [];
  const faceApi = packageDir('@vladmandic/face-api');
  for (let i = 1; i <= 6; i++) {
    const file = path.join(faceApi, 'demo', `sample${i}.jpg`);
    if (existsSync(file)) out.push({ id: `face-api/sample${i}`, file, packageName: '@vladmandic/face-api' });
  }
  const human = packageDir('@vladmandic/human');
  const collage = path.join(human, 'assets', 'samples.jpg');
  if (existsSync(collage)) out.push({ id: 'human/samples', file: collage, packageName: '@vladmandic/human' });
  return out;
}

export interface SourceFace {
  id: string; // photo id + "#k" (left to right)
  photo: SourcePhoto;
  image: RgbImage; // full-resolution photo (shared between faces of the same photo)
  mesh: number[][];
  box: [number, number, number, number];
  meshWidth: number;
  center: [number, number]; // mean of mesh points
  yawDeg: number;
  pitchDeg: number;
  score: number;
  embedding: number[];
}

/** Detect every face in every package photo (full resolution, up to 30 faces a photo). */
export async function findSourceFaces(m: LoadedModels, photos = packagePhotos()): Promise<SourceFace[]> {
  const faces: SourceFace[] = [];
  for (const photo of photos) {
    const image = await decodeImage(readFileSync(photo.file));
    const t = m.tf.tensor4d(image.data, [1, image.height, image.width, 3], 'int32');
    const res = await m.human.detect(
      t as never,
      { face: { detector: { maxDetected: 30 }, description: { enabled: true } } } as never,
    );
    t.dispose();
    const found = res.face
      .map((f) => {
        const xs = f.mesh.map((p) => p[0]);
        const cx = f.mesh.reduce((s, p) => s + p[0], 0) / f.mesh.length;
        const cy = f.mesh.reduce((s, p) => s + p[1], 0) / f.mesh.length;
        return {
          photo,
          image,
          mesh: f.mesh.map((p) => [p[0], p[1], p[2] ?? 0]),
          box: f.box as [number, number, number, number],
          meshWidth: Math.max(...xs) - Math.min(...xs),
          center: [cx, cy] as [number, number],
          yawDeg: ((f.rotation?.angle.yaw ?? 0) * 180) / Math.PI,
          pitchDeg: ((f.rotation?.angle.pitch ?? 0) * 180) / Math.PI,
          score: f.score,
          embedding: f.embedding ?? [],
        };
      })
      .sort((a, b) => a.center[0] - b.center[0]);
    found.forEach((f, k) => faces.push({ id: `${photo.id}#${k}`, ...f }));
  }
  // restore the analysis default
  m.human.config.face.detector!.maxDetected = 3;
  return faces;
}
