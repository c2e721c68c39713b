import type { transactionV1 } from '@signet/proto';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { eraseOnRequest, type ErasureDeps } from '../usecases/erase-biometrics.js';

/** EraseBiometrics: the owner's erasure of a finished transaction's biometric data. */
export function erasureHandler(deps: ErasureDeps & { repo: Pick<TransactionRepository, 'findOwned'> }) {
  return async (req: transactionV1.TransactionActionRequest): Promise<transactionV1.EraseBiometricsResponse> => ({
    erased: await eraseOnRequest(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test }),
  });
}
