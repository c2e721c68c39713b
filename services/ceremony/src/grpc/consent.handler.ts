import type { ceremonyV1 } from '@signet/proto';
import type { CeremonyDeps } from '../usecases/deps.js';
import { getSummary } from '../usecases/get-summary.js';
import { recordConsent } from '../usecases/record-consent.js';

/** GetSummary and RecordConsent (the summary messages are the domain's, field for field). */
export function consentHandlers(deps: CeremonyDeps) {
  return {
    async getSummary(req: ceremonyV1.TokenRequest): Promise<ceremonyV1.CeremonySummary> {
      return getSummary(deps, req.token);
    },

    async recordConsent(req: ceremonyV1.ConsentRequest): Promise<ceremonyV1.CeremonySummary> {
      return recordConsent(deps, { token: req.token, textVersion: req.consentTextVersion, ip: req.ip, userAgent: req.userAgent });
    },
  };
}
