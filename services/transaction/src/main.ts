import { createLogger, loadConfig, runMain, startTracing } from '@signet/kit';
import { transactionConfigSchema } from './config.js';

const cfg = loadConfig(transactionConfigSchema);
startTracing('transaction', cfg.OTEL_EXPORTER_OTLP_ENDPOINT);
const logger = createLogger('transaction', cfg.LOG_LEVEL);
const { startTransaction } = await import('./app.js');
runMain(logger, () => startTransaction(cfg, { logger }), cfg);
