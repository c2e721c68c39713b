/**
 * The chart's alerts, proven with `promtool test rules` (promtool built by scripts/promtool.sh): for
 * every alert of the rendered PrometheusRule one case where it fires and one where it stays quiet.
 * Every input series is labelled as Prometheus would store it under the Prometheus Operator: the app's
 * labels, then the Operator's target relabelling and the rendered ServiceMonitor's own (test/chart/operator.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { NAMESPACE, ciValues, helmTemplate, parseManifests, promtoolBin } from './helm.ts';
import { relabel, scrapedLabels, type Labels } from './operator.ts';

const manifests = parseManifests(helmTemplate(ciValues()['external-infra']));
const rule = manifests.find((o) => o.kind === 'PrometheusRule');
type Rule = { alert: string; expr: string; for?: string; labels?: Labels; annotations?: Labels };
const groups = (rule?.spec.groups ?? []) as { name: string; rules: Rule[] }[];
// Recording rules (the SLO ratios) have no alert name.
const alerts = new Map(groups.flatMap((g) => g.rules.filter((r) => r.alert).map((r) => [r.alert, r] as const)));

/** One input series as exposed by `service` (its kit registry adds `service`), scraped through the chart's ServiceMonitor. */
function scraped(service: string, metric: string, labels: Labels, values: string, pod?: string) {
  const all = scrapedLabels(manifests, service, { service, ...labels }, pod);
  const body = Object.entries(all)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',');
  return { series: `${metric}{${body}}`, values };
}

type Case = {
  alert: string;
  /** What the series show. */
  name: string;
  series: { series: string; values: string }[];
  at: string;
  /** The labels of the firing alert (besides alertname and the rule's own labels); null: it must not fire. */
  fires: Labels | null;
};

const histogram = (service: string, metric: string, perMinute: Record<string, number>, minutes: number) =>
  Object.entries(perMinute).map(([le, n]) => scraped(service, `${metric}_bucket`, { le }, `0+${n}x${minutes}`));

/** The two gauges the kit samples from JetStream consumer info for one durable. */
const lag = (service: string, consumer: string, pending: string, ackPending: string, pod?: string) => [
  scraped(service, 'signet_events_consumer_pending', { consumer }, pending, pod),
  scraped(service, 'signet_events_consumer_ack_pending', { consumer }, ackPending, pod),
];

/** Gateway requests of one route per minute: `ok` answered 200 and `errors` 500 (counters from 0). */
const gatewayRequests = (
  route: string,
  ok: number,
  errors: number,
  minutes: number,
  after?: { ok: number; errors: number; minutes: number },
) => {
  const values = (n: number, m: number) =>
    after ? `0+${n}x${m} ${counterAfter(n * m, after.ok, after.minutes)}` : `0+${n}x${m}`;
  const counterAfter = (from: number, n: number, m: number) => `${from + n}+${n}x${m - 1}`;
  return [
    scraped(
      'gateway',
      'signet_http_request_duration_seconds_count',
      { method: 'GET', route, status: '200' },
      values(ok, minutes),
    ),
    scraped(
      'gateway',
      'signet_http_request_duration_seconds_count',
      { method: 'GET', route, status: '500' },
      after ? `0+${errors}x${minutes} ${counterAfter(errors * minutes, after.errors, after.minutes)}` : `0+${errors}x${minutes}`,
    ),
  ];
};

/** Gateway requests of one route per minute, `fast` of them within 2.5 s (the latency SLO's bucket). */
const gatewayLatency = (route: string, total: number, fast: number, minutes: number) => [
  scraped(
    'gateway',
    'signet_http_request_duration_seconds_count',
    { method: 'POST', route, status: '200' },
    `0+${total}x${minutes}`,
  ),
  scraped(
    'gateway',
    'signet_http_request_duration_seconds_bucket',
    { method: 'POST', route, status: '200', le: '2.5' },
    `0+${fast}x${minutes}`,
  ),
];

/** Handled events of one durable, as its consumer service counts them (result ok). */
const consumed = (service: string, consumer: string, values: string) =>
  scraped(service, 'signet_events_consumed_total', { consumer, result: 'ok' }, values);

