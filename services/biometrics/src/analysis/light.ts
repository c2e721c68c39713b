/**
 * The light challenge: the signing page shows a random sequence of screen colours on a
 * server-issued timeline and the face reflects it. This checks that the skin's chromaticity
 * follows the issued sequence, relative to the signer's own baseline and to the background (so a
 * global white-balance shift does not count), against a null distribution of random sequences
 * from the same palette on the same timeline. A recording made before the sequence was drawn
 * cannot follow it. Pure: no I/O, no models.
 */
import { analysisConfig } from './config.js';
import { interOcular, median, type Pt } from './geometry.js';
import type { RgbImage } from './media.js';
import {
  backgroundMean,
  discChanges,
  expectedVectors,
  InvalidLightChallengeError,
  logChroma,
  mulberry32,
  skinChanges,
  skinPatches,
  SKIN_POINTS,
  type Patch,
  type Vec3,
} from './light-measure.js';
import { bestLag, planLag, segmentAgreement, type LagPlan } from './light-fit.js';
import { discBrightness, measureOrientation, ORIENTATION_POINTS } from './light-orientation.js';
import { flashResponse, type FlashConfig, type FlashResult } from './light-flash.js';

export { hexToLinear, InvalidLightChallengeError, SKIN_POINTS } from './light-measure.js';

/**
 * The screen colours the ceremony draws from (uniformly, one per segment): the six saturated hues.
 * In log-chromaticity each is a full-length deviation from the palette mean (white would be none,
 * so red/green/blue/white carries 25 % less signal), and of the palettes measured (RGBW, RGB,
 * red/cyan/blue/yellow, four hues 90° apart, these six) it left the fewest wrong sequences scoring
 * high: docs/decisions.md, "Light challenge".
 */
export const LIGHT_PALETTE = ['#ff0000', '#ffff00', '#00ff00', '#00ffff', '#0000ff', '#ff00ff'] as const;

/** The primary face of one frame: its 468-point mesh in frame pixels, and Human's face box
 *  ([x, y, width, height]: its width scales the mesh's z; without it the eyes' distance does). */
export interface FaceRegion {
  mesh: readonly Pt[];
  box?: readonly number[];
}

export interface LightConfig {
  /** radius of each skin patch, inter-ocular units */
  patchRadius: number;
  minSkinPixels: number;
  /** a disc is left out of a frame when its change exceeds this × the median change of all discs… */
  patchOutlier: number;
  /** …and at least this (log-chromaticity) */
  patchOutlierMin: number;
  /** background sampled every `backgroundStep` px outside `backgroundMargin` × the face oval */
  backgroundStep: number;
  backgroundMargin: number;
  minBackgroundPixels: number;
  /** background subtraction is used when this fraction of face frames has a usable background */
  minBackgroundFraction: number;
  backgroundWeight: number;
  /** fail when there is no usable background (else the check runs on the skin alone, and a
   *  whole-frame tint following the sequence would pass) */
  requireBackground: boolean;
  lagMinS: number;
  lagMaxS: number;
  lagStepS: number;
  /** first-order time constant of the camera's response to a colour change */
  rampS: number;
  /** polynomial (in time) removed from observed and expected signals: 0 = mean, 1 = linear drift */
  detrendDegree: number;
  minFrames: number;
  /** usable frames / frames inside the timeline */
  minCoverage: number;
  minScore: number;
  nullSequences: number;
  nullQuantile: number;
  nullSeed: number;
  /** the ceremony never shows the same colour twice in a row: the null sequences are drawn so too */
  noRepeat: boolean;
  /** RMS log-chromaticity response explained by the issued sequence */
  minAmplitude: number;
  /** fraction of segments whose settled response is nearest to the issued colour of all palette colours */
  minAgreement: number;
  /** a frame counts as settled this long after its segment's change (plus the lag) */
  settleS: number;
  /** light by its physics (light-orientation.ts): the part of the response that must follow the
   *  skin regions' orientation to the screen (1 = as physics gives it, 0 = a uniform tint) */
  minOrientation: number;
  /** radius of the mesh around a skin disc whose plane gives its facing, inter-ocular units */
  facingRadius: number;
  /** the direction to the screen seen from the face: (0, screenBelow, −1), y down, z away */
  screenBelow: number;
  /** each disc's facing is its median over this many frames either side */
  facingSmoothFrames: number;
  /** disc-frames the orientation fit needs */
  orientationMinSamples: number;
  /** discs darker than this fraction of the median disc are left out of the orientation fit */
  orientationMinBrightness: number;
  /** discs whose mean facing to the screen is below this (skin seen at a grazing angle) are left out
   *  of the orientation fit (light-orientation.ts orientationFit) */
  orientationMinFacing: number;
}

