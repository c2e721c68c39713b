/** What the consumer needs from the analysis core (src/analysis), so the service can be tested around it. */
export type AnalyzerInput = {
  video: Buffer;
  finalFrame: Buffer;
  reference?: Buffer;
  actions: string[];
  /** seconds of the recording in which the words are read (0/undefined: the analysis default) */
  readSeconds?: number;
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
};

export type Analyzer = {
  models: string[];
  analyze(input: AnalyzerInput): Promise<AnalyzerResult>;
};
