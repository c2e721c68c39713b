/**
 * The service's view of the analysis core: models loaded once from installed packages, one
 * verdict per call. A missed deadline throws (the consumer retries, then records ERROR: not charged to the signer).
 */
import type { Analyzer, AnalyzerResult } from '../domain/analyzer.js';
import { analyzeCapture, InvalidChallengeError, type WordsVerifier } from './analyze.js';
import { analysisConfig } from './config.js';
import { detectFacesLocal } from './detect.js';
import { decodeImage } from './media.js';
import { InvalidLightChallengeError } from './light.js';
import { timedChallenge } from './timed-challenge.js';
import type { TfBackend } from './backend.js';
import { loadModels, type LoadedModels } from './models.js';

/** The verdict's entry naming what computed it, e.g. `tfjs-backend @tensorflow/tfjs-backend-wasm@4.22.0`. */
export function backendEntry(m: Pick<LoadedModels, 'tfjsBackend'>): string {
  return `tfjs-backend ${m.tfjsBackend.package}@${m.tfjsBackend.version}`;
}

export async function createHumanAnalyzer(opts: {
  /** resolved backend (see backend.ts) */
  backend: TfBackend;
  workers?: number;
  /** a silent reading window fails the verdict (default: analysisConfig.voice.required) */
  requireVoice?: boolean;
  /** the speech recogniser for the words check */
  verifyWords?: WordsVerifier;
}): Promise<Analyzer & { close(): Promise<void>; tfjsBackend: LoadedModels['tfjsBackend']; sessions: LoadedModels['sessions'] }> {
  const models = await loadModels({ backend: opts.backend, workers: opts.workers ?? 0 });
  const backend = backendEntry(models);
  const names = [...models.models.map((m) => `${m.name} ${m.version}`), backend];
  return {
    models: names,
    tfjsBackend: models.tfjsBackend,
    sessions: models.sessions,
    async analyze(input): Promise<AnalyzerResult> {
      try {
        const r = await analyzeCapture(models, {
          video: input.video,
          finalFrame: input.finalFrame,
          reference: input.reference,
          challenge: {
            actions: input.actions,
            readSeconds: input.readSeconds,
            ...(input.timeline ? timedChallenge(input.timeline, input.words ?? [], input.shownMs) : {}),
          },
          verifyWords: opts.verifyWords,
          deadlineMs: input.deadlineMs,
          requireVoice: opts.requireVoice,
        });
        return {
          outcome: r.outcome,
          failedChecks: r.failed_checks,
          checks: r.checks as Record<string, unknown>,
          models: [...r.models.map((m) => `${m.name} ${m.version}`), backend],
          framesAnalysed: r.frames_analysed,
          durationMs: r.duration_ms,
          inferenceMs: r.timings.inference_ms,
          ...(r.flash ? { flash: r.flash } : {}),
        };
      } catch (err) {
        // A challenge the analysis cannot judge is a failed ceremony, not a technical error.
        if (err instanceof InvalidChallengeError || err instanceof InvalidLightChallengeError) {
          const check = err instanceof InvalidLightChallengeError ? 'light' : 'sequence';
          return {
            outcome: 'FAIL',
            failedChecks: [check],
            checks: { [check]: { passed: false, detail: err.message } },
            models: names,
            framesAnalysed: 0,
            durationMs: 0,
            inferenceMs: 0,
          };
        }
        throw err;
      }
    },
    async countFaces(photo, deadlineMs) {
      // As analyzeCapture treats a reference: scaled to 640 px wide, the detector's per-image
      // maximum and its relative-width floor (so a face far in the background does not count).
      const img = await decodeImage(photo, 640, deadlineMs);
      const o = {
        embed: true,
        supporting: false,
        maxFaces: analysisConfig.maxFacesPerFrame,
        minRelativeFaceWidth: analysisConfig.minRelativeFaceWidth,
      };
      const r = models.pool ? await models.pool.detect(img, o) : await detectFacesLocal(models, img, o);
      return r.faces.length;
    },
    async close() {
      await models.close();
    },
  };
}
