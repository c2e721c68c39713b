import type { Metrics } from '@signet/kit';

type Counter<L extends string> = { inc(labels: Partial<Record<L, string>>, value?: number): void };
export type BillingMetrics = {
  webhooks: Counter<'result'>;
  webhookEffects: Counter<'kind' | 'outcome'>;
  consumptions: Counter<'source'>;
  quotaRejections: { inc(): void };
  refunds: Counter<'source'>;
  downgrades: Counter<'reason'>;
  sweepRuns: Counter<'result'>;
};

/** Every domain instrument of billing, declared once (listed in README.md). */
export function billingMetrics(metrics: Metrics): BillingMetrics {
  return {
    webhooks: metrics.counter('signet_billing_webhooks_total', 'Webhook deliveries by result', ['result'], {
      // From 0, so SignetWebhookSignatureFailuresSpiking sees the first forged delivery after a restart.
      result: [
        'processed',
        'reprocessed',
        'duplicate',
        'unauthenticated',
        'undecodable',
        'malformed',
        'ignored',
        'unmatched',
        'applied_when_user_known',
      ],
    }),
    webhookEffects: metrics.counter(
      'signet_billing_webhook_effects_total',
      'Account effects of webhook events, by event kind and outcome',
      ['kind', 'outcome'],
    ),
    consumptions: metrics.counter('signet_billing_consumptions_total', 'Signatures consumed, by source', ['source']),
    quotaRejections: metrics.counter(
      'signet_billing_quota_rejections_total',
      'Signature creations refused for an exhausted quota and no credits',
    ),
    refunds: metrics.counter('signet_billing_refunds_total', 'Consumptions given back, by source', ['source']),
    downgrades: metrics.counter('signet_billing_downgrades_total', 'Downgrades applied by the sweep, by reason', ['reason']),
    sweepRuns: metrics.counter('signet_billing_sweep_runs_total', 'Downgrade sweep passes, by result', ['result']),
  };
}
