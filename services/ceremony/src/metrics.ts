import type { Metrics } from '@signet/kit';

type CounterOf = ReturnType<Metrics['counter']>;
type HistogramOf = ReturnType<Metrics['histogram']>;
export type CeremonyMetrics = Record<
  | 'consents'
  | 'challenges'
  | 'captures'
  | 'webauthn'
  | 'forensic'
  | 'verdicts'
  | 'live'
  | 'liveProblems'
  | 'assurance'
  | 'belowRequired',
  CounterOf
> &
  Record<'captureBytes' | 'captureSeconds', HistogramOf> & {
    /** The page's capture_source reports, by whether the camera's label names virtual-camera software (informational). */
    captureSources: CounterOf;
  };

/** The ceremony service's domain instruments (declared in README.md), besides the kit's gRPC, outbox and consumer ones. */
export function ceremonyMetrics(metrics: Metrics): CeremonyMetrics {
  return {
    consents: metrics.counter('signet_ceremony_consents_total', 'Consent requests by result', ['result']),
    challenges: metrics.counter('signet_ceremony_challenges_issued_total', 'Challenges served, new or the live one again', [
      'kind',
    ]),
    captures: metrics.counter('signet_ceremony_captures_total', 'Capture submissions by result', ['result']),
    captureBytes: metrics.histogram(
      'signet_ceremony_capture_video_bytes',
      'Size of accepted videos',
      [],
      [1e5, 5e5, 1e6, 2.5e6, 5e6, 1e7, 2.5e7, 5e7],
    ),
    captureSeconds: metrics.histogram(
      'signet_ceremony_capture_processing_seconds',
      'Time to check and store a capture',
      [],
      [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    ),
    webauthn: metrics.counter('signet_ceremony_webauthn_total', 'WebAuthn verifications by kind and result', ['kind', 'result']),
    forensic: metrics.counter('signet_ceremony_forensic_batches_total', 'Forensic batches by result', ['result']),
    captureSources: metrics.counter(
      'signet_ceremony_capture_sources_total',
      'Cameras the signing page reported (forensic capture_source), by camera: virtual_label (its label names virtual-camera software) or other; informational, the page is client-controlled',
      ['camera'],
    ),
    verdicts: metrics.counter('signet_ceremony_verdicts_recorded_total', 'Biometric verdicts recorded on sessions', ['outcome']),
    live: metrics.counter(
      'signet_ceremony_live_chunks_total',
      'Live recordings started and their chunks by result (appended, duplicate, gap, too_large, too_many)',
      ['result'],
      // From 0: SignetLiveChunksRefused's increase() sees the first chunks after a restart.
      { result: ['started', 'appended', 'duplicate', 'gap', 'too_large', 'too_many'] },
    ),
    liveProblems: metrics.counter(
      'signet_ceremony_live_chunk_problems_total',
      'Live chunks refused (unreadable, no_media) or making their recording only recorded (behind, ahead, out_of_order, late, shown_early, shown_late), by reason',
      ['reason'],
      { reason: ['unreadable', 'no_media', 'behind', 'ahead', 'out_of_order', 'late', 'shown_early', 'shown_late'] },
    ),
    assurance: metrics.counter(
      'signet_ceremony_capture_assurance_total',
      'Accepted captures by the assurance their timing proves (live, recorded)',
      ['assurance'],
    ),
    belowRequired: metrics.counter(
      'signet_ceremony_captures_below_required_assurance_total',
      'Captures and upload challenges refused before analysis for proving less than the sender requires, by requirement and by what was offered (recorded, live, upload)',
      ['required', 'offered'],
    ),
  };
}

export type ErasureMetrics = { erased: CounterOf; overdue: CounterOf };

/** The erasure job's instruments (jobs/biometric-erasure.job.ts). */
export function erasureMetrics(metrics: Metrics): ErasureMetrics {
  return {
    erased: metrics.counter(
      'signet_ceremony_biometric_objects_erased_total',
      'Capture videos and frames deleted by the erasure job, by reason (retention, sender)',
      ['reason'],
    ),
    overdue: metrics.counter(
      'signet_ceremony_erasure_overdue_objects_total',
      'Capture objects the daily reconciliation found still stored past their erasure, and deleted (the job had failed)',
    ),
  };
}

export type OrphanSweepMetrics = { removed: CounterOf; runs: CounterOf; aborted: CounterOf };

/** The orphan sweep's instruments (jobs/orphan.sweep.ts). */
export function orphanSweepMetrics(metrics: Metrics): OrphanSweepMetrics {
  return {
    removed: metrics.counter(
      'signet_ceremony_orphans_removed_total',
      'Capture objects removed by the orphan sweep (no capture record points to them)',
    ),
    runs: metrics.counter('signet_ceremony_orphan_sweeps_total', 'Orphan sweep passes by result', ['result']),
    aborted: metrics.counter(
      'signet_ceremony_incomplete_uploads_aborted_total',
      'Capture multipart uploads begun before the orphan cutoff and never completed, aborted by the orphan sweep',
    ),
  };
}
