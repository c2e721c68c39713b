/**
 * The Merkle log against the real store (FerretDB/MongoDB): concurrent writers, crash recovery at
 * each step of an append, proofs from stored nodes, and the certificate PDF over gRPC.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { PDFDocument } from 'pdf-lib';
import { connectMongo, createClient, createLogger, Metrics, parseConfig } from '@signet/kit';
import { ledgerV1 } from '@signet/proto';
import { certificateLeaf, parseVerifierKey, verifyBundle, verifyCheckpoint, verifyConsistency } from '@signet/verify';
import { eventually, infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { ledgerConfigSchema } from '../src/config.js';
import { startLedger } from '../src/app.js';
import { EMPTY_ROOT, leafHash, nodeHash, splitPoint } from '../src/domain/merkle.js';
import { createLogSigner, parseSigningKey } from '../src/domain/signer.js';
import type { Certificate } from '../src/domain/certificate.js';
import { createLedgerLog } from '../src/log/ledger-log.js';
import { createCertificateRepository, type CertificateRepository } from '../src/store/certificate.repository.js';
import { createTreeRepository } from '../src/store/tree.repository.js';

const logger = createLogger('test', 'silent');
const mth = (d: Buffer[]): Buffer => {
  if (d.length === 0) return EMPTY_ROOT;
  if (d.length === 1) return d[0]!;
  const k = splitPoint(d.length);
  return nodeHash(mth(d.slice(0, k)), mth(d.slice(k)));
};

let seq = Math.floor(Math.random() * 9e7);
const reference = () => `LOG-TX-${String(seq++).padStart(8, '0')}`;
function cert(ref: string): Certificate {
  return {
    version: 1,
    reference: ref,
    document_sha256: leafHash(Buffer.from(ref)).toString('hex'),
    issuer_name: 'Acme Ltd',
    attestation_type: 'signature',
    signers: [{ name: 'Ada', email_masked: 'a***@example.com', verification_mode: 'biometric', verified_at: '2026-11-25T10:00:00.000Z', video_commitment: '', frame_commitment: '', reference_commitment: '' }],
    verified_at: '2026-11-25T10:00:00.000Z',
  };
}

describe('the Merkle log in the store', () => {
  let conn: Connection;
  const db = `t_${randomUUID().slice(0, 8)}_ledger_log`;
  const signer = createLogSigner(parseSigningKey(testSecrets().LEDGER_SIGNING_KEY), 'signet.test/ledger');
  const key = parseVerifierKey(signer.verifierKey);
  let certs: CertificateRepository;
  let tree: ReturnType<typeof createTreeRepository>;
  const newLog = (c: CertificateRepository = certs, batchMax = 50) => createLedgerLog({ certs: c, tree, signer, metrics: new Metrics('ledger'), logger }, { batchMax, leaseMs: 5000 });

  async function insert(n: number): Promise<string[]> {
    const refs = Array.from({ length: n }, reference);
    for (const r of refs) {
      await certs.insertOnce({ reference: r, transaction_id: 1, document_sha256: cert(r).document_sha256, certificate: cert(r), ledger_seal: '', leaf_index: null, issued_at: new Date(), source_event_id: randomUUID() }, []);
    }
    return refs;
  }

  /** Every invariant at once: one leaf per certificate, indexes 0..n-1, head root = MTH of the certificates in leaf order. */
  async function checkLog() {
    const head = await tree.head();
    const all = await certs.model.find({}, { reference: 1, leaf_index: 1, certificate: 1 }).sort({ leaf_index: 1 }).lean<{ reference: string; leaf_index: number | null; certificate: Certificate }[]>();
    expect(all.every((c) => c.leaf_index !== null)).toBe(true);
    expect(all.map((c) => c.leaf_index)).toEqual(all.map((_, i) => i));
    expect(head.size).toBe(all.length);
    expect(await conn.collection('ledger_leaves').countDocuments()).toBe(all.length);
    expect(head.root.equals(mth(all.map((c) => leafHash(certificateLeaf(c.certificate)))))).toBe(true);
    expect(verifyCheckpoint(head.checkpoint, key)?.size).toBe(head.size);
    return head;
  }

  beforeAll(async () => {
    conn = await connectMongo(infra().MONGO_URL, db);
    certs = createCertificateRepository(conn);
    await certs.init();
    tree = createTreeRepository(conn);
    await tree.init(EMPTY_ROOT, signer.checkpoint(0, EMPTY_ROOT));
  });
  afterAll(async () => {
    await conn.dropDatabase();
    await conn.close();
  });

  it('appends with two writers racing, one at a time, each certificate once', async () => {
    await insert(120);
    const a = newLog();
    const b = newLog();
    for (let i = 0; i < 40 && (await certs.count({ leaf_index: null } as never)) > 0; i++) {
      await Promise.allSettled([a.sealPending(), b.sealPending(), a.sealPending()]);
    }
    const head = await checkLog();
    expect(head.size).toBe(120);
    // A proof from stored nodes verifies offline.
    const any = (await certs.model.findOne({ leaf_index: 77 }).lean<{ reference: string; document_sha256: string }>())!;
    const report = verifyBundle(await a.bundle(any.reference), { key, documentSha256: any.document_sha256 });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('recovers leaves claimed by a writer that died before moving the head', async () => {
    const before = await tree.head();
    const refs = await insert(3);
    // The dead writer claimed the first two indexes, then stopped.
    await tree.insertLeaves(refs.slice(0, 2).map((r, i) => ({ index: before.size + i, reference: r, hash: leafHash(certificateLeaf(cert(r))) })));
    await newLog().sealPending();
    const head = await checkLog();
    expect(head.size).toBe(before.size + 3);
    expect((await certs.findByReference(refs[0]!))!.leaf_index).toBe(before.size);
    expect((await certs.findByReference(refs[2]!))!.leaf_index).toBe(before.size + 2);
  });

  it('recovers certificates whose append finished but whose seal was never recorded', async () => {
    const before = await tree.head();
    const refs = await insert(4);
    const crashing = { ...certs, markSealed: async () => Promise.reject(new Error('killed')) } as CertificateRepository;
    await expect(newLog(crashing).sealPending()).rejects.toThrow('killed');
    expect((await tree.head()).size).toBe(before.size + 4);
    expect(await certs.count({ leaf_index: null } as never)).toBe(4);
    const sealed = await newLog().sealPending();
    expect(sealed).toBe(4);
    const head = await checkLog();
    expect(head.size).toBe(before.size + 4); // nothing appended twice
    const rec = (await certs.findByReference(refs[3]!))!;
    expect(rec.ledger_seal).toBe(signer.seal(rec.leaf_index!, leafHash(certificateLeaf(rec.certificate))));
    expect((await certs.model.findOne({ reference: refs[3] }, { outbox: 1 }).lean<{ outbox: unknown[] }>())!.outbox).toHaveLength(1);
  });

  it('proves consistency between any two sizes from stored nodes', async () => {
    const log = newLog();
    const head = await tree.head();
    for (const [m, n] of [[1, head.size], [7, 64], [64, head.size], [head.size, head.size], [33, 100]] as [number, number][]) {
      const p = await log.consistency(m, n);
      expect(verifyConsistency(m, n, p.fromRoot, p.toRoot, p.proof), `${m} → ${n}`).toBe(true);
    }
    expect((await log.consistency(1, head.size)).toRoot.equals(head.root)).toBe(true);
    await expect(log.consistency(0, 3)).rejects.toThrow(/at least 1/);
    await expect(log.consistency(2, head.size + 1)).rejects.toThrow(/exceed/);
  });
});

