import { tierOfProduct, creditsOfProduct, type ProductCatalog } from './catalog.js';
import type { DodoPayment, DodoSubscription } from './dodo.js';
import { addOneMonth, endOfUtcMonth, MONTHLY_LIMIT, tierFromMetadata, type PaidTier, type Plan } from './plans.js';

/** What billing knows of the user's current subscription, from the last object applied. */
export type SubscriptionState = {
  id: string;
  product_id: string | null;
  tier: PaidTier | null;
  status: SubscriptionStatus;
  next_billing_date: Date | null;
  /** Event time of the object applied last; older objects of the same subscription are stale. */
  observed_at: Date;
};

export type SubscriptionStatus = 'pending' | 'active' | 'on_hold' | 'failed' | 'cancelled' | 'expired' | 'lapsed';

export type AccountState = {
  user_id: string;
  plan: Plan;
  /** Signature credits granted by pay-as-you-go purchases, ever; the balance is this minus credits spent. */
  credits_granted: number;
  past_due: boolean;
  past_due_since: Date | null;
  downgrade_at: Date | null;
  downgrade_reason: 'cancelled' | 'past_due' | null;
  subscription: SubscriptionState | null;
  /** Payment ids already applied (credits granted, plan raised): a payment acts once. */
  payments_applied: string[];
  /** `<subscription_id>|<next_billing_date>` of plan periods already applied. */
  periods_applied: string[];
  version: number;
};

export function newAccount(userId: string): AccountState {
  return {
    user_id: userId,
    plan: 'Free',
    credits_granted: 0,
    past_due: false,
    past_due_since: null,
    downgrade_at: null,
    downgrade_reason: null,
    subscription: null,
    payments_applied: [],
    periods_applied: [],
    version: 0,
  };
}

export type AccountView = ReturnType<typeof accountView>;

/** The account as callers see it, with the month's usage and the credits spent counted from consumptions. */
export function accountView(a: AccountState, usage: { monthUsed: number; creditsSpent: number }) {
  return {
    user_id: a.user_id,
    plan: a.plan,
    monthly_limit: MONTHLY_LIMIT[a.plan],
    monthly_used: usage.monthUsed,
    signature_credits: Math.max(0, a.credits_granted - usage.creditsSpent),
    past_due: a.past_due,
    past_due_since: a.past_due_since,
    downgrade_at: a.downgrade_at,
  };
}

export type Applied = { state: AccountState; outcome: string; changed: boolean };

const KEEP = 100;
const remember = (list: string[], key: string) => [...list, key].slice(-KEEP);

/** Ties between objects of the same moment are broken towards the later lifecycle state. */
const RANK: Record<SubscriptionStatus, number> = {
  pending: 0,
  active: 1,
  on_hold: 2,
  failed: 2,
  cancelled: 3,
  expired: 4,
  lapsed: 4,
};

const STATUS_OF_EVENT: Record<string, SubscriptionStatus> = {
  'subscription.active': 'active',
  'subscription.renewed': 'active',
  'subscription.on_hold': 'on_hold',
  'subscription.failed': 'failed',
  'subscription.cancelled': 'cancelled',
  'subscription.expired': 'expired',
};

/** The status carried by the object; the event name only when the object has none we know. */
export function statusOf(eventType: string, sub: DodoSubscription): SubscriptionStatus | null {
  const s = sub.status;
  if (s === 'pending' || s === 'active' || s === 'on_hold' || s === 'failed' || s === 'cancelled' || s === 'expired') return s;
  return STATUS_OF_EVENT[eventType] ?? null;
}

/**
 * "End of the current billing period" for a cancellation: the object's next_billing_date; else the
 * period end recorded for this subscription; else one month after previous_billing_date; else the end
 * of the current UTC calendar month (the quota period).
 */
export function periodEnd(sub: DodoSubscription, current: SubscriptionState | null, now: Date): Date {
  if (sub.next_billing_date) return sub.next_billing_date;
  if (current?.id === sub.subscription_id && current.next_billing_date) return current.next_billing_date;
  if (sub.previous_billing_date) return addOneMonth(sub.previous_billing_date);
  return endOfUtcMonth(now);
}

const toFree = (a: AccountState): AccountState => ({
  ...a,
  plan: 'Free',
  past_due: false,
  past_due_since: null,
  downgrade_at: null,
  downgrade_reason: null,
});

/**
 * Applies a Subscription object as it stood at `at` (the event time). State comes from the object's
 * status, not from the event name, so sibling events of one purchase in any order end in the same
 * state, and an object older than the last one applied for the subscription changes nothing.
 */
