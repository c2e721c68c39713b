import { createLogger, loadConfig, runMain, startTracing } from '@signet/kit';
import { billingConfigSchema } from './config.js';

const cfg = loadConfig(billingConfigSchema);
startTracing('billing', cfg.OTEL_EXPORTER_OTLP_ENDPOINT);
const logger = createLogger('billing', cfg.LOG_LEVEL);
const { startBilling } = await import('./app.js');
runMain(logger, () => startBilling(cfg, { logger }), cfg);
