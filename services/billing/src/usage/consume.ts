import { conflict, type Logger, type Metrics } from '@signet/kit';
import { newAccount } from '../domain/account.js';
import { signatureQuotaExhausted } from '../domain/errors.js';
import { MONTHLY_LIMIT, usagePeriod } from '../domain/plans.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { ConsumptionRepository, Source } from '../store/consumption.repository.js';

export const CREDIT_PERIOD = 'credit';

/**
 * ConsumeSignature and RefundSignature. A consumption is one insert that takes a free slot: a
 * quota slot of this UTC month below the plan's limit first, else a credit slot below the credits
 * granted. The unique indexes on the slot and on the consumption id make that insert atomic and
 * idempotent (see the consumption repository).
 */
export function createUsage(deps: {
  accounts: AccountRepository;
  consumptions: ConsumptionRepository;
  metrics: Metrics;
  logger: Logger;
}) {
  const { accounts, consumptions } = deps;
  const consumed = deps.metrics.counter('signet_billing_consumptions_total', 'Signatures consumed, by source', ['source']);
  const rejected = deps.metrics.counter(
    'signet_billing_quota_rejections_total',
    'Signature creations refused for an exhausted quota and no credits',
  );
  const refunded = deps.metrics.counter('signet_billing_refunds_total', 'Consumptions given back, by source', ['source']);

  /** Tries the free slots below `limit` in order; the existing consumption when the id was used already. */
  async function takeSlot(userId: string, id: string, source: Source, period: string, limit: number) {
    const taken = await consumptions.takenSlots(userId, source, period);
    for (let slot = 0; slot < limit; slot++) {
      if (taken.has(slot)) continue;
      const r = await consumptions.take({ user_id: userId, consumption_id: id, source, period, slot, created_at: new Date() });
      if (r === 'taken') return { source, fresh: true };
      if (r === 'id_used') return { source: (await consumptions.find(userId, id))?.source ?? source, fresh: false };
    }
    return null;
  }

  return {
    async consume(userId: string, id: string): Promise<{ source: Source }> {
      const prior = await consumptions.find(userId, id);
      if (prior) return { source: prior.source };
      if (await consumptions.findRefund(userId, id)) throw conflict('this consumption was refunded; use a new consumption id');
      const state = (await accounts.latest(userId)) ?? newAccount(userId);
      const got =
        (await takeSlot(userId, id, 'quota', usagePeriod(new Date()), MONTHLY_LIMIT[state.plan])) ??
        (await takeSlot(userId, id, 'credit', CREDIT_PERIOD, state.credits_granted));
      if (!got) {
        rejected.inc();
        throw signatureQuotaExhausted();
      }
      if (got.fresh) consumed.inc({ source: got.source });
      return { source: got.source };
    },

    /** Gives a consumption back; true once it has been (also on a repeated call), false for an unknown id. */
    async refund(userId: string, id: string): Promise<boolean> {
      const done = await consumptions.findRefund(userId, id);
      if (done) {
        await consumptions.release(userId, id);
        return true;
      }
      const c = await consumptions.find(userId, id);
      if (!c) return false;
      if (await consumptions.refund(c)) refunded.inc({ source: c.source });
      return true;
    },

    async usage(userId: string, now: Date) {
      const [monthUsed, creditsSpent] = await Promise.all([
        consumptions.count(userId, 'quota', usagePeriod(now)),
        consumptions.count(userId, 'credit', CREDIT_PERIOD),
      ]);
      return { monthUsed, creditsSpent };
    },
  };
}

export type Usage = ReturnType<typeof createUsage>;
