import type { Logger } from '@signet/kit';
import type { Analyzer, AnalyzerInput } from '../domain/analyzer.js';
import { isLastDelivery, technicalFailure, type Verdict } from '../domain/verdict.js';
import { verdictIssuedEvent } from '../events/verdict-issued.publisher.js';
import type { BiometricsMetrics } from '../metrics.js';
import type { AnalysisRepository } from '../store/analysis.repository.js';

const MAX_VIDEO_BYTES = 64 * 1024 * 1024;
const MAX_STILL_BYTES = 16 * 1024 * 1024;

/** A submitted capture as the service judges it (events/capture.consumer.ts maps the event to it). */
export type CaptureToJudge = {
  captureId: string;
  transactionId: number;
  signerIndex: number;
  attempt: number;
  videoKey: string;
  frameKey: string;
  referenceKey?: string;
  /** The challenge (analysis input) without media and deadline. */
  challenge: Omit<AnalyzerInput, 'video' | 'finalFrame' | 'reference' | 'deadlineMs' | 'shownMs'>;
  /** The page's shown times, present only when the ceremony found them consistent (assurance live). */
  shownMs?: number[];
  assurance: 'live' | 'recorded';
};

export type JudgeDeps = {
  analyzer: Analyzer;
  analyses: Pick<AnalysisRepository, 'find' | 'insertOnce' | 'technicalErrorsOf'>;
  /** Reads an object whole into memory; media are never written to disk. */
  readMedia: (bucket: 'captures' | 'references', key: string, maxBytes: number) => Promise<Buffer>;
  deadlineMs: number;
  metrics: Pick<
    BiometricsMetrics,
    'verdicts' | 'failedChecks' | 'analysisErrors' | 'analysisSeconds' | 'framesPerSecond' | 'flashFailures'
  >;
  logger: Logger;
  onVerdict?: () => void;
};

/**
 * Judges a submitted capture and stores one verdict with its outbox event. A technical failure
 * (unreadable media, a missed deadline, a worker that died) throws, so the event is delivered again
 * with backoff; on its last delivery the capture ends in ERROR, which charges the signer no attempt
 * (domain/verdict.ts bounds how often). The verdict write is keyed by capture id, so a crash
 * mid-analysis leads to a redelivery and still exactly one verdict.
 */
export async function judgeCapture(deps: JudgeDeps, c: CaptureToJudge, deliveryCount: number): Promise<void> {
  if (await deps.analyses.find(c.captureId)) return; // already judged; the relay publishes its verdict
  let verdict: Verdict;
  try {
    verdict = await analyse(deps, c);
  } catch (err) {
    const final = isLastDelivery(deliveryCount);
    deps.metrics.analysisErrors.inc({ final: String(final) });
    deps.logger.warn({ err: err instanceof Error ? err.message : 'error', capture_id: c.captureId, final }, 'analysis failed');
    if (!final) throw err; // redelivered with backoff
    verdict = technicalFailure(deps.analyzer.models, await deps.analyses.technicalErrorsOf(c.transactionId, c.signerIndex));
  }
  if (!(await store(deps, c, verdict))) return;
  deps.metrics.verdicts.inc({ outcome: verdict.outcome });
  if (verdict.outcome === 'FAIL') for (const check of verdict.failedChecks) deps.metrics.failedChecks.inc({ check });
  if (verdict.flash && !verdict.flash.passed) deps.metrics.flashFailures.inc({ reason: verdict.flash.reason ?? 'unknown' });
  if (verdict.durationMs > 0) {
    deps.metrics.analysisSeconds.observe(verdict.durationMs / 1000);
    deps.metrics.framesPerSecond.observe(verdict.framesAnalysed / (verdict.durationMs / 1000));
  }
  deps.logger.info({ capture_id: c.captureId, outcome: verdict.outcome, failed_checks: verdict.failedChecks }, 'verdict');
  deps.onVerdict?.();
}

async function analyse(deps: JudgeDeps, c: CaptureToJudge): Promise<Verdict> {
  const [video, finalFrame, reference] = await Promise.all([
    deps.readMedia('captures', c.videoKey, MAX_VIDEO_BYTES),
    deps.readMedia('captures', c.frameKey, MAX_STILL_BYTES),
    c.referenceKey ? deps.readMedia('references', c.referenceKey, MAX_STILL_BYTES) : Promise.resolve(undefined),
  ]);
  return deps.analyzer.analyze({ ...c.challenge, video, finalFrame, reference, shownMs: c.shownMs, deadlineMs: deps.deadlineMs });
}

/** The analysis record and its verdict event, once; false when the capture was judged meanwhile. */
function store(deps: JudgeDeps, c: CaptureToJudge, v: Verdict): Promise<boolean> {
  return deps.analyses.insertOnce(
    {
      capture_id: c.captureId,
      transaction_id: c.transactionId,
      signer_index: c.signerIndex,
      attempt: c.attempt,
      outcome: v.outcome,
      failed_checks: v.failedChecks,
      checks: v.checks,
      models: v.models,
      frames_analysed: v.framesAnalysed,
      duration_ms: Math.round(v.durationMs),
      analysed_at: new Date(),
    },
    [
      verdictIssuedEvent({
        transactionId: c.transactionId,
        signerIndex: c.signerIndex,
        captureId: c.captureId,
        attempt: c.attempt,
        outcome: v.outcome,
        failedChecks: v.failedChecks,
        models: v.models,
        assurance: c.assurance,
      }),
    ],
  );
}
