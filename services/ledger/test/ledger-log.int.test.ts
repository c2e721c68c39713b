/**
 * The Merkle log against the real store (FerretDB/MongoDB): concurrent replicas, crash recovery at
 * each step of an append, proofs from stored nodes, and the certificate PDF over gRPC.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Connection } from 'mongoose';
import { PDFDocument } from 'pdf-lib';
import { connectMongo, createClient, createLogger, Metrics, parseConfig } from '@signet/kit';
import { events, eventsV1, ledgerV1 } from '@signet/proto';
import { certificateLeaf, parseVerifierKey, verifyBundle, verifyCheckpoint, verifyConsistency } from '@signet/verify';
import { eventually, infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { ledgerConfigSchema } from '../src/config.js';
import { startLedger } from '../src/app.js';
import { EMPTY_ROOT, leafHash, nodeHash, splitPoint } from '../src/domain/merkle.js';
import { createLogSigner, parseSigningKey } from '../src/domain/signer.js';
import type { Certificate } from '../src/domain/certificate.js';
import { createLedgerLog } from '../src/log/ledger-log.js';
import { verifiedConsumer } from '../src/events/verified.consumer.js';
import { testCertificate } from './fixtures/certificate.js';
import { createCertificateRepository, type CertificateRepository } from '../src/store/certificate.repository.js';
import { createTreeRepository, type TreeRepository } from '../src/store/tree.repository.js';

const logger = createLogger('test', 'silent');
const mth = (d: Buffer[]): Buffer => {
  if (d.length === 0) return EMPTY_ROOT;
  if (d.length === 1) return d[0]!;
  const k = splitPoint(d.length);
  return nodeHash(mth(d.slice(0, k)), mth(d.slice(k)));
};

let seq = Math.floor(Math.random() * 9e7);
const reference = () => `LOG-TX-${String(seq++).padStart(8, '0')}`;
const cert = (ref: string): Certificate => testCertificate(ref);

describe('the Merkle log in the store', () => {
  let conn: Connection;
  const db = `t_${randomUUID().slice(0, 8)}_ledger_log`;
  const signer = createLogSigner(parseSigningKey(testSecrets().LEDGER_SIGNING_KEY), 'signet.test/ledger');
  const key = parseVerifierKey(signer.verifierKey);
  let certs: CertificateRepository;
  let tree: TreeRepository;
  const newLog = (t: TreeRepository = tree, batchMax = 50) =>
    createLedgerLog({ certs, tree: t, signer, metrics: new Metrics('ledger'), logger }, { batchMax, leaseMs: 5000 });

  /** What the consumer does for one verified transaction. */
  async function issue(log: ReturnType<typeof newLog>, ref: string, c: Certificate = cert(ref)) {
    const consumer = verifiedConsumer({ certs, log, metrics: new Metrics('ledger'), logger });
    const eventId = randomUUID();
    await consumer({
      subject: events.transactionVerified.subject,
      eventId,
      redelivered: false,
      deliveryCount: 1,
      data: eventsV1.TransactionVerified.encode(
        eventsV1.TransactionVerified.fromPartial({
          eventId,
          occurredAt: new Date().toISOString(),
          transactionId: 1,
          reference: ref,
          documentSha256: c.document_sha256,
          issuerName: c.issuer_name,
          attestationType: c.attestation_type,
          ownerId: 'u',
          signers: c.signers.map((s) => ({
            name: s.name,
            email: 'ada@example.com',
            verificationMode: s.verification_mode,
            assurance: s.assurance,
            videoSha256: '',
            frameSha256: '',
            referenceSha256: '',
            verifiedAt: s.verified_at,
          })),
        }),
      ).finish(),
    });
  }

  /** Every invariant at once: one leaf per certificate, indexes 0..n-1, head root = MTH of the certificates in leaf order. */
  async function checkLog() {
    const head = await tree.head();
    const all = await certs.model
      .find({}, { reference: 1, leaf_index: 1, certificate: 1, ledger_seal: 1 })
      .sort({ leaf_index: 1 })
      .lean<{ reference: string; leaf_index: number; certificate: Certificate; ledger_seal: string }[]>();
    expect(all.map((c) => c.leaf_index)).toEqual(all.map((_, i) => i));
    expect(head.size).toBe(all.length);
    expect(await conn.collection('ledger_leaves').countDocuments()).toBe(all.length);
    const leaves = all.map((c) => leafHash(certificateLeaf(c.certificate)));
    expect(head.root.equals(mth(leaves))).toBe(true);
    expect(verifyCheckpoint(head.checkpoint, key)?.size).toBe(head.size);
    all.forEach((c, i) => expect(c.ledger_seal).toBe(signer.seal(i, leaves[i]!)));
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

  it('appends with two replicas racing: every certificate once, indexes without gaps, one writer per checkpoint', async () => {
    const a = newLog();
    const b = newLog();
    const refs = Array.from({ length: 90 }, reference);
    // Two consumers claim concurrently while two sealers checkpoint concurrently.
    const sealing = (async () => {
      for (let i = 0; i < 30; i++) {
        await Promise.allSettled([a.sealPending(), b.sealPending()]);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await Promise.all(
      [0, 1, 2].map(async (w) => {
        for (const r of refs.filter((_, i) => i % 3 === w)) await issue(w === 1 ? b : a, r);
      }),
    );
    await sealing;
    while ((await a.sealPending()) > 0);
    const head = await checkLog();
    expect(head.size).toBe(90);
    // A proof from stored nodes verifies offline.
    const any = (await certs.model.findOne({ leaf_index: 77 }).lean<{ reference: string; document_sha256: string }>())!;
    const report = verifyBundle(await a.bundle(any.reference), { key, documentSha256: any.document_sha256 });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('claims the leaves of certificates waiting together in one insert: consecutive indexes, one leaf per reference, an index another writer took skipped without a gap', async () => {
    const own = await connectMongo(infra().MONGO_URL, `${db}_claims`);
    try {
      const t = createTreeRepository(own);
      await t.init(EMPTY_ROOT, signer.checkpoint(0, EMPTY_ROOT));
      const log = newLog(t);
      const leafOf = (r: string) => certificateLeaf(cert(r));
      const earlier = reference();
      const first = await log.claim(earlier, leafOf(earlier));
      expect(first.index).toBe(0);
      // Another replica takes index 3.
      await own.collection('ledger_leaves').insertOne({ _id: 3 as never, reference: 'OTHER-TX-00000001', h: Buffer.alloc(32) });
      const inserts = vi.spyOn(own.collection('ledger_leaves'), 'insertMany');
      const refs = Array.from({ length: 30 }, reference);
      // 30 new certificates, the earlier one again (a redelivery) and one of the 30 twice, all at once.
      const got = await Promise.all([...refs, earlier, refs[5]!].map((r) => log.claim(r, leafOf(r))));
      // The first waits alone; the rest go in one insert, which stops once at index 3 and once at each repeat.
      expect(inserts.mock.calls.length).toBeLessThanOrEqual(5);
      expect(got[30]).toMatchObject({ index: 0, reference: earlier });
      expect(got[31]!.index).toBe(got[5]!.index);
      const indexes = got.slice(0, 30).map((l) => l.index);
      expect(new Set(indexes).size).toBe(30);
      expect([...indexes, 0, 3].sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i));
      got.forEach((l, i) => {
        const r = [...refs, earlier, refs[5]!][i]!;
        expect(l.leaf).toBe(leafOf(r).toString('utf8'));
        expect(l.seal).toBe(signer.seal(l.index, leafHash(leafOf(r))));
      });
      // No gap: one pass checkpoints all 32.
      expect(await log.sealPending()).toBe(32);
    } finally {
      await own.dropDatabase();
      await own.close();
    }
  });

  it('reuses the leaf a killed consumer claimed, with the leaf’s own bytes, and appends nothing twice', async () => {
    const log = newLog();
    const ref = reference();
    const first = cert(ref);
    // The killed consumer claimed the leaf and never inserted the certificate.
    const claimed = await log.claim(ref, certificateLeaf(first));
    expect(await certs.findByReference(ref)).toBeNull();
    // The redelivered event (even one that now says something else) issues the certificate the log holds.
    await issue(newLog(), ref, { ...first, issuer_name: 'Changed Ltd' });
    const rec = (await certs.findByReference(ref))!;
    expect(rec.leaf_index).toBe(claimed.index);
    expect(rec.certificate.issuer_name).toBe('Acme Ltd');
    await issue(newLog(), ref); // and once more: a duplicate
    await log.sealPending();
    await checkLog();
  });

  it('recovers from a sealer that died between storing nodes and moving the head', async () => {
    const before = await tree.head();
    const log = newLog();
    for (let i = 0; i < 7; i++) await issue(log, reference());
    const dying = { ...tree, advance: async () => Promise.reject(new Error('killed')) } as TreeRepository;
    await expect(newLog(dying).sealPending()).rejects.toThrow('killed');
    expect((await tree.head()).size).toBe(before.size);
    // Not yet public: the head does not cover them.
    const last = (await certs.model.findOne({ leaf_index: before.size + 6 }).lean<{ reference: string }>())!;
    await expect(log.bundle(last.reference)).rejects.toThrow(/no certificate/);
    expect(await newLog().sealPending()).toBe(7);
    const head = await checkLog();
    expect(head.size).toBe(before.size + 7);
  });

  it('proves consistency between any two sizes from stored nodes', async () => {
    const log = newLog();
    const head = await tree.head();
    for (const [m, n] of [
      [1, head.size],
      [7, 64],
      [64, head.size],
      [head.size, head.size],
      [33, 90],
    ] as [number, number][]) {
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
    const cfg = parseConfig(ledgerConfigSchema, {
      ...infra(),
      ...testSecrets(),
      MONGO_DB: db,
      GRPC_PORT: String(await freePort()),
      OPS_PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
    });
    const ledger = await startLedger(cfg);
    const client = createClient(ledgerV1.LedgerServiceClient, `127.0.0.1:${ledger.grpcPort}`, {
      metrics: new Metrics('test'),
      defaultDeadlineMs: 10_000,
    });
    try {
      const ref = reference();
      const c = {
        ...cert(ref),
        signers: [...cert(ref).signers, { ...cert(ref).signers[0]!, name: 'Zoë Ünïcode 李', verification_mode: 'liveness' }],
      };
      const leaf = await ledger.log.claim(ref, certificateLeaf(c));
      await ledger.certs.insertOnce(
        {
          reference: ref,
          transaction_id: 9,
          document_sha256: c.document_sha256,
          certificate: c,
          ledger_seal: leaf.seal,
          leaf_index: leaf.index,
          issued_at: new Date(),
          source_event_id: 'e',
        },
        [],
      );
      // The service's own sealing pass checkpoints it (it polls every second).
      await eventually(async () => (await ledger.log.head()).size > leaf.index);
      const out = await client.renderCertificatePdf({
        reference: ref,
        events: [{ type: 'created', at: '2026-11-25T09:00:00Z', actor: 'sender', detail: '' }],
      });
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
