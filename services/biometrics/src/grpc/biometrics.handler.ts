import { notFound } from '@signet/kit';
import type { biometricsV1 } from '@signet/proto';
import type { AnalysisRepository } from '../store/analysis.repository.js';
import { countFaces, type CountFacesDeps } from '../usecases/count-faces.js';

export function biometricsHandlers(analyses: AnalysisRepository, faces: CountFacesDeps) {
  return {
    async getAnalysis(req: biometricsV1.GetAnalysisRequest): Promise<biometricsV1.Analysis> {
      const a = await analyses.find(req.captureId);
      if (!a) throw notFound('no analysis for this capture');
      return {
        captureId: a.capture_id,
        outcome: a.outcome,
        failedChecks: a.failed_checks,
        models: a.models,
        analysedAt: a.analysed_at.toISOString(),
      };
    },
    async countFaces(req: biometricsV1.CountFacesRequest): Promise<biometricsV1.CountFacesResponse> {
      return { faces: await countFaces(faces, req.referenceKey) };
    },
  };
}
