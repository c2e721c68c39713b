/**
 * Ledger benchmark (issue 8, Performance). Run: `npx tsx --conditions=@signet/source test/bench/ledger.bench.ts`
 *
 * 1. GET /api/verify/{label}/{hash} for a known certificate through the gateway (its own process,
 *    calling the ledger, its own process) against a bare Express endpoint (its own process) that returns
 *    the same JSON, with the same client in the same run: requests/s and p99, and their ratios (goal ≥ 0.5).
 * 2. Append throughput of the Merkle log in the real store: BENCH_APPENDS leaf claims by concurrent
 *    writers plus the checkpoints covering them, and one at a time; and end to end (BENCH_EVENTS
 *    transaction.verified events published to JetStream → consumed → checkpointed) with the ledger as
 *    its own process (goal ≥ 500 certificates/s).
 * 3. Proof sizes at 10^6 leaves, computed from the RFC 9162 recursion (no tree is built).
 *
 * Infrastructure: the URLs in the environment (MONGO_URL, NATS_URL, REDIS_URL, S3_*, SMTP_URL,
 * MAILPIT_URL) when all are set, else the local binaries started under a temporary folder.
 * Options: BENCH_SECONDS (default 10), BENCH_CONCURRENCY (default 32), BENCH_APPENDS (default 5000),
 * BENCH_EVENTS (default 1000), BENCH_LOG_LEAVES (default 100000). The cost of one checkpoint is printed at
 * about 1,000 leaves, at BENCH_APPENDS and at BENCH_LOG_LEAVES (issue 20: it must not grow with the log). The
 * log is filled to BENCH_LOG_LEAVES in bulk (the tree repository's leaf claims, 5,000 per insert, and the
 * Merkle frontier's nodes and one checkpoint), not leaf by leaf; the checkpoints measured are then made as
 * in production (the log's sealing pass for one new leaf).
 * BENCH_BUILT=1 runs the ledger and the gateway from their built code (`pnpm build` first; processes.ts).
 * The ledger process reaches the store through a timing proxy (mongo-timing.ts): the end-to-end part
 * prints the store's commands by summed latency and the load average.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus, connectMongo, createLogger, Metrics, publishEvent } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { freePort, infraFromEnv, startLocalInfra, type InfraUrls } from '../harness/local-infra.js';
import { startMongoTimingProxy } from './mongo-timing.js';
import { root, startService as startServiceProcess, waitFor } from './processes.js';
import {
  EMPTY_ROOT,
  Frontier,
  consistencyRanges,
  inclusionRanges,
  leafHash,
  perfectSubtrees,
} from '../../services/ledger/src/domain/merkle.js';
import { createLogSigner, parseSigningKey } from '../../services/ledger/src/domain/signer.js';
import { createLedgerLog } from '../../services/ledger/src/log/ledger-log.js';
import { certificateLeaf } from '@signet/verify';
import { createCertificateRepository } from '../../services/ledger/src/store/certificate.repository.js';
import { createTreeRepository } from '../../services/ledger/src/store/tree.repository.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const APPENDS = Number(process.env.BENCH_APPENDS ?? 5000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const LOG_LEAVES = Number(process.env.BENCH_LOG_LEAVES ?? 100_000);
const procs: ChildProcess[] = [];
function startService(name: string, env: Record<string, string>) {
  procs.push(startServiceProcess(name, env).proc);
}

/** The baseline: a bare Express app in its own process answering the same JSON on the same route shape. */
function startBaseline(port: number, body: string) {
  const code = `
    import express from 'express';
    const app = express();
    app.disable('x-powered-by');
    const body = process.env.BODY;
    app.get('/api/verify/:label/:hash', (_req, res) => { res.setHeader('Cache-Control', 'public, max-age=60'); res.type('application/json').send(body); });
    app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\\n'));`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: join(root, 'services/gateway'),
    env: { ...process.env, PORT: String(port), BODY: body },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(proc);
}

