import { createLogger, loadConfig, runMain, startTracing } from '@signet/kit';
import { gatewayConfigSchema } from './config.js';

const cfg = loadConfig(gatewayConfigSchema);
startTracing('gateway', cfg.OTEL_EXPORTER_OTLP_ENDPOINT);
const logger = createLogger('gateway', cfg.LOG_LEVEL);
const { startGateway } = await import('./app.js');
runMain(logger, () => startGateway(cfg, { logger }), cfg);
