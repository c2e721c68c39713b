import { conflict } from '@signet/kit';
import { newAccount } from '../domain/account.js';
import { signatureQuotaExhausted } from '../domain/errors.js';
import { CREDIT_PERIOD, MONTHLY_LIMIT, usagePeriod } from '../domain/plans.js';
import { checkId } from '../domain/validate.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { ConsumptionRepository, Source } from '../store/consumption.repository.js';
import type { BillingDeps } from './deps.js';

type Consumptions = Pick<ConsumptionRepository, 'find' | 'findRefund' | 'slotsAndPrior' | 'take'>;
export type ConsumeDeps = Pick<BillingDeps, 'metrics'> & {
  accounts: Pick<AccountRepository, 'latest'>;
  consumptions: Consumptions;
};

/**
 * Tries the free slots below `limit` in order; the existing consumption when the id was used already.
 * `taken`: the period's taken slots as read before (a snapshot: the insert decides).
 */
async function takeSlot(
  consumptions: Consumptions,
  userId: string,
  id: string,
  source: Source,
  period: string,
  limit: number,
  taken: Set<number>,
) {
  for (let slot = 0; slot < limit; slot++) {
    if (taken.has(slot)) continue;
    const r = await consumptions.take({ user_id: userId, consumption_id: id, source, period, slot, created_at: new Date() });
    if (r === 'taken') return { source, fresh: true };
    if (r === 'id_used') return { source: (await consumptions.find(userId, id))?.source ?? source, fresh: false };
  }
  return null;
}

/**
 * ConsumeSignature. A consumption is one insert that takes a free slot: a quota slot of this UTC
 * month below the plan's limit first, else a credit slot below the credits granted. The unique
 * indexes on the slot and on the consumption id make that insert atomic and idempotent (see the
 * consumption repository). A consumption id that was refunded cannot be used again.
 */
export async function consumeSignature(
  deps: ConsumeDeps,
  input: { userId: string; consumptionId: string },
): Promise<{ source: Source }> {
  const userId = checkId('user_id', input.userId);
  const id = checkId('consumption_id', input.consumptionId);
  const { consumptions } = deps;
  const period = usagePeriod(new Date());
  // The reads are independent: one round trip, three queries (the consumption by id and both
  // sources' taken slots are one query on consumptions). Their answers are judged in the same order
  // as before (a repeated id first, then a refunded one).
  const [{ prior, quota, credit }, refunded, latest] = await Promise.all([
    consumptions.slotsAndPrior(userId, id, period),
    consumptions.findRefund(userId, id),
    deps.accounts.latest(userId),
  ]);
  if (prior) return { source: prior.source };
  if (refunded) throw conflict('this consumption was refunded; use a new consumption id');
  const state = latest ?? newAccount(userId);
  const got =
    (await takeSlot(consumptions, userId, id, 'quota', period, MONTHLY_LIMIT[state.plan], quota)) ??
    (await takeSlot(consumptions, userId, id, 'credit', CREDIT_PERIOD, state.credits_granted, credit));
  if (!got) {
    deps.metrics.quotaRejections.inc();
    throw signatureQuotaExhausted();
  }
  if (got.fresh) deps.metrics.consumptions.inc({ source: got.source });
  return { source: got.source };
}
