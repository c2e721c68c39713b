import type { Metrics } from '@signet/kit';
import { FLASH_REASONS } from './analysis/light-flash.js';

type CounterOf = ReturnType<Metrics['counter']>;
type HistogramOf = ReturnType<Metrics['histogram']>;
type GaugeOf = ReturnType<Metrics['gauge']>;

export type BiometricsMetrics = Record<'verdicts' | 'failedChecks' | 'analysisErrors' | 'flashFailures', CounterOf> &
  Record<'analysisSeconds' | 'framesPerSecond', HistogramOf> &
  Record<'backendInfo' | 'modelRuntime', GaugeOf> & {
    /** The speech worker's (analysis/words.ts), handed to it so that it declares nothing itself. */
    words: { checks: CounterOf; seconds: HistogramOf; starts: CounterOf };
  };

/** The biometrics service's domain instruments (declared in README.md), besides the kit's gRPC, outbox and consumer ones. */
export function biometricsMetrics(metrics: Metrics): BiometricsMetrics {
  return {
    verdicts: metrics.counter(
      'signet_biometrics_verdicts_total',
      'Verdicts by outcome (PASS, FAIL; ERROR: the analysis kept failing for technical reasons, no attempt charged)',
      ['outcome'],
      { outcome: ['PASS', 'FAIL', 'ERROR'] }, // from 0: the alerts' increase() sees the first one after a restart
    ),
    failedChecks: metrics.counter('signet_biometrics_failed_checks_total', 'Failed checks in FAIL verdicts', ['check']),
    flashFailures: metrics.counter(
      'signet_biometrics_flash_failures_total',
      'Captures whose face did not reflect the short flashes in the right frames, by reason (not_measurable, no_response, not_the_flashes, late, early)',
      ['reason'],
      { reason: [...FLASH_REASONS] },
    ),
    analysisErrors: metrics.counter(
      'signet_biometrics_analysis_errors_total',
      'Analyses that failed for technical reasons (final = the last try: an ERROR verdict follows)',
      ['final'],
      { final: ['true', 'false'] },
    ),
    analysisSeconds: metrics.histogram(
      'signet_biometrics_analysis_duration_seconds',
      'Time from start of analysis to verdict',
      [],
      [0.5, 1, 2, 3, 5, 8, 10, 15, 20, 30, 60],
    ),
    framesPerSecond: metrics.histogram(
      'signet_biometrics_frames_per_second',
      'Frames analysed per second of analysis',
      [],
      [1, 2, 4, 8, 12, 16, 24, 32, 64],
    ),
    backendInfo: metrics.gauge(
      'signet_biometrics_tfjs_backend_info',
      'tfjs backend the analysis runs on (1 = in use): backend = TF_BACKEND resolved, tfjs = tfjs name, device = cpu|gpu',
      ['backend', 'tfjs', 'device'],
    ),
    modelRuntime: metrics.gauge(
      'signet_biometrics_model_runtime_info',
      'how each model runs on a native backend (1 = in use): runtime = session (its graph in one TensorFlow call) or eager (op by op)',
      ['model', 'runtime'],
    ),
    words: {
      checks: metrics.counter('signet_biometrics_words_checks_total', 'Words checks by outcome', ['outcome']),
      seconds: metrics.histogram(
        'signet_biometrics_words_check_seconds',
        'Time of one words check',
        [],
        [0.1, 0.25, 0.5, 1, 2, 5, 10],
      ),
      starts: metrics.counter('signet_biometrics_speech_worker_starts_total', 'Speech worker processes started'),
    },
  };
}
