import { createCoalescingRunner, type Logger } from '@signet/kit';
import { deliverNext, type DeliverDeps } from '../usecases/deliver.js';
import type { WebhookRepository } from '../store/webhook.repository.js';

export type DeliveryJobDeps = Omit<DeliverDeps, 'signal'> & {
  store: WebhookRepository;
  logger: Logger;
  /** How often the job looks for due deliveries (a new fact kicks it at once). */
  intervalMs: number;
  /** Deliveries attempted at once (one slow endpoint does not hold the others up). */
  concurrency: number;
  /** How often the backlog and disabled-endpoint gauges are sampled. */
  sampleMs?: number;
  /** Ended deliveries older than this are deleted (about hourly). */
  logRetentionMs: number;
};

/**
 * The delivery job: every `intervalMs`, and when kicked after a fact is recorded, `concurrency`
 * workers (the first alone until it finds a due delivery) claim due deliveries one by one (a lease in the store, like the biometric erasure job's
 * claims: replicas never attempt one delivery at once, and a killed replica's claim expires) and
 * attempt them until none is due. stop() aborts attempts in flight as a crash would: nothing is
 * recorded for them and their claims expire, so they are attempted again with the same webhook-id.
 */
export function createDeliveryJob(deps: DeliveryJobDeps) {
  const abort = new AbortController();
  let sampledAt = 0;
  let prunedAt = 0;
  const prune = async () => {
    if (Date.now() - prunedAt < 3600_000) return;
    prunedAt = Date.now();
    const n = await deps.store.pruneEnded(new Date(deps.clock().getTime() - deps.logRetentionMs));
    if (n) deps.logger.info({ deliveries: n }, 'webhook deliveries past their log retention deleted');
  };
  const sample = async () => {
    if (Date.now() - sampledAt < (deps.sampleMs ?? 15_000)) return;
    sampledAt = Date.now();
    deps.wm.backlog.set({}, await deps.store.countPending());
    deps.wm.disabledEndpoints.set({}, await deps.store.countDisabled());
  };
  const worker = async (onClaimed?: () => void) => {
    while (!abort.signal.aborted) {
      try {
        if (!(await deliverNext({ ...deps, signal: abort.signal, onClaimed }))) return;
      } catch (err) {
        if (abort.signal.aborted) return;
        deps.logger.warn({ err }, 'webhook delivery attempt failed to run; its claim expires and it is retried');
        return;
      }
    }
  };
  const pass = async () => {
    // One worker looks first: when nothing is due (most passes) its one claim is the pass's only
    // store command, not one per worker. The others start as soon as it has claimed a delivery,
    // beside its attempt, so a slow endpoint still holds no other delivery up.
    let others: Promise<void>[] = [];
    await worker(() => {
      if (!others.length) others = Array.from({ length: Math.max(1, deps.concurrency) - 1 }, () => worker());
    });
    await Promise.all(others);
    await sample();
    await prune();
  };
  const runner = createCoalescingRunner(pass, {
    logger: deps.logger,
    periodMs: deps.intervalMs,
    failure: 'webhook delivery pass failed; next pass retries',
  });
  runner.start({ immediately: true });
  return {
    kick: () => void runner.run(),
    run: runner.run,
    async stop() {
      abort.abort();
      await runner.stop();
    },
  };
}
export type DeliveryJob = ReturnType<typeof createDeliveryJob>;
