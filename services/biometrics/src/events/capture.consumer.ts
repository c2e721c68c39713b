import type { Client } from 'minio';
import { events } from '@signet/proto';
import { outboxEvent, type DeliveredEvent, type Logger, type Metrics } from '@signet/kit';
import type { Analyzer, AnalyzerResult } from '../domain/analyzer.js';
import type { AnalysisRepository } from '../store/analysis.repository.js';
import { readObject } from '../store/media.store.js';

/** Deliveries of one capture that may fail for technical reasons before it is judged FAIL. */
export const MAX_ANALYSIS_DELIVERIES = 3;

/**
 * Analyses a submitted capture and stores one verdict with its outbox event. Media are read from
 * MinIO into memory only. The verdict write is keyed by capture id, so a crash mid-analysis leads
 * to a redelivery and still exactly one verdict.
 */
export function captureConsumer(deps: {
  s3: Client;
  buckets: { captures: string; references: string };
  analyzer: Analyzer;
  analyses: AnalysisRepository;
  deadlineMs: number;
  metrics: Metrics;
  logger: Logger;
  onVerdict?: () => void;
}) {
  const verdicts = deps.metrics.counter('signet_biometrics_verdicts_total', 'Verdicts by outcome', ['outcome']);
  const failedChecks = deps.metrics.counter('signet_biometrics_failed_checks_total', 'Failed checks in FAIL verdicts', ['check']);
  const duration = deps.metrics.histogram(
    'signet_biometrics_analysis_duration_seconds',
    'Time from start of analysis to verdict',
    [],
    [0.5, 1, 2, 3, 5, 8, 10, 15, 20, 30, 60],
  );
  const fps = deps.metrics.histogram(
    'signet_biometrics_frames_per_second',
    'Frames analysed per second of analysis',
    [],
    [1, 2, 4, 8, 12, 16, 24, 32, 64],
  );
  const errors = deps.metrics.counter('signet_biometrics_analysis_errors_total', 'Analyses that failed for technical reasons', [
    'final',
  ]);

  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.captureSubmitted.message.decode(delivered.data);
    if (await deps.analyses.find(ev.captureId)) return; // already judged; the relay publishes its verdict

    let result: AnalyzerResult;
    try {
      const [video, finalFrame, reference] = await Promise.all([
        readObject(deps.s3, deps.buckets.captures, ev.videoKey, 64 * 1024 * 1024),
        readObject(deps.s3, deps.buckets.captures, ev.frameKey, 16 * 1024 * 1024),
        ev.referenceKey
          ? readObject(deps.s3, deps.buckets.references, ev.referenceKey, 16 * 1024 * 1024)
          : Promise.resolve(undefined),
      ]);
      result = await deps.analyzer.analyze({
        video,
        finalFrame,
        reference,
        actions: ev.challenge?.actions ?? [],
        readSeconds: ev.challenge?.readSeconds || undefined,
        words: ev.challenge?.words ?? [],
        timeline: ev.challenge?.timeline?.segmentMs ? ev.challenge.timeline : undefined,
        // The page's shown times are trusted for the windows only when the ceremony found them consistent.
        shownMs: ev.live?.assurance === 'live' ? ev.live.shownMs : undefined,
        deadlineMs: deps.deadlineMs,
      });
    } catch (err) {
      const final = delivered.deliveryCount + 1 >= MAX_ANALYSIS_DELIVERIES;
      errors.inc({ final: String(final) });
      deps.logger.warn({ err: err instanceof Error ? err.message : 'error', capture_id: ev.captureId, final }, 'analysis failed');
      if (!final) throw err; // redelivered with backoff
      result = {
        outcome: 'FAIL',
        failedChecks: ['analysis_error'],
        checks: {},
        models: deps.analyzer.models,
        framesAnalysed: 0,
        durationMs: 0,
        inferenceMs: 0,
      };
    }

    const inserted = await deps.analyses.insertOnce(
      {
        capture_id: ev.captureId,
        transaction_id: ev.transactionId,
        signer_index: ev.signerIndex,
        attempt: ev.attempt,
        outcome: result.outcome,
        failed_checks: result.failedChecks,
        checks: result.checks,
        models: result.models,
        frames_analysed: result.framesAnalysed,
        duration_ms: Math.round(result.durationMs),
        analysed_at: new Date(),
      },
      [
        outboxEvent(events.verdictIssued, (meta) => ({
          eventId: meta.event_id,
          occurredAt: meta.occurred_at,
          transactionId: ev.transactionId,
          signerIndex: ev.signerIndex,
          captureId: ev.captureId,
          attempt: ev.attempt,
          outcome: result.outcome,
          failedChecks: result.failedChecks,
          models: result.models,
          assurance: ev.live?.assurance === 'live' ? 'live' : 'recorded',
        })),
      ],
    );
    if (!inserted) return;
    verdicts.inc({ outcome: result.outcome });
    for (const c of result.failedChecks) failedChecks.inc({ check: c });
    if (result.durationMs > 0) {
      duration.observe(result.durationMs / 1000);
      fps.observe(result.framesAnalysed / (result.durationMs / 1000));
    }
    deps.logger.info({ capture_id: ev.captureId, outcome: result.outcome, failed_checks: result.failedChecks }, 'verdict');
    deps.onVerdict?.();
  };
}