/** Closed-loop load: CONCURRENCY keep-alive connections, each sending the next request when the last answered. */
async function load(url: string, seconds: number): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const u = new URL(url);
  const lat: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.get({ host: u.hostname, port: u.port, path: u.pathname, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
  return { rps: lat.length / elapsed, p50: q(0.5), p99: q(0.99), errors };
}

function certificate(reference: string) {
  return {
    version: 1 as const,
    reference,
    document_sha256: createHash('sha256').update(reference).digest('hex'),
    issuer_name: 'Acme Ltd',
    attestation_type: 'signature',
    signers: [
      {
        name: 'Ada Lovelace',
        email_masked: 'a***@example.com',
        verification_mode: 'biometric',
        verified_at: '2026-11-25T10:00:00.000Z',
        video_commitment: 'a'.repeat(64),
        frame_commitment: 'b'.repeat(64),
        reference_commitment: 'c'.repeat(64),
      },
    ],
    verified_at: '2026-11-25T10:00:00.000Z',
  };
}

function verifiedEvent(reference: string, sha: string) {
  const eventId = randomUUID();
  return {
    eventId,
    payload: eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: new Date().toISOString(),
        transactionId: 1,
        reference,
        documentSha256: sha,
        issuerName: 'Acme Ltd',
        attestationType: 'signature',
        ownerId: 'bench',
        signers: [
          {
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            verificationMode: 'biometric',
            assurance: 'live',
            videoSha256: 'a'.repeat(64),
            frameSha256: 'b'.repeat(64),
            referenceSha256: 'c'.repeat(64),
            verifiedAt: '2026-11-25T10:00:00.000Z',
          },
        ],
      }),
    ).finish(),
  };
}

const fmt = (n: number, d = 1) => n.toFixed(d);

