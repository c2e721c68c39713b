import { createLogger, loadConfig, runMain, startTracing } from '@signet/kit';
import { identityConfigSchema } from './config.js';

const cfg = loadConfig(identityConfigSchema);
startTracing('identity', cfg.OTEL_EXPORTER_OTLP_ENDPOINT);
const logger = createLogger('identity', cfg.LOG_LEVEL);
const { startIdentity } = await import('./app.js');
runMain(logger, () => startIdentity(cfg, { logger }), cfg);