export interface LightInput {
  frames: readonly RgbImage[];
  /** media time of each frame, seconds */
  times: readonly number[];
  /** per frame: the primary face or null */
  faces: readonly (FaceRegion | null)[];
  /** '#rrggbb' per segment */
  colours: readonly string[];
  /** media time (s) from which colour k was shown */
  changes: readonly number[];
  /** when the last colour stopped (s); default: last change + the median segment length */
  end?: number;
  /** the palette the colours were drawn from (the null distribution draws from it) */
  palette?: readonly string[];
  /** the face mesh's triangulation (Human's `faceTriangulation`): each skin disc's orientation from
   *  the mesh's vertex normals; without it, from a plane fitted to the mesh around the disc */
  triangles?: readonly number[];
  /** colours[first … first + count) are the flash segment's steps: their reflection must appear in
   *  the right frames (light-flash.ts) */
  flash?: { first: number; count: number };
  /** the flash segment's window decoded at the capture's own rate (analyze.ts): the flash check
   *  reads these instead of the sampled frames, measured against the same baselines */
  flashFrames?: { frames: readonly RgbImage[]; times: readonly number[]; faces: readonly (FaceRegion | null)[] };
}

export interface LightResult {
  passed: boolean;
  /** correlation of observed and expected chromaticity at the best lag (−1…1) */
  score: number;
  /** the absolute minimum score */
  threshold: number;
  lagS: number;
  /** the null quantile the score had to exceed, and the fraction of null sequences below the score */
  nullQuantile: number;
  nullRank: number;
  /** RMS log-chromaticity response explained by the issued sequence (≈ fraction of the skin colour) */
  amplitude: number;
  minAmplitude: number;
  /** fitted response / residual RMS */
  snr: number;
  /** fraction of segments whose settled response is nearest to the issued colour (of all palette colours) */
  agreement: number;
  minAgreement: number;
  /** part of the response that follows the skin regions' orientation to the screen (null: not measurable) */
  orientation: number | null;
  minOrientation: number;
  framesUsed: number;
  coverage: number;
  background: boolean;
  /** the flash check (null when no flashes were issued, or nothing was measured) */
  flash: FlashResult | null;
  detail: string;
}

/** The issued sequence as palette indices, the palette's expected vectors and the timeline's end. */
interface Issued {
  palette: string[];
  seq: Int32Array;
  vecs: number[][];
  end: number;
}

/** The skin's response frame by frame: each disc against its own baseline, less the background's change. */
interface Observed {
  patches: ((Patch | null)[] | null)[];
  shift: (Vec3 | null)[];
  obs: (Vec3 | null)[];
  /** the same, for input.flashFrames (empty without) */
  flashObs: (Vec3 | null)[];
  useBg: boolean;
  skinFrames: number;
  bgFrames: number;
}

/**
 * Check that the face's reflected light follows the issued colour sequence. See the module
 * comment; thresholds in `analysisConfig.light`. Steps: the issued sequence, the observed
 * response, the best lag, the null distribution, then the gates.
 */
