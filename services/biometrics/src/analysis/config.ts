/**
 * Every threshold of the analysis, in one place. Values were calibrated on the synthetic corpus
 * (corpus/make-corpus.ts) and the package-photo evaluation (eval/evaluate.ts); see
 * eval/biometrics-evaluation.md for how little data that is. Distances are raw Euclidean
 * distances between L2-normalised Human faceres descriptors (0…2), never Human's similarity.
 */
export const ACTIONS = ['turn_left', 'turn_right', 'blink', 'smile', 'look_up'] as const;
export type Action = (typeof ACTIONS)[number];

export const analysisConfig = {
  /** Video sampling: frames per second and width (px) handed to the detector. */
  /** `plan`: run each model only on the frames its checks read (frame-plan.ts); false runs every
   *  model on every frame (the benchmark's baseline). */
  /** `detectEvery`: the face detector on every n-th sampled frame; between, the boxes follow the
   *  previous frame's mesh (detect.ts; 1 = the detector on every frame). */
  sampling: { fps: 8, width: 640, plan: true as boolean, detectEvery: 4 },
  /** Detector: faces per frame that are counted (≥ 2 so a second face is seen). */
  maxFacesPerFrame: 3,

  /** face_present: fraction of sampled frames with ≥ 1 face. */
  facePresentMinFraction: 0.9,
  /** single_face: fraction of sampled frames with exactly one face (given a face); and the
   *  final frame / reference must contain exactly one face. */
  singleFaceMinFraction: 0.9,
  /** A detected face smaller than this fraction of the largest face's width is ignored
   *  (tiny background faces, e.g. on a poster far away). */
  minRelativeFaceWidth: 0.35,

  /** Baseline: the signer's own first frames (seconds) define neutral yaw/pitch/EAR/mouth. */
  baselineSeconds: 1.0,

  /** Head turns. Human reports about half the rendered yaw, so this is a *change* from the
   *  baseline in Human's degrees (rendered 35° → reported 17–26°). Sign: turn_left = subject's own
   *  left (nose towards image right in a non-mirrored capture), which DEcreases Human's yaw, hence
   *  leftSign −1. */
  turn: { minDeltaDeg: 7.5, returnDeg: 4, minFrames: 2, leftSign: -1 as 1 | -1 },
  /** Two runs of one action this close (seconds, end to start) are one action seen twice: a head
   *  turn whose yaw dips under the return angle for a frame or two (at 8 fps, up to two frames)
   *  was counted as a second, stray turn outside the window (eval: a genuine capture failed so). */
  mergeGapS: 0.4,
  /** Look up: pitch change from baseline (Human degrees); looking up decreases Human's pitch. */
  lookUp: { minDeltaDeg: 6, returnDeg: 3, minFrames: 2, upSign: -1 as 1 | -1 },
  /** Blink: mean eye-aspect-ratio drop relative to the baseline EAR, for ≥ minFrames frames and
   *  recovery; only counted while the head is near neutral (|Δyaw|, |Δpitch| below maxPoseDeg).
   *  0.25, not 0.3: a rendered closed lid dropped one face's ratio by 28 %, where open eyes vary by
   *  ≤ 5 % (p90, with the iris refinement); a blink is no barrier to an attacker either way. */
  blink: { minDrop: 0.25, recoverDrop: 0.15, minFrames: 1, maxPoseDeg: 6 },
  /** Smile: mouth width ratio increase (relative) OR corner lift increase (in inter-ocular units),
   *  near-neutral head pose, ≥ minFrames, and back. */
  smile: { minWidthIncrease: 0.07, minLiftIncrease: 0.03, minFrames: 2, maxPoseDeg: 8 },

  /** liveness_motion: max non-rigid landmark residual (Procrustes, inter-ocular units). */
  livenessMotion: { minResidual: 0.025 },
  /** sensor_noise: median mean-absolute inter-frame difference (grey levels, 0–255) of
   *  consecutive sampled frames; a virtual camera replaying one image gives ≈ 0. */
  sensorNoise: { minMeanAbsDiff: 0.3 },

  /** Identity: raw descriptor distance (Euclidean on L2-normalised Human faceres embeddings).
   *  identity_consistency: every embedding frame must be within this distance of the signer's
   *  baseline embedding. */
  identity: {
    maxDistance: 0.75,
    embeddingFrames: 10,
    maxPoseDeg: 10,
    /** per analysed frame, by pose: distance to the signer's baseline descriptor (see identity.ts).
     *  Each the middle of its pose's gap between the largest genuine frame distance and the smallest
     *  other-person frame distance measured on rendered captures (eval/evaluate.ts, 27 genuine
     *  captures of 6 people: neutral 0.766 | 0.854, turned 0.779 | 0.857, up 0.638 | 0.938). */
    poseMaxDistance: { neutral: 0.81, turned: 0.82, up: 0.79 },
    /** the description runs on every embedEvery-th sampled frame (and on the last frames: frame-plan.ts);
     *  `sampling.detectEvery` must be a multiple of it, so that those frames track their boxes */
    embedEvery: 2,
    /** fraction of the face frames planned for a description that must carry one */
    minCoverage: 0.9,
  },
  /** final_frame_match: descriptor distance to the last embedded video frames AND pixel
   *  correlation (NCC of 64×48 grey thumbnails) with one of the last `lastSeconds` frames. */
  finalFrame: { maxDistance: 0.6, minNcc: 0.9, lastSeconds: 1.5 },
  /** reference_match: descriptor distance between the reference photo and the video's face. */
  reference: { maxDistance: 0.75 },
  /** voice_activity: speech-like sound while the words are on screen: the first `windowSeconds`
   *  of the recording unless the capture's challenge states its read_seconds (the page's timeline). */
  voice: {
    required: true,
    windowSeconds: 6,
    minVoicedSeconds: 0.6,
    frameMs: 30,
    marginDb: 12,
    minDb: -55,
    maxZcr: 0.25,
    minRunFrames: 3,
  },
  /** media: the ceremony's quality floors (ceremony MEDIA_RULES), measured again on what was decoded,
   *  so that a capture that did not pass through the ceremony's probe cannot be judged below them:
   *  picture size (either orientation), source frames per decoded second (the ceremony's 8 less the
   *  sampling's rounding), and the whole file's bits per pixel per second (video and audio: more
   *  lenient than the ceremony's video-only rate). */
  media: { minShortSide: 240, minLongSide: 320, minFps: 7.5, minBitsPerPixelSecond: 200_000 / (640 * 480) },
  /** light: the skin's chromaticity must follow the issued screen-colour sequence (light.ts).
   *  Radii in inter-ocular units; times in seconds; amplitude in log-chromaticity (≈ fraction).
   *  Thresholds from rendered captures (test/light.int.test.ts, docs/decisions.md "Light challenge"). */
  light: {
    patchRadius: 0.1,
    minSkinPixels: 60,
    patchOutlier: 4,
    patchOutlierMin: 0.08,
    backgroundStep: 8,
    backgroundMargin: 1.7,
    minBackgroundPixels: 200,
    minBackgroundFraction: 0.8,
    backgroundWeight: 1,
    requireBackground: true,
    lagMinS: -0.2,
    lagMaxS: 0.6,
    lagStepS: 0.05,
    rampS: 0.15,
    detrendDegree: 1,
    minFrames: 24,
    minCoverage: 0.7,
    minScore: 0.6,
    nullSequences: 200,
    nullQuantile: 0.99,
    nullSeed: 0x5eed1157,
    noRepeat: true,
    minAmplitude: 0.004,
    minAgreement: 0.7,
    settleS: 0.3,
    /** light by its physics (light-orientation.ts), over the discs facing the screen at least
     *  `orientationMinFacing` (0.3, about 72° at most: at a grazing angle the mesh's facing is least
     *  trustworthy and a disc blurs into its neighbours; such discs responded far more than Lambert gives
     *  and flattened the genuine captures' fits). The middle (40 %) between the highest attack share on
     *  the development split of captures as long as the ceremony issues them (15–19 s of light) —
     *  genuine-set draws 4–7, 9–15, 19–21, 25, 31, 61, 67, 73, 78, 79, 85: person p1's uniform
     *  tint reaches 27 % (draws 61 and 85), its mild recapture 18 % — and the lowest share of a face
     *  lit by physics there, 53 %; evaluated on the new draws 36–47 (eval/results/session18-light.md).
     *  The 10 s captures that set 0.21 in session 17 are shorter than any ceremony (22–48 % between
     *  runs); test/light.int.test.ts now renders the ceremony's shortest timeline. */
    minOrientation: 0.4,
    facingRadius: 0.3,
    screenBelow: 0,
    facingSmoothFrames: 0,
    orientationMinSamples: 60,
    orientationMinBrightness: 0,
    orientationMinFacing: 0.3,
  },
  /** short flashes (light-flash.ts): four 250 ms colours in one segment, each reflected in the right
   *  frames. The lag window allows display and camera latency (the corpus renders 100 ms) and, early,
   *  the page's clock running ahead of the recording's (it starts before the first frame, and its
   *  shown times drift late over a stream in Chromium: the signing-page browser test measured 450 ms
   *  twice and 675 ms under a load of 5, so the early bound is 700 ms, inside a search to −1 s; an
   *  early response gains a puppet nothing, as it reports its own shown times, bounded by the
   *  reveal: docs/decisions.md, session 20); a response 300 ms later than physics gives (a puppet
   *  rendering after each reveal) is outside it. */
  flash: {
    searchMinS: -1.0,
    searchMaxS: 1.0,
    lagStepS: 0.025,
    lagMinS: -0.7,
    lagMaxS: 0.28,
    rampS: 0.15,
    preS: 0.25,
    postS: 0.5,
    minCorr: 0.5,
    maxRank: 0.02,
    minFramesPerStep: 1.5,
    /** the flash window is decoded again at the capture's own rate, at most this (analyze.ts flashDecode) */
    denseMaxFps: 30,
  },
} as const;

export type AnalysisConfig = typeof analysisConfig;
