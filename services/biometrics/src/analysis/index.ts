export { analysisConfig, ACTIONS, type Action, type AnalysisConfig } from './config.js';
export { loadModels, type LoadedModels, type LoadModelsOptions, type ModelInfo } from './models.js';
export {
  analyzeCapture,
  AnalysisDeadlineError,
  InvalidChallengeError,
  type AnalyzeInput,
  type AnalyzeResult,
  type CheckName,
  type CheckResult,
} from './analyze.js';
export * from './geometry.js';
export * from './sequence.js';
