export * from './config.js';
export * from './errors.js';
export * from './nul-guard.js';
export * from './logger.js';
export * from './metrics.js';
export * from './http.js';
export * from './tracing.js';
export * from './grpc.js';
export * from './circuit-breaker.js';
export * from './mongo.js';
export * from './s3.js';
export * from './mail.js';
export {
  STREAM,
  connectBus,
  ensureStream,
  streamConfig,
  publishEvent,
  startConsumer,
  startLagSampler,
  LAG_SAMPLE_MS,
  DEFAULT_MAX_DELIVER,
  DEFAULT_BACKOFF_MS,
  type Bus,
  type LagSampler,
  type ConsumerOptions,
  type DeliveredEvent,
  type OutgoingEvent,
} from './nats.js';
export * from './outbox.js';
export * from './dead-letters.js';
export * from './lifecycle.js';
export * from './process-settings.js';
export * from './serve.js';
export * from './orphan-sweep.js';
export * from './coalescing-runner.js';
export * from './micro-batcher.js';
export * from './assurance.js';
export * from './embed-origins.js';