export function applySubscription(
  a: AccountState,
  eventType: string,
  sub: DodoSubscription,
  opts: { at: Date; now: Date; catalog: ProductCatalog; metadataPlan: unknown; graceMs: number },
): Applied {
  const status = statusOf(eventType, sub);
  if (!status) return { state: a, outcome: 'ignored', changed: false };
  const cur = a.subscription;
  const same = cur?.id === sub.subscription_id;
  if (same && cur) {
    const older = opts.at.getTime() < cur.observed_at.getTime();
    const tieLower = opts.at.getTime() === cur.observed_at.getTime() && RANK[status] < RANK[cur.status];
    if (older || tieLower) return { state: a, outcome: 'stale', changed: false };
  } else if (cur && !['expired', 'lapsed'].includes(cur.status) && cur.observed_at.getTime() > 0) {
    // Another subscription is current: only a newer activation of this one replaces it.
    if (status !== 'active' || opts.at.getTime() < cur.observed_at.getTime())
      return { state: a, outcome: 'not_current', changed: false };
  }
  const tier =
    tierOfProduct(opts.catalog, sub.product_id) ?? (same && cur?.tier ? cur.tier : tierFromMetadata(opts.metadataPlan));
  const nbd = sub.next_billing_date ?? (same ? (cur?.next_billing_date ?? null) : null);
  const nextSub: SubscriptionState = {
    id: sub.subscription_id,
    product_id: sub.product_id ?? null,
    tier,
    status,
    next_billing_date: nbd,
    observed_at: opts.at,
  };
  let s: AccountState = { ...a, subscription: nextSub };
  let outcome: string;
  switch (status) {
    case 'pending':
      outcome = 'pending';
      break;
    case 'active': {
      if (!tier) return { state: a, outcome: 'unknown_product', changed: false };
      const cancelAt = sub.cancel_at_next_billing_date ? periodEnd(sub, cur, opts.now) : null;
      s = {
        ...s,
        plan: tier,
        past_due: false,
        past_due_since: null,
        downgrade_at: cancelAt,
        downgrade_reason: cancelAt ? 'cancelled' : null,
      };
      const key = nbd ? `${sub.subscription_id}|${nbd.toISOString()}` : null;
      if (key && !s.periods_applied.includes(key)) {
        s.periods_applied = remember(s.periods_applied, key);
        outcome = a.plan === tier ? 'period_extended' : 'plan_changed';
      } else outcome = a.plan === tier ? 'unchanged' : 'plan_changed';
      break;
    }
    case 'on_hold':
    case 'failed': {
      const since = a.past_due && a.past_due_since ? a.past_due_since : opts.at;
      const graceEnd = new Date(since.getTime() + opts.graceMs);
      s = { ...s, past_due: true, past_due_since: since, downgrade_at: graceEnd, downgrade_reason: 'past_due' };
      if (s.downgrade_at && s.downgrade_at.getTime() <= opts.now.getTime())
        s = { ...toFree(s), subscription: { ...nextSub, status: 'lapsed' } };
      outcome = 'past_due';
      break;
    }
    case 'cancelled': {
      const end = periodEnd(sub, cur, opts.now);
      if (end.getTime() <= opts.now.getTime()) s = toFree(s);
      else s = { ...s, downgrade_at: end, downgrade_reason: 'cancelled' };
      outcome = 'downgrade_scheduled';
      break;
    }
    case 'expired':
    case 'lapsed':
      s = toFree(s);
      outcome = 'downgraded';
      break;
  }
  return { state: s, outcome, changed: true };
}

/**
 * Applies a successful Payment once per payment_id. Pay-as-you-go (no subscription): credits =
 * Σ quantity × credits of each catalogue credit pack in the cart. Subscription charge: raises the
 * plan from the metadata tier only while no Subscription object of it has been seen (the object's
 * product is the better source: metadata goes stale after a plan change).
 */
export function applyPayment(a: AccountState, p: DodoPayment, opts: { catalog: ProductCatalog; metadataPlan: unknown }): Applied {
  if (a.payments_applied.includes(p.payment_id)) return { state: a, outcome: 'duplicate', changed: false };
  if (!p.subscription_id) {
    const credits = (p.product_cart ?? []).reduce(
      (n, line) => n + line.quantity * creditsOfProduct(opts.catalog, line.product_id),
      0,
    );
    if (credits <= 0) return { state: a, outcome: 'unknown_product', changed: false };
    return {
      state: { ...a, credits_granted: a.credits_granted + credits, payments_applied: remember(a.payments_applied, p.payment_id) },
      outcome: 'credits_added',
      changed: true,
    };
  }
  const recorded = { ...a, payments_applied: remember(a.payments_applied, p.payment_id) };
  const cur = a.subscription;
  if (cur && cur.id === p.subscription_id && cur.observed_at.getTime() > 0)
    return { state: recorded, outcome: 'recorded', changed: true };
  if (cur && cur.id !== p.subscription_id && !['expired', 'lapsed'].includes(cur.status))
    return { state: recorded, outcome: 'not_current', changed: true };
  const tier = tierFromMetadata(opts.metadataPlan);
  if (!tier) return { state: recorded, outcome: 'unknown_product', changed: true };
  const sub: SubscriptionState = {
    id: p.subscription_id,
    product_id: null,
    tier,
    status: 'active',
    next_billing_date: null,
    observed_at: new Date(0),
  };
  return {
    state: { ...recorded, plan: tier, subscription: sub },
    outcome: a.plan === tier ? 'unchanged' : 'plan_changed',
    changed: true,
  };
}

/** A scheduled downgrade or a grace-period end that has come: the account falls to Free. */
export function applyDueDowngrade(a: AccountState, now: Date): Applied {
  if (!a.downgrade_at || a.downgrade_at.getTime() > now.getTime()) return { state: a, outcome: 'not_due', changed: false };
  const sub = a.subscription
    ? { ...a.subscription, status: (a.downgrade_reason === 'past_due' ? 'lapsed' : 'expired') as SubscriptionStatus }
    : null;
  return {
    state: { ...toFree(a), subscription: sub },
    outcome: a.downgrade_reason === 'past_due' ? 'grace_ended' : 'period_ended',
    changed: true,
  };
}
