import { createLogger, loadConfig, runMain, startTracing } from '@signet/kit';
import { biometricsConfigSchema } from './config.js';

const cfg = loadConfig(biometricsConfigSchema);
startTracing('biometrics', cfg.OTEL_EXPORTER_OTLP_ENDPOINT);
const logger = createLogger('biometrics', cfg.LOG_LEVEL);
const { startBiometrics } = await import('./app.js');
runMain(logger, () => startBiometrics(cfg, { logger }), cfg);
