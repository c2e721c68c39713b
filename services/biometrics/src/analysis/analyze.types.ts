/** The analysis's input and result shapes and its errors (analyze.ts). */
import type { ActionEvent } from './sequence.js';
export type CheckName =
  | 'face_present'
  | 'single_face'
  | 'liveness_motion'
  | 'sequence'
  | 'identity_consistency'
  | 'final_frame_match'
  | 'reference_match'
  | 'sensor_noise'
  | 'voice_activity'
  | 'words'
  | 'light'
  | 'media';

export interface CheckResult {
  /** true/false; null when not applicable (e.g. no reference given) */
  passed: boolean | null;
  value: number | null;
  threshold: number | null;
  detail?: string;
}

export interface AnalyzeInput {
  video: Buffer;
  finalFrame: Buffer;
  reference?: Buffer;
  /**
   * readSeconds: the words are read in [0, readSeconds] of the recording (default:
   * cfg.voice.windowSeconds), unless wordsWindow says where. With a server timeline: `windows`
   * (seconds) per action, and `strict` makes any head turn or look-up outside them fail (the head is
   * neutral between actions); `light` is the screen-colour sequence the face must reflect.
   */
  challenge: {
    actions: string[];
    windows?: [number, number][];
    readSeconds?: number;
    words?: string[];
    wordsWindow?: [number, number];
    strict?: boolean;
    /** `flash`: colours[first … first + count) are the flash segment's steps (light-flash.ts) */
    light?: { colours: string[]; changes: number[]; end: number; flash?: { first: number; count: number } };
  };
  /** Checks the spoken words in their window (the speech recogniser); absent → the words check is not applicable. */
  verifyWords?: WordsVerifier;
  deadlineMs: number;
  /** Whether a silent reading window fails the verdict (default: analysisConfig.voice.required). */
  requireVoice?: boolean;
}

export type WordsVerifier = (
  pcm: Int16Array,
  words: readonly string[],
  window: readonly [number, number],
) => Promise<{ passed: boolean; score: number | null; threshold: number; detail: string }>;

export interface AnalyzeResult {
  outcome: 'PASS' | 'FAIL';
  checks: Record<CheckName, CheckResult>;
  failed_checks: CheckName[];
  scores: Record<string, number | null> & { events?: never };
  events: ActionEvent[];
  models: { name: string; version: string }[];
  frames_analysed: number;
  /** the flash part of the light check (light-flash.ts): null when no flashes were issued or measured */
  flash: { passed: boolean; reason: string | null } | null;
  duration_ms: number;
  /** detector_calls: images the face detector ran on (the others tracked the previous frame's boxes) */
  timings: {
    decode_ms: number;
    inference_ms: number;
    inference_calls: number;
    detector_calls: number;
    /** from the start until the frame pass had every frame's faces */
    frames_done_ms: number;
    /** spent waiting for the words recogniser after everything else was done */
    words_wait_ms: number;
    total_ms: number;
  };
}

export class AnalysisDeadlineError extends Error {
  constructor(
    public readonly stage: string,
    public readonly elapsedMs: number,
  ) {
    super(`analysis deadline exceeded during ${stage} after ${Math.round(elapsedMs)} ms`);
    this.name = 'AnalysisDeadlineError';
  }
}

export class InvalidChallengeError extends Error {}
