import type { billingV1 } from '@signet/proto';
import { consumeSignature } from '../usecases/consume-signature.js';
import type { BillingDeps } from '../usecases/deps.js';
import { refundSignature } from '../usecases/refund-signature.js';

/** ConsumeSignature and RefundSignature. */
export function usageHandlers(deps: BillingDeps) {
  return {
    async consumeSignature(req: billingV1.ConsumeSignatureRequest): Promise<billingV1.ConsumeSignatureResponse> {
      const r = await consumeSignature(deps, { userId: req.userId, consumptionId: req.consumptionId });
      return { consumptionId: req.consumptionId, source: r.source };
    },
    async refundSignature(req: billingV1.RefundSignatureRequest): Promise<billingV1.RefundSignatureResponse> {
      return { refunded: await refundSignature(deps, { userId: req.userId, consumptionId: req.consumptionId }) };
    },
  };
}
