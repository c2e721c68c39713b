import { accountHandlers } from './grpc/account.handler.js';
import { usageHandlers } from './grpc/usage.handler.js';
import { webhookHandlers } from './grpc/webhook.handler.js';
import type { BillingDeps } from './usecases/deps.js';

export type BillingHandlers = ReturnType<typeof usageHandlers> &
  ReturnType<typeof accountHandlers> &
  ReturnType<typeof webhookHandlers>;

/**
 * Every RPC of `signet.billing.v1.BillingService`, by flow. No side effects: the caller (app.ts)
 * opens the connections and registers the result with the gRPC server.
 */
export function billingHandlers(deps: BillingDeps): BillingHandlers {
  return { ...usageHandlers(deps), ...accountHandlers(deps), ...webhookHandlers(deps) };
}
