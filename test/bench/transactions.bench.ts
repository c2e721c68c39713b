/**
 * Transaction creation benchmark (issue 5, Performance). Run: `npx tsx --conditions=@signet/source test/bench/transactions.bench.ts`
 *
 * 1. One 200 MB PDF through the gateway (multipart → gRPC stream → MinIO), against a direct MinIO put
 *    of the same file from the same machine in the same run: prints the throughput ratio (goal ≥ 0.8).
 * 2. Peak RSS growth of the gateway and of the transaction service during that upload, each a child
 *    process sampled from /proc (goal ≤ 64 MB).
 * 3. 1,000 small creations at concurrency 20: rate, p50/p99, and each process's CPU per creation.
 *
 * Infrastructure: the URLs in the environment (MONGO_URL, NATS_URL, REDIS_URL, S3_*, SMTP_URL,
 * MAILPIT_URL) when all are set, else the local binaries started under a temporary folder.
 * Options: BENCH_DOC_MB (default 200), BENCH_ROUNDS (default 1: that many direct-put / gateway pairs,
 * alternating, then their median and spread), BENCH_SMALL (default 1000; 0: the large document only),
 * BENCH_CONCURRENCY (default 20), BENCH_ACCOUNTS (default 20 funded senders, used in turn),
 * BENCH_UPLOAD_CLIENT (http: one request with its Content-Length, as a browser sends a form; fetch: a
 * streamed, chunked body), BENCH_BUILT=1 (the services' built code; `pnpm build` first), BENCH_NODE_ARGS
 * (node flags for the services; processes.ts), BENCH_KEEP=1 (keep their logs). The load average is
 * printed with each figure. The services reach the store through a timing proxy (mongo-timing.ts) that
 * prints the store's commands by summed latency; BENCH_MONGO_TIMING=0 connects them directly, without the
 * proxy's CPU in this process (the rate of record is taken so; the run says which mode it was in).
 */
import { createReadStream, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Client } from 'minio';
import { createAccount, type Account } from '../harness/accounts.js';
import { startFrontStack } from './front-stack.js';
import { startMongoTimingProxy } from './mongo-timing.js';
import { creationRequests, fundAccount, grpcMean, writeRandomPdf } from './creation-requests.js';
import { cpuSeconds, loadAverage as load, mb, pct, rssBytes, servicesMode, treeCpuSeconds } from './processes.js';
import { tinyPdf } from '../../services/transaction/test/fixtures.js';

const DOC_MB = Number(process.env.BENCH_DOC_MB ?? 200);
const SMALL = Number(process.env.BENCH_SMALL ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));

