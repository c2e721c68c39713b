import type { billingV1 } from '@signet/proto';
import type { BillingDeps } from '../usecases/deps.js';
import { handleWebhook } from '../usecases/handle-webhook.js';

/** HandleWebhook: the raw body and the three Standard Webhooks headers, as the gateway received them. */
export function webhookHandlers(deps: BillingDeps) {
  return {
    async handleWebhook(req: billingV1.HandleWebhookRequest): Promise<billingV1.HandleWebhookResponse> {
      const result = await handleWebhook(deps, {
        body: Buffer.from(req.body),
        headers: { id: req.webhookId, timestamp: req.webhookTimestamp, signature: req.webhookSignature },
      });
      return { result };
    },
  };
}
