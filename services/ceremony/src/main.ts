import { createLogger, loadConfig, runMain, startTracing } from '@signet/kit';
import { ceremonyConfigSchema } from './config.js';

const cfg = loadConfig(ceremonyConfigSchema);
startTracing('ceremony', cfg.OTEL_EXPORTER_OTLP_ENDPOINT);
const logger = createLogger('ceremony', cfg.LOG_LEVEL);
const { startCeremony } = await import('./app.js');
runMain(logger, () => startCeremony(cfg, { logger }), cfg);
