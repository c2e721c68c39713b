/**
 * The log witnessed by a real C2SP tlog witness (litewitness, scripts/witness.sh), started by this
 * file so that it can be stopped: each new checkpoint is submitted with its consistency proof and
 * served with the witness cosignature, which Go's golang.org/x/mod/sumdb/note and tlog verify
 * (test/go-verify); a stopped witness delays cosigning and loses no certificate; a forged checkpoint
 * at a witnessed size is refused by the witness. Cosigning passes are called directly (no timers).
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { connectMongo, createLogger, Metrics, type Logger } from '@signet/kit';
import {
  certificateLeaf,
  formatWitnessKey,
  leafHash,
  parseVerifierKey,
  parseWitnessKey,
  verifyBundle,
  verifyCosignature,
  witnessPolicy,
} from '@signet/verify';
import { infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { registerWitnessedLog, startWitness } from '../../../test/harness/witness.js';
import { createLogSigner, parseSigningKey } from '../src/domain/signer.js';
import { EMPTY_ROOT } from '../src/domain/merkle.js';
import { createCosigner } from '../src/log/cosign.js';
import { createLedgerLog } from '../src/log/ledger-log.js';
import { certificateMetrics } from '../src/metrics.js';
import { createCertificateRepository } from '../src/store/certificate.repository.js';
import { createCosignatureRepository } from '../src/store/cosignature.repository.js';
import { createTreeRepository } from '../src/store/tree.repository.js';
import { issueCertificate } from '../src/usecases/issue-certificate.js';
import { witnessSettings } from '../src/witness/witness.config.js';
import { addCheckpoint } from '../src/witness/witness-client.js';
import { testCertificate } from './fixtures/certificate.js';

const logger = createLogger('test', 'silent');
/** The cosigner's log lines (level and message), to check what an operator sees. */
const logged: string[] = [];
const record = (level: string) => (_fields: unknown, msg?: string) => void logged.push(`${level} ${msg ?? ''}`);
const recording = { info: record('info'), warn: record('warn'), error: record('error') } as unknown as Logger;
const WITNESS = 'witness.signet.test';

