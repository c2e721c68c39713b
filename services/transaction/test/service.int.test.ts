import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import {
  connectBus,
  connectMongo,
  createClient,
  listKeys,
  Metrics,
  publishEvent,
  RpcError,
  STREAM,
  type Bus,
  type ServiceClient,
} from '@signet/kit';
import { billingV1, events, eventsV1, transactionV1, type EventEntry } from '@signet/proto';
import { inject } from 'vitest';
import { freePort } from '../../../test/harness/local-infra.js';
import { parseConfig } from '@signet/kit';
import { billingConfigSchema } from '../../billing/src/config.js';
import { startBilling } from '../../billing/src/app.js';
import { transactionConfigSchema } from '../src/config.js';
import { startTransaction } from '../src/app.js';
import { createObjectStore } from '../src/store/object.store.js';
import { jpegPhoto, pngPhoto, tinyPdf } from './fixtures.js';
import { eventually } from '../../../test/harness/eventually.js';

type Chunk = transactionV1.CreateTransactionChunk;
type Fields = Partial<transactionV1.CreateTransactionFields>;

const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `tx-docs-${suffix}`, BUCKET_REFERENCES: `tx-refs-${suffix}` };

const infra = () => inject('infra');

/** The transaction service and the real billing service it calls, on free ports with their own databases. */
async function startStack() {
  const run = randomBytes(4).toString('hex');
  const [txPort, billingPort] = [await freePort(), await freePort()];
  const common = {
    ...(Object.fromEntries(Object.entries(infra()).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_BASE_URL: 'http://signet.test',
    BILLING_ADDR: `127.0.0.1:${billingPort}`,
    BIOMETRICS_ADDR: '127.0.0.1:1',
    REFERENCE_FACE_CHECK: 'off',
    IDENTITY_ADDR: '127.0.0.1:1',
    WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    WEBHOOK_ENDPOINT_KEY: randomBytes(32).toString('hex'),
    ...BUCKETS,
    REFERENCE_PREFIX: 'TST',
  };
  const billing = await startBilling(
    parseConfig(billingConfigSchema, {
      ...common,
      GRPC_PORT: String(billingPort),
      OPS_PORT: String(await freePort()),
      MONGO_DB: `t_${run}_billing`,
    }),
  );
  const tx = await startTransaction(
    parseConfig(transactionConfigSchema, {
      ...common,
      GRPC_PORT: String(txPort),
      OPS_PORT: String(await freePort()),
      MONGO_DB: `t_${run}_transaction`,
    }),
  );
  return {
    env: { TRANSACTION_ADDR: `127.0.0.1:${txPort}`, BILLING_ADDR: `127.0.0.1:${billingPort}` },
    dbs: { transaction: `t_${run}_transaction` },
    gatewayUrl: 'http://signet.test',
    tx,
    async stop() {
      await tx.stop();
      await billing.stop();
    },
  };
}

describe('transaction service over gRPC, with real billing, MinIO, Mongo and NATS', () => {
  let stack: Awaited<ReturnType<typeof startStack>>;
  let tx: ServiceClient<transactionV1.TransactionServiceClient>;
  let billing: ServiceClient<billingV1.BillingServiceClient>;
  let conn: Connection;
  let bus: Bus;
  let objects: ReturnType<typeof createObjectStore>;

  beforeAll(async () => {
    bus = await connectBus(infra().NATS_URL, 'test');
    // A clean durable: events other test files left on the stream are not ours.
    await bus.jsm.consumers.delete(STREAM, 'transaction-state').catch(() => undefined);
    stack = await startStack();
    const metrics = new Metrics('test');
    tx = createClient(transactionV1.TransactionServiceClient, stack.env.TRANSACTION_ADDR!, { metrics });
    billing = createClient(billingV1.BillingServiceClient, stack.env.BILLING_ADDR!, { metrics });
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.transaction);
    objects = createObjectStore({
      ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
      S3_REGION: 'us-east-1',
      ...BUCKETS,
    });
  });
  afterAll(async () => {
    tx?.close();
    billing?.close();
    await conn?.close();
    await bus?.nc.drain();
    await stack?.stop();
  });

  /** Streams one creation: begin, the given parts in order, then fields. */
  function create(
    owner: string,
    parts: Chunk['part'][],
    fields: Fields | null,
    key = '',
  ): Promise<transactionV1.CreateTransactionResult> {
    return new Promise((resolve, reject) => {
      const call = tx.raw.createTransaction(
        new Metadata(),
        { deadline: new Date(Date.now() + 30_000) },
        (err: ServiceError | null, res?: transactionV1.CreateTransactionResult) =>
          err ? reject(RpcError.from(err)) : resolve(res!),
      );
      call.on('error', () => undefined);
      call.write({
        part: {
          $case: 'begin',
          value: transactionV1.CreateTransactionBegin.fromPartial({ ownerId: owner, orgName: 'Acme Ltd', idempotencyKey: key }),
        },
      });
      for (const p of parts) call.write({ part: p });
      if (fields) {
        call.write({
          part: {
            $case: 'fields',
            value: transactionV1.CreateTransactionFields.fromPartial({
              signerName: 'Ada Lovelace',
              signerEmail: 'ada@example.com',
              signerEmails: [],
              signers: [],
              attestationType: '',
              documentName: 'contract.pdf',
              ...fields,
            }),
          },
        });
      }
      call.end();
    });
  }
  const doc = (b: Buffer): Chunk['part'] => ({ $case: 'document', value: b });
  const ref = (b: Buffer): Chunk['part'] => ({ $case: 'reference', value: b });
  const used = async (owner: string) => (await billing.getAccount({ userId: owner })).monthlyUsed;
  const nothingLeft = async (owner: string) => {
    expect(await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS)).toEqual([]);
    expect(await listKeys(objects.client, BUCKETS.BUCKET_REFERENCES)).toEqual([]);
    expect(await conn.collection('transactions').countDocuments({ owner_id: owner })).toBe(0);
    expect(await used(owner)).toBe(0);
  };

  it.each([
    ['a document that is not a PDF', [doc(Buffer.from('GIF89a not a pdf')), ref(pngPhoto())], {}, /document/],
    ['a missing document', [ref(pngPhoto())], {}, /document: is required/],
    ['a missing reference', [doc(tinyPdf())], {}, /reference: is required/],
    [
      'a reference that is not an image',
      [doc(tinyPdf()), ref(Buffer.from('%PDF-1.4 nope'))],
      {},
      /reference: must be a JPEG or PNG/,
    ],
    [
      'a PNG header that does not decode',
      [doc(tinyPdf()), ref(Buffer.concat([pngPhoto().subarray(0, 30), Buffer.alloc(50)]))],
      {},
      /reference: is not a decodable PNG/,
    ],
    [
      'a JPEG header that does not decode',
      [doc(tinyPdf()), ref(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]))],
      {},
      /reference: is not a decodable JPEG/,
    ],
    [
      'a reference over 10 MB',
      [doc(tinyPdf()), ref(jpegPhoto()), ...Array.from({ length: 11 }, () => ref(Buffer.alloc(1024 * 1024)))],
      {},
      /reference: must be at most 10 MB/,
    ],
    ['a bad signer email', [doc(tinyPdf()), ref(pngPhoto())], { signerEmail: 'not-an-email' }, /signer_email/],
    ['a bad additional email', [doc(tinyPdf()), ref(pngPhoto())], { signerEmails: ['b@example.com', 'nope'] }, /signer_emails/],
    [
      'five additional signers',
      [doc(tinyPdf()), ref(pngPhoto())],
      { signerEmails: ['a1@x.io', 'a2@x.io', 'a3@x.io', 'a4@x.io', 'a5@x.io'] },
      /signer_emails: at most 4/,
    ],
    ['an unknown attestation type', [doc(tinyPdf()), ref(pngPhoto())], { attestationType: 'notarise' }, /attestation_type/],
    ['a missing signer name', [doc(tinyPdf()), ref(pngPhoto())], { signerName: ' ' }, /signer_name/],
    // A NUL from a gRPC caller never reaches the store (PostgreSQL under FerretDB would refuse it as a 500).
    [
      'a NUL in the signer name',
      [doc(tinyPdf()), ref(pngPhoto())],
      { signerName: 'Ada\u0000' },
      /signerName: must not contain the NUL/,
    ],
    [
      'a NUL in the document name',
      [doc(tinyPdf()), ref(pngPhoto())],
      { documentName: 'c\u0000.pdf' },
      /documentName: must not contain the NUL/,
    ],
  ] as const)(
    'rejects %s with INVALID_ARGUMENT naming the field and leaves nothing behind',
    async (_n, parts, fields, detail) => {
      const owner = `u-${randomUUID()}`;
      const err = (await create(owner, [...parts], fields as Fields).catch((e: unknown) => e)) as RpcError;
      expect(err).toBeInstanceOf(RpcError);
      expect(err.code).toBe(3);
      expect(err.details).toMatch(detail);
      await nothingLeft(owner);
    },
  );

  it('rejects a document over 200 MB with OUT_OF_RANGE / PAYLOAD_TOO_LARGE and leaves nothing behind', async () => {
    const owner = `u-${randomUUID()}`;
    const block = Buffer.alloc(4 * 1024 * 1024, 0x20);
    const parts: Chunk['part'][] = [doc(Buffer.from('%PDF-1.7\n'))];
    for (let i = 0; i < 51; i++) parts.push(doc(block));
    const err = (await create(owner, parts, {}).catch((e: unknown) => e)) as RpcError;
    expect(err.reason).toBe('PAYLOAD_TOO_LARGE');
    await eventually(async () => (await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS)).length === 0);
    await nothingLeft(owner);
  });

  it('creates: the stored PDF has the recorded SHA-256, one signature is used, references and tokens are well formed', async () => {
    const owner = `u-${randomUUID()}`;
    const pdf = tinyPdf('creation');
    const r = await create(owner, [doc(pdf.subarray(0, 3)), doc(pdf.subarray(3)), ref(jpegPhoto())], {
      signerEmails: ['bob@example.com'],
    });
    expect(r.status).toBe('created');
    expect(r.reference).toMatch(/^TST-TX-\d{8}$/);
    expect(r.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.signUrl).toBe(`${stack.gatewayUrl}/sign/${r.token}`);
    const rec = await conn.collection('transactions').findOne({ _id: r.id as never });
    expect(rec!.document_sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    // The creation's events were published and removed from the record before the answer.
    expect(rec!.outbox).toEqual([]);
    const stored: Buffer[] = [];
    for await (const c of await objects.client.getObject(BUCKETS.BUCKET_DOCUMENTS, rec!.document_key)) stored.push(c as Buffer);
    expect(createHash('sha256').update(Buffer.concat(stored)).digest('hex')).toBe(rec!.document_sha256);
    expect(rec!.signers).toHaveLength(2);
    expect(new Set(rec!.signers.map((s: { token: string }) => s.token)).size).toBe(2);
    expect(await used(owner)).toBe(1);
    const ctx = await tx.resolveSigningToken({ token: rec!.signers[1].token });
    expect(ctx).toMatchObject({
      transactionId: r.id,
      signerIndex: 1,
      verificationMode: 'liveness',
      issuerName: 'Acme Ltd',
      referenceKey: '',
    });
  });

  it('gives integer ids without gaps or duplicates under concurrent creation', async () => {
    const owner = `u-${randomUUID()}`;
    const rs = await Promise.all(Array.from({ length: 3 }, () => create(owner, [doc(tinyPdf()), ref(pngPhoto())], {})));
    const ids = rs.map((r) => Number(r.id)).sort((a, b) => a - b);
    expect(new Set(ids).size).toBe(3);
    expect(ids[2]! - ids[0]!).toBe(2);
    expect(new Set(rs.map((r) => r.reference)).size).toBe(3);
  });

  it('answers QUOTA_EXHAUSTED once the plan is used up, and keeps nothing of the refused request', async () => {
    const owner = `u-${randomUUID()}`;
    const limit = (await billing.getAccount({ userId: owner })).monthlyLimit;
    for (let i = 0; i < limit; i++) await create(owner, [doc(tinyPdf()), ref(pngPhoto())], {});
    const before = await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS);
    const err = (await create(owner, [doc(tinyPdf()), ref(pngPhoto())], {}).catch((e: unknown) => e)) as RpcError;
    expect(err.reason).toBe('QUOTA_EXHAUSTED');
    expect(await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS)).toEqual(before);
    expect(await conn.collection('transactions').countDocuments({ owner_id: owner })).toBe(limit);
  });

  it('Idempotency-Key: the same request returns the first result; a different body is a conflict', async () => {
    const owner = `u-${randomUUID()}`;
    const key = randomUUID();
    const a = await create(owner, [doc(tinyPdf('idem')), ref(pngPhoto())], {}, key);
    const b = await create(owner, [doc(tinyPdf('idem')), ref(pngPhoto())], {}, key);
    expect(b).toMatchObject({ id: a.id, reference: a.reference, token: a.token, replayed: true });
    const c = (await create(owner, [doc(tinyPdf('other')), ref(pngPhoto())], {}, key).catch((e: unknown) => e)) as RpcError;
    expect(c.code).toBe(9);
    expect(c.reason).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await conn.collection('transactions').countDocuments({ owner_id: owner })).toBe(1);
    expect(await used(owner)).toBe(1);
  });

  it('moves through DESIGN §3 on ceremony, biometrics and ledger events, and announces transaction.verified once', async () => {
    const owner = `u-${randomUUID()}`;
    const r = await create(owner, [doc(tinyPdf('states')), ref(pngPhoto())], { signerEmails: ['bob@example.com'] });
    const id = Number(r.id);
    const status = async () => (await tx.getTransaction({ ownerId: owner, id, test: false })).summary!.status;
    const pub = (event: EventEntry, encode: (eventId: string, occurredAt: string) => Uint8Array) => {
      const eventId = randomUUID();
      return publishEvent(bus, event, { eventId, payload: encode(eventId, new Date().toISOString()) });
    };
    const consent = (i: number) =>
      pub(events.consentAccepted, (eventId, occurredAt) =>
        eventsV1.ConsentAccepted.encode(
          eventsV1.ConsentAccepted.fromPartial({ eventId, occurredAt, transactionId: id, signerIndex: i }),
        ).finish(),
      );
    const capture = (i: number, captureId: string) =>
      pub(events.captureSubmitted, (eventId, occurredAt) =>
        eventsV1.CaptureSubmitted.encode(
          eventsV1.CaptureSubmitted.fromPartial({
            eventId,
            occurredAt,
            transactionId: id,
            signerIndex: i,
            captureId,
            attempt: 1,
            videoKey: 'v',
            frameKey: 'f',
            referenceKey: '',
            documentSha256: '',
            verificationMode: '',
            videoSha256: 'a'.repeat(64),
            frameSha256: 'b'.repeat(64),
            challenge: undefined,
            live: undefined,
            durationSeconds: 0,
          }),
        ).finish(),
      );
    const verdict = (i: number, captureId: string, outcome: string) =>
      pub(events.verdictIssued, (eventId, occurredAt) =>
        eventsV1.BiometricsVerdict.encode({
          eventId,
          occurredAt,
          transactionId: id,
          signerIndex: i,
          captureId,
          attempt: 1,
          outcome,
          failedChecks: outcome === 'FAIL' ? ['liveness'] : [],
          models: [],
          assurance: 'recorded',
        }).finish(),
      );

    await consent(0);
    await eventually(async () => (await status()) === 'consent_accepted');
    await consent(0); // a second consent changes nothing
    await capture(0, 'c0');
    await consent(1);
    await capture(1, 'c1');
    await eventually(async () => (await status()) === 'capture_accepted');
    await verdict(1, 'c1', 'FAIL'); // attempts left → back to consent_accepted for a new challenge
    await eventually(async () => (await status()) === 'consent_accepted');
    const d1 = await tx.getTransaction({ ownerId: owner, id, test: false });
    expect(d1.signers[1]).toMatchObject({ state: 'consent_accepted', attemptsLeft: 2 });
    await verdict(1, 'c1', 'FAIL'); // stale: that capture is no longer under analysis
    await capture(1, 'c2');
    await verdict(0, 'c0', 'PASS');
    await verdict(1, 'c2', 'PASS');
    await eventually(async () =>
      (await tx.getTransaction({ ownerId: owner, id, test: false })).signers.every((s) => s.state === 'passed'),
    );
    expect(await status()).toBe('capture_accepted');
    await pub(events.certificateIssued, (eventId, occurredAt) =>
      eventsV1.CertificateIssued.encode({
        eventId,
        occurredAt,
        transactionId: id,
        reference: r.reference,
        leafIndex: 1,
        ledgerSeal: 's',
      }).finish(),
    );
    await eventually(async () => (await status()) === 'ledger_issued');
    const detail = await tx.getTransaction({ ownerId: owner, id, test: false });
    expect(detail.summary!.verifiedAt).not.toBe('');
    expect(detail.events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'created',
        'consent_accepted',
        'capture_submitted',
        'verdict_failed',
        'verdict_passed',
        'certificate_issued',
        'status_changed',
      ]),
    );
    expect(detail.signers[1]!.attemptsLeft).toBe(2);

    // Exactly one signet.transaction.verified for it, through the outbox.
    await eventually(
      async () => ((await conn.collection('transactions').findOne({ _id: id as never }))!.outbox as unknown[]).length === 0,
    );
    const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.transactionVerified.subject] });
    const verified: eventsV1.TransactionVerified[] = [];
    for await (const m of await consumer.fetch({ max_messages: 1000, expires: 1000 }))
      verified.push(eventsV1.TransactionVerified.decode(m.data));
    const mine = verified.filter((v) => v.reference === r.reference);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.signers).toHaveLength(2);
    expect(mine[0]!.signers[0]!.videoSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(mine[0]!.signers[0]!.videoSha256).not.toBe('a'.repeat(64));
    // A terminal transaction's links no longer resolve.
    await expect(tx.resolveSigningToken({ token: r.token })).rejects.toMatchObject({ code: 5 });
  });

  it('fails the transaction when a signer runs out of attempts', async () => {
    const owner = `u-${randomUUID()}`;
    const r = await create(owner, [doc(tinyPdf('fail')), ref(pngPhoto())], {});
    const id = Number(r.id);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const send = (event: EventEntry, payload: Uint8Array) => publishEvent(bus, event, { eventId: randomUUID(), payload });
      if (attempt === 1)
        await send(
          events.consentAccepted,
          eventsV1.ConsentAccepted.encode(
            eventsV1.ConsentAccepted.fromPartial({ eventId: '', occurredAt: '', transactionId: id, signerIndex: 0 }),
          ).finish(),
        );
      await send(
        events.captureSubmitted,
        eventsV1.CaptureSubmitted.encode(
          eventsV1.CaptureSubmitted.fromPartial({
            eventId: '',
            occurredAt: '',
            transactionId: id,
            signerIndex: 0,
            captureId: `c${attempt}`,
            attempt,
            videoKey: '',
            frameKey: '',
            referenceKey: '',
            documentSha256: '',
            verificationMode: '',
            videoSha256: '',
            frameSha256: '',
            challenge: undefined,
            live: undefined,
            durationSeconds: 0,
          }),
        ).finish(),
      );
      await send(
        events.verdictIssued,
        eventsV1.BiometricsVerdict.encode({
          eventId: '',
          occurredAt: '',
          transactionId: id,
          signerIndex: 0,
          captureId: `c${attempt}`,
          attempt,
          outcome: 'FAIL',
          failedChecks: [],
          models: [],
          assurance: 'recorded',
        }).finish(),
      );
      await eventually(
        async () => (await tx.getTransaction({ ownerId: owner, id, test: false })).signers[0]!.attemptsLeft === 3 - attempt,
      );
    }
    expect((await tx.getTransaction({ ownerId: owner, id, test: false })).summary!.status).toBe('failed');
    await expect(tx.cancelTransaction({ ownerId: owner, id, test: false })).rejects.toMatchObject({ code: 9 });
    await expect(tx.resendTransaction({ ownerId: owner, id, test: false })).rejects.toMatchObject({ code: 9 });
  });

  it('cancel kills the signing links at once; another owner sees NOT_FOUND', async () => {
    const owner = `u-${randomUUID()}`;
    const r = await create(owner, [doc(tinyPdf('cancel')), ref(pngPhoto())], {});
    await expect(tx.getTransaction({ ownerId: 'someone-else', id: r.id, test: false })).rejects.toMatchObject({ code: 5 });
    await expect(tx.cancelTransaction({ ownerId: 'someone-else', id: r.id, test: false })).rejects.toMatchObject({ code: 5 });
    expect((await tx.resolveSigningToken({ token: r.token })).transactionStatus).toBe('created');
    const s = await tx.cancelTransaction({ ownerId: owner, id: r.id, test: false });
    expect(s.status).toBe('cancelled');
    await expect(tx.resolveSigningToken({ token: r.token })).rejects.toMatchObject({ code: 5 });
    await expect(tx.cancelTransaction({ ownerId: owner, id: r.id, test: false })).rejects.toMatchObject({ code: 9 });
  });
});
