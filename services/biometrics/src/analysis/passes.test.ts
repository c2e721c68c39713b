import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import type { FaceObs, FrameOpts } from './detect.js';
import { framePlan } from './frame-plan.js';
import { FFMPEG } from './media.js';
import type { LoadedModels } from './models.js';
import { decodeAndDetect } from './passes.js';

/**
 * The frame pass takes each frame as it arrives, before the decode's end is known: the descriptions
 * the whole video's plan wants on its last 1.5 s are then made afterwards. A detector that answers at
 * once keeps the pass right behind the decode, so the last frames are always planned before the end.
 */
describe('decodeAndDetect: frames taken as they arrive', () => {
  let dir: string;
  let video: Buffer;
  let still: Buffer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bio-passes-'));
    // prettier-ignore
    execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=30:duration=4', '-c:v', 'libvpx', '-b:v', '2M', join(dir, 'v.webm')]);
    // prettier-ignore
    execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x480', '-frames:v', '1', join(dir, 'f.jpg')]);
    video = readFileSync(join(dir, 'v.webm'));
    still = readFileSync(join(dir, 'f.jpg'));
    // encoding 4 s of 640×480 takes about 8 s alone, past vitest's 10 s hook default under load
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("describes exactly the frames the whole video's plan describes, the late ones afresh", async () => {
    // a run's frames are told apart by their (shared) pixel buffers: frame i of the decode
    const calls: { img: unknown; run: number; pos: number; embed: boolean; reuse: boolean }[] = [];
    let runs = 0;
    const detect = async (imgs: readonly unknown[], o: readonly FrameOpts[]): Promise<FaceObs[][]> => {
      const r = runs++;
      imgs.forEach((img, pos) => calls.push({ img, run: r, pos, embed: o[pos]!.embed, reuse: o[pos]!.reuse === true }));
      return o.map((x) => [{ box: [0, 0, 10, 10], mesh: [], yawDeg: 0, pitchDeg: 0, ...(x.embed ? { embedding: [1] } : {}) }]);
    };
    const challenge = { actions: ['turn_left'], windows: [[1, 2]] as [number, number][] };
    const r = await decodeAndDetect(
      { pool: undefined } as unknown as LoadedModels,
      { video, finalFrame: still, challenge, deadlineMs: 60_000 },
      analysisConfig,
      { detect, deadline: () => undefined, onDecodeTimeout: () => new Error('timeout') },
    );
    const perFrame = await r.pass1;
    await r.pass2;
    expect(perFrame).toHaveLength(32);
    const whole = framePlan(r.video.times, challenge, analysisConfig);
    expect(perFrame.map((f) => f[0]!.embedding !== undefined)).toEqual(whole.embed);
    // pass 1 sent the frames in order, in runs of detectEvery: each run's first frame detects, the others track
    const frameOf = (img: unknown) => r.video.frames.indexOf(img as never);
    const span = analysisConfig.sampling.detectEvery;
    const runsOfPass1 = [...new Set(calls.filter((c) => calls.filter((d) => d.run === c.run).length === span).map((c) => c.run))];
    expect(runsOfPass1).toHaveLength(32 / span);
    for (const run of runsOfPass1) {
      const frames = calls.filter((c) => c.run === run).map((c) => ({ i: frameOf(c.img), reuse: c.reuse, embed: c.embed }));
      const i0 = frames[0]!.i;
      expect(i0 % span).toBe(0);
      expect(frames.map((f) => f.i)).toEqual([i0, i0 + 1, i0 + 2, i0 + 3]);
      expect(frames.map((f) => f.reuse)).toEqual([false, true, true, true]);
      for (const f of frames) if (f.embed) expect(whole.embed[f.i]).toBe(true);
    }
    // the late descriptions: frames of the last 1.5 s planned before the end was known, run alone without tracked boxes
    const lone = calls.filter((c) => calls.filter((d) => d.run === c.run).length === 1);
    const late = lone.filter((c) => c.embed && frameOf(c.img) >= 0);
    expect(late.length).toBeGreaterThan(0);
    expect(lone.every((c) => !c.reuse)).toBe(true);
    const lastStart = r.video.times[31]! - analysisConfig.finalFrame.lastSeconds;
    for (const c of late) expect(r.video.times[frameOf(c.img)]!).toBeGreaterThanOrEqual(lastStart);
  });
});