async function main() {
  let infra: InfraUrls;
  let stopInfra = async () => {};
  let dataDir: string | undefined;
  const given = infraFromEnv();
  if (given) {
    infra = given;
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'signet-bench-'));
    const local = await startLocalInfra({ dataDir });
    infra = local.urls;
    stopInfra = () => local.stop();
  }
  const timing = await startMongoTimingProxy(infra.MONGO_URL);
  const run = randomBytes(3).toString('hex');
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const [ledgerGrpc, ledgerOps, gwHttp, gwOps, basePort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const gatewayUrl = `http://127.0.0.1:${gwHttp}`;
  const common = {
    ...(infra as unknown as Record<string, string>),
    MONGO_URL: timing.url,
    LOG_LEVEL: 'warn',
    PUBLIC_BASE_URL: gatewayUrl,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    LEDGER_SIGNING_KEY: signingKey,
    LEDGER_ORIGIN: 'bench.signet/ledger',
    REDIS_KEY_PREFIX: `bench_${run}:`,
  };
  const addr = '127.0.0.1:1';
  try {
    // ---- 1. GET /api/verify through the gateway vs a bare Express endpoint ---------------------------
    const bus = await connectBus(infra.NATS_URL, 'bench');
    const ledgerDb = `bench_${run}_ledger`;
    startService('ledger', { ...common, GRPC_PORT: String(ledgerGrpc), OPS_PORT: String(ledgerOps), MONGO_DB: ledgerDb });
    startService('gateway', {
      ...common,
      HTTP_PORT: String(gwHttp),
      OPS_PORT: String(gwOps),
      LEDGER_ADDR: `127.0.0.1:${ledgerGrpc}`,
      IDENTITY_ADDR: addr,
      TRANSACTION_ADDR: addr,
      CEREMONY_ADDR: addr,
      BILLING_ADDR: addr,
      READINESS_UPSTREAMS: 'ledger',
    });
    await waitFor(async () => (await fetch(`${gatewayUrl}/readyz`)).ok, 'gateway');
    const reference = `BEN-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const sha = createHash('sha256').update(randomBytes(64)).digest('hex');
    const ev = verifiedEvent(reference, sha);
    await publishEvent(bus, events.transactionVerified, { eventId: ev.eventId, payload: ev.payload });
    const path = `/api/verify/${reference}/${sha.slice(0, 16)}`;
    let body = '';
    await waitFor(async () => {
      const res = await fetch(`${gatewayUrl}${path}`);
      body = await res.text();
      return res.status === 200;
    }, 'certificate');
    startBaseline(basePort, body);
    const baseUrl = `http://127.0.0.1:${basePort}`;
    await waitFor(async () => (await fetch(`${baseUrl}${path}`)).text().then((t) => t === body), 'baseline');

    await load(`${gatewayUrl}${path}`, 2); // warm-up
    await load(`${baseUrl}${path}`, 2);
    const gw = await load(`${gatewayUrl}${path}`, SECONDS);
    const bare = await load(`${baseUrl}${path}`, SECONDS);
    console.log(
      `\nGET /api/verify (known certificate), ${CONCURRENCY} connections, ${SECONDS} s each, same client, same machine`,
    );
    console.log(
      `  gateway → ledger (cached): ${fmt(gw.rps, 0)} req/s, p50 ${fmt(gw.p50, 2)} ms, p99 ${fmt(gw.p99, 2)} ms, errors ${gw.errors}`,
    );
    console.log(
      `  bare Express, same JSON:   ${fmt(bare.rps, 0)} req/s, p50 ${fmt(bare.p50, 2)} ms, p99 ${fmt(bare.p99, 2)} ms, errors ${bare.errors}`,
    );
    console.log(
      `  ratio RPS gateway/bare = ${fmt(gw.rps / bare.rps, 2)} (goal ≥ 0.5); p99 bare/gateway = ${fmt(bare.p99 / gw.p99, 2)}`,
    );

    // ---- 2a. Append throughput of the log, in the real store -------------------------------------------
    // An append is a leaf claim (one insert per certificate, done by the consumer) plus its share of a
    // signed checkpoint (the sealing pass: node inserts, one signature, one head update per batch).
    const conn = await connectMongo(infra.MONGO_URL, `bench_${run}_append`);
    const certs = createCertificateRepository(conn);
    await certs.init();
    const tree = createTreeRepository(conn);
    const signer = createLogSigner(parseSigningKey(signingKey), 'bench.signet/ledger');
    await tree.init(EMPTY_ROOT, signer.checkpoint(0, EMPTY_ROOT));
    const log = createLedgerLog({ certs, tree, signer, metrics: new Metrics('ledger'), logger: createLogger('bench', 'silent') });
    const leaves = Array.from({ length: APPENDS }, (_, i) =>
      certificateLeaf(certificate(`APP-TX-${String(i).padStart(8, '0')}`)),
    );
    const WRITERS = 8; // concurrent callers; claims in one process are serialized (gap-free indexes)
    let next = 0;
    let claimSec = 0;
    let sealSec = 0;
    let sealed = 0;
    /** Claims leaves up to `upTo` with WRITERS concurrent callers, then checkpoints them. */
    const appendUpTo = async (upTo: number) => {
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          for (let i = next++; i < upTo; i = next++) await log.claim(`APP-TX-${String(i).padStart(8, '0')}`, leaves[i]!);
        }),
      );
      next = upTo;
      claimSec += (performance.now() - t0) / 1000;
      const t1 = performance.now();
      for (let n = -1; n !== 0;) sealed += n = await log.sealPending();
      sealSec += (performance.now() - t1) / 1000;
    };
    // Appends one at a time: claim, then a checkpoint for that one certificate. The checkpoint alone
    // (sealPending: the leaves beyond the head, the frontier's nodes, node inserts, signature, head move)
    // is timed apart from the claim; median and mean over ONE appends.
    const ONE = 40;
    let ones = 0;
    const oneAtATime = async () => {
      const t2 = performance.now();
      const seals: number[] = [];
      for (let i = 0; i < ONE; i++, ones++) {
        const ref = `ONE-TX-${String(ones).padStart(8, '0')}`;
        await log.claim(ref, certificateLeaf(certificate(ref)));
        const t = performance.now();
        if ((await log.sealPending()) !== 1) throw new Error('a checkpoint did not cover exactly its one leaf');
        seals.push(performance.now() - t);
      }
      const size = (await tree.head()).size;
      seals.sort((a, b) => a - b);
      const mean = seals.reduce((a, b) => a + b, 0) / ONE;
      return { size, ms: (performance.now() - t2) / ONE, sealMedian: seals[ONE >> 1]!, sealMean: mean };
    };
    /**
     * Fills the log to `upTo` leaves in bulk, through the ledger's own code without its per-batch reads:
     * the tree repository's ordered leaf claims (5,000 per insert), the Merkle frontier over the claimed
     * hashes in memory with its completed nodes stored as they come, then one signed checkpoint moving
     * the head under the lease (what the sealing pass does, without reading the leaves back).
     */
    const fillTo = async (upTo: number) => {
      const t = performance.now();
      const start = await tree.head();
      if ((await tree.nextIndex()) !== start.size) throw new Error('fill: claimed leaves beyond the head');
      const ids = perfectSubtrees([0, start.size]);
      const get = await tree.nodes(ids);
      const frontier = Frontier.of(
        start.size,
        ids.map((id) => ({ ...id, hash: get(id) })),
      );
      const template = certificateLeaf(certificate('FIL-TX-00000000')).toString('utf8');
      for (let index = start.size; index < upTo;) {
        const items = Array.from({ length: Math.min(5000, upTo - index) }, (_, k) => {
          const reference = `FIL-TX-${String(index + k).padStart(8, '0')}`;
          // Distinct leaves of the real size without serialising 100,000 certificates.
          const leaf = template.replace('FIL-TX-00000000', reference);
          return { reference, leaf, hash: leafHash(Buffer.from(leaf)) };
        });
        const r = await tree.claimLeaves(items, index);
        if (r.inserted !== items.length || r.leaves[0]!.index !== index)
          throw new Error('fill: leaves were not claimed in order');
        await tree.putNodes(r.leaves.flatMap((l) => frontier.append(l.hash)));
        index += items.length;
      }
      const root = frontier.root();
      const token = randomUUID();
      const head = await tree.acquire(token, 60_000);
      if (!head || head.size !== start.size) throw new Error('fill: the head moved');
      const next = { size: frontier.size, root, checkpoint: signer.checkpoint(frontier.size, root) };
      await tree.putCheckpoint(next.size, next.checkpoint);
      await tree.advance(token, head.size, next, 60_000);
      await tree.release(token);
      return { sec: (performance.now() - t) / 1000, added: frontier.size - start.size };
    };
    // The cost of one checkpoint at about 1,000 leaves, at BENCH_APPENDS and at BENCH_LOG_LEAVES.
    await appendUpTo(Math.min(1000, APPENDS));
    const small = await oneAtATime();
    await appendUpTo(APPENDS);
    const head = await tree.head();
    const mid = await oneAtATime();
    const fill = LOG_LEAVES > head.size ? await fillTo(LOG_LEAVES) : undefined;
    const large = fill ? await oneAtATime() : undefined;
    await conn.dropDatabase();
    await conn.close();
    console.log(`\nAppend throughput of the log (real store: ${infra.MONGO_URL.split('@').pop()})`);
    console.log(
      `  ${APPENDS} leaf claims by ${WRITERS} concurrent writers: ${fmt(claimSec, 2)} s = ${fmt(APPENDS / claimSec, 0)} claims/s`,
    );
    console.log(
      `  checkpointing them: ${sealed} leaves in ${fmt(sealSec, 2)} s = ${fmt(sealed / sealSec, 0)} leaves/s (tree size ${head.size})`,
    );
    console.log(`  together: ${fmt(APPENDS / (claimSec + sealSec), 0)} certificates/s appended and checkpointed (goal ≥ 500)`);
    console.log(
      `  one at a time (claim + its own checkpoint): ${fmt(small.ms, 0)} ms each at ${small.size} leaves, ${fmt(mid.ms, 0)} ms at ${mid.size} (ratio ${fmt(mid.ms / small.ms, 2)}; goal: no growth)`,
    );
    if (fill && large) {
      console.log(
        `  filled to ${LOG_LEAVES} leaves in bulk (${fill.added} leaves claimed, their nodes and one checkpoint): ${fmt(fill.sec, 1)} s`,
      );
    }
    const cps = [small, mid, ...(large ? [large] : [])];
    console.log(
      `  one checkpoint (sealing pass for one new leaf), median / mean of ${ONE}: ${cps
        .map((c) => `${fmt(c.sealMedian, 1)} / ${fmt(c.sealMean, 1)} ms at ${c.size} leaves`)
        .join(', ')}` +
        (large
          ? `; ratio ${large.size} / ${small.size} leaves: ${fmt(large.sealMedian / small.sealMedian, 2)} (goal ≤ 1: no growth); load average ${loadavg()
              .map((l) => l.toFixed(2))
              .join(' ')}`
          : ''),
    );

    // ---- 2b. End to end: events → consumer → sealed, ledger as its own process -----------------------
    const e2eConn = await connectMongo(infra.MONGO_URL, ledgerDb);
    const before = (await e2eConn.collection<{ size: number }>('ledger_head').findOne({}))!.size;
    const refs = Array.from({ length: EVENTS }, (_, i) => `EVT-TX-${String(i).padStart(8, '0')}`);
    timing.reset();
    const loadBefore = loadavg().map((l) => l.toFixed(2));
    const t3 = performance.now();
    for (let i = 0; i < refs.length; i += 100) {
      await Promise.all(
        refs.slice(i, i + 100).map((r) => {
          const e = verifiedEvent(r, createHash('sha256').update(r).digest('hex'));
          return publishEvent(bus, events.transactionVerified, { eventId: e.eventId, payload: e.payload });
        }),
      );
    }
    const published = (performance.now() - t3) / 1000;
    await waitFor(
      // The head's size counts the checkpointed leaves: one document read, not a scan of the certificates.
      async () => (await e2eConn.collection<{ size: number }>('ledger_head').findOne({}))!.size - before >= EVENTS,
      'end-to-end sealing',
      600_000,
    );
    const e2eSec = (performance.now() - t3) / 1000;
    await e2eConn.close();
    await bus.nc.drain();
    console.log(
      `\nEnd to end (${EVENTS} transaction.verified events → certificates issued and checkpointed, one ledger process)`,
    );
    console.log(
      `  published in ${fmt(published, 2)} s; all sealed after ${fmt(e2eSec, 2)} s = ${fmt(EVENTS / e2eSec, 0)} certificates/s (goal ≥ 250); load average ${loadBefore.join(' ')} before, ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} after`,
    );
    console.log(timing.report());

    // ---- 3. Proof sizes at 10^6 leaves --------------------------------------------------------------
    const N = 1_000_000;
    let maxInc = 0;
    let minInc = Infinity;
    for (let i = 0; i < 2000; i++) {
      const idx = i < 1000 ? Math.floor(Math.random() * N) : N - 1 - (i - 1000);
      const l = inclusionRanges(idx, N).length;
      maxInc = Math.max(maxInc, l);
      minInc = Math.min(minInc, l);
    }
    let maxCons = 0;
    for (const m of [1, 2, 3, 1000, 65_537, 524_288, 524_289, 999_999])
      maxCons = Math.max(maxCons, consistencyRanges(m, N).length);
    const bundle = {
      format: 'signet-certificate-bundle/v1',
      certificate: certificate('ABC-TX-00000001'),
      ledger_seal: signer.seal(N - 1, Buffer.alloc(32)),
      leaf_index: N - 1,
      tree_size: N,
      inclusion_proof: Array.from({ length: maxInc }, () => randomBytes(32).toString('base64')),
      checkpoint: signer.checkpoint(N, randomBytes(32)),
    };
    console.log(`\nProof size at 10^6 leaves (computed from the RFC 9162 recursion)`);
    console.log(
      `  inclusion proof: ${minInc}–${maxInc} hashes = ${maxInc * 32} bytes raw (${maxInc * 44} characters base64); ceil(log2 10^6) = ${Math.ceil(Math.log2(N))}`,
    );
    console.log(`  consistency proof (sampled old sizes): at most ${maxCons} hashes = ${maxCons * 32} bytes`);
    console.log(
      `  whole cert.json bundle: ${Buffer.byteLength(JSON.stringify(bundle))} bytes; ledger seal ${bundle.ledger_seal.length} characters`,
    );
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await timing.stop();
    await stopInfra();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