const CASES: Case[] = [
  {
    alert: 'SignetConsumerStuck',
    name: 'issue 35: 5,000 pending for 90 minutes, nothing consumed (a flat backlog: no growth for SignetConsumerLagGrowing)',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '5000x90', '0x90'),
      consumed('ledger', 'ledger-transaction-verified', '0x90'),
    ],
    at: '90m',
    fires: { consumer: 'ledger-transaction-verified' },
  },
  {
    alert: 'SignetConsumerStuck',
    name: 'the consuming service is down: only the producer samples the lag, no consumed counter at all',
    series: lag('transaction', 'ledger-transaction-verified', '40x60', '0x60'),
    at: '60m',
    fires: { consumer: 'ledger-transaction-verified' },
  },
  {
    alert: 'SignetConsumerStuck',
    name: 'a steady 5,000 backlog that is being worked off (200 handled a minute)',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '5000x90', '10x90'),
      consumed('ledger', 'ledger-transaction-verified', '0+200x90'),
    ],
    at: '90m',
    fires: null,
  },
  {
    alert: 'SignetConsumerStuck',
    name: 'idle: nothing waiting, nothing consumed',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '0x90', '0x90'),
      consumed('ledger', 'ledger-transaction-verified', '0x90'),
    ],
    at: '90m',
    fires: null,
  },
  {
    alert: 'SignetConsumerStuck',
    name: 'after a restart the counter starts at 0, so the first event handled (at 20 min) counts as progress',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '3x45', '0x45'),
      consumed('ledger', 'ledger-transaction-verified', '0x20 1x25'),
    ],
    at: '45m',
    fires: null,
  },
  {
    alert: 'SignetConsumerStuck',
    name: 'the same without the initial 0 (the series appears at its first event): increase() misses that event',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '3x45', '0x45'),
      consumed('ledger', 'ledger-transaction-verified', '_x20 1x25'),
    ],
    at: '45m',
    fires: { consumer: 'ledger-transaction-verified' },
  },
  {
    alert: 'SignetGatewayAvailabilityBudgetBurnFast',
    name: '10 % of the requests answer 500 for 30 minutes (100 times the 99.9 % budget rate)',
    series: gatewayRequests('/api/transactions', 900, 100, 30),
    at: '30m',
    fires: {},
  },
  {
    alert: 'SignetGatewayAvailabilityBudgetBurnFast',
    name: 'a slow burn: 0.5 % answer 500 for 8 hours (5 times: a ticket, no page)',
    series: gatewayRequests('/api/transactions', 995, 5, 150),
    at: '150m',
    fires: null,
  },
  {
    alert: 'SignetGatewayAvailabilityBudgetBurnFast',
    name: 'the outage ended 35 minutes ago: both short windows (5m, 30m) end the page though the hour and 6 hours still burn',
    series: gatewayRequests('/api/transactions', 900, 100, 30, { ok: 1000, errors: 0, minutes: 35 }),
    at: '65m',
    fires: null,
  },
  {
    alert: 'SignetGatewayAvailabilityBudgetBurnSlow',
    name: 'a slow burn: 0.5 % answer 500 for 2.5 hours',
    series: gatewayRequests('/api/transactions', 995, 5, 150),
    at: '150m',
    fires: {},
  },
  {
    alert: 'SignetGatewayAvailabilityBudgetBurnSlow',
    name: 'healthy: 0.05 % answer 500 (half the budget rate)',
    series: gatewayRequests('/api/transactions', 1999, 1, 150),
    at: '150m',
    fires: null,
  },
  {
    alert: 'SignetGatewayLatencyBudgetBurnFast',
    name: '30 % of the requests take longer than 2.5 s for 30 minutes (30 times the 99 % budget rate)',
    series: gatewayLatency('/api/transactions', 1000, 700, 30),
    at: '30m',
    fires: {},
  },
  {
    alert: 'SignetGatewayLatencyBudgetBurnFast',
    name: 'uploads are slow (their time is the body size): excluded from the latency SLO',
    series: [...gatewayLatency('/api/sign/:token/capture', 100, 0, 30), ...gatewayLatency('/api/transactions', 1000, 1000, 30)],
    at: '30m',
    fires: null,
  },
  {
    alert: 'SignetGatewayLatencyBudgetBurnSlow',
    name: '5 % of the requests are slow for 2.5 hours (5 times the budget rate: a ticket)',
    series: gatewayLatency('/api/transactions', 1000, 950, 150),
    at: '150m',
    fires: {},
  },
  {
    alert: 'SignetGatewayLatencyBudgetBurnSlow',
    name: 'healthy: 0.5 % of the requests are slow, PDF downloads slower (excluded)',
    series: [
      ...gatewayLatency('/api/transactions', 1000, 995, 150),
      ...gatewayLatency('/api/transactions/:id/signed.pdf', 50, 10, 150),
    ],
    at: '150m',
    fires: null,
  },
  {
    alert: 'SignetHttpErrorRatioHigh',
    name: 'half of the gateway requests answer 500',
    series: [
      scraped(
        'gateway',
        'signet_http_request_duration_seconds_count',
        { method: 'GET', route: '/api/transactions', status: '200' },
        '0+10x30',
      ),
      scraped(
        'gateway',
        'signet_http_request_duration_seconds_count',
        { method: 'POST', route: '/api/transactions', status: '500' },
        '0+10x30',
      ),
    ],
    at: '25m',
    fires: {},
  },
  {
    alert: 'SignetHttpErrorRatioHigh',
    name: '2 % of the requests answer 500, many answer 404',
    series: [
      scraped(
        'gateway',
        'signet_http_request_duration_seconds_count',
        { method: 'GET', route: '/api/transactions', status: '200' },
        '0+10x30',
      ),
      scraped(
        'gateway',
        'signet_http_request_duration_seconds_count',
        { method: 'GET', route: '/api/transactions/:id', status: '404' },
        '0+10x30',
      ),
      scraped(
        'gateway',
        'signet_http_request_duration_seconds_count',
        { method: 'POST', route: '/api/transactions', status: '500' },
        '0+0.4x30',
      ),
    ],
    at: '25m',
    fires: null,
  },
  {
    alert: 'SignetGrpcErrorRatioHigh',
    name: 'the ledger answers half of its calls UNAVAILABLE',
    series: [
      scraped('ledger', 'signet_grpc_server_handling_seconds_count', { method: 'GetCertificate', code: 'OK' }, '0+10x30'),
      scraped(
        'ledger',
        'signet_grpc_server_handling_seconds_count',
        { method: 'GetCertificate', code: 'UNAVAILABLE' },
        '0+10x30',
      ),
    ],
    at: '25m',
    fires: { service: 'ledger' },
  },
  {
    alert: 'SignetGrpcErrorRatioHigh',
    name: 'half of the ledger calls are NOT_FOUND (a domain answer, not a server error)',
    series: [
      scraped('ledger', 'signet_grpc_server_handling_seconds_count', { method: 'GetCertificate', code: 'OK' }, '0+10x30'),
      scraped('ledger', 'signet_grpc_server_handling_seconds_count', { method: 'GetCertificate', code: 'NOT_FOUND' }, '0+10x30'),
    ],
    at: '25m',
    fires: null,
  },
  {
    alert: 'SignetVerdictLatencyP95High',
    name: 'every analysis takes between 30 and 60 s',
    series: histogram(
      'biometrics',
      'signet_biometrics_analysis_duration_seconds',
      { '10': 0, '30': 0, '60': 10, '+Inf': 10 },
      40,
    ),
    at: '35m',
    fires: {},
  },
  {
    alert: 'SignetVerdictLatencyP95High',
    name: 'every analysis takes less than 10 s',
    series: histogram(
      'biometrics',
      'signet_biometrics_analysis_duration_seconds',
      { '10': 10, '30': 10, '60': 10, '+Inf': 10 },
      40,
    ),
    at: '35m',
    fires: null,
  },
  {
    alert: 'SignetAnalysisTechnicalFailures',
    name: 'one capture ended in ERROR (its analysis failed on every delivery) among steady verdicts',
    series: [
      scraped('biometrics', 'signet_biometrics_verdicts_total', { outcome: 'PASS' }, '0+2x40'),
      scraped('biometrics', 'signet_biometrics_verdicts_total', { outcome: 'ERROR' }, '0x20 1x20'),
    ],
    at: '30m',
    fires: {},
  },
  {
    alert: 'SignetAnalysisTechnicalFailures',
    name: 'analyses keep failing and being retried (a deadline too tight for the load)',
    series: [
      scraped('biometrics', 'signet_biometrics_verdicts_total', { outcome: 'PASS' }, '0+1x40'),
      scraped('biometrics', 'signet_biometrics_analysis_errors_total', { final: 'false' }, '0+1x40'),
    ],
    at: '30m',
    fires: {},
  },
  {
    alert: 'SignetAnalysisTechnicalFailures',
    name: 'a retried failure now and then, every capture judged in the end (a FAIL is a judgement, not a technical failure)',
    series: [
      scraped('biometrics', 'signet_biometrics_verdicts_total', { outcome: 'FAIL' }, '0+2x40'),
      scraped('biometrics', 'signet_biometrics_verdicts_total', { outcome: 'ERROR' }, '0x40'),
      scraped('biometrics', 'signet_biometrics_analysis_errors_total', { final: 'false' }, '0x10 1x10 2x20'),
    ],
    at: '30m',
    fires: null,
  },
  {
    alert: 'SignetAnalysisTechnicalFailures',
    name: 'an ERROR more than half an hour ago',
    series: [scraped('biometrics', 'signet_biometrics_verdicts_total', { outcome: 'ERROR' }, '0x5 1x55')],
    at: '50m',
    fires: null,
  },
  {
    alert: 'SignetLiveChunksRefused',
    name: 'a fifth of the live chunks refused without video (a browser whose recordings cannot be read)',
    series: [
      scraped('ceremony', 'signet_ceremony_live_chunks_total', { result: 'appended' }, '0+8x40'),
      scraped('ceremony', 'signet_ceremony_live_chunk_problems_total', { reason: 'no_media' }, '0+2x40'),
    ],
    at: '30m',
    fires: {},
  },
  {
    alert: 'SignetLiveChunksRefused',
    name: 'a refused chunk now and then among many appended (an attacker probing once, a broken upload)',
    series: [
      scraped('ceremony', 'signet_ceremony_live_chunks_total', { result: 'appended' }, '0+20x40'),
      scraped('ceremony', 'signet_ceremony_live_chunk_problems_total', { reason: 'unreadable' }, '0x10 3x30'),
      scraped('ceremony', 'signet_ceremony_live_chunk_problems_total', { reason: 'behind' }, '0+5x40'),
    ],
    at: '30m',
    fires: null,
  },
  {
    alert: 'SignetConsumerLagGrowing',
    name: 'the ledger consumer falls 5 messages further behind every minute (both replicas and the producer report it)',
    series: [
      ...['ledger-0', 'ledger-1'].flatMap((pod) => lag('ledger', 'ledger-transaction-verified', '0+5x60', '16x60', pod)),
      ...lag('transaction', 'ledger-transaction-verified', '0+5x60', '16x60'),
    ],
    at: '45m',
    fires: { consumer: 'ledger-transaction-verified' },
  },
  {
    alert: 'SignetConsumerLagGrowing',
    name: 'a handler that keeps failing: every message delivered and waiting for redelivery, more each minute',
    series: lag('biometrics', 'biometrics-capture-submitted', '0x60', '0+4x60'),
    at: '45m',
    fires: { consumer: 'biometrics-capture-submitted' },
  },
  {
    alert: 'SignetConsumerLagGrowing',
    name: 'a large but steady backlog (draining as fast as it fills)',
    series: lag('ledger', 'ledger-transaction-verified', '400x60', '16x60'),
    at: '45m',
    fires: null,
  },
  {
    alert: 'SignetWebhookSignatureFailuresSpiking',
    name: '0.5 badly signed webhooks a second',
    series: [scraped('billing', 'signet_billing_webhooks_total', { result: 'unauthenticated' }, '0+30x30')],
    at: '20m',
    fires: {},
  },
  {
    alert: 'SignetWebhookSignatureFailuresSpiking',
    name: '0.1 badly signed webhooks a second among many good ones',
    series: [
      scraped('billing', 'signet_billing_webhooks_total', { result: 'unauthenticated' }, '0+6x30'),
      scraped('billing', 'signet_billing_webhooks_total', { result: 'processed' }, '0+120x30'),
    ],
    at: '20m',
    fires: null,
  },
  {
    alert: 'SignetCertificateIssuanceStalled',
    name: 'the ledger consumer holds messages and no certificate is issued',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '5x100', '0x100'),
      scraped('ledger', 'signet_ledger_certificates_issued_total', { result: 'issued' }, '0x100'),
    ],
    at: '80m',
    fires: {},
  },
  {
    alert: 'SignetCertificateIssuanceStalled',
    name: 'every message is delivered but none acked (the handler fails), no certificate is issued',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '0x100', '3x100'),
      scraped('ledger', 'signet_ledger_certificates_issued_total', { result: 'issued' }, '0x100'),
    ],
    at: '80m',
    fires: {},
  },
  {
    alert: 'SignetCertificateIssuanceStalled',
    name: 'messages wait but certificates keep being issued',
    series: [
      ...lag('ledger', 'ledger-transaction-verified', '5x100', '2x100'),
      scraped('ledger', 'signet_ledger_certificates_issued_total', { result: 'issued' }, '0+1x100'),
    ],
    at: '80m',
    fires: null,
  },
  {
    alert: 'SignetCertificateIssuanceStalled',
    name: 'the ledger is down (no ledger series at all) while transaction keeps publishing verified transactions',
    series: [
      scraped('transaction', 'signet_events_published_total', { subject: 'signet.transaction.verified' }, '0+1x100'),
      scraped('transaction', 'signet_events_published_total', { subject: 'signet.transaction.created' }, '0+3x100'),
    ],
    at: '80m',
    fires: {},
  },
  {
    alert: 'SignetCertificateSealingDelayed',
    name: 'leaves are claimed (certificates issued) but none is appended under a checkpoint',
    series: [
      scraped('ledger', 'signet_ledger_leaves_claimed_total', {}, '0+2x60'),
      scraped('ledger', 'signet_ledger_leaves_appended_total', {}, '40x60'),
    ],
    at: '45m',
    fires: {},
  },
  {
    alert: 'SignetCertificateSealingDelayed',
    name: 'every claimed leaf is appended',
    series: [
      scraped('ledger', 'signet_ledger_leaves_claimed_total', {}, '0+2x60'),
      scraped('ledger', 'signet_ledger_leaves_appended_total', {}, '0+2x60'),
    ],
    at: '45m',
    fires: null,
  },
  {
    alert: 'SignetSignedPdfSealingFailed',
    name: 'one signed PDF is given up while others seal (the ledger counts the failed one once)',
    series: [
      scraped('ledger', 'signet_ledger_signed_pdf_seals_total', { result: 'sealed' }, '0+3x60'),
      scraped('ledger', 'signet_ledger_signed_pdf_seals_total', { result: 'failed' }, '0x20 1x40'),
    ],
    at: '40m',
    fires: {},
  },
  {
    alert: 'SignetSignedPdfSealingFailed',
    name: 'PDFs retried (TSA down, transient errors) but none given up',
    series: [
      scraped('ledger', 'signet_ledger_signed_pdf_seals_total', { result: 'sealed' }, '0+3x60'),
      scraped('ledger', 'signet_ledger_signed_pdf_seals_total', { result: 'tsa_unavailable' }, '0+5x60'),
      scraped('ledger', 'signet_ledger_signed_pdf_seals_total', { result: 'error' }, '0+1x60'),
      scraped('ledger', 'signet_ledger_signed_pdf_seals_total', { result: 'failed' }, '0x60'),
    ],
    at: '40m',
    fires: null,
  },
  {
    alert: 'SignetCheckpointWitnessingStalled',
    name: 'one of two witnesses (quorum 2) is down: the oldest uncosigned checkpoint ages past 15 minutes',
    series: [scraped('ledger', 'signet_ledger_uncosigned_checkpoint_age_seconds', {}, '0+60x40')],
    at: '25m',
    fires: {},
  },
  {
    alert: 'SignetCheckpointWitnessingStalled',
    name: 'witnesses cosign each checkpoint within seconds (age back to 0 after each)',
    series: [scraped('ledger', 'signet_ledger_uncosigned_checkpoint_age_seconds', {}, '0 5 0 3 0 7 0 2 0x32')],
    at: '30m',
    fires: null,
  },
  {
    alert: 'SignetSignedPdfTimestampExpiring',
    name: 'renewals fail: the earliest document timestamp expires in 20 days and counts down',
    series: [
      scraped('ledger', 'signet_ledger_signed_pdf_timestamp_expiry_seconds', {}, '1728000-60x180'),
      scraped('ledger', 'signet_ledger_signed_pdf_retimestamps_total', { result: 'tsa_unavailable' }, '0+1x180'),
    ],
    at: '2h',
    fires: {},
  },
  {
    alert: 'SignetSignedPdfTimestampExpiring',
    name: 'renewed at the 90-day margin: the earliest expiry stays months away',
    series: [scraped('ledger', 'signet_ledger_signed_pdf_timestamp_expiry_seconds', {}, '7700000-60x180')],
    at: '2h',
    fires: null,
  },
  {
    alert: 'SignetOutboxBacklog',
    name: '150 transactions hold unpublished events',
    series: [
      scraped('transaction', 'signet_outbox_pending', { collection: 'transactions' }, '150x40'),
      scraped('transaction', 'signet_outbox_oldest_age_seconds', { collection: 'transactions' }, '3x40'),
    ],
    at: '30m',
    fires: { service: 'transaction', collection: 'transactions' },
  },
  {
    alert: 'SignetOutboxBacklog',
    name: 'one event stays unpublished for more than 10 minutes',
    series: [
      scraped('transaction', 'signet_outbox_pending', { collection: 'transactions' }, '1x40'),
      scraped('transaction', 'signet_outbox_oldest_age_seconds', { collection: 'transactions' }, '0+60x40'),
    ],
    at: '30m',
    fires: { service: 'transaction', collection: 'transactions' },
  },
  {
    alert: 'SignetOutboxBacklog',
    name: '20 transactions hold unpublished events, each published within seconds',
    series: [
      scraped('transaction', 'signet_outbox_pending', { collection: 'transactions' }, '20x40'),
      scraped('transaction', 'signet_outbox_oldest_age_seconds', { collection: 'transactions' }, '2x40'),
    ],
    at: '30m',
    fires: null,
  },
  {
    alert: 'SignetSigningLinkMailFailing',
    name: 'a signing-link mail fails every minute',
    series: [
      scraped('transaction', 'signet_transaction_mails_total', { kind: 'invite', result: 'failed' }, '0+1x40'),
      scraped('transaction', 'signet_transaction_mails_total', { kind: 'invite', result: 'sent' }, '0+5x40'),
    ],
    at: '30m',
    fires: { result: 'failed' },
  },
  {
    alert: 'SignetSigningLinkMailFailing',
    name: 'mails go out; failures counted long ago stay flat',
    series: [
      scraped('transaction', 'signet_transaction_mails_total', { kind: 'invite', result: 'failed' }, '3x40'),
      scraped('transaction', 'signet_transaction_mails_total', { kind: 'invite', result: 'sent' }, '0+5x40'),
    ],
    at: '30m',
    fires: null,
  },
  {
    alert: 'SignetUpstreamCircuitOpen',
    name: 'the ledger is down: its circuit is open or half-open on both gateway pods and calls are refused',
    series: [
      scraped('gateway', 'signet_gateway_upstream_circuit_state', { upstream: 'ledger' }, '0x5 2 1 2 2 1 2x30', 'gateway-0'),
      scraped('gateway', 'signet_gateway_upstream_circuit_state', { upstream: 'ledger' }, '0x5 2x35', 'gateway-1'),
      scraped('gateway', 'signet_gateway_upstream_circuit_state', { upstream: 'identity' }, '0x40', 'gateway-0'),
      scraped('gateway', 'signet_gateway_upstream_short_circuited_total', { upstream: 'ledger' }, '0x5 0+3x35', 'gateway-0'),
    ],
    at: '25m',
    fires: { upstream: 'ledger' },
  },
  {
    alert: 'SignetUpstreamCircuitOpen',
    name: 'a one-minute ledger blip: the circuit closes again',
    series: [
      scraped('gateway', 'signet_gateway_upstream_circuit_state', { upstream: 'ledger' }, '0x5 2 1 0x33', 'gateway-0'),
      scraped('gateway', 'signet_gateway_upstream_short_circuited_total', { upstream: 'ledger' }, '0x5 0+3x2 6x33', 'gateway-0'),
    ],
    at: '25m',
    fires: null,
  },
  {
    alert: 'SignetUpstreamCircuitOpen',
    name: 'left open after a blip, but no route has called the ledger since (nothing refused)',
    series: [
      scraped('gateway', 'signet_gateway_upstream_circuit_state', { upstream: 'ledger' }, '0x5 2x35', 'gateway-0'),
      scraped('gateway', 'signet_gateway_upstream_short_circuited_total', { upstream: 'ledger' }, '0x5 4x35', 'gateway-0'),
    ],
    at: '25m',
    fires: null,
  },
  {
    alert: 'SignetEventsDeadLettered',
    name: 'one ledger replica copied an event to the dead-letter stream (its counter starts at 0)',
    series: [
      scraped(
        'ledger',
        'signet_events_dead_lettered_total',
        { consumer: 'ledger-transaction-verified' },
        '0x10 1x20',
        'ledger-0',
      ),
      scraped('ledger', 'signet_events_dead_lettered_total', { consumer: 'ledger-transaction-verified' }, '0x30', 'ledger-1'),
    ],
    at: '15m',
    fires: { consumer: 'ledger-transaction-verified' },
  },
  {
    alert: 'SignetEventsDeadLettered',
    name: 'handlers fail and are redelivered, but nothing reaches its last delivery',
    series: [
      scraped('ledger', 'signet_events_dead_lettered_total', { consumer: 'ledger-transaction-verified' }, '0x30'),
      scraped('ledger', 'signet_events_consumed_total', { consumer: 'ledger-transaction-verified', result: 'error' }, '0+5x30'),
    ],
    at: '15m',
    fires: null,
  },
  {
    alert: 'SignetBiometricErasureOverdue',
    name: 'the ceremony reconciliation found capture media past their erasure',
    series: [
      scraped('ceremony', 'signet_ceremony_erasure_overdue_objects_total', {}, '0x10 1x20'),
      scraped('transaction', 'signet_transaction_erasure_overdue_total', {}, '0x30'),
    ],
    at: '20m',
    fires: {},
  },
  {
    alert: 'SignetBiometricErasureOverdue',
    name: 'erasure runs on time: both counters stay flat',
    series: [
      scraped('ceremony', 'signet_ceremony_erasure_overdue_objects_total', {}, '0x30'),
      scraped('transaction', 'signet_transaction_erasure_overdue_total', {}, '0x30'),
    ],
    at: '20m',
    fires: null,
  },
  {
    alert: 'SignetWebhookBacklogGrowing',
    name: 'a customer endpoint is down: 40 more deliveries wait every minute (two transaction replicas report the same count)',
    series: ['transaction-0', 'transaction-1'].map((pod) =>
      scraped('transaction', 'signet_transaction_webhook_retry_backlog', {}, '900+40x90', pod),
    ),
    at: '70m',
    fires: {},
  },
  {
    alert: 'SignetWebhookBacklogGrowing',
    name: 'a large but steady backlog (retries waiting out their backoff, drained as fast as it fills)',
    series: [scraped('transaction', 'signet_transaction_webhook_retry_backlog', {}, '5000x90')],
    at: '70m',
    fires: null,
  },
  {
    alert: 'SignetWebhookBacklogGrowing',
    name: 'a small backlog that grows (below the threshold)',
    series: [scraped('transaction', 'signet_transaction_webhook_retry_backlog', {}, '0+5x90')],
    at: '70m',
    fires: null,
  },
];

