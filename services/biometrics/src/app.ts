import {
  addService,
  connectBus,
  connectMongo,
  createLogger,
  createOutboxRelay,
  createS3,
  Metrics,
  pingMongo,
  serveGrpc,
  startConsumer,
  type Logger,
} from '@signet/kit';
import { biometricsV1, events } from '@signet/proto';
import { tensorflowEnvironment, type BiometricsConfig } from './config.js';
import type { Analyzer } from './domain/analyzer.js';
import { captureConsumer } from './events/capture.consumer.js';
import { biometricsHandlers } from './grpc/biometrics.handler.js';
import { createAnalysisRepository, type AnalysisRepository } from './store/analysis.repository.js';
import { isMissingObject, readObject } from './store/media.store.js';
import { createHumanAnalyzer } from './analysis/adapter.js';
import { SpeechWorker } from './analysis/words.js';
import { announceBackend, planBackend } from './analysis/backend.js';
import { biometricsMetrics, type BiometricsMetrics } from './metrics.js';

/**
 * Starts the biometrics service: loads the models shipped in npm packages, then consumes
 * events.captureSubmitted and publishes events.verdictIssued (the registry in proto/events) through its outbox.
 */
export async function startBiometrics(cfg: BiometricsConfig, opts: { logger?: Logger; analyzer?: Analyzer } = {}) {
  const logger = opts.logger ?? createLogger('biometrics', cfg.LOG_LEVEL);
  const metrics = new Metrics('biometrics');
  const m = biometricsMetrics(metrics);
  const { analyzer, speech } = opts.analyzer ? { analyzer: opts.analyzer, speech: null } : await loadAnalyzer(cfg, logger, m);
  logger.info({ models: analyzer.models }, 'models loaded');
  const closeModels = async () => {
    await (analyzer as { close?: () => Promise<void> }).close?.();
    await speech?.close();
  };
  // A start that fails part way undoes what it started (newest first): no recogniser process, worker
  // threads or connections are left behind by a failed start (a test's, or a supervisor's retry).
  const undo: (() => unknown)[] = [closeModels];
  try {
    const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
    undo.unshift(() => conn.close());
    const bus = await connectBus(cfg.NATS_URL, 'biometrics');
    undo.unshift(() => bus.nc.drain());
    const s3 = createS3(cfg);
    const analyses = createAnalysisRepository(conn);
    await analyses.init();
    const checks = [
      { name: 'mongo', check: () => pingMongo(conn) },
      { name: 'nats', check: async () => bus.nc.flush() },
      { name: 's3', check: () => s3.listBuckets() },
    ];
    const relay = createOutboxRelay(bus, [analyses.model], { metrics, logger });
    undo.unshift(() => relay.stop());
    const consumer = await startCaptureIntake(bus, cfg, { s3, analyzer, analyses, m, metrics, logger, onVerdict: relay.kick });
    undo.unshift(() => consumer.stop());
    const served = await serveGrpc({
      name: 'biometrics',
      logger,
      metrics,
      grpcPort: cfg.GRPC_PORT,
      opsPort: cfg.OPS_PORT,
      checks,
      register: (server) => registerBiometrics(server, cfg, { s3, analyzer, analyses, metrics, logger }),
    });
    return {
      grpcPort: served.grpcPort,
      opsPort: served.opsPort,
      metrics,
      analyses,
      async stop() {
        // Stopped in this order: intake first, then the relay, the connections, and the models last.
        await served.stop();
        await consumer.stop();
        relay.stop();
        await bus.nc.drain();
        await conn.close();
        await closeModels();
      },
    };
  } catch (err) {
    for (const step of undo)
      try {
        await step();
      } catch {
        // already failing: the start's own error is the one to report
      }
    throw err;
  }
}

/**
 * The analyzer of the models shipped in npm packages, and the words recogniser it asks: one Python
 * process, started now so its model is loaded before the first capture; if it cannot start the words
 * check fails closed (the analysis errors and is retried).
 */
