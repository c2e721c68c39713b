/**
 * Transaction creation benchmark (issue 5, Performance). Run: `npx tsx --conditions=@signet/source test/bench/transactions.bench.ts`
 *
 * 1. One 200 MB PDF through the gateway (multipart → gRPC stream → MinIO), against a direct MinIO put
 *    of the same file from the same machine in the same run: prints the throughput ratio (goal ≥ 0.8).
 * 2. Peak RSS growth of the gateway and of the transaction service during that upload, each a child
 *    process sampled from /proc (goal ≤ 64 MB).
 * 3. 1,000 small creations at concurrency 20: p50/p99 latency.
 *
 * Infrastructure: the URLs in the environment (MONGO_URL, NATS_URL, REDIS_URL, S3_*, SMTP_URL,
 * MAILPIT_URL) when all are set, else the local binaries started under a temporary folder.
 * Options: BENCH_DOC_MB (default 200), BENCH_ROUNDS (default 1: that many direct-put / gateway pairs,
 * alternating, each ratio printed, then their median and spread), BENCH_SMALL (default 1000; 0 runs only
 * the large document), BENCH_CONCURRENCY (default 20), BENCH_ACCOUNTS (default 20: the small creations
 * round-robin over that many funded senders; 1 is enough with BENCH_SMALL=0).
 * BENCH_UPLOAD_CLIENT (default http: the large document in one request with its Content-Length, as a browser
 * or curl sends a form; fetch: fetch with a streamed, chunked body, the client of sessions before 9).
 * BENCH_NODE_ARGS passes node flags to the services (`--cpu-prof --cpu-prof-dir=<dir>`: a profile per service,
 * written on stop; `--trace-gc`: in the services' logs, kept with BENCH_KEEP=1).
 * The machine's load average is printed with each round: on a shared machine the ratio moves with it.
 * The services reach the store through a timing proxy (mongo-timing.ts): the small creations print the
 * store's commands by summed latency, so a regression names its cause. BENCH_MONGO_TIMING=0 connects them
 * to the store directly: the proxy forwards every command's bytes in this process, on the same cores, so
 * its CPU (in "bench client") and latency are not the product's; the rate is then measured without it and
 * no command table is printed (the run says which mode it was in).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { Client } from 'minio';
import { createAccount, type Account } from '../harness/accounts.js';
import { freePort, infraFromEnv, startLocalInfra, type InfraUrls } from '../harness/local-infra.js';
import { startMongoTimingProxy } from './mongo-timing.js';
import { multipart, pngPhoto, tinyPdf } from '../../services/transaction/test/fixtures.js';

const root = join(import.meta.dirname, '../..');
const DOC_MB = Number(process.env.BENCH_DOC_MB ?? 200);
const SMALL = Number(process.env.BENCH_SMALL ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
type Svc = { name: string; proc: ChildProcess; pid: number };

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0; // the process has exited
  }
}

async function waitHealthy(url: string, ms = 60_000) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready in ${ms} ms`);
}

function startService(logDir: string, name: string, env: Record<string, string>): Svc {
  const log = openSync(join(logDir, `${name}.log`), 'a');
  const proc = spawn(
    process.execPath,
    [
      // BENCH_NODE_ARGS: extra node flags for the services, e.g. `--cpu-prof --cpu-prof-dir=<dir>` or `--trace-gc`.
      ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--conditions=@signet/source',
      '--import',
      'tsx',
      join(root, `services/${name}/src/main.ts`),
    ],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  return { name, proc, pid: proc.pid! };
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of a process and its direct children (PostgreSQL's backends are the postmaster's children). */
function treeCpuSeconds(pid: number): number {
  let total = cpuSeconds(pid);
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(f[1]) === pid) total += (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      /* gone */
    }
  }
  return total;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'signet-bench-'));
  // The local store's PostgreSQL runs as its own user under tmp/infra: let it through.
  chmodSync(tmp, 0o711);
  let infraStop: (() => Promise<void>) | undefined;
  let infraPids: { name: string; pid: number }[] = [];
  let urls: InfraUrls;
  const given = infraFromEnv();
  if (given) {
    urls = given;
  } else {
    const infra = await startLocalInfra({ dataDir: join(tmp, 'infra') });
    urls = infra.urls;
    infraPids = infra.procs.map((p) => ({ name: p.name, pid: p.pid }));
    infraStop = () => infra.stop();
  }
  const timed = process.env.BENCH_MONGO_TIMING !== '0';
  const timing = timed ? await startMongoTimingProxy(urls.MONGO_URL) : undefined;
  const run = randomBytes(3).toString('hex');
  const port = {
    identity: await freePort(),
    billing: await freePort(),
    transaction: await freePort(),
    gatewayHttp: await freePort(),
  };
  const ops = { identity: await freePort(), billing: await freePort(), transaction: await freePort(), gateway: await freePort() };
  const gatewayUrl = `http://127.0.0.1:${port.gatewayHttp}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const buckets = { BUCKET_DOCUMENTS: `bench-docs-${run}`, BUCKET_REFERENCES: `bench-refs-${run}` };
  const common: Record<string, string> = {
    ...(urls as unknown as Record<string, string>),
    MONGO_URL: timing?.url ?? urls.MONGO_URL,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    PUBLIC_BASE_URL: gatewayUrl,
    IDENTITY_ADDR: `127.0.0.1:${port.identity}`,
    BILLING_ADDR: `127.0.0.1:${port.billing}`,
    BIOMETRICS_ADDR: '127.0.0.1:1',
    REFERENCE_FACE_CHECK: 'off',
    TRANSACTION_ADDR: `127.0.0.1:${port.transaction}`,
    CEREMONY_ADDR: '127.0.0.1:1',
    LEDGER_ADDR: '127.0.0.1:1',
    READINESS_UPSTREAMS: 'identity,billing,transaction',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET: webhookSecret,
    WEBHOOK_ENDPOINT_KEY: randomBytes(32).toString('hex'),
    PRODUCT_CATALOG: JSON.stringify({ prod_bench: { credits: 1000 } }),
    REDIS_KEY_PREFIX: `bench${run}:`,
    ...buckets,
  };
  const svcs: Svc[] = [];
  let stopping = false;
  const stopAll = async () => {
    if (stopping) return;
    stopping = true;
    for (const s of svcs.reverse()) {
      s.proc.kill('SIGTERM');
      await Promise.race([once(s.proc, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
    }
    await timing?.stop();
    await infraStop?.();
    if (process.env.BENCH_KEEP) console.error(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void stopAll().then(() => process.exit(130)));
  try {
    for (const n of ['identity', 'billing', 'transaction'] as const) {
      svcs.push(
        startService(tmp, n, { ...common, GRPC_PORT: String(port[n]), OPS_PORT: String(ops[n]), MONGO_DB: `bench_${run}_${n}` }),
      );
    }
    for (const n of ['identity', 'billing', 'transaction'] as const) await waitHealthy(`http://127.0.0.1:${ops[n]}/readyz`);
    svcs.push(startService(tmp, 'gateway', { ...common, HTTP_PORT: String(port.gatewayHttp), OPS_PORT: String(ops.gateway) }));
    await waitHealthy(`${gatewayUrl}/readyz`);
    const gateway = svcs.find((s) => s.name === 'gateway')!;
    const transaction = svcs.find((s) => s.name === 'transaction')!;

    // Senders with enough credits for the run (a signed pay-as-you-go payment through the webhook route).
    // Several accounts: 20 workers on one account measure billing's contention on one document, not creation.
    const fund = async (acct: Account, credits: number) => {
      const body = JSON.stringify({
        business_id: 'bench',
        type: 'payment.succeeded',
        timestamp: new Date().toISOString(),
        data: {
          payload_type: 'Payment',
          payment_id: `pay_${randomUUID()}`,
          customer: { customer_id: 'cus_bench', email: acct.email, name: 'Bench' },
          metadata: { user_id: acct.userId, plan: 'payg' },
          subscription_id: null,
          product_cart: [{ product_id: 'prod_bench', quantity: Math.max(1, Math.ceil(credits / 1000)) }],
          total_amount: 1000,
          currency: 'USD',
        },
      });
      // Billing learns the user from identity's user.created event; retry (a new delivery) until it has.
      for (let i = 0; ; i++) {
        const id = `msg_${randomUUID()}`;
        const ts = String(Math.floor(Date.now() / 1000));
        const sig = createHmac('sha256', Buffer.from(webhookSecret.slice(6), 'base64'))
          .update(`${id}.${ts}.${body}`)
          .digest('base64');
        const res = await fetch(`${gatewayUrl}/api/webhooks/dodo`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': ts,
            'webhook-signature': `v1,${sig}`,
          },
          body,
        });
        const text = await res.text();
        if (res.ok && !/unmatched/.test(text)) return;
        if (i > 50) throw new Error(`credits webhook: ${res.status} ${text}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const accounts: Account[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const acct = await createAccount(gatewayUrl, urls.MAILPIT_URL, { tag: `bench${i}` });
      await fund(acct, Math.ceil(SMALL / ACCOUNTS) + ROUNDS + 10);
      accounts.push(acct);
    }

    const photo = pngPhoto(64, 64);
    const create = async (doc: Parameters<typeof multipart>[0][number], acct: Account = accounts[0]!) => {
      const mp = multipart([
        { name: 'signer_name', value: 'Bench Signer' },
        { name: 'signer_email', value: `signer-${randomBytes(4).toString('hex')}@example.com` },
        { name: 'reference', filename: 'face.png', contentType: 'image/png', data: photo },
        doc,
      ]);
      const res = await fetch(`${gatewayUrl}/api/transactions`, {
        method: 'POST',
        headers: { 'x-api-key': acct.apiKey, 'content-type': mp.contentType },
        body: mp.body as never,
        duplex: 'half',
      } as RequestInit);
      const text = await res.text();
      if (res.status !== 201) throw new Error(`creation: ${res.status} ${text}`);
      return JSON.parse(text) as { id: number };
    };
    /**
     * The large document as a browser or curl sends a form: one request with its Content-Length, the
     * file streamed from disk (node:http). BENCH_UPLOAD_CLIENT=fetch sends it with fetch and a streamed
     * (chunked) body instead, as sessions before 9 measured: that client alone spent about as much CPU
     * as the gateway, on the same two cores.
     */
    const createLarge = async (file: string, size: number, acct: Account = accounts[0]!) => {
      const boundary = `----signetbench${randomBytes(8).toString('hex')}`;
      const field = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const head = Buffer.concat([
        Buffer.from(
          field('signer_name', 'Bench Signer') + field('signer_email', `signer-${randomBytes(4).toString('hex')}@example.com`),
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="reference"; filename="face.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        photo,
        Buffer.from(
          `\r\n--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
      ]);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const u = new URL(`${gatewayUrl}/api/transactions`);
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(
          {
            host: u.hostname,
            port: u.port,
            path: u.pathname,
            method: 'POST',
            headers: {
              'x-api-key': acct.apiKey,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': String(head.length + size + tail.length),
            },
          },
          resolve,
        );
        req.on('error', reject);
        req.write(head);
        const body = createReadStream(file, { highWaterMark: 1024 * 1024 });
        body.on('error', reject);
        body.pipe(req, { end: false });
        body.on('end', () => req.end(tail));
      });
      let text = '';
      for await (const c of res) text += String(c);
      if (res.statusCode !== 201) throw new Error(`creation: ${res.statusCode} ${text}`);
      return JSON.parse(text) as { id: number };
    };
    const fetchClient = process.env.BENCH_UPLOAD_CLIENT === 'fetch';

    // Warm up both processes (JIT, connections) before the baselines.
    for (let i = 0; i < 5; i++)
      await create({ name: 'document', filename: 'w.pdf', contentType: 'application/pdf', data: tinyPdf(`warm ${i}`) });

    // The same 200 MB file for both paths.
    const file = join(tmp, 'doc.pdf');
    const w = createWriteStream(file);
    const block = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < DOC_MB; i++) {
      randomBytes(block.length).copy(block);
      if (i === 0) block.write('%PDF-1.7\n', 0);
      if (!w.write(Buffer.from(block))) await once(w, 'drain');
    }
    w.end();
    await once(w, 'finish');
    const size = statSync(file).size;

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
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
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
      if (fetchClient) {
        await create({
          name: 'document',
          filename: 'big.pdf',
          contentType: 'application/pdf',
          data: async function* () {
            for await (const c of createReadStream(file, { highWaterMark: 1024 * 1024 })) yield c as Buffer;
          },
        });
      } else {
        await createLarge(file, size);
      }
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
    const mean = (name: string, method: string) => {
      const sum = new RegExp(`${name}_sum\\{[^}]*method="${method}"[^}]*\\} ([0-9.e+-]+)`).exec(metrics);
      const count = new RegExp(`${name}_count\\{[^}]*method="${method}"[^}]*\\} ([0-9.e+-]+)`).exec(metrics);
      return sum && count ? `${((Number(sum[1]) / Number(count[1])) * 1000).toFixed(1)} ms over ${count[1]} calls` : 'n/a';
    };
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
    await stopAll();
  }
}

await main();