/** Runs the Go verifier (test/go-verify) on one input; resolves with its output and exit code. */
function goVerify(input: unknown): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile('go', ['run', '.'], { cwd: join(import.meta.dirname, 'go-verify') }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}`.trim() }),
    );
    child.stdin!.end(JSON.stringify(input));
  });
}

describe('the log witnessed by litewitness', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-witness-'));
  const origin = `signet.test/ledger-${randomBytes(4).toString('hex')}`;
  const signer = createLogSigner(parseSigningKey(testSecrets().LEDGER_SIGNING_KEY), origin);
  const metrics = new Metrics('ledger');
  let port: number;
  let witness: Awaited<ReturnType<typeof startWitness>>;
  let conn: Connection;
  let log: ReturnType<typeof createLedgerLog>;
  let cosigner: ReturnType<typeof createCosigner>;
  let settings: ReturnType<typeof witnessSettings>;
  const refs: string[] = [];
  let seq = Math.floor(Math.random() * 9e7);

  const startOurWitness = () => startWitness({ dir: join(dir, 'w'), port, name: WITNESS, logs: join(dir, 'logs') });
  const metricValue = async (name: string, labels: Record<string, string> = {}) => {
    const m = (await metrics.registry.getSingleMetric(name)?.get())?.values ?? [];
    const v = m.find((x) => Object.entries(labels).every(([k, val]) => x.labels[k] === val));
    return v?.value ?? 0;
  };

  /** Issues n certificates and seals them under a new checkpoint. */
  async function issue(n: number, certs: ReturnType<typeof createCertificateRepository>) {
    for (let i = 0; i < n; i++) {
      const ref = `WIT-TX-${String(seq++).padStart(8, '0')}`;
      const r = await issueCertificate(
        { certs, log, metrics: certificateMetrics(new Metrics('ledger')), logger },
        { eventId: randomUUID(), transactionId: 1, certificate: testCertificate(ref) },
      );
      expect(r).toBe('issued');
      refs.push(ref);
    }
    while ((await log.sealPending()) > 0);
  }
  let certs: ReturnType<typeof createCertificateRepository>;

  beforeAll(async () => {
    port = await freePort();
    witness = await startOurWitness();
    registerWitnessedLog(witness.info.db, origin, signer.verifierKey);
    conn = await connectMongo(infra().MONGO_URL, `t_${randomUUID().slice(0, 8)}_ledger_witness`);
    certs = createCertificateRepository(conn);
    await certs.init();
    const tree = createTreeRepository(conn);
    await tree.init(EMPTY_ROOT, signer.checkpoint(0, EMPTY_ROOT));
    const cosigs = createCosignatureRepository(conn);
    await cosigs.init();
    settings = witnessSettings({
      LEDGER_WITNESSES: [{ url: witness.info.url, key: witness.info.verifierKey }],
      LEDGER_WITNESS_QUORUM: 1,
      LEDGER_COSIGN_POLL_MS: 1000,
      LEDGER_WITNESS_TIMEOUT_MS: 5000,
    });
    const kids = settings.witnesses.map((w) => w.kid);
    log = createLedgerLog({ certs, tree, signer, metrics, cosigs, witnesses: { kids, quorum: 1 } }, { batchMax: 50 });
    cosigner = createCosigner({ tree, cosigs, log, metrics, logger: recording, ...settings });
  });
  afterAll(async () => {
    await witness?.stop();
    await conn?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const wkey = () => parseWitnessKey(witness.info.verifierKey);
  const policy = () => witnessPolicy([witness.info.verifierKey], 1);

  it('submits each new checkpoint with its consistency proof and serves it cosigned; Go sumdb/note and tlog verify it', async () => {
    await issue(3, certs);
    expect(await log.published()).toMatchObject({ size: 3 }); // nothing cosigned yet: the head
    expect(verifyCosignature((await log.published()).checkpoint, wkey())).toBeNull();
    expect(await cosigner.cosignPending()).toEqual({ [WITNESS]: 'ok' });
    const older = await log.published();
    expect(older.size).toBe(3);
    expect(verifyCosignature(older.checkpoint, wkey())).not.toBeNull();

    await issue(2, certs); // the witness now checks the consistency proof 3 -> 5
    expect(await cosigner.cosignPending()).toEqual({ [WITNESS]: 'ok' });
    expect(await cosigner.cosignPending()).toEqual({ [WITNESS]: 'current' });
    const newer = await log.published();
    expect(newer.size).toBe(5);
    const bundle = await log.bundle(refs[1]!);
    expect(bundle.checkpoint).toBe(newer.checkpoint);
    expect(verifyBundle(bundle, { key: parseVerifierKey(signer.verifierKey), witnesses: policy() }).ok).toBe(true);
    expect(await metricValue('signet_ledger_cosignatures_total', { result: 'ok' })).toBe(2);

    const input = {
      log_key: signer.verifierKey,
      witness_key: witness.info.verifierKey,
      older: older.checkpoint,
      newer: newer.checkpoint,
      consistency: (await log.consistency(3, 5)).proof.map((h) => h.toString('base64')),
      leaf_index: bundle.leaf_index,
      leaf_hash: leafHash(certificateLeaf(bundle.certificate)).toString('base64'),
      inclusion: bundle.inclusion_proof,
    };
    expect(await goVerify(input)).toEqual({ code: 0, out: 'ok' });
    // The Go side does check: the log signature alone, a wrong proof, a wrong witness key all fail.
    const logOnly = newer.checkpoint.split('\n').slice(0, 5).join('\n') + '\n';
    expect((await goVerify({ ...input, newer: logOnly })).out).toMatch(/lacks a signature/);
    expect((await goVerify({ ...input, consistency: input.consistency.slice(1) })).out).toMatch(/consistency/);
    const otherKey = (await startWitnessKeyOnly()).verifierKey;
    expect((await goVerify({ ...input, witness_key: otherKey })).code).toBe(1);
  }, 180_000);

  it('with the witness stopped, certificates are still issued and sealed; cosigning waits and catches up after a restart', async () => {
    await witness.stop();
    await issue(4, certs);
    expect(await cosigner.cosignPending()).toEqual({ [WITNESS]: 'unavailable' });
    expect(await cosigner.cosignPending()).toEqual({ [WITNESS]: 'unavailable' });
    expect(await metricValue('signet_ledger_cosignatures_total', { result: 'unavailable' })).toBe(2);
    // Logged when it starts, not at every retry.
    expect(logged.filter((l) => l.startsWith('warn witness unavailable'))).toHaveLength(1);
    expect((await log.head()).size).toBe(9);
    expect((await log.published()).size).toBe(5); // the newest cosigned checkpoint is still the one served
    // A certificate beyond it is in the log: its bundle leads to the (not yet cosigned) head.
    const waiting = await log.bundle(refs[7]!);
    expect(waiting.tree_size).toBe(9);
    expect(verifyBundle(waiting, { key: parseVerifierKey(signer.verifierKey) }).ok).toBe(true);
    expect(verifyBundle(waiting, { key: parseVerifierKey(signer.verifierKey), witnesses: policy() }).ok).toBe(false);
    expect(await metricValue('signet_ledger_uncosigned_checkpoint_age_seconds')).toBeGreaterThanOrEqual(0);

    witness = await startOurWitness(); // same key, same database
    expect(await cosigner.cosignPending()).toEqual({ [WITNESS]: 'ok' });
    expect(logged.at(-1)).toBe('info witness cosigning again');
    expect((await log.published()).size).toBe(9);
    expect(await metricValue('signet_ledger_uncosigned_checkpoint_age_seconds')).toBe(0);
    // Nothing lost: every certificate issued so far verifies against a cosigned checkpoint.
    for (const ref of refs) {
      const b = await log.bundle(ref);
      expect(verifyBundle(b, { key: parseVerifierKey(signer.verifierKey), witnesses: policy() }).ok, ref).toBe(true);
    }
    // Every checkpoint is in the history; the ones signed while the witness was away carry no cosignature.
    const history = await log.history(1, 9, 100);
    expect(history.map((c) => [c.size, Object.keys(c.cosignatures).length])).toEqual([
      [3, 1],
      [5, 1],
      [9, 1],
    ]);
  }, 120_000);

  it('the witness refuses a forged checkpoint at a size it already witnessed, and one signed by another key', async () => {
    const forged = signer.checkpoint(9, randomBytes(32)); // the log's own key, another root: a split view
    const refused = await addCheckpoint(witness.info.url, { oldSize: 9, proof: [], checkpoint: forged }, 5000);
    expect(refused).toMatchObject({ kind: 'refused', status: 422 });
    // From an older size, with a proof that cannot lead to this root: refused too.
    const fromFive = await addCheckpoint(
      witness.info.url,
      { oldSize: 5, proof: (await log.consistency(5, 9)).proof, checkpoint: forged },
      5000,
    );
    expect(fromFive).toMatchObject({ kind: 'conflict', knownSize: 9 });
    const stranger = createLogSigner(parseSigningKey(testSecrets().LEDGER_SIGNING_KEY), origin);
    const unknownKey = await addCheckpoint(
      witness.info.url,
      { oldSize: 9, proof: [], checkpoint: stranger.checkpoint(10, randomBytes(32)) },
      5000,
    );
    expect(unknownKey).toMatchObject({ kind: 'refused', status: 403 });
    // The real log goes on being cosigned.
    await issue(1, certs);
    expect(await cosigner.cosignPending()).toEqual({ [WITNESS]: 'ok' });
    expect((await log.published()).size).toBe(10);
  }, 60_000);

  it('stores no cosignature that the configured witness key does not verify', async () => {
    // The real witness at the URL, but another key configured for it: its answers are not taken.
    const otherKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const misconfigured = witnessSettings({
      LEDGER_WITNESSES: [{ url: witness.info.url, key: formatWitnessKey(WITNESS, otherKey) }],
      LEDGER_COSIGN_POLL_MS: 1000,
      LEDGER_WITNESS_TIMEOUT_MS: 5000,
    });
    expect(misconfigured.quorum).toBe(1);
    const cosigs = createCosignatureRepository(conn);
    const wrong = createCosigner({
      tree: createTreeRepository(conn),
      cosigs,
      log,
      metrics: new Metrics('ledger'),
      logger,
      ...misconfigured,
    });
    expect(await wrong.cosignPending()).toEqual({ [WITNESS]: 'invalid' });
    expect(Object.keys((await cosigs.at(10))!.cosignatures)).toEqual(settings.witnesses.map((w) => w.kid));
  }, 60_000);

  /** A second witness key (never started as a witness): for the negative Go check. */
  async function startWitnessKeyOnly() {
    const other = await startWitness({ dir: join(dir, 'other'), port: await freePort(), name: WITNESS, logs: join(dir, 'logs') });
    await other.stop();
    return other.info;
  }
});
