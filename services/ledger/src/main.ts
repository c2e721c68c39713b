import { createLogger, loadConfig, runMain, startTracing } from '@signet/kit';
import { ledgerConfigSchema } from './config.js';

const cfg = loadConfig(ledgerConfigSchema);
startTracing('ledger', cfg.OTEL_EXPORTER_OTLP_ENDPOINT);
const logger = createLogger('ledger', cfg.LOG_LEVEL);
const { startLedger } = await import('./app.js');
runMain(logger, () => startLedger(cfg, { logger }), cfg);
