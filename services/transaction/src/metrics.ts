import type { Metrics } from '@signet/kit';

type Counter<L extends string> = { inc(labels: Partial<Record<L, string>>, value?: number): void };
export type TransactionMetrics = {
  creations: Counter<'outcome'>;
  transitions: Counter<'to'>;
  resends: Counter<'result'>;
  mails: Counter<'kind' | 'result'>;
  orphansRemoved: Counter<'bucket'>;
  orphanSweeps: Counter<'result'>;
  uploadsAborted: Counter<'bucket'>;
  erasures: Counter<'reason'>;
  erasureOverdue: Counter<never>;
};

/** The transaction service's domain instruments (declared in README.md). */
export function transactionMetrics(metrics: Metrics): TransactionMetrics {
  return {
    creations: metrics.counter('signet_transaction_creations_total', 'Transaction creation attempts by outcome', ['outcome']),
    transitions: metrics.counter('signet_transaction_transitions_total', 'Transaction status transitions by target status', [
      'to',
    ]),
    resends: metrics.counter('signet_transaction_link_resends_total', 'Signing-link resends by result', ['result']),
    mails: metrics.counter(
      'signet_transaction_mails_total',
      'Signing-link mails handled by the mail consumer, by kind and result',
      ['kind', 'result'],
    ),
    orphansRemoved: metrics.counter(
      'signet_transaction_orphans_removed_total',
      'Stored objects no transaction points to, removed by the orphan sweep',
      ['bucket'],
    ),
    orphanSweeps: metrics.counter('signet_transaction_orphan_sweeps_total', 'Orphan sweep passes by result', ['result']),
    uploadsAborted: metrics.counter(
      'signet_transaction_incomplete_uploads_aborted_total',
      'Multipart uploads begun before the orphan cutoff and never completed, aborted by the orphan sweep',
      ['bucket'],
    ),
    erasures: metrics.counter(
      'signet_transaction_biometric_erasures_total',
      'Transactions whose reference photo was erased and capture media erasure requested, by reason (retention, sender)',
      ['reason'],
    ),
    erasureOverdue: metrics.counter(
      'signet_transaction_erasure_overdue_total',
      'Transactions found by the erasure job more than an hour past their retention (the job had not run or failed)',
      [],
    ),
  };
}
