import type { Logger } from '@signet/kit';
import type { AuditRepository } from '../store/audit.repository.js';

/**
 * Deletes audit entries older than the retention (AUDIT_RETENTION_DAYS), at start and then every
 * period. The only delete path of the log: entries are never edited.
 */
export function startAuditRetention(deps: {
  audit: Pick<AuditRepository, 'deleteOlderThan'>;
  retentionDays: number;
  periodMs: number;
  now: () => number;
  logger: Pick<Logger, 'info' | 'warn'>;
  onDeleted: (n: number) => void;
}) {
  let stopped = false;
  const run = async () => {
    try {
      const n = await deps.audit.deleteOlderThan(new Date(deps.now() - deps.retentionDays * 86_400_000));
      deps.onDeleted(n);
      if (n) deps.logger.info({ deleted: n, retention_days: deps.retentionDays }, 'audit entries past retention deleted');
    } catch (err) {
      if (!stopped) deps.logger.warn({ err: (err as Error).message }, 'audit retention run failed; next period retries');
    }
  };
  const first = run();
  const timer = setInterval(() => void run(), deps.periodMs);
  timer.unref();
  return {
    /** The first run (tests wait for it). */
    first,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