export function lightResponse(
  input: LightInput,
  cfg: LightConfig = analysisConfig.light,
  flashCfg: FlashConfig = analysisConfig.flash,
): LightResult {
  const issued = issuedSequence(input);
  const { times, changes } = input;
  const observed = observeResponse(input, cfg);
  const inTimeline = times.filter((t) => t >= changes[0] && t <= issued.end).length;
  const fail = (detail: string, framesUsed = 0) => failed(cfg, observed.useBg, inTimeline, detail, framesUsed);
  if (new Set(issued.seq).size < 2) return fail('the issued sequence has a single colour');
  if (cfg.requireBackground && !observed.useBg)
    return fail(
      `no usable background beside the face in ${observed.bgFrames} of ${observed.skinFrames} face frames`,
      observed.skinFrames,
    );

  const search = lagSearch(times, observed.obs, changes, issued, cfg);
  if (!search) return fail('no frames with a measurable face inside the light timeline');
  const { best, plans, gram } = search;
  const framesUsed = best.plan.n;
  const coverage = inTimeline ? framesUsed / inTimeline : 0;
  if (framesUsed < cfg.minFrames || coverage < cfg.minCoverage)
    return fail(`too few usable frames: ${framesUsed} (${(coverage * 100).toFixed(0)} % of the timeline)`, framesUsed);
  const nul = nullDistribution(plans, issued, gram, best.fit.corr, cfg);

  const { corr } = best.fit;
  const { amplitude, snr } = fittedAmplitude(best, framesUsed);
  const { seq, vecs, end } = issued;
  const agreement = segmentAgreement(times, observed.obs, changes, end, best.plan.lag, seq, vecs, cfg.settleS);
  const ok = {
    score: corr >= cfg.minScore,
    agree: agreement >= cfg.minAgreement,
    null: corr > nul.quantile,
    amp: amplitude >= cfg.minAmplitude,
  };
  // the orientation only for a response that is the issued sequence's (it costs more discs)
  const measured = ok.score && ok.agree && ok.null && ok.amp;
  const lag = best.plan.lag;
  const orientation = measured ? orientationShare(input, cfg, { ...observed, ...issued, lag }) : null;
  const okOrient = orientation !== null && orientation >= cfg.minOrientation;
  const flash = flashOf(input, observed, issued, flashCfg);
  const useBg = observed.useBg;
  const detail = lightDetail(cfg, { corr, lag, nul, amplitude, agreement, orientation, measured, framesUsed, useBg, flash });
  return {
    passed: measured && okOrient && (flash === null || flash.passed),
    score: corr,
    threshold: cfg.minScore,
    lagS: lag,
    nullQuantile: nul.quantile,
    nullRank: nul.rank,
    amplitude,
    minAmplitude: cfg.minAmplitude,
    snr,
    agreement,
    minAgreement: cfg.minAgreement,
    orientation,
    minOrientation: cfg.minOrientation,
    framesUsed,
    coverage,
    background: observed.useBg,
    flash,
    detail,
  };
}

/** The input's colours as indices into the palette; throws InvalidLightChallengeError on a malformed challenge. */
function issuedSequence(input: LightInput): Issued {
  const { frames, times, faces, colours, changes } = input;
  if (frames.length !== times.length || frames.length !== faces.length)
    throw new InvalidLightChallengeError('frames, times and faces differ in length');
  if (colours.length === 0 || colours.length !== changes.length)
    throw new InvalidLightChallengeError('colours and changes must be non-empty and of equal length');
  for (let k = 1; k < changes.length; k++)
    if (!(changes[k] > changes[k - 1])) throw new InvalidLightChallengeError('changes must increase');
  const palette = [...new Set((input.palette ?? LIGHT_PALETTE).map((c) => c.toLowerCase()))];
  const seq = Int32Array.from(colours, (c) => {
    const i = palette.indexOf(c.toLowerCase());
    if (i < 0) throw new InvalidLightChallengeError(`colour ${c} is not in the palette`);
    return i;
  });
  const gaps = changes.slice(1).map((c, k) => c - changes[k]);
  const end = input.end ?? changes[changes.length - 1] + (gaps.length ? median(gaps) : 1);
  return { palette, seq, vecs: expectedVectors(palette), end };
}

