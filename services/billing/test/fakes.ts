/**
 * In-memory stand-ins for the billing use cases' dependencies (unit tests, no infrastructure).
 * They keep the unique-index semantics of the real repositories: a consumption id is used once per
 * user, a slot of a period is taken once, a webhook-id is recorded once, an account version once.
 */
import { newAccount, type AccountState, type Applied } from '../src/domain/account.js';
import type { BillingMetrics } from '../src/metrics.js';
import type { Consumption, Source } from '../src/store/consumption.repository.js';
import type { Delivery } from '../src/store/delivery.repository.js';
import type { AccountChanger } from '../src/usecases/change-account.js';

/** Metrics that remember how often each name+labels was counted: `counted('webhooks', {result: 'duplicate'})`. */
export function fakeMetrics() {
  const seen: { name: string; labels: Record<string, string> }[] = [];
  const counter = (name: string) => ({ inc: (labels: Record<string, string> = {}) => void seen.push({ name, labels }) });
  const metrics = Object.fromEntries(
    ['webhooks', 'webhookEffects', 'consumptions', 'quotaRejections', 'refunds', 'downgrades', 'sweepRuns'].map((n) => [
      n,
      counter(n),
    ]),
  ) as unknown as BillingMetrics;
  const counted = (name: string, labels: Record<string, string> = {}) =>
    seen.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).length;
  return { metrics, counted };
}

export const silentLogger = { info: () => undefined, warn: () => undefined };

export function fakeConsumptions() {
  const all: Consumption[] = [];
  const refunds: Omit<Consumption, 'slot'>[] = [];
  const same = (userId: string, id: string) => (c: { user_id: string; consumption_id: string }) =>
    c.user_id === userId && c.consumption_id === id;
  return {
    all,
    refunds,
    async find(userId: string, id: string) {
      return all.find(same(userId, id)) ?? null;
    },
    async findRefund(userId: string, id: string) {
      return refunds.find(same(userId, id)) ?? null;
    },
    async slotsAndPrior(userId: string, id: string, quotaPeriod: string) {
      const slots = (source: Source, period: string) =>
        new Set(all.filter((c) => c.user_id === userId && c.source === source && c.period === period).map((c) => c.slot));
      const prior = all.find(same(userId, id));
      return {
        prior: prior ? { source: prior.source } : null,
        quota: slots('quota', quotaPeriod),
        credit: slots('credit', 'credit'),
      };
    },
    async count(userId: string, source: Source, period: string) {
      return all.filter((c) => c.user_id === userId && c.source === source && c.period === period).length;
    },
    async take(c: Consumption): Promise<'taken' | 'slot_taken' | 'id_used'> {
      if (all.some(same(c.user_id, c.consumption_id))) return 'id_used';
      if (all.some((o) => o.user_id === c.user_id && o.source === c.source && o.period === c.period && o.slot === c.slot))
        return 'slot_taken';
      all.push(c);
      return 'taken';
    },
    async refund(c: Consumption) {
      const first = !refunds.some(same(c.user_id, c.consumption_id));
      if (first) refunds.push({ ...c, created_at: new Date() });
      const i = all.findIndex(same(c.user_id, c.consumption_id));
      if (i >= 0) all.splice(i, 1);
      return first;
    },
    async release(userId: string, id: string) {
      const i = all.findIndex(same(userId, id));
      if (i >= 0) all.splice(i, 1);
    },
  };
}

/** Account versions per user and a changer that appends to them (the real one adds the retry and the outbox). */
export function fakeAccounts(initial: AccountState[] = []) {
  const latest = new Map(initial.map((a) => [a.user_id, a]));
  const causes: string[] = [];
  const change: AccountChanger = async (userId, compute, cause) => {
    const current = latest.get(userId) ?? newAccount(userId);
    const applied: Applied = compute(current, new Date());
    if (applied.changed) {
      latest.set(userId, { ...applied.state, version: current.version + 1 });
      causes.push(cause);
    }
    return applied;
  };
  return {
    latest,
    causes,
    change,
    accounts: {
      async latest(userId: string) {
        return latest.get(userId) ?? null;
      },
      async dueForDowngrade(now: Date) {
        return [...latest.values()].filter((a) => a.downgrade_at && a.downgrade_at <= now).map((a) => a.user_id);
      },
    },
  };
}

export function fakeDeliveries() {
  const all = new Map<string, Delivery>();
  return {
    all,
    async record(d: Omit<Delivery, 'state' | 'result' | 'outcome' | 'user_id' | 'done_at'>) {
      if (all.has(d.webhook_id)) return false;
      all.set(d.webhook_id, { ...d, state: 'received', result: null, outcome: null, user_id: null, done_at: null });
      return true;
    },
    async find(webhookId: string) {
      return all.get(webhookId) ?? null;
    },
    async finish(webhookId: string, f: { result: string; outcome: string | null; user_id: string | null }) {
      const d = all.get(webhookId);
      if (d) all.set(webhookId, { ...d, ...f, state: 'done', done_at: new Date() });
    },
  };
}

export function fakeUsers(entries: [userId: string, email: string][] = []) {
  const byId = new Map(entries);
  return {
    byId,
    async exists(userId: string) {
      return byId.has(userId);
    },
    async findByEmail(email: string) {
      return [...byId.entries()].find(([, e]) => e === email.trim().toLowerCase())?.[0] ?? null;
    },
    async remember(userId: string, email: string) {
      byId.set(userId, email.trim().toLowerCase());
    },
  };
}
