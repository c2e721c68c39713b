import { createCoalescingRunner, type Logger } from '@signet/kit';
import type { Client as S3 } from 'minio';
import { parseCaptureKey } from '../domain/capture.js';
import { ERASURE_OVERDUE_MS } from '../domain/erasure.js';
import type { SessionRepository } from '../store/session.repository.js';
import { eraseCaptureMedia, type EraseMediaDeps } from '../usecases/erase-capture-media.js';

const BATCH = 100;

export type ErasureJobDeps = EraseMediaDeps & {
  sessions: Pick<SessionRepository, 'dueForErasure' | 'erasureStateOf'>;
  s3: S3;
  bucket: string;
  logger: Logger;
  /** Called with the number of capture objects the reconciliation found past their erasure. */
  onOverdue: (objects: number) => void;
  /** 0: no timers; call run() and reconcile() yourself. */
  intervalMs: number;
  reconcileIntervalMs: number;
};

/**
 * The erasure job of the captures bucket. `run`: erases every session whose erasure the transaction
 * requested (usecases/erase-capture-media.ts), on a timer and when a request arrives; each session is
 * claimed in the store, so replicas erase it once, and a restart finishes what a killed pass left.
 * `reconcile` (daily): lists the bucket and deletes any object of a session already erased, or whose
 * request is over an hour old — it means the job failed — counting them for the alert.
 */
export function createErasureJob(deps: ErasureJobDeps) {
  const pass = async () => {
    for (;;) {
      const due = await deps.sessions.dueForErasure(new Date(deps.now()), BATCH);
      let erased = 0;
      for (const id of due) {
        try {
          if (await eraseCaptureMedia(deps, id)) erased++;
        } catch (err) {
          deps.logger.warn({ err, session_id: id }, 'capture media erasure failed; retried when its claim expires');
        }
      }
      if (erased) deps.logger.info({ sessions: erased }, 'capture media erased');
      if (due.length < BATCH || erased === 0) return;
    }
  };

  const overdueIn = async (keys: string[]): Promise<string[]> => {
    const states = await deps.sessions.erasureStateOf([...new Set(keys.map((k) => parseCaptureKey(k)!.sessionId))]);
    const cutoff = deps.now() - ERASURE_OVERDUE_MS;
    return keys.filter((k) => {
      const st = states.get(parseCaptureKey(k)!.sessionId);
      return !!st && (!!st.erased_at || (!!st.erasure && new Date(st.erasure.requested_at).getTime() <= cutoff));
    });
  };
  const reconcile = async (): Promise<number> => {
    let found = 0;
    let batch: string[] = [];
    const flush = async () => {
      const overdue = await overdueIn(batch);
      batch = [];
      if (!overdue.length) return;
      await deps.captures.erase(overdue);
      found += overdue.length;
    };
    for await (const obj of deps.s3.listObjectsV2(deps.bucket, '', true) as AsyncIterable<{ name?: string }>) {
      if (!obj.name || !parseCaptureKey(obj.name)) continue;
      batch.push(obj.name);
      if (batch.length >= 500) await flush();
    }
    if (batch.length) await flush();
    if (found) {
      deps.onOverdue(found);
      deps.logger.warn(
        { objects: found },
        'reconciliation deleted capture objects past their erasure: the erasure job had failed',
      );
    }
    return found;
  };

  const runner = createCoalescingRunner(pass, {
    logger: deps.logger,
    periodMs: deps.intervalMs || 60_000,
    failure: 'capture media erasure pass failed; next pass retries',
  });
  const reconciler = createCoalescingRunner(reconcile, {
    logger: deps.logger,
    periodMs: deps.reconcileIntervalMs || 86_400_000,
    failure: 'erasure reconciliation failed; next pass retries',
  });
  if (deps.intervalMs) runner.start({ immediately: true });
  if (deps.reconcileIntervalMs) reconciler.start();
  return {
    run: runner.run,
    /** One reconciliation now; the number of overdue objects it deleted. */
    reconcile,
    async stop() {
      await runner.stop();
      await reconciler.stop();
    },
  };
}
export type ErasureJob = ReturnType<typeof createErasureJob>;
