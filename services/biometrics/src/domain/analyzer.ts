/** What the consumer needs from the analysis core (src/analysis), so the service can be tested around it. */
export type AnalyzerInput = {
  video: Buffer;
  finalFrame: Buffer;
  reference?: Buffer;
  actions: string[];
  /** seconds of the recording in which the words are read (0/undefined: the analysis default) */
  readSeconds?: number;
  /** The issued words (checked against the speech in their window when a timeline is given). */
  words?: string[];
  /** The server-issued timeline (absent on older captures: then only the order of actions counts). */
  timeline?: {
    segmentMs: number;
    wordsStartMs: number;
    wordsEndMs: number;
    actions: { action: string; startMs: number; endMs: number }[];
    colours: string[];
    totalMs: number;
    flash?: { segment: number; stepMs: number; colours: string[] };
  };
  /** For a live capture: the media time (ms) each segment was shown at; else segments start on schedule. */
  shownMs?: number[];
  deadlineMs: number;
};

export type AnalyzerResult = {
  outcome: 'PASS' | 'FAIL';
  failedChecks: string[];
  checks: Record<string, unknown>;
  models: string[];
  framesAnalysed: number;
  durationMs: number;
  inferenceMs: number;
  /** the flash part of the light check: why it failed (light-flash.ts FLASH_REASONS), when it ran */
  flash?: { passed: boolean; reason: string | null };
};

export type Analyzer = {
  models: string[];
  analyze(input: AnalyzerInput): Promise<AnalyzerResult>;
  /**
   * The faces in a still photo as the analysis counts a reference's (same detector, same limits):
   * a reference must show exactly one. Throws when the photo does not decode.
   */
  countFaces(photo: Buffer, deadlineMs: number): Promise<number>;
};
