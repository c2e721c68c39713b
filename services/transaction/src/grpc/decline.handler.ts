import type { transactionV1 } from '@signet/proto';
import { declineSigning, type DeclineDeps } from '../usecases/decline-signing.js';

/** DeclineSigning: the signer behind a link declines (usecases/decline-signing.ts). */
export function declineHandler(deps: DeclineDeps) {
  return async (req: transactionV1.DeclineSigningRequest): Promise<transactionV1.DeclineSigningResponse> => {
    const r = await declineSigning(deps, req.token, req.reason);
    return { transactionStatus: r.status, declinedAt: r.at.toISOString() };
  };
}