describe('the ledger service over gRPC', () => {
  it('renders the certificate of completion PDF for a sealed certificate', async () => {
    const db = `t_${randomUUID().slice(0, 8)}_ledger_pdf`;
    const cfg = parseConfig(ledgerConfigSchema, { ...infra(), ...testSecrets(), MONGO_DB: db, GRPC_PORT: String(await freePort()), OPS_PORT: String(await freePort()), LOG_LEVEL: 'silent' });
    const ledger = await startLedger(cfg);
    const client = createClient(ledgerV1.LedgerServiceClient, `127.0.0.1:${ledger.grpcPort}`, { metrics: new Metrics('test'), defaultDeadlineMs: 10_000 });
    try {
      const ref = reference();
      const c = { ...cert(ref), signers: [...cert(ref).signers, { ...cert(ref).signers[0]!, name: 'Zoë Ünïcode 李', verification_mode: 'liveness' }] };
      await ledger.certs.insertOnce({ reference: ref, transaction_id: 9, document_sha256: c.document_sha256, certificate: c, ledger_seal: '', leaf_index: null, issued_at: new Date(), source_event_id: 'e' }, []);
      // The service's own sealing pass appends it (a direct call could find the lease taken by it).
      await eventually(async () => (await ledger.certs.findByReference(ref))?.leaf_index != null);
      const out = await client.renderCertificatePdf({ reference: ref, events: [{ type: 'created', at: '2026-11-25T09:00:00Z', actor: 'sender', detail: '' }] });
      expect(Buffer.from(out.pdf).subarray(0, 5).toString()).toBe('%PDF-');
      expect(out.filename).toBe(`${ref}-certificate.pdf`);
      const pdf = await PDFDocument.load(out.pdf);
      expect(pdf.getTitle()).toContain(ref);
      expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
      await expect(client.renderCertificatePdf({ reference: 'NOP-TX-00000000', events: [] })).rejects.toMatchObject({ code: 5 });
      await expect(client.renderCertificatePdf({ reference: 'bad', events: [] })).rejects.toMatchObject({ code: 3 });
    } finally {
      client.close();
      await ledger.stop();
    }
  });
});
