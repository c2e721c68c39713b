import { describe, expect, it } from 'vitest';
import { startAuditRetention } from './audit-retention.job.js';

describe('audit retention job', () => {
  it('deletes entries older than the retention, counting them, and keeps running after a failure', async () => {
    const cutoffs: Date[] = [];
    const deleted: number[] = [];
    const warnings: string[] = [];
    const now = Date.parse('2026-11-29T00:00:00Z');
    const job = startAuditRetention({
      audit: {
        async deleteOlderThan(cutoff) {
          cutoffs.push(cutoff);
          return 3;
        },
      },
      retentionDays: 400,
      periodMs: 60_000,
      now: () => now,
      logger: { info: () => {}, warn: (_o: unknown, m: string) => void warnings.push(m) },
      onDeleted: (n) => deleted.push(n),
    });
    await job.first;
    job.stop();
    expect(cutoffs).toEqual([new Date(now - 400 * 86_400_000)]);
    expect(deleted).toEqual([3]);

    const failing = startAuditRetention({
      audit: { deleteOlderThan: () => Promise.reject(new Error('store down')) },
      retentionDays: 1,
      periodMs: 60_000,
      now: () => now,
      logger: { info: () => {}, warn: (_o: unknown, m: string) => void warnings.push(m) },
      onDeleted: (n) => deleted.push(n),
    });
    await failing.first;
    failing.stop();
    expect(warnings).toHaveLength(1);
    expect(deleted).toEqual([3]);
  });
});
