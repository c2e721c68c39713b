import { invalid } from '@signet/kit';
import type { billingV1 } from '@signet/proto';
import { accountView, newAccount } from '../domain/account.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { Usage } from '../usage/consume.js';
import type { WebhookResult } from '../webhook/handle-webhook.js';
import type { WebhookHeaders } from '../domain/signature.js';

const ID = /^[A-Za-z0-9_:.-]{1,128}$/;
const MAX_BODY = 1024 * 1024;

function requireId(name: string, v: string) {
  if (!ID.test(v)) throw invalid(`${name} must be 1-128 characters of letters, digits, _ : . -`);
}

export function billingHandlers(deps: {
  accounts: AccountRepository;
  usage: Usage;
  handleWebhook: (body: Buffer, h: WebhookHeaders) => Promise<WebhookResult>;
}) {
  return {
    async consumeSignature(req: billingV1.ConsumeSignatureRequest): Promise<billingV1.ConsumeSignatureResponse> {
      requireId('user_id', req.userId);
      requireId('consumption_id', req.consumptionId);
      const r = await deps.usage.consume(req.userId, req.consumptionId);
      return { consumptionId: req.consumptionId, source: r.source };
    },
    async refundSignature(req: billingV1.RefundSignatureRequest): Promise<billingV1.RefundSignatureResponse> {
      requireId('user_id', req.userId);
      requireId('consumption_id', req.consumptionId);
      return { refunded: await deps.usage.refund(req.userId, req.consumptionId) };
    },
    async getAccount(req: billingV1.GetAccountRequest): Promise<billingV1.Account> {
      requireId('user_id', req.userId);
      const now = new Date();
      // A user billing has not seen yet is on the Free plan with nothing used; reading creates nothing.
      const a = (await deps.accounts.latest(req.userId)) ?? newAccount(req.userId);
      const v = accountView(a, await deps.usage.usage(req.userId, now));
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
    async handleWebhook(req: billingV1.HandleWebhookRequest): Promise<billingV1.HandleWebhookResponse> {
      if (req.body.length > MAX_BODY) throw invalid('webhook body is larger than 1 MB');
      const result = await deps.handleWebhook(Buffer.from(req.body), {
        id: req.webhookId,
        timestamp: req.webhookTimestamp,
        signature: req.webhookSignature,
      });
      return { result };
    },
  };
}