async function main() {
  const timed = process.env.BENCH_MONGO_TIMING !== '0';
  let timing: Awaited<ReturnType<typeof startMongoTimingProxy>> | undefined;
  const stack = await startFrontStack({
    tag: 'transactions',
    before: async (urls) => {
      if (!timed) return undefined;
      const proxy = await startMongoTimingProxy(urls.MONGO_URL);
      timing = proxy;
      return { env: { MONGO_URL: proxy.url }, stop: () => proxy.stop() };
    },
  });
  const { urls, gatewayUrl, webhookSecret, run, tmp, svcs, ops, infraPids } = stack;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void stack.stop().then(() => process.exit(130)));
  try {
    const gateway = svcs.find((s) => s.name === 'gateway')!;
    const transaction = svcs.find((s) => s.name === 'transaction')!;

    // Senders with enough credits for the run (a signed pay-as-you-go payment through the webhook route).
    // Several accounts: 20 workers on one account measure billing's contention on one document, not creation.
    const accounts: Account[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const acct = await createAccount(gatewayUrl, urls.MAILPIT_URL, { tag: `bench${i}` });
      await fundAccount(gatewayUrl, webhookSecret, acct, Math.ceil(SMALL / ACCOUNTS) + ROUNDS + 10);
      accounts.push(acct);
    }

    const requests = creationRequests(gatewayUrl);
    const create = (doc: Parameters<typeof requests.create>[0], acct: Account = accounts[0]!) => requests.create(doc, acct);
    const fetchClient = process.env.BENCH_UPLOAD_CLIENT === 'fetch';

    // Warm up both processes (JIT, connections) before the baselines.
    for (let i = 0; i < 5; i++)
      await create({ name: 'document', filename: 'w.pdf', contentType: 'application/pdf', data: tinyPdf(`warm ${i}`) });

    // The same 200 MB file for both paths.
    const file = join(tmp, 'doc.pdf');
    const size = await writeRandomPdf(file, DOC_MB);

    const u = new URL(urls.S3_ENDPOINT);
    const s3 = new Client({
      endPoint: u.hostname,
      port: Number(u.port),
      useSSL: false,
      accessKey: urls.S3_ACCESS_KEY,
      secretKey: urls.S3_SECRET_KEY,
      region: 'us-east-1',
      pathStyle: true,
    });
    if (!(await s3.bucketExists(`bench-direct-${run}`))) await s3.makeBucket(`bench-direct-${run}`, 'us-east-1');
    const mbps = (ms: number) => (size / 1024 / 1024 / (ms / 1000)).toFixed(1);
    console.log(
      `\n== ${DOC_MB} MB PDF, ${ROUNDS} round(s), ${cpus().length} CPUs, client ${fetchClient ? 'fetch (chunked body)' : 'node:http (Content-Length)'} ==`,
    );
    const ratios: number[] = [];
    const growth = { gateway: 0, transaction: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      let t = performance.now();
      await s3.putObject(`bench-direct-${run}`, `doc-${round}.pdf`, createReadStream(file), size);
      const directMs = performance.now() - t;
      await s3.removeObject(`bench-direct-${run}`, `doc-${round}.pdf`);

      const base = { gateway: rssBytes(gateway.pid), transaction: rssBytes(transaction.pid) };
      const cpu0 = { gateway: cpuSeconds(gateway.pid), transaction: cpuSeconds(transaction.pid), bench: process.cpuUsage() };
      const peak = { ...base };
      const sampler = setInterval(() => {
        peak.gateway = Math.max(peak.gateway, rssBytes(gateway.pid));
        peak.transaction = Math.max(peak.transaction, rssBytes(transaction.pid));
      }, 20);
      t = performance.now();
      if (fetchClient) await requests.createLargeByFetch(file, accounts[0]!);
      else await requests.createLarge(file, size, accounts[0]!);
      const gatewayMs = performance.now() - t;
      clearInterval(sampler);
      const benchCpu = process.cpuUsage(cpu0.bench);
      const cpu = {
        gateway: cpuSeconds(gateway.pid) - cpu0.gateway,
        transaction: cpuSeconds(transaction.pid) - cpu0.transaction,
        client: (benchCpu.user + benchCpu.system) / 1e6,
      };
      ratios.push(directMs / gatewayMs);
      growth.gateway = Math.max(growth.gateway, peak.gateway - base.gateway);
      growth.transaction = Math.max(growth.transaction, peak.transaction - base.transaction);
      console.log(`-- round ${round} (load average ${load()}) --`);
      console.log(`direct MinIO put:        ${directMs.toFixed(0)} ms (${mbps(directMs)} MB/s)`);
      console.log(`through the gateway:     ${gatewayMs.toFixed(0)} ms (${mbps(gatewayMs)} MB/s)`);
      console.log(`throughput ratio:        ${(directMs / gatewayMs).toFixed(2)} (goal >= 0.8)`);
      console.log(
        `gateway RSS:             ${mb(base.gateway)} -> peak ${mb(peak.gateway)}, growth ${mb(peak.gateway - base.gateway)} (goal <= 64 MB)`,
      );
      console.log(
        `transaction RSS:         ${mb(base.transaction)} -> peak ${mb(peak.transaction)}, growth ${mb(peak.transaction - base.transaction)} (goal <= 64 MB)`,
      );
      console.log(
        `CPU during the upload:   gateway ${cpu.gateway.toFixed(2)} s, transaction ${cpu.transaction.toFixed(2)} s, bench client ${cpu.client.toFixed(2)} s`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `\nthroughput ratio over ${ROUNDS} round(s): median ${pct(sorted, 50).toFixed(2)}, min ${sorted[0]!.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)} (goal >= 0.8); ` +
        `largest RSS growth gateway ${mb(growth.gateway)}, transaction ${mb(growth.transaction)} (goal <= 64 MB); load average ${load()}`,
    );

    // Small creations at fixed concurrency.
    const latencies: number[] = [];
    const failures: Record<string, number> = {};
    let next = 0;
    timing?.reset();
    const loadBefore = load();
    // CPU per creation by process: on two cores the rate is bound by the CPU all of them use.
    const cpuOf = () =>
      Object.fromEntries([
        ...svcs.map((s) => [s.name, cpuSeconds(s.pid)] as const),
        ...infraPids.map((p) => [p.name, treeCpuSeconds(p.pid)] as const),
        // The bench process also runs the store's timing proxy, unless BENCH_MONGO_TIMING=0.
        ['bench client', process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6] as const,
      ]);
    const cpuBefore = cpuOf();
    const t = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < SMALL) {
          const i = next++;
          const s = performance.now();
          try {
            await create(
              { name: 'document', filename: 's.pdf', contentType: 'application/pdf', data: tinyPdf(`small ${i}`) },
              accounts[i % accounts.length],
            );
            latencies.push(performance.now() - s);
          } catch (err) {
            const key = String((err as Error).message).slice(0, 60);
            failures[key] = (failures[key] ?? 0) + 1;
          }
        }
      }),
    );
    const total = performance.now() - t;
    latencies.sort((a, b) => a - b);
    console.log(
      `\n== ${SMALL} small creations, concurrency ${CONCURRENCY}, ${ACCOUNTS} sender account(s), ` +
        `${servicesMode()}, ` +
        `${timed ? 'store behind the timing proxy (in the bench client)' : 'store connected directly (BENCH_MONGO_TIMING=0: no proxy, no command table)'}; ` +
        `load average ${loadBefore} before, ${load()} after ==`,
    );
    console.log(
      `total ${(total / 1000).toFixed(1)} s, ${latencies.length} created, ${((latencies.length / total) * 1000).toFixed(1)} creations/s`,
    );
    const cpuAfter = cpuOf();
    const perCreation = Object.entries(cpuAfter)
      .map(([name, sec]) => [name, ((sec - (cpuBefore[name] ?? 0)) * 1000) / Math.max(1, latencies.length)] as const)
      .filter(([, ms]) => ms >= 0.05)
      .sort((a, b) => b[1] - a[1]);
    const cpuTotal = perCreation.reduce((a, [, ms]) => a + ms, 0);
    console.log(
      `CPU per creation: ${cpuTotal.toFixed(1)} ms in all (${cpus().length} cores allow ${((cpus().length * 1000) / cpuTotal).toFixed(1)} creations/s at most) — ` +
        perCreation.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', '),
    );
    if (Object.keys(failures).length) console.log('failures:', failures);
    if (latencies.length) {
      console.log(
        `p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
      );
    }
    // Where the time goes: mean durations from the transaction service's own histograms.
    const metrics = await (await fetch(`http://127.0.0.1:${ops.transaction}/metrics`)).text();
    const mean = (name: string, method: string) => grpcMean(metrics, name, method);
    console.log(
      `mean CreateTransaction in the transaction service: ${mean('signet_grpc_server_handling_seconds', 'signet.transaction.v1.TransactionService/CreateTransaction')}`,
    );
    console.log(
      `mean billing ConsumeSignature as seen by it:       ${mean('signet_grpc_client_handling_seconds', 'signet.billing.v1.BillingService/ConsumeSignature')}`,
    );
    if (timing) console.log(timing.report());
  } catch (err) {
    console.error(err);
    for (const s of svcs) {
      const log = readFileSync(join(tmp, `${s.name}.log`), 'utf8')
        .split('\n')
        .slice(-15)
        .join('\n');
      console.error(`--- ${s.name} log (tail) ---\n${log}`);
    }
    throw err;
  } finally {
    await stack.stop();
  }
}

await main();