/** Per frame: the skin's change (per disc, against its own baseline) less the background's own change. */
function observeResponse(input: LightInput, cfg: LightConfig): Observed {
  // the flash window's frames after the sampled ones: measured like them, against the sampled frames' baselines
  const n = input.frames.length;
  const frames = [...input.frames, ...(input.flashFrames?.frames ?? [])];
  const faces = [...input.faces, ...(input.flashFrames?.faces ?? [])];
  const allPatches = faces.map((f, i) => (f && f.mesh.length >= 468 ? skinPatches(frames[i], f.mesh, cfg) : null));
  const allSkin = skinChanges(allPatches, cfg, discChanges(allPatches, cfg, n));
  const allBg: (Vec3 | null)[] = allSkin.map((s, i) => {
    const b = s && faces[i] ? backgroundMean(frames[i], faces[i]!.mesh, cfg) : null;
    return b && logChroma(b);
  });
  const patches = allPatches.slice(0, n);
  const skin = allSkin.slice(0, n);
  const bg = allBg.slice(0, n);
  const skinFrames = skin.filter(Boolean).length;
  const bgFrames = bg.filter(Boolean).length;
  const useBg = cfg.backgroundWeight > 0 && skinFrames > 0 && bgFrames / skinFrames >= cfg.minBackgroundFraction;
  const med = (xs: (Vec3 | null)[], c: number) => median(xs.filter((x): x is Vec3 => x !== null).map((x) => x[c]));
  const bgMed = [0, 1, 2].map((c) => (useBg ? med(bg, c) : 0));
  const allShift: (Vec3 | null)[] = allSkin.map((s, i) => {
    if (!s) return null;
    const b = allBg[i];
    if (useBg && !b) return null;
    const w = useBg ? cfg.backgroundWeight : 0;
    return [0, 1, 2].map((c) => (b ? w * (b[c] - bgMed[c]) : 0)) as Vec3;
  });
  const allObs: (Vec3 | null)[] = allSkin.map((s, i) =>
    s && allShift[i] ? ([0, 1, 2].map((c) => s[c] - allShift[i]![c]) as Vec3) : null,
  );
  const shift = allShift.slice(0, n);
  const obs = allObs.slice(0, n);
  return { patches, shift, obs, flashObs: allObs.slice(n), useBg, skinFrames, bgFrames };
}

/** The issued sequence's fit at every lag of the search; null when no frame is usable. */
function lagSearch(
  times: readonly number[],
  obs: readonly (Vec3 | null)[],
  changes: readonly number[],
  issued: Issued,
  cfg: LightConfig,
) {
  const { vecs, end, seq } = issued;
  const plans: LagPlan[] = [];
  const steps = Math.max(0, Math.round((cfg.lagMaxS - cfg.lagMinS) / cfg.lagStepS));
  for (let s = 0; s <= steps; s++)
    plans.push(planLag(Math.round((cfg.lagMinS + s * cfg.lagStepS) * 1000) / 1000, times, obs, changes, end, vecs, cfg));
  const P = vecs.length;
  const gram = new Float64Array(P * P);
  for (let a = 0; a < P; a++)
    for (let b = 0; b < P; b++) gram[a * P + b] = vecs[a][0] * vecs[b][0] + vecs[a][1] * vecs[b][1] + vecs[a][2] * vecs[b][2];
  const best = bestLag(plans, seq, vecs, gram);
  return best ? { best, plans, gram } : null;
}

/** Random sequences drawn as the ceremony draws, on the same timeline: the quantile the score must exceed, and its rank. */
function nullDistribution(plans: LagPlan[], issued: Issued, gram: Float64Array, corr: number, cfg: LightConfig) {
  const { palette, vecs } = issued;
  const rand = mulberry32(cfg.nullSeed);
  const nulls: number[] = [];
  const alt = new Int32Array(issued.seq.length);
  for (let q = 0; q < cfg.nullSequences; q++) {
    for (let k = 0; k < alt.length; k++) {
      if (!cfg.noRepeat || k === 0) alt[k] = Math.min(palette.length - 1, Math.floor(rand() * palette.length));
      else {
        const c = Math.min(palette.length - 2, Math.floor(rand() * (palette.length - 1)));
        alt[k] = c >= alt[k - 1] ? c + 1 : c;
      }
    }
    nulls.push(bestLag(plans, alt, vecs, gram)?.fit.corr ?? 0);
  }
  nulls.sort((a, b) => a - b);
  const qIdx = Math.min(nulls.length - 1, Math.floor(cfg.nullQuantile * nulls.length));
  return {
    quantile: nulls.length ? nulls[qIdx] : -1,
    rank: nulls.length ? nulls.filter((x) => x < corr).length / nulls.length : 1,
    count: nulls.length,
  };
}