async function loadAnalyzer(cfg: BiometricsConfig, logger: Logger, m: BiometricsMetrics) {
  const speech = new SpeechWorker({ python: cfg.SPEECH_PYTHON, timeoutMs: cfg.SPEECH_TIMEOUT_MS, logger, metrics: m.words });
  await speech
    .start()
    .catch((err: unknown) =>
      logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'speech recogniser unavailable: the words check cannot pass',
      ),
    );
  try {
    // Decided once, here (thread variables set before libtensorflow loads); worker threads get the
    // resolved backend, never `auto`.
    const plan = planBackend(cfg.TF_BACKEND, cfg.ANALYSIS_WORKERS, { env: tensorflowEnvironment() });
    const human = await createHumanAnalyzer({
      backend: plan.backend,
      workers: plan.workers,
      requireVoice: cfg.VOICE_REQUIRED,
      verifyWords: (pcm, words, window) => speech.verify(pcm, words, window),
    });
    announceBackend(plan, human.tfjsBackend, { logger, gauge: m.backendInfo });
    if (human.sessions.length) {
      for (const s of human.sessions) m.modelRuntime.set({ model: s.name, runtime: s.runtime }, 1);
      const eager = human.sessions.filter((s) => s.runtime === 'eager');
      if (eager.length) logger.warn({ eager }, 'some models run op by op (scripts/tfjs-native.sh converts them)');
      else logger.info({ sessions: human.sessions.map((s) => s.name) }, 'models run as TensorFlow sessions');
    }
    return { analyzer: human, speech };
  } catch (err) {
    // no recogniser process is left behind by a backend that cannot load
    await speech.close();
    throw err;
  }
}

type Parts = {
  s3: ReturnType<typeof createS3>;
  analyzer: Analyzer;
  analyses: AnalysisRepository;
  metrics: Metrics;
  logger: Logger;
};

/** The intake: events.captureSubmitted, one capture at a time, each analysed within its deadline; a verdict kicks the outbox relay. */
function startCaptureIntake(
  bus: Awaited<ReturnType<typeof connectBus>>,
  cfg: BiometricsConfig,
  d: Parts & { m: BiometricsMetrics; onVerdict: () => void },
) {
  const { s3, analyzer, analyses, metrics, logger } = d;
  return startConsumer(
    bus,
    // An analysis may take up to its deadline: the ack wait must outlast it.
    {
      durable: 'biometrics-capture-submitted',
      events: [events.captureSubmitted],
      ackWaitMs: cfg.ANALYSIS_DEADLINE_MS + 30_000,
      maxBatch: 1,
    },
    captureConsumer({
      readMedia: (bucket, key, maxBytes) =>
        readObject(s3, bucket === 'captures' ? cfg.BUCKET_CAPTURES : cfg.BUCKET_REFERENCES, key, maxBytes),
      analyzer,
      analyses,
      deadlineMs: cfg.ANALYSIS_DEADLINE_MS,
      metrics: d.m,
      logger,
      onVerdict: d.onVerdict,
    }),
    { metrics, logger },
  );
}

/** The gRPC service: analyses read back, and a reference photo's faces counted (a missing reference is null). */
function registerBiometrics(server: Parameters<Parameters<typeof serveGrpc>[0]['register']>[0], cfg: BiometricsConfig, d: Parts) {
  const { s3, analyzer, analyses, metrics, logger } = d;
  addService(
    server,
    biometricsV1.BiometricsServiceService,
    biometricsHandlers(analyses, {
      analyzer,
      readReference: (key, maxBytes) =>
        readObject(s3, cfg.BUCKET_REFERENCES, key, maxBytes).catch((err: unknown) => {
          if (isMissingObject(err)) return null;
          throw err;
        }),
    }),
    { metrics, logger },
  );
}
