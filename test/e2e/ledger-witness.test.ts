/**
 * The witnessed log through the gateway, with the local litewitness of the harness: checkpoints served
 * carry its cosignature, the checkpoint history lists every signed checkpoint, and signet-verify (its
 * own process) requires the witness quorum and refuses a checkpoint inconsistent with the one it
 * remembered in its state file.
 */
import { spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, publishEvent, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../harness/services.js';
import { freePort } from '../harness/local-infra.js';
import { registerWitnessedLog, startWitness, type WitnessInfo } from '../harness/witness.js';
import {
  checkpointText,
  formatVerifierKey,
  formatWitnessKey,
  parseVerifierKey,
  parseWitnessKey,
  signatureLine,
  STATE_FORMAT,
  verifyCheckpoint,
  verifyCosignature,
} from '@signet/verify';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'packages/verify/src/cli.ts');

function signetVerify(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=@signet/source', '--import', 'tsx', CLI, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

let seq = Math.floor(Math.random() * 9e7);
const reference = () => `WIT-TX-${String(seq++).padStart(8, '0')}`;

async function publishVerified(bus: Bus, ref: string, documentSha256: string) {
  const eventId = randomUUID();
  const message = eventsV1.TransactionVerified.fromPartial({
    eventId,
    occurredAt: new Date().toISOString(),
    transactionId: 7,
    reference: ref,
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

describe('a witnessed log, verified offline with a witness quorum and a remembered checkpoint', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  let dir: string;
  let witness: WitnessInfo;
  let ownWitness: Awaited<ReturnType<typeof startWitness>> | undefined;
  const origin = `signet.test/ledger-${randomBytes(4).toString('hex')}`;
  const logKey = generateKeyPairSync('ed25519');
  const logPub = logKey.publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  const get = (path: string) => fetch(`${stack.gatewayUrl}${path}`);
  const json = async <T>(path: string) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const docs = new Map<string, Buffer>();

  /** Publishes verified transactions and waits until a cosigned checkpoint covers them all; returns their references. */
  async function certify(n: number): Promise<string[]> {
    const refs = Array.from({ length: n }, reference);
    for (const r of refs) {
      const pdf = randomBytes(2048);
      docs.set(r, pdf);
      await publishVerified(bus, r, createHash('sha256').update(pdf).digest('hex'));
    }
    for (const r of refs) {
      const prefix = createHash('sha256').update(docs.get(r)!).digest('hex').slice(0, 16);
      await eventually(async () => (await get(`/api/verify/${r}/${prefix}`)).status === 200);
    }
    return refs;
  }
  const cosignedSize = async () => {
    const cp = await json<{ tree_size: number; checkpoint: string }>('/api/ledger/checkpoint');
    return verifyCosignature(cp.checkpoint, parseWitnessKey(witness.verifierKey)) !== null ? cp.tree_size : 0;
  };
  /** Saves the bundle of `ref` and its PDF; returns their paths. */
  async function save(ref: string, name: string) {
    const prefix = createHash('sha256').update(docs.get(ref)!).digest('hex').slice(0, 16);
    const bundle = await json<{ tree_size: number; checkpoint: string }>(`/api/ledger/proof/${ref}?hash=${prefix}`);
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(bundle));
    writeFileSync(join(dir, `${name}.pdf`), docs.get(ref)!);
    return { cert: join(dir, `${name}.json`), pdf: join(dir, `${name}.pdf`), bundle };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-witness-e2e-'));
    const i = infra();
    if (i.WITNESS_URL && i.WITNESS_VERIFIER_KEY && i.WITNESS_DB) {
      witness = { url: i.WITNESS_URL, verifierKey: i.WITNESS_VERIFIER_KEY, db: i.WITNESS_DB };
    } else {
      // Infrastructure from the environment or containers has no witness: this file starts its own.
      ownWitness = await startWitness({ dir: join(dir, 'w'), port: await freePort(), name: 'witness.signet.test', logs: dir });
      witness = ownWitness.info;
    }
    registerWitnessedLog(witness.db, origin, formatVerifierKey(origin, logPub));
    stack = await startServices(['ledger', 'gateway'], {
      env: {
        LEDGER_ORIGIN: origin,
        LEDGER_SIGNING_KEY: logKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        LEDGER_WITNESSES: JSON.stringify([{ url: witness.url, key: witness.verifierKey }]),
        LEDGER_WITNESS_QUORUM: '1',
        LEDGER_COSIGN_POLL_MS: '250',
      },
    });
    bus = await connectBus(i.NATS_URL, 'test');
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
    await ownWitness?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves checkpoints cosigned by the witness, and their history', async () => {
    await certify(2);
    await eventually(async () => (await cosignedSize()) >= 2);
    const cp = await json<{ checkpoint: string }>('/api/ledger/checkpoint');
    expect(verifyCheckpoint(cp.checkpoint, parseVerifierKey(formatVerifierKey(origin, logPub)))).not.toBeNull();

    const page = await json<{
      checkpoints: { tree_size: number; checkpoint: string; cosignatures: number }[];
      next_from: number | null;
    }>('/api/ledger/checkpoints?from=1');
    expect(page.next_from).toBeNull();
    expect(page.checkpoints.length).toBeGreaterThanOrEqual(1);
    for (const c of page.checkpoints)
      expect(verifyCheckpoint(c.checkpoint, parseVerifierKey(formatVerifierKey(origin, logPub)))?.size).toBe(c.tree_size);
    expect(page.checkpoints.at(-1)!.cosignatures).toBe(1);
    const first = await get('/api/ledger/checkpoints?from=1&limit=1');
    const body = (await first.json()) as { checkpoints: unknown[]; next_from: number | null };
    expect(body.checkpoints).toHaveLength(1);
    if (page.checkpoints.length > 1) expect(first.headers.get('link')).toContain(`from=${body.next_from}`);
    for (const bad of ['from=0', 'from=x', 'from=3&to=2', 'limit=0', 'limit=101'])
      expect((await get(`/api/ledger/checkpoints?${bad}`)).status, bad).toBe(400);
  });

  it('signet-verify requires the witness quorum and refuses a checkpoint inconsistent with the remembered one', async () => {
    const [a] = await certify(1);
    await eventually(async () => (await cosignedSize()) >= 3);
    const first = await save(a!, 'a');
    // The public key as the gateway serves it, and the witness key, each in a file.
    const pubkey = join(dir, 'public-key.json');
    writeFileSync(pubkey, await (await get('/api/ledger/public-key')).text());
    const wfile = join(dir, 'witnesses.txt');
    writeFileSync(wfile, `# the local witness\n${witness.verifierKey}\n`);
    const state = join(dir, 'state.json');

    const ok = await signetVerify([first.cert, first.pdf, '--key', pubkey, '--witness', wfile, '--state', state]);
    expect(ok.err).toBe('');
    expect(ok.out).toContain('PASS witnesses: 1 of 1');
    expect(ok.code).toBe(0);
    const remembered = JSON.parse(readFileSync(state, 'utf8')) as { format: string; tree_size: number };
    expect(remembered).toMatchObject({ format: STATE_FORMAT, tree_size: first.bundle.tree_size });

    // Lacking the quorum: another witness required too, or the cosignature stripped from the bundle.
    const other = formatWitnessKey(
      'witness.other.test',
      generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12),
    );
    const two = await signetVerify([first.cert, first.pdf, '--key', pubkey, '--witness', wfile, '--witness', other]);
    expect(two.out).toContain('FAIL witnesses: 1 of 2');
    expect(two.code).toBe(1);
    const stripped = { ...first.bundle, checkpoint: first.bundle.checkpoint.split('\n').slice(0, 5).join('\n') + '\n' };
    writeFileSync(join(dir, 'stripped.json'), JSON.stringify(stripped));
    const bare = await signetVerify([join(dir, 'stripped.json'), first.pdf, '--key', pubkey, '--witness', witness.verifierKey]);
    expect(bare.out).toContain('FAIL witnesses: 0 of 1');
    expect(bare.out).toContain('PASS checkpoint');
    expect(bare.code).toBe(1);

    // The log grows: a later bundle needs the consistency proof from the remembered size.
    const [b] = await certify(2);
    await eventually(async () => (await cosignedSize()) >= first.bundle.tree_size + 2);
    const later = await save(b!, 'b');
    expect(later.bundle.tree_size).toBeGreaterThan(first.bundle.tree_size);
    const noProof = await signetVerify([later.cert, later.pdf, '--key', pubkey, '--witness', wfile, '--state', state]);
    expect(noProof.out).toMatch(/FAIL consistency: no consistency proof/);
    expect(noProof.code).toBe(1);
    const proofUrl = `${stack.gatewayUrl}/api/ledger/consistency?from=${first.bundle.tree_size}&to=${later.bundle.tree_size}`;
    const consistent = await signetVerify([
      later.cert,
      later.pdf,
      '--key',
      pubkey,
      '--witness',
      wfile,
      '--state',
      state,
      '--consistency',
      proofUrl,
    ]);
    expect(consistent.out).toContain('PASS consistency');
    expect(consistent.code).toBe(0);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ tree_size: later.bundle.tree_size });

    // A remembered checkpoint of another history: same size, another root; and an older one the log never had.
    const forgedAt = (size: number) => {
      const text = checkpointText(origin, size, randomBytes(32));
      return {
        format: STATE_FORMAT,
        origin,
        tree_size: size,
        root_hash: text.split('\n')[2],
        checkpoint: `${text}\n${signatureLine(origin, logPub, randomBytes(64))}`,
      };
    };
    writeFileSync(state, JSON.stringify(forgedAt(later.bundle.tree_size)));
    const split = await signetVerify([later.cert, later.pdf, '--key', pubkey, '--witness', wfile, '--state', state]);
    expect(split.out).toMatch(/FAIL consistency: .*two histories/);
    expect(split.code).toBe(1);
    writeFileSync(state, JSON.stringify(forgedAt(first.bundle.tree_size)));
    const rewritten = await signetVerify([
      later.cert,
      later.pdf,
      '--key',
      pubkey,
      '--witness',
      wfile,
      '--state',
      state,
      '--consistency',
      proofUrl,
    ]);
    expect(rewritten.out).toMatch(/FAIL consistency: .*NOT consistent/);
    expect(rewritten.code).toBe(1);
    // A refused checkpoint is not remembered.
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ tree_size: first.bundle.tree_size });
  });

  it('GET /api/ledger/keys serves the log and witness verifier keys, and they verify a served checkpoint and a bundle', async () => {
    const [c] = await certify(1);
    // Served once cosigned: the bundle's checkpoint covers the new certificate and carries the witness's cosignature.
    const saved = await eventually(async () => {
      const s = await save(c!, 'c');
      return verifyCosignature(s.bundle.checkpoint, parseWitnessKey(witness.verifierKey)) !== null ? s : undefined;
    });
    type Keys = {
      logs: { log: string; origin: string; witness_quorum: number }[];
      keys: { role: string; log: string; name: string; key_id: string; verifier_key: string; current: boolean }[];
    };
    const res = await get('/api/ledger/keys');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const served = (await res.json()) as Keys;
    expect(served.logs.find((l) => l.log === 'live')).toEqual({ log: 'live', origin, witness_quorum: 1 });
    const live = served.keys.filter((k) => k.log === 'live');
    const logKeys = live.filter((k) => k.role === 'log');
    const witnesses = live.filter((k) => k.role === 'witness');
    expect(logKeys).toHaveLength(1);
    expect(logKeys[0]).toMatchObject({ name: origin, current: true, verifier_key: formatVerifierKey(origin, logPub) });
    expect(witnesses.map((w) => w.verifier_key)).toEqual([witness.verifierKey]);
    // The served keys, parsed in the note-verifier format, verify the served checkpoint and its cosignature.
    const logKey = parseVerifierKey(logKeys[0]!.verifier_key);
    const witnessKey = parseWitnessKey(witnesses[0]!.verifier_key);
    expect(logKey.keyId.toString('hex')).toBe(logKeys[0]!.key_id);
    expect(witnessKey.keyId.toString('hex')).toBe(witnesses[0]!.key_id);
    expect(witnesses[0]!.name).toBe(witnessKey.name);
    const cp = await json<{ tree_size: number; checkpoint: string }>('/api/ledger/checkpoint');
    expect(verifyCheckpoint(cp.checkpoint, logKey)?.size).toBe(cp.tree_size);
    expect(verifyCosignature(cp.checkpoint, witnessKey)).not.toBeNull();
    // Not any key: another log's key and another witness's do not.
    const otherPub = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    expect(verifyCheckpoint(cp.checkpoint, parseVerifierKey(formatVerifierKey(origin, otherPub)))).toBeNull();
    expect(verifyCosignature(cp.checkpoint, parseWitnessKey(formatWitnessKey(witnessKey.name, otherPub)))).toBeNull();

    // As text: the same keys one a line; signet-verify takes them as they are served.
    const text = await (await fetch(`${stack.gatewayUrl}/api/ledger/keys`, { headers: { Accept: 'text/plain' } })).text();
    expect(text).toBe(served.keys.map((k) => k.verifier_key).join('\n') + '\n');
    const ok = await signetVerify([
      saved.cert,
      saved.pdf,
      '--key',
      logKeys[0]!.verifier_key,
      '--witness',
      witnesses[0]!.verifier_key,
    ]);
    expect(ok.out).toContain('PASS witnesses: 1 of 1');
    expect(ok.code).toBe(0);
  });
});
