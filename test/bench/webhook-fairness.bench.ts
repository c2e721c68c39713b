/**
 * Webhook delivery fairness benchmark (issue 31 item 3). Run:
 * `npx tsx --conditions=@signet/source test/bench/webhook-fairness.bench.ts`
 *
 * Starts identity, billing, transaction and the gateway (their own processes), a healthy receiver
 * for owner B and, for owner A, 25 endpoints on a receiver that never answers. B sends BENCH_TX
 * transactions one after the other (each gives B's endpoint two events: transaction.created and
 * signer.link_sent) and the delivery latency of each (arrival at B's receiver minus the event's time)
 * is taken, first alone, then while A's 25 endpoints hang on every one of A's BENCH_A_TX transactions'
 * events (each attempt held until the attempt timeout, 10 s by default). Prints B's p50/p95/max in
 * both phases, the load average beside each, and how many of A's requests were open. No assertion:
 * the issue's goal is B's p95 ≤ 5 s with A hanging.
 *
 * Infrastructure: the URLs in the environment (MONGO_URL, NATS_URL, REDIS_URL, S3_*, SMTP_URL,
 * MAILPIT_URL) when all are set, else the local binaries started under a temporary folder.
 * Options: BENCH_TX (default 20), BENCH_A_TX (default 4), BENCH_GAP_MS (default 250, between B's
 * creations), BENCH_BUILT=1 (built services; processes.ts), BENCH_KEEP=1 (keep their logs), and the
 * service's own WEBHOOK_* settings from the environment (e.g. WEBHOOK_OWNER_CONCURRENCY=64 to see
 * what one owner costs everyone without the owner's share).
 */
import { randomBytes } from 'node:crypto';
import { createAccount, type Account } from '../harness/accounts.js';
import { tinyPdf } from '../fixtures/documents.js';
import { answering, hanging, webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { creationRequests, fundAccount } from './creation-requests.js';
import { startFrontStack } from './front-stack.js';
import { loadAverage, pct, servicesMode } from './processes.js';

const TX = Number(process.env.BENCH_TX ?? 20);
const A_TX = Number(process.env.BENCH_A_TX ?? 4);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 250);
const A_ENDPOINTS = 25;
const EVENTS = ['transaction.created', 'signer.link_sent'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Delivery latencies (ms) of what `rx` received from index `from` on: arrival minus the event's own time. */
const latencies = (rx: WebhookReceiver, from: number) =>
  rx.got
    .slice(from)
    .map((g) => g.at - Date.parse((JSON.parse(g.body) as { timestamp: string }).timestamp))
    .sort((x, y) => x - y);

function report(label: string, xs: number[], expected: number) {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  if (!xs.length) {
    console.log(`${label}: 0/${expected} deliveries within a minute of the last creation; load average ${loadAverage()}`);
    return;
  }
  console.log(
    `${label}: ${xs.length}/${expected} deliveries; p50 ${s(pct(xs, 50))}, p95 ${s(pct(xs, 95))}, max ${s(xs[xs.length - 1] ?? 0)}; load average ${loadAverage()}`,
  );
}

async function main() {
  const stack = await startFrontStack({
    tag: 'webhooks',
    env: () => ({
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
      WEBHOOK_MAX_ENDPOINTS: String(A_ENDPOINTS),
      WEBHOOK_POLL_MS: process.env.WEBHOOK_POLL_MS ?? '250',
    }),
  });
  const { urls, gatewayUrl, webhookSecret } = stack;
  const receivers: WebhookReceiver[] = [];
  try {
    console.log(`webhook fairness benchmark (${servicesMode()}); load average ${loadAverage()}`);

    const a = await createAccount(gatewayUrl, urls.MAILPIT_URL, { tag: 'bench-slow' });
    const b = await createAccount(gatewayUrl, urls.MAILPIT_URL, { tag: 'bench-healthy' });
    await fundAccount(gatewayUrl, webhookSecret, a, A_TX + 5);
    await fundAccount(gatewayUrl, webhookSecret, b, 2 * TX + 5);
    const healthy = await webhookReceiver(answering(204));
    const dead = await webhookReceiver(hanging);
    receivers.push(healthy, dead);
    const endpoint = async (acct: Account, url: string) => {
      const r = await fetch(`${gatewayUrl}/api/webhook-endpoints`, {
        method: 'POST',
        headers: { 'x-api-key': acct.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ url, event_types: EVENTS }),
      });
      if (r.status !== 201) throw new Error(`endpoint: ${r.status} ${await r.text()}`);
    };
    await endpoint(b, healthy.url);
    const requests = creationRequests(gatewayUrl);
    const create = (acct: Account) =>
      requests.create(
        {
          name: 'document',
          filename: 'contract.pdf',
          contentType: 'application/pdf',
          data: tinyPdf(randomBytes(8).toString('hex')),
        },
        acct,
      );

    /** B's transactions one after another; waits for their deliveries (or a minute past the last) and reports. */
    const phase = async (label: string) => {
      const from = healthy.got.length;
      for (let i = 0; i < TX; i++) {
        await create(b);
        await sleep(GAP_MS);
      }
      const expected = TX * EVENTS.length;
      // Waits at most a minute past the last creation: longer is a failure either way (the goal is a p95 of 5 s).
      const deadline = Date.now() + 60_000;
      while (healthy.got.length - from < expected && Date.now() < deadline) await sleep(100);
      report(label, latencies(healthy, from), expected);
    };

    await phase('owner B alone');
    for (let i = 0; i < A_ENDPOINTS; i++) await endpoint(a, `${dead.url}/${i}`);
    for (let i = 0; i < A_TX; i++) await create(a);
    // A's deliveries are due and hanging before B starts.
    const start = Date.now();
    while (dead.state.open === 0 && Date.now() - start < 30_000) await sleep(100);
    console.log(`owner A: ${A_ENDPOINTS} hanging endpoints, ${A_TX * A_ENDPOINTS * EVENTS.length} deliveries due`);
    await phase(`owner B with A's ${A_ENDPOINTS} endpoints hanging`);
    console.log(
      `owner A's requests open at the end: ${dead.state.open} (given up so far: ${dead.state.ended}); load average ${loadAverage()}`,
    );
  } finally {
    for (const r of receivers) await r.close();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
