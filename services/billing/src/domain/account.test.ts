import { describe, expect, it } from 'vitest';
import { applyDueDowngrade, applyPayment, applySubscription, newAccount, periodEnd, type AccountState } from './account.js';
import { parseCatalog } from './catalog.js';
import { subscriptionSchema, paymentSchema } from './dodo.js';
import { addOneMonth, endOfUtcMonth, usagePeriod } from './plans.js';

const catalog = parseCatalog(JSON.stringify({ p_pro: { plan: 'pro' }, p_firm: { plan: 'firm' }, p_c5: { credits: 5 } }));
const now = new Date('2026-11-15T12:00:00.000Z');
const grace = 7 * 86_400_000;
const sub = (o: Record<string, unknown>) =>
  subscriptionSchema.parse({
    subscription_id: 's1',
    status: 'active',
    product_id: 'p_pro',
    next_billing_date: '2026-12-15T12:00:00.000Z',
    ...o,
  });
const applyS = (a: AccountState, type: string, o: Record<string, unknown>, at = now, metadataPlan: unknown = 'pro') =>
  applySubscription(a, type, sub(o), { at, now, catalog, metadataPlan, graceMs: grace });

describe('account domain', () => {
  it('adds credits once per payment id', () => {
    const p = paymentSchema.parse({
      payment_id: 'pay1',
      subscription_id: null,
      product_cart: [
        { product_id: 'p_c5', quantity: 3 },
        { product_id: 'unknown', quantity: 9 },
      ],
    });
    const once = applyPayment(newAccount('u'), p, { catalog, metadataPlan: 'payg' });
    expect(once.state.credits_granted).toBe(15);
    const twice = applyPayment(once.state, p, { catalog, metadataPlan: 'payg' });
    expect(twice).toMatchObject({ changed: false, outcome: 'duplicate' });
  });

  it('takes the tier from the product, not from stale metadata', () => {
    const r = applyS(newAccount('u'), 'subscription.plan_changed', { product_id: 'p_firm' }, now, 'pro');
    expect(r.state.plan).toBe('Firm');
    // A later subscription charge with stale metadata does not lower it.
    const pay = paymentSchema.parse({ payment_id: 'pay2', subscription_id: 's1', product_cart: null });
    expect(applyPayment(r.state, pay, { catalog, metadataPlan: 'pro' }).state.plan).toBe('Firm');
  });

  it('ignores an object older than the last applied one of the same subscription', () => {
    const active = applyS(newAccount('u'), 'subscription.active', {}, now).state;
    const stale = applyS(active, 'subscription.expired', { status: 'expired' }, new Date(now.getTime() - 1));
    expect(stale).toMatchObject({ changed: false, outcome: 'stale' });
  });

  it('schedules a cancellation at next_billing_date and applies it when due', () => {
    const active = applyS(newAccount('u'), 'subscription.active', {}).state;
    const cancelled = applyS(active, 'subscription.cancelled', { status: 'cancelled' }, new Date(now.getTime() + 1)).state;
    expect(cancelled).toMatchObject({
      plan: 'Pro',
      downgrade_at: new Date('2026-12-15T12:00:00.000Z'),
      downgrade_reason: 'cancelled',
    });
    expect(applyDueDowngrade(cancelled, now).changed).toBe(false);
    expect(applyDueDowngrade(cancelled, new Date('2026-12-15T12:00:00.000Z')).state).toMatchObject({
      plan: 'Free',
      downgrade_at: null,
    });
  });

  it('past due keeps its first date across repeated failures', () => {
    const active = applyS(newAccount('u'), 'subscription.active', {}).state;
    const f1 = applyS(active, 'subscription.on_hold', { status: 'on_hold' }, new Date(now.getTime() + 1)).state;
    const f2 = applyS(f1, 'subscription.failed', { status: 'failed' }, new Date(now.getTime() + 5000)).state;
    expect(f2).toMatchObject({ plan: 'Pro', past_due: true, past_due_since: new Date(now.getTime() + 1) });
    expect(f2.downgrade_at?.getTime()).toBe(now.getTime() + 1 + grace);
    const recovered = applyS(f2, 'subscription.active', {}, new Date(now.getTime() + 9000)).state;
    expect(recovered).toMatchObject({ past_due: false, past_due_since: null, downgrade_at: null });
  });

  it('end of period without a date: the recorded period end, else previous + 1 month, else the end of the UTC month', () => {
    const noDates = sub({ next_billing_date: null, previous_billing_date: null });
    expect(periodEnd(noDates, null, now)).toEqual(endOfUtcMonth(now));
    expect(periodEnd(sub({ next_billing_date: null, previous_billing_date: '2026-01-31T00:00:00Z' }), null, now)).toEqual(
      new Date('2026-02-28T00:00:00Z'),
    );
    const recorded = {
      id: 's1',
      product_id: 'p_pro',
      tier: 'Pro' as const,
      status: 'active' as const,
      next_billing_date: new Date('2026-12-01T00:00:00Z'),
      observed_at: now,
    };
    expect(periodEnd(noDates, recorded, now)).toEqual(new Date('2026-12-01T00:00:00Z'));
  });

  it('usage periods are UTC calendar months', () => {
    expect(usagePeriod(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(usagePeriod(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
    expect(addOneMonth(new Date('2026-12-31T10:00:00Z'))).toEqual(new Date('2027-01-31T10:00:00Z'));
  });

  it('rejects a malformed catalogue', () => {
    expect(() => parseCatalog('{"p":{"plan":"gold"}}')).toThrow();
    expect(() => parseCatalog('nope')).toThrow(/JSON/);
    expect(() => parseCatalog('{"p":{"credits":0}}')).toThrow();
  });
});
