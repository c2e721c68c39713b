import type { billingV1 } from '@signet/proto';
import type { BillingDeps } from '../usecases/deps.js';
import { getAccount } from '../usecases/get-account.js';

/** GetAccount; absent timestamps go out as the empty string. */
export function accountHandlers(deps: BillingDeps) {
  return {
    async getAccount(req: billingV1.GetAccountRequest): Promise<billingV1.Account> {
      const v = await getAccount(deps, { userId: req.userId });
      return {
        userId: v.user_id,
        plan: v.plan,
        monthlyLimit: v.monthly_limit,
        monthlyUsed: v.monthly_used,
        signatureCredits: v.signature_credits,
        pastDue: v.past_due,
        pastDueSince: v.past_due_since?.toISOString() ?? '',
        downgradeAt: v.downgrade_at?.toISOString() ?? '',
      };
    },
  };
}
