import type { ceremonyV1 } from '@signet/proto';
import type { CeremonyDeps } from '../usecases/deps.js';
import { logForensic } from '../usecases/log-forensic.js';

/** LogForensic. */
export function forensicHandlers(deps: CeremonyDeps) {
  return {
    async logForensic(req: ceremonyV1.ForensicBatch): Promise<ceremonyV1.ForensicReceipt> {
      const r = await logForensic(deps, { token: req.token, batchJson: req.batchJson, ip: req.ip, userAgent: req.userAgent });
      return { batch: r.batch, batchesLeft: r.batchesLeft, receivedAt: r.receivedAt.toISOString() };
    },
  };
}