/** RMS of the fitted response (≈ fraction of the skin colour, signed by the gain), and its ratio to the residual. */
function fittedAmplitude(best: NonNullable<ReturnType<typeof bestLag>>, framesUsed: number) {
  const { gain, expNorm2 } = best.fit;
  const fitted2 = gain * gain * expNorm2;
  return {
    amplitude: Math.sqrt(Math.max(0, fitted2) / (3 * framesUsed)) * Math.sign(gain),
    snr: Math.sqrt(Math.max(0, fitted2) / Math.max(1e-18, best.plan.obsNorm2 - fitted2)),
  };
}

/** The flash check (light-flash.ts) when the challenge issued flashes inside its sequence, else null. */
function flashOf(input: LightInput, observed: Observed, issued: Issued, flashCfg: FlashConfig): FlashResult | null {
  const f = input.flash;
  if (!f || f.count <= 0 || f.first < 0 || f.first + f.count > issued.seq.length) return null;
  const dense = input.flashFrames && input.flashFrames.times.length > 0 ? input.flashFrames : null;
  const [times, obs] = dense ? [dense.times, observed.flashObs] : [input.times, observed.obs];
  const { changes } = input;
  return flashResponse({ times, obs, seq: issued.seq, changes, end: issued.end, flash: f, vecs: issued.vecs }, flashCfg);
}

/** A failed result before the gates could be measured. */
function failed(cfg: LightConfig, useBg: boolean, inTimeline: number, detail: string, framesUsed: number): LightResult {
  return {
    passed: false,
    score: 0,
    lagS: 0,
    nullQuantile: 1,
    nullRank: 0,
    amplitude: 0,
    snr: 0,
    agreement: 0,
    minAgreement: cfg.minAgreement,
    orientation: null,
    minOrientation: cfg.minOrientation,
    framesUsed,
    coverage: inTimeline ? framesUsed / inTimeline : 0,
    threshold: cfg.minScore,
    minAmplitude: cfg.minAmplitude,
    background: useBg,
    flash: null,
    detail,
  };
}

function lightDetail(
  cfg: LightConfig,
  x: {
    corr: number;
    lag: number;
    nul: { quantile: number; rank: number; count: number };
    amplitude: number;
    agreement: number;
    orientation: number | null;
    measured: boolean;
    framesUsed: number;
    useBg: boolean;
    flash: FlashResult | null;
  },
): string {
  const pct = (v: number) => `${(v * 100).toFixed(2)} %`;
  const orient = x.orientation !== null ? pct(x.orientation) : x.measured ? 'not measurable' : 'not measured';
  return (
    `correlation ${x.corr.toFixed(3)} at lag ${x.lag.toFixed(2)} s (min ${cfg.minScore}; ` +
    `null q${Math.round(cfg.nullQuantile * 100)} ${x.nul.quantile.toFixed(3)} over ${x.nul.count} sequences, ` +
    `above ${pct(x.nul.rank)}); amplitude ${pct(x.amplitude)} (min ${pct(cfg.minAmplitude)}); ` +
    `segments agreeing ${pct(x.agreement)} (min ${pct(cfg.minAgreement)}); ` +
    `following the skin's orientation ${orient} (min ${pct(cfg.minOrientation)}); ` +
    `${x.framesUsed} frames, ${x.useBg ? 'background subtracted' : 'no usable background'}` +
    (x.flash ? `; ${x.flash.detail}` : '')
  );
}

