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
  deletions: Counter<'reason'>;
  erasureOverdue: Counter<never>;
  reminders: Counter<never>;
  expiries: Counter<never>;
  declines: Counter<never>;
  documentsRefused: Counter<'reason'>;
  fieldSubmissions: Counter<'outcome'>;
  bulkRows: Counter<'outcome'>;
  templates: Counter<'action' | 'outcome'>;
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
      'Mails handled by the mail consumers, by kind (invite, reminder, completion, ...) and result',
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
    deletions: metrics.counter(
      'signet_transaction_deletions_total',
      'Whole transactions deleted (document, photos, media, stored PDFs, personal data; a tombstone stays), by reason (sender)',
      ['reason'],
    ),
    erasureOverdue: metrics.counter(
      'signet_transaction_erasure_overdue_total',
      'Transactions found by the erasure job more than an hour past their retention (the job had not run or failed)',
      [],
    ),
    reminders: metrics.counter(
      'signet_transaction_reminders_total',
      'Automatic reminders the schedule sent out (one per transaction and round; each signer mail is counted in signet_transaction_mails_total)',
      [],
    ),
    expiries: metrics.counter(
      'signet_transaction_expiries_total',
      'Pending transactions that reached expires_at and became expired',
      [],
    ),
    declines: metrics.counter('signet_transaction_declines_total', 'Transactions a signer declined', []),
    documentsRefused: metrics.counter(
      'signet_transaction_documents_refused_total',
      'Uploaded documents refused at creation because the ledger could never seal them, by reason (encrypted, no_version, damaged)',
      ['reason'],
    ),
    fieldSubmissions: metrics.counter(
      'signet_transaction_field_submissions_total',
      "Signers' submissions of their fields' values, by outcome (accepted, invalid, closed)",
      ['outcome'],
    ),
    bulkRows: metrics.counter(
      'signet_transaction_bulk_rows_total',
      'Bulk send rows by outcome: accepted (to be sent), created, failed (the row refused, with its reason), not_sent (quota and credits ran out)',
      ['outcome'],
    ),
    templates: metrics.counter(
      'signet_transaction_templates_total',
      'Template operations (create, update, delete, transaction) by outcome (ok, invalid, not_found, error)',
      ['action', 'outcome'],
    ),
  };
}

type Gauge = {
  set(labels: Record<string, never>, value: number): void;
  inc(labels: Record<string, never>, value?: number): void;
};
export type WebhookMetrics = {
  deliveries: Counter<'result'>;
  outcomes: Counter<'result'>;
  latency: { observe(labels: { result: string }, seconds: number): void };
  backlog: Gauge;
  disabledEndpoints: Gauge;
  /** Endpoints disabled for failing too long (WEBHOOK_DISABLE_AFTER_MS), counted when it happens. */
  disabledForFailing: Counter<never>;
  /** Attempts in flight in this replica (fair delivery, issue 31). */
  inFlight: Gauge;
  /** Endpoints and owners at their share of attempts in flight when the job last claimed: their further deliveries wait. */
  atLimit: { set(labels: { limit: 'endpoint' | 'owner' }, value: number): void };
};

/** Outgoing customer webhooks (services/transaction/src/webhooks; README.md). */
export function webhookMetrics(metrics: Metrics): WebhookMetrics {
  return {
    deliveries: metrics.counter(
      'signet_transaction_webhook_attempts_total',
      'Webhook delivery attempts by result (success, http_error, timeout, network_error, refused_address)',
      ['result'],
    ),
    outcomes: metrics.counter(
      'signet_transaction_webhook_deliveries_total',
      'Webhook deliveries ended, by result (delivered, failed after the whole schedule, cancelled: endpoint disabled or deleted)',
      ['result'],
    ),
    latency: metrics.histogram(
      'signet_transaction_webhook_attempt_duration_seconds',
      'Webhook delivery attempt duration, from resolution to the end of the read answer, by result',
      ['result'],
      [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    ),
    backlog: metrics.gauge(
      'signet_transaction_webhook_retry_backlog',
      'Webhook deliveries not yet delivered nor given up (first attempts and retries waiting), sampled by the delivery job',
    ),
    disabledEndpoints: metrics.gauge(
      'signet_transaction_webhook_endpoints_disabled',
      'Webhook endpoints disabled after persistent failure, sampled by the delivery job',
    ),
    disabledForFailing: metrics.counter(
      'signet_transaction_webhook_endpoints_disabled_total',
      'Webhook endpoints disabled because every attempt failed for WEBHOOK_DISABLE_AFTER_MS (their owners are mailed)',
    ),
    inFlight: metrics.gauge('signet_transaction_webhook_in_flight', 'Webhook delivery attempts in flight in this replica'),
    atLimit: metrics.gauge(
      'signet_transaction_webhook_at_fair_share',
      'Endpoints (limit=endpoint) and owners (limit=owner) holding their whole share of attempts in flight when the delivery job last claimed; their other deliveries wait, nobody else’s do',
      ['limit'],
    ),
  };
}
