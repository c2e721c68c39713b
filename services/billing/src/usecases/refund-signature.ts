import { checkId } from '../domain/validate.js';
import type { ConsumptionRepository } from '../store/consumption.repository.js';
import type { BillingDeps } from './deps.js';

/**
 * RefundSignature: gives a consumption back to its source. True once it has been (also on every
 * repeat, and finishing a refund interrupted after its record was written), false for an unknown
 * id or another user's.
 */
export async function refundSignature(
  deps: Pick<BillingDeps, 'metrics'> & {
    consumptions: Pick<ConsumptionRepository, 'find' | 'findRefund' | 'refund' | 'release'>;
  },
  input: { userId: string; consumptionId: string },
): Promise<boolean> {
  const userId = checkId('user_id', input.userId);
  const id = checkId('consumption_id', input.consumptionId);
  const { consumptions } = deps;
  if (await consumptions.findRefund(userId, id)) {
    await consumptions.release(userId, id);
    return true;
  }
  const c = await consumptions.find(userId, id);
  // Gone since the first read: a concurrent refund of the same id wrote its record (before freeing the
  // slot) in between, so this one is refunded too; only no record at all means unknown.
  if (!c) return (await consumptions.findRefund(userId, id)) !== null;
  if (await consumptions.refund(c)) deps.metrics.refunds.inc({ source: c.source });
  return true;
}
