import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import type { DetectOpts, FaceObs } from './detect.js';
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
    const calls: { frame: number | null; embed: boolean }[] = [];
    const detect = async (_img: unknown, o: Pick<DetectOpts, 'embed' | 'track'>): Promise<FaceObs[]> => {
      calls.push({ frame: o.track ? o.track.frame : null, embed: o.embed });
      return [{ box: [0, 0, 10, 10], mesh: [], yawDeg: 0, pitchDeg: 0, ...(o.embed ? { embedding: [1] } : {}) }];
    };
    const challenge = { actions: ['turn_left'], windows: [[1, 2]] as [number, number][] };
    const r = await decodeAndDetect(
      { pool: undefined } as unknown as LoadedModels,
      { video, finalFrame: still, challenge, deadlineMs: 60_000 },
      analysisConfig,
      { detect, capture: 1, deadline: () => undefined, onDecodeTimeout: () => new Error('timeout') },
    );
    const perFrame = await r.pass1;
    await r.pass2;
    expect(perFrame).toHaveLength(32);
    const whole = framePlan(r.video.times, challenge, analysisConfig);
    expect(perFrame.map((f) => f[0]!.embedding !== undefined)).toEqual(whole.embed);
    // the late descriptions: frames of the last 1.5 s planned before the end was known, run without tracked boxes
    const late = calls.filter((c) => c.frame === null && c.embed).length - 1; // less the final frame's
    expect(late).toBeGreaterThan(0);
    const lastStart = r.video.times[31]! - analysisConfig.finalFrame.lastSeconds;
    const planned = calls.filter((c) => c.frame !== null);
    expect(planned).toHaveLength(32);
    for (const c of planned) if (c.embed) expect(whole.embed[c.frame!]).toBe(true);
    expect(planned.filter((c) => !c.embed && whole.embed[c.frame!]).every((c) => r.video.times[c.frame!]! >= lastStart)).toBe(
      true,
    );
  });
});
