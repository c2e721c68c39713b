import type { transactionV1 } from '@signet/proto';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { eraseOnRequest, type ErasureDeps } from '../usecases/erase-biometrics.js';
import { requestSignerErasure, type SignerErasureDeps } from '../usecases/request-signer-erasure.js';
import { auditByOf } from './audit-context.js';

/** EraseBiometrics: the owner's erasure of a finished transaction's biometric data. */
export function erasureHandler(deps: ErasureDeps & { repo: Pick<TransactionRepository, 'findOwned'> }) {
  return async (
    req: transactionV1.TransactionActionRequest,
    call?: Parameters<typeof auditByOf>[0],
  ): Promise<transactionV1.EraseBiometricsResponse> => ({
    erased: await eraseOnRequest(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test, by: auditByOf(call) }),
  });
}

/** RequestSignerErasure: a signer's request through the completion mail's erasure link. */
export function signerErasureHandler(deps: SignerErasureDeps) {
  return async (req: transactionV1.SignerErasureRequest): Promise<transactionV1.SignerErasureResponse> => {
    const r = await requestSignerErasure(deps, {
      transactionId: Number(req.transactionId),
      reference: req.reference,
      signerIndex: req.signerIndex,
    });
    return { eraseAt: r.due.toISOString(), erased: r.erased };
  };
}
