/**
 * Several witnesses with a quorum (issue 32 item 5): two independent litewitness instances (own keys,
 * own state directories and ports) cosign the ledger's checkpoints with LEDGER_WITNESS_QUORUM=2.
 *
 * What "waits" means with one witness down: certificates are still issued and /api/verify answers, but
 * the checkpoint route keeps serving the newest checkpoint both cosigned (it does not move to the
 * head), a new certificate's proof bundle carries the head with the one cosignature it has (so
 * `signet-verify --witness A --witness B` fails "1 of 2"), the age of the oldest checkpoint waiting
 * for the quorum grows (signet_ledger_uncosigned_checkpoint_age_seconds, which alert
 * SignetCheckpointWitnessingStalled watches: test/chart/alerts.test.ts) and the failures are counted
 * per witness. With both up again, both cosign the head and every check passes.
 */
import { spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, publishEvent, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { formatVerifierKey, parseWitnessKey, verifyCosignature } from '@signet/verify';
import { eventually, infra, startServices } from '../harness/services.js';
import { freePort } from '../harness/local-infra.js';
import { registerWitnessedLog, startWitness } from '../harness/witness.js';

const root = join(import.meta.dirname, '../..');

function signetVerify(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@signet/source', '--import', 'tsx', join(root, 'packages/verify/src/cli.ts'), ...args],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

async function publishVerified(bus: Bus, reference: string, documentSha256: string) {
  const eventId = randomUUID();
  const message = eventsV1.TransactionVerified.fromPartial({
    eventId,
    occurredAt: new Date().toISOString(),
    transactionId: 8,
    reference,
    documentSha256,
    issuerName: 'Acme Ltd',
    attestationType: 'signature',
    ownerId: 'u1',
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
  });
  await publishEvent(bus, events.transactionVerified, {
    eventId,
    payload: eventsV1.TransactionVerified.encode(message).finish(),
  });
}

describe('two independent witnesses with quorum 2', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  let dir: string;
  const origin = `signet.test/quorum-${randomBytes(4).toString('hex')}`;
  const logKey = generateKeyPairSync('ed25519');
  const logPub = logKey.publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  type W = { name: string; dir: string; port: number; proc?: Awaited<ReturnType<typeof startWitness>> };
  const ws: W[] = [
    { name: 'witness-a.signet.test', dir: '', port: 0 },
    { name: 'witness-b.signet.test', dir: '', port: 0 },
  ];
  const keyOf = (w: W) => w.proc!.info.verifierKey;
  const up = async (w: W) => {
    w.proc = await startWitness({ dir: w.dir, port: w.port, name: w.name, logs: dir });
  };
  const get = (path: string) => fetch(`${stack.gatewayUrl}${path}`);
  const json = async <T>(path: string) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const docs = new Map<string, Buffer>();
  const prefixOf = (ref: string) => createHash('sha256').update(docs.get(ref)!).digest('hex').slice(0, 16);
  /** Publishes one verified transaction and waits until /api/verify knows it (it is in the log). */
  async function certify(): Promise<string> {
    const ref = `QRM-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const pdf = randomBytes(1024);
    docs.set(ref, pdf);
    await publishVerified(bus, ref, createHash('sha256').update(pdf).digest('hex'));
    await eventually(async () => (await get(`/api/verify/${ref}/${prefixOf(ref)}`)).status === 200);
    return ref;
  }
  const cosigners = (checkpoint: string) =>
    ws.filter((w) => verifyCosignature(checkpoint, parseWitnessKey(keyOf(w))) !== null).map((w) => w.name);
  const bundleOf = (ref: string) =>
    json<{ tree_size: number; checkpoint: string }>(`/api/ledger/proof/${ref}?hash=${prefixOf(ref)}`);
  const metric = async (re: RegExp) => {
    const text = await (await fetch(`http://127.0.0.1:${stack.opsPorts.ledger}/metrics`)).text();
    return Number(re.exec(text)?.[1] ?? NaN);
  };
  async function verifyOffline(ref: string) {
    const bundle = await bundleOf(ref);
    const cert = join(dir, `${ref}.json`);
    const pdf = join(dir, `${ref}.pdf`);
    writeFileSync(cert, JSON.stringify(bundle));
    writeFileSync(pdf, docs.get(ref)!);
    const keys = ['--key', formatVerifierKey(origin, logPub), ...ws.flatMap((w) => ['--witness', keyOf(w)])];
    return signetVerify([cert, pdf, ...keys]);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-quorum-e2e-'));
    for (const [k, w] of ws.entries()) {
      w.dir = join(dir, `w${k}`);
      w.port = await freePort();
      await up(w);
      registerWitnessedLog(w.proc!.info.db, origin, formatVerifierKey(origin, logPub));
    }
    expect(keyOf(ws[0]!)).not.toBe(keyOf(ws[1]!));
    stack = await startServices(['ledger', 'gateway'], {
      env: {
        LEDGER_ORIGIN: origin,
        LEDGER_SIGNING_KEY: logKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        LEDGER_WITNESSES: JSON.stringify(ws.map((w) => ({ url: w.proc!.info.url, key: keyOf(w) }))),
        LEDGER_WITNESS_QUORUM: '2',
        LEDGER_COSIGN_POLL_MS: '250',
        LEDGER_WITNESS_TIMEOUT_MS: '1000',
      },
    });
    bus = await connectBus(infra().NATS_URL, 'test');
  }, 120_000);
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
    for (const w of ws) await w.proc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists both witnesses and the quorum at the key route; both cosign, each cosignature verifies with its own key', async () => {
    const keys = await json<{
      logs: { log: string; witness_quorum: number }[];
      keys: { role: string; log: string; verifier_key: string }[];
    }>('/api/ledger/keys');
    expect(keys.logs.find((l) => l.log === 'live')?.witness_quorum).toBe(2);
    expect(keys.keys.filter((k) => k.log === 'live' && k.role === 'witness').map((k) => k.verifier_key)).toEqual(ws.map(keyOf));

    const ref = await certify();
    const cp = await eventually(async () => {
      const c = await json<{ tree_size: number; checkpoint: string }>('/api/ledger/checkpoint');
      return c.tree_size >= 1 && cosigners(c.checkpoint).length === 2 ? c : undefined;
    });
    // Each cosignature by its own witness key (the other witness's key, or the log's, does not verify it).
    const lines = cp.checkpoint.split('\n').filter((l) => l.startsWith('— '));
    for (const w of ws)
      expect(lines.filter((l) => verifyCosignature(cp.checkpoint, parseWitnessKey(keyOf(w)), `${l}\n`) !== null)).toHaveLength(1);
    const ok = await verifyOffline(ref);
    expect(ok.out).toContain('PASS witnesses: 2 of 2');
    expect(ok.code).toBe(0);
  });

  it('with one witness down, checkpoints wait for the quorum (and the age the alert watches grows); both up again, both cosign', async () => {
    const served = await json<{ tree_size: number; checkpoint: string }>('/api/ledger/checkpoint');
    await ws[1]!.proc!.stop();
    const ref = await certify();
    // The head moved on, but what is served stays the last checkpoint both cosigned.
    const bundle = await eventually(async () => {
      const b = await bundleOf(ref);
      return b.tree_size > served.tree_size && cosigners(b.checkpoint).includes('witness-a.signet.test') ? b : undefined;
    });
    expect(cosigners(bundle.checkpoint)).toEqual(['witness-a.signet.test']);
    expect((await json<{ tree_size: number }>('/api/ledger/checkpoint')).tree_size).toBe(served.tree_size);
    const short = await verifyOffline(ref);
    expect(short.out).toContain('FAIL witnesses: 1 of 2');
    expect(short.code).toBe(1);
    const age = /^signet_ledger_uncosigned_checkpoint_age_seconds\S* (\S+)$/m;
    const first = await eventually(async () => ((await metric(age)) > 0 ? metric(age) : undefined));
    await eventually(async () => ((await metric(age)) > first + 1 ? true : undefined));
    const down =
      /^signet_ledger_cosignatures_total\{[^}]*witness="witness-b\.signet\.test"[^}]*result="unavailable"[^}]*\} (\S+)$/m;
    expect(await metric(down)).toBeGreaterThan(0);

    // The same witness back (its key and state kept): it cosigns the head, the quorum is met again.
    await up(ws[1]!);
    const both = await eventually(async () => {
      const c = await json<{ tree_size: number; checkpoint: string }>('/api/ledger/checkpoint');
      return c.tree_size === bundle.tree_size && cosigners(c.checkpoint).length === 2 ? c : undefined;
    });
    expect(both.tree_size).toBeGreaterThan(served.tree_size);
    await eventually(async () => ((await metric(age)) === 0 ? true : undefined));
    const ok = await verifyOffline(ref);
    expect(ok.out).toContain('PASS witnesses: 2 of 2');
    expect(ok.code).toBe(0);
  });
});