/**
 * Light by its physics (light-orientation.ts): the share of the skin's response that follows each
 * region's orientation to the screen, over the colour check's discs and the rest of
 * ORIENTATION_POINTS (measured here, only for a response that passed the other gates). Null when
 * not measurable.
 */
function orientationShare(
  input: LightInput,
  cfg: LightConfig,
  fit: {
    patches: readonly ((Patch | null)[] | null)[];
    shift: readonly (Vec3 | null)[];
    end: number;
    lag: number;
    seq: Int32Array;
    vecs: readonly number[][];
  },
): number | null {
  const more = ORIENTATION_POINTS.slice(SKIN_POINTS.length);
  const all = fit.patches.map((p, i) => {
    const f = input.faces[i];
    return p && f ? [...p, ...skinPatches(input.frames[i], f.mesh, cfg, more)] : null;
  });
  const orient = measureOrientation(
    {
      times: input.times,
      faces: input.faces,
      discs: discChanges(all, cfg),
      shift: fit.shift,
      changes: input.changes,
      end: fit.end,
      lag: fit.lag,
      seq: fit.seq,
      vecs: fit.vecs,
      rampS: cfg.rampS,
      facingRadius: cfg.facingRadius,
      screenBelow: cfg.screenBelow,
      facingSmoothFrames: cfg.facingSmoothFrames,
      minSamples: cfg.orientationMinSamples,
      triangles: input.triangles,
      brightness: discBrightness(all),
      minBrightness: cfg.orientationMinBrightness,
      minFacing: cfg.orientationMinFacing,
    },
    interOcular,
  );
  return orient ? orient.share : null;
}

/**
 * The frames the flash check reads (light-flash.ts): from `preS` before the flash segment to
 * `postS` after it, one sample wider on each side. Null when the challenge issued no flashes.
 */
export function flashWindow(
  light: { changes: readonly number[]; end: number; flash?: { first: number; count: number } },
  cfg: Pick<FlashConfig, 'preS' | 'postS'>,
): { start: number; end: number } | null {
  const f = light.flash;
  if (!f || f.count <= 0 || f.first < 0 || f.first + f.count > light.changes.length) return null;
  const start = light.changes[f.first]! - cfg.preS - 0.05;
  const end = (light.changes[f.first + f.count] ?? light.end) + cfg.postS + 0.05;
  return end > start ? { start: Math.max(0, start), end } : null;
}

/**
 * The face at media time `t` between sampled frames (`times`, `faces`): the two around it
 * interpolated when both have one, else the nearer one within a sampling interval, else null. The
 * flash window's extra frames take their skin discs from it (a face moves little in 125 ms).
 */
export function facesAt(times: readonly number[], faces: readonly (FaceRegion | null)[], t: number): FaceRegion | null {
  let j = 0;
  while (j < times.length && times[j]! <= t) j++;
  const i = j - 1;
  const a = i >= 0 ? faces[i] : null;
  const b = j < times.length ? faces[j] : null;
  if (a && b && a.mesh.length === b.mesh.length) {
    const w = (t - times[i]!) / Math.max(1e-9, times[j]! - times[i]!);
    const lerp = (x: number, y: number) => x + (y - x) * w;
    return {
      mesh: a.mesh.map((p, k) => {
        const q = b.mesh[k]!;
        return [lerp(p[0], q[0]), lerp(p[1], q[1]), lerp(p[2] ?? 0, q[2] ?? 0)] as Pt;
      }),
      box: a.box && b.box ? a.box.map((v, c) => lerp(v, b.box![c] ?? v)) : a.box,
    };
  }
  const gap = times.length > 1 ? times[1]! - times[0]! : Infinity;
  const near = [
    { f: a, d: i >= 0 ? t - times[i]! : Infinity },
    { f: b, d: j < times.length ? times[j]! - t : Infinity },
  ]
    .filter((x) => x.f && x.d <= gap)
    .sort((x, y) => x.d - y.d)[0];
  return near?.f ?? null;
}
