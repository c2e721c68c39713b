/**
 * Bulk send benchmark (issue 33 item 4). Run:
 * `npx tsx --conditions=@signet/source test/bench/bulk-send.bench.ts`
 *
 * Starts identity, billing, transaction and the gateway (their own processes), makes a one-role
 * template with a test-mode key and sends it to BENCH_ROWS signers (default 1,000) in one CSV job,
 * with the row rate cap out of the way (BULK_ROWS_PER_SECOND, default here 1000) so the creation path
 * itself is measured. Prints the time to accept the upload, rows per second while the job ran (from
 * the answer to the last row), and the load average beside each. No assertion.
 *
 * Infrastructure: the URLs in the environment (MONGO_URL, NATS_URL, REDIS_URL, S3_*, SMTP_URL,
 * MAILPIT_URL) when all are set, else the local binaries started under a temporary folder.
 * Options: BENCH_ROWS, BULK_ROWS_PER_SECOND, BENCH_BUILT=1 (built services; processes.ts), BENCH_KEEP=1.
 */
import { createAccount } from '../harness/accounts.js';
import { multipart, tinyPdf } from '../fixtures/documents.js';
import { startFrontStack } from './front-stack.js';
import { loadAverage, servicesMode } from './processes.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const stack = await startFrontStack({
    tag: 'bulk',
    env: () => ({ BULK_ROWS_PER_SECOND: process.env.BULK_ROWS_PER_SECOND ?? '1000', BULK_INTERVAL_MS: '500' }),
  });
  const { urls, gatewayUrl, run } = stack;
  try {
    console.log(`bulk send benchmark (${servicesMode()}), ${ROWS} rows; load average ${loadAverage()}`);

    const acct = await createAccount(gatewayUrl, urls.MAILPIT_URL, { tag: 'bench-bulk' });
    const admin = { authorization: `Bearer ${acct.token}` };
    const csrf = ((await (await fetch(`${gatewayUrl}/api/admin/csrf`, { headers: admin })).json()) as { csrf: string }).csrf;
    const keyRes = await fetch(`${gatewayUrl}/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', mode: 'test' }),
    });
    const key = ((await keyRes.json()) as { key: string }).key;
    const mp = multipart([
      { name: 'name', value: 'Bench' },
      { name: 'roles', value: JSON.stringify([{ name: 'client', verification: 'liveness_only' }]) },
      { name: 'document', data: tinyPdf(run), filename: 'bench.pdf', contentType: 'application/pdf' },
    ]);
    const tplRes = await fetch(`${gatewayUrl}/api/templates`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': mp.contentType },
      body: mp.body as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit);
    if (tplRes.status !== 201) throw new Error(`template: ${tplRes.status} ${await tplRes.text()}`);
    const tpl = ((await tplRes.json()) as { id: string }).id;

    const csv = `client_name,client_email\n${Array.from({ length: ROWS }, (_, n) => `Signer ${n},bench-${n}-${run}@example.com`).join('\n')}\n`;
    const t0 = Date.now();
    const up = await fetch(`${gatewayUrl}/api/templates/${tpl}/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/csv' },
      body: csv,
    });
    if (up.status !== 202) throw new Error(`bulk: ${up.status} ${await up.text()}`);
    const id = ((await up.json()) as { id: string }).id;
    const t1 = Date.now();
    console.log(`upload of ${ROWS} rows accepted in ${((t1 - t0) / 1000).toFixed(2)} s; load average ${loadAverage()}`);
    let job: { state: string; created: number; failed: number; not_sent: number } | undefined;
    let last = -1;
    for (;;) {
      job = (await (await fetch(`${gatewayUrl}/api/bulk/${id}`, { headers: { 'x-api-key': key } })).json()) as typeof job;
      if (job!.created !== last && job!.created % 100 < 10) {
        last = job!.created;
        console.log(`  ${job!.created} created after ${((Date.now() - t1) / 1000).toFixed(1)} s; load average ${loadAverage()}`);
      }
      if (job!.state === 'completed') break;
      await sleep(500);
    }
    const s = (Date.now() - t1) / 1000;
    console.log(
      `job completed: ${job!.created} created, ${job!.failed} failed, ${job!.not_sent} not sent in ${s.toFixed(1)} s = ` +
        `${(job!.created / s).toFixed(1)} rows/s; load average ${loadAverage()}`,
    );
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