/** The rule's annotations with `{{ $labels.x }}` filled in, as Prometheus expands them. */
function expandedAnnotations(r: Rule, labels: Labels): Labels {
  return Object.fromEntries(
    Object.entries(r.annotations ?? {}).map(([k, v]) => [
      k,
      v.replace(/\{\{\s*\$labels\.(\w+)\s*\}\}/g, (_, l: string) => labels[l] ?? ''),
    ]),
  );
}

function promtoolTests(cases: Case[]) {
  return {
    rule_files: ['rules.yaml'],
    evaluation_interval: '1m',
    tests: cases.map((c) => {
      const r = alerts.get(c.alert);
      if (!r) throw new Error(`no alert ${c.alert} in the rendered PrometheusRule`);
      const labels = { ...(c.fires ?? {}), ...(r.labels ?? {}) };
      return {
        name: `${c.alert}: ${c.name}`,
        interval: '1m',
        input_series: c.series,
        alert_rule_test: [
          {
            eval_time: c.at,
            alertname: c.alert,
            exp_alerts: c.fires ? [{ exp_labels: labels, exp_annotations: expandedAnnotations(r, labels) }] : [],
          },
        ],
      };
    }),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'signet-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs promtool test rules on the rendered rules with the given cases. */
function promtoolTestRules(cases: Case[]) {
  writeFileSync(join(dir, 'rules.yaml'), stringify({ groups }));
  writeFileSync(join(dir, 'tests.yaml'), stringify(promtoolTests(cases)));
  const r = spawnSync(promtoolBin(), ['test', 'rules', 'tests.yaml'], { cwd: dir, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the PrometheusRule under promtool test rules', () => {
  it('renders with the external-infra values', () => {
    expect(rule, 'external-infra values render no PrometheusRule').toBeDefined();
    expect(alerts.size).toBeGreaterThanOrEqual(8);
  });

  it('has a case where each alert fires and one where it stays quiet', () => {
    for (const name of alerts.keys()) {
      expect(
        CASES.some((c) => c.alert === name && c.fires),
        `${name} has no firing case`,
      ).toBe(true);
      expect(
        CASES.some((c) => c.alert === name && !c.fires),
        `${name} has no quiet case`,
      ).toBe(true);
    }
  });

  // promtool evaluates every case in one run: about 10 s of CPU, minutes on a machine loaded by other tests.
  it('passes every case', { timeout: 240_000 }, () => {
    const r = promtoolTestRules(CASES);
    expect(r.output).toContain('SUCCESS');
    expect(r.status, r.output).toBe(0);
  });

  it('fails a case that expects the wrong thing (the runner can fail)', () => {
    const wrong = CASES.filter((c) => c.alert === 'SignetHttpErrorRatioHigh').map((c) => ({ ...c, fires: c.fires ? null : {} }));
    const r = promtoolTestRules(wrong);
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('FAILED');
  });
});

describe('the ServiceMonitor keeps the labels the rules select on', () => {
  const components = manifests
    .filter((o) => o.kind === 'Service' && o.metadata.labels?.['app.kubernetes.io/component'])
    .map((o) => o.metadata.labels!['app.kubernetes.io/component']!);

  it('scrapes every service with its own `service` label and the release namespace', () => {
    expect(components.length).toBeGreaterThanOrEqual(7);
    for (const c of components) {
      const labels = scrapedLabels(manifests, c, { service: c, route: '/x' });
      expect(labels, c).toMatchObject({ service: c, namespace: NAMESPACE, route: '/x' });
      expect(labels.pod, c).toBe(`${c}-0`);
    }
  });

  it('selects in the rules only `service` values that are service names', () => {
    const used = [...alerts.values()].flatMap((r) => [...r.expr.matchAll(/\bservice="([^"]+)"/g)].map((m) => m[1]!));
    for (const s of used) expect(components, `a rule selects service="${s}"`).toContain(s);
  });

  it('simulates the Operator: without the chart relabelling, `service` is the Kubernetes Service name', () => {
    const bare = manifests.map((o) =>
      o.kind === 'ServiceMonitor'
        ? { ...o, spec: { ...o.spec, endpoints: o.spec.endpoints.map((e: object) => ({ ...e, relabelings: [] })) } }
        : o,
    );
    const labels = scrapedLabels(bare, 'gateway', { service: 'gateway' });
    expect(labels.service).toBe('signet-gateway');
    expect(labels.exported_service).toBe('gateway');
    expect(relabel({ a: 'x' }, [{ sourceLabels: ['a'], regex: '(.+)', replacement: 'y-${1}', targetLabel: 'b' }])).toEqual({
      a: 'x',
      b: 'y-x',
    });
  });
});
