import { accountView, newAccount, type AccountView } from '../domain/account.js';
import { CREDIT_PERIOD, usagePeriod } from '../domain/plans.js';
import { checkId } from '../domain/validate.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { ConsumptionRepository } from '../store/consumption.repository.js';

/**
 * GetAccount: the plan with this UTC month's usage and the credit balance. A user billing has not
 * seen yet is on the Free plan with nothing used; reading creates nothing.
 */
export async function getAccount(
  deps: { accounts: Pick<AccountRepository, 'latest'>; consumptions: Pick<ConsumptionRepository, 'count'> },
  input: { userId: string },
): Promise<AccountView> {
  const userId = checkId('user_id', input.userId);
  const now = new Date();
  const a = (await deps.accounts.latest(userId)) ?? newAccount(userId);
  const [monthUsed, creditsSpent] = await Promise.all([
    deps.consumptions.count(userId, 'quota', usagePeriod(now)),
    deps.consumptions.count(userId, 'credit', CREDIT_PERIOD),
  ]);
  return accountView(a, { monthUsed, creditsSpent });
}
