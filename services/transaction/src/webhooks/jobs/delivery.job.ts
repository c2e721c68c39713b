import type { Logger } from '@signet/kit';
import { attemptClaimed, claimNext, type DeliverDeps } from '../usecases/deliver.js';
import type { WebhookRepository } from '../store/webhook.repository.js';
import { busyKeys, type InFlight } from '../domain/fair-share.js';

export type DeliveryJobDeps = Omit<DeliverDeps, 'signal' | 'onClaimed'> & {
  store: WebhookRepository;
  logger: Logger;
  /** How often the job looks for due deliveries (a new fact, and every attempt that ends, start it at once). */
  intervalMs: number;
  /** Attempts in flight at once in this replica. */
  concurrency: number;
  /** Attempts in flight at once to one endpoint, across replicas (default 2). */
  endpointConcurrency?: number;
  /** Attempts in flight at once to one owner's endpoints, across replicas (default 8). */
  ownerConcurrency?: number;
  /** How often the backlog and disabled-endpoint gauges are sampled. */
  sampleMs?: number;
  /** Ended deliveries older than this are deleted (about hourly). */
  logRetentionMs: number;
};

/**
 * The delivery job. A fill claims due deliveries (a lease in the store, like the biometric erasure
 * job's claims: replicas never attempt one delivery at once, and a killed replica's claim expires)
 * and starts their attempts without waiting for them, until `concurrency` are in flight or nothing
 * is due. Fair delivery (issue 31): a claim skips endpoints with `endpointConcurrency` attempts in
 * flight and owners with `ownerConcurrency`, counted over every replica's live leases, so one owner's
 * slow or dead endpoints hold at most that many attempts and every other owner's deliveries are
 * claimed by the next fill. A fill runs every `intervalMs`, after a kick (a fact recorded) and after
 * each attempt ends; it never waits for attempts in flight. stop() aborts attempts in flight as a
 * crash would: nothing is recorded for them and their claims expire, so they are attempted again
 * with the same webhook-id.
 */
export function createDeliveryJob(deps: DeliveryJobDeps) {
  const abort = new AbortController();
  const perEndpoint = deps.endpointConcurrency ?? 2;
  const perOwner = deps.ownerConcurrency ?? 8;
  /** This replica's attempts in flight, by delivery id. */
  const local = new Map<string, InFlight>();
  const attempts = new Set<Promise<void>>();
  let filling: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const housekeeping = createHousekeeping(deps);

  const start = (c: NonNullable<Awaited<ReturnType<typeof claimNext>>>) => {
    const d = c.delivery;
    local.set(d._id, { _id: d._id, endpoint_id: d.endpoint_id, owner_id: d.owner_id });
    deps.wm.inFlight.set({}, local.size);
    const p = attemptClaimed({ ...deps, signal: abort.signal }, d, c.lease)
      .catch((err: unknown) => {
        if (!abort.signal.aborted)
          deps.logger.warn(
            { err, delivery_id: d._id },
            'webhook delivery attempt failed to run; its claim expires and it is retried',
          );
      })
      .finally(() => {
        local.delete(d._id);
        deps.wm.inFlight.set({}, local.size);
        attempts.delete(p);
        if (!stopped) void fill();
      });
    attempts.add(p);
  };

  /** Claims and starts attempts until this replica is full or nothing due may be claimed now. */
  const fillOnce = async () => {
    if (local.size >= deps.concurrency) return;
    // Every replica's attempts in flight (this one's included: a Map by delivery id counts each once).
    const flying = new Map<string, InFlight>((await deps.store.inFlight(deps.clock())).map((f) => [f._id, f]));
    while (local.size < deps.concurrency && !stopped) {
      for (const [id, f] of local) flying.set(id, f);
      const skip = busyKeys([...flying.values()], perEndpoint, perOwner);
      deps.wm.atLimit.set({ limit: 'endpoint' }, skip.endpoints.length);
      deps.wm.atLimit.set({ limit: 'owner' }, skip.owners.length);
      const claimed = await claimNext(deps, skip);
      if (!claimed) return;
      start(claimed);
    }
  };

  const fill = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (filling) {
      again = true;
      return filling;
    }
    filling = (async () => {
      try {
        do {
          again = false;
          await fillOnce();
        } while (again && !stopped);
        await housekeeping();
      } catch (err) {
        if (!stopped) deps.logger.warn({ err }, 'webhook delivery pass failed; next pass retries');
      } finally {
        filling = null;
      }
    })();
    return filling;
  };

  const timer = setInterval(() => void fill(), deps.intervalMs);
  timer.unref();
  void fill();
  return {
    kick: () => void fill(),
    /** One fill (or the running one); resolves when its claims are made, not when their attempts end. */
    run: fill,
    /** Attempts in flight in this replica (for tests and the gauge). */
    inFlight: () => local.size,
    /** Resolves when every attempt in flight has ended (tests). */
    async drain() {
      while (attempts.size || filling) await Promise.all([...attempts, filling]);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      abort.abort();
      while (filling || attempts.size) await Promise.allSettled([filling, ...attempts]);
    },
  };
}
export type DeliveryJob = ReturnType<typeof createDeliveryJob>;

/** About hourly, deletes ended deliveries past their log retention; every `sampleMs`, samples the backlog gauges. */
function createHousekeeping(deps: DeliveryJobDeps) {
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
  return async () => {
    await sample();
    await prune();
  };
}
