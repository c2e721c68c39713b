/**
 * What a crash must not lose or leave behind: signing-link mail goes through the outbox and a durable
 * consumer (exactly one mail per signer, even when the process died before relaying, even on a
 * redelivery), and objects stored by a creation that never got its record are swept.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Connection } from 'mongoose';
import {
  connectBus,
  connectMongo,
  createClient,
  createLogger,
  listKeys,
  Metrics,
  parseConfig,
  publishEvent,
  RpcError,
  type Bus,
  type ServiceClient,
} from '@signet/kit';
import { events, eventsV1, transactionV1 } from '@signet/proto';
import { freePort } from '../../../test/harness/local-infra.js';
import { billingConfigSchema } from '../../billing/src/config.js';
import { startBilling } from '../../billing/src/app.js';
import { transactionConfigSchema } from '../src/config.js';
import { startTransaction } from '../src/app.js';
import { creationOutbox } from '../src/events/transaction.publisher.js';
import { createObjectStore } from '../src/store/object.store.js';
import { createOrphanSweep } from '../src/jobs/orphan.sweep.js';
import { createTransactionRepository, type TransactionRecord } from '../src/store/transaction.repository.js';
import { transactionMetrics } from '../src/metrics.js';
import { pngPhoto, tinyPdf } from './fixtures.js';
import { eventually as eventuallyBase } from '../../../test/harness/eventually.js';

const eventually = <T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000) => eventuallyBase(fn, timeoutMs);

const infra = () => inject('infra');
const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `txd-docs-${suffix}`, BUCKET_REFERENCES: `txd-refs-${suffix}` };
const s3cfg = () => ({
  ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
  S3_REGION: 'us-east-1',
  ...BUCKETS,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type MailSummary = { ID: string; Subject: string };
async function mailsTo(address: string): Promise<MailSummary[]> {
  const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
  return ((await res.json()) as { messages?: MailSummary[] }).messages ?? [];
}
async function mailText(id: string): Promise<string> {
  return ((await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${id}`)).json()) as { Text: string }).Text;
}

function commonEnv(): Record<string, string> {
  return {
    ...(Object.fromEntries(Object.entries(infra()).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_BASE_URL: 'http://signet.test',
    IDENTITY_ADDR: '127.0.0.1:1',
    WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    WEBHOOK_ENDPOINT_KEY: randomBytes(32).toString('hex'),
    ...BUCKETS,
    REFERENCE_PREFIX: 'TST',
  };
}

async function startTx(db: string, env: Record<string, string> = {}) {
  return startTransaction(
    parseConfig(transactionConfigSchema, {
      ...commonEnv(),
      BILLING_ADDR: '127.0.0.1:1',
      BIOMETRICS_ADDR: '127.0.0.1:1',
      REFERENCE_FACE_CHECK: 'off',
      GRPC_PORT: String(await freePort()),
      OPS_PORT: String(await freePort()),
      MONGO_DB: db,
      ...env,
    }),
  );
}

async function metricsText(opsPort: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
}
function counterValue(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelPart = line.slice(name.length + 1, line.indexOf('}'));
    if (want.every((w) => labelPart.split(',').includes(w))) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** A record exactly as creation writes it (creation's own outbox builder), with real stored objects. */
async function recordLike(
  id: number,
  emails: string[],
  keys: { document: string; reference: string },
): Promise<TransactionRecord> {
  const now = new Date();
  return {
    _id: id,
    owner_id: `u-${randomUUID()}`,
    issuer_name: 'Crashy Ltd',
    reference: `TST-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    status: 'created',
    attestation_type: 'approval',
    document_name: 'crash.pdf',
    document_key: keys.document,
    document_sha256: 'a'.repeat(64),
    document_size: 10,
    reference_key: keys.reference,
    reference_sha256: 'b'.repeat(64),
    commitment_salt: randomBytes(16).toString('hex'),
    signers: emails.map((email, index) => ({
      index,
      name: email,
      email,
      token: randomBytes(32).toString('base64url'),
      state: 'created',
      verification_mode: index === 0 ? 'biometric' : 'liveness',
      attempts_left: 3,
      capture_id: '',
      attempt: 0,
      video_sha256: '',
      frame_sha256: '',
      verified_at: null,
    })),
    log: [{ type: 'created', at: now, actor: 'sender', detail: 'created' }],
    certificate_issued: false,
    created_at: now,
    verified_at: null,
    last_resent_at: null,
    version: 0,
  };
}

describe('signing-link mail and orphan objects survive a crash', () => {
  let bus: Bus;
  let objects: ReturnType<typeof createObjectStore>;

  beforeAll(async () => {
    bus = await connectBus(infra().NATS_URL, 'test');
    objects = createObjectStore(s3cfg());
    for (const b of Object.values(BUCKETS)) if (!(await objects.client.bucketExists(b))) await objects.client.makeBucket(b);
  });
  afterAll(async () => {
    await bus?.nc.drain();
  });

  it('a record written with its outbox by a process that died before relaying gets exactly one mail per signer from a fresh start', async () => {
    const db = `t_${randomBytes(4).toString('hex')}_txcrash`;
    const emails = [`crash-a-${suffix}@example.com`, `crash-b-${suffix}@example.com`];
    // The crashed process's write: the record with its outbox entries and its tokens, nothing relayed.
    const conn: Connection = await connectMongo(infra().MONGO_URL, db);
    const repo = createTransactionRepository(conn);
    await repo.init();
    const rec = await recordLike(await repo.nextId(), emails, { document: 'x/doc', reference: 'x/ref' });
    const outbox = creationOutbox(rec);
    expect(await repo.insert(rec, outbox)).toBe(true);
    await sleep(1500);
    for (const e of emails) expect(await mailsTo(e)).toHaveLength(0);

    const tx = await startTx(db);
    try {
      for (const [i, e] of emails.entries()) {
        const [mail] = await eventually(async () => {
          const m = await mailsTo(e);
          return m.length ? m : undefined;
        });
        expect(mail!.Subject).toBe('Crashy Ltd asks you to sign "crash.pdf"');
        expect(await mailText(mail!.ID)).toContain(`http://signet.test/sign/${rec.signers[i]!.token}`);
      }
      // Relayed and recorded: the outbox is empty and each mail is on record.
      await eventually(
        async () =>
          ((await conn.collection('transactions').findOne({ _id: rec._id as never }))!.outbox as unknown[]).length === 0,
      );
      expect(await conn.collection('link_mails').countDocuments({ transaction_id: rec._id, result: 'sent' })).toBe(2);

      // A redelivery of the same request (republished under a new message id, so JetStream does not
      // deduplicate it) finds the mails on record and sends nothing.
      const entry = outbox.find((o) => o.subject === events.linksRequested.subject)!;
      const req = eventsV1.SigningLinksRequested.decode(entry.payload);
      const again = randomUUID();
      await publishEvent(bus, events.linksRequested, {
        eventId: again,
        payload: eventsV1.SigningLinksRequested.encode({ ...req, eventId: again }).finish(),
      });
      await eventually(
        async () =>
          counterValue(await metricsText(tx.opsPort), 'signet_transaction_mails_total', {
            kind: 'invite',
            result: 'duplicate',
          }) === 2,
      );
      await sleep(2500); // longer than the outbox sweep period
      for (const e of emails) expect(await mailsTo(e)).toHaveLength(1);
      expect(
        counterValue(await metricsText(tx.opsPort), 'signet_transaction_mails_total', { kind: 'invite', result: 'sent' }),
      ).toBe(2);
    } finally {
      await tx.stop();
      await conn.close();
    }
  });

  describe('with a running service and real billing', () => {
    let tx: Awaited<ReturnType<typeof startTx>>;
    let billing: Awaited<ReturnType<typeof startBilling>>;
    let client: ServiceClient<transactionV1.TransactionServiceClient>;
    let conn: Connection;

    beforeAll(async () => {
      const run = randomBytes(4).toString('hex');
      const billingPort = await freePort();
      billing = await startBilling(
        parseConfig(billingConfigSchema, {
          ...commonEnv(),
          GRPC_PORT: String(billingPort),
          OPS_PORT: String(await freePort()),
          MONGO_DB: `t_${run}_billing`,
        }),
      );
      // The sweep timer is off and the minimum age is 0: the test triggers sweeps itself.
      tx = await startTx(`t_${run}_transaction`, {
        BILLING_ADDR: `127.0.0.1:${billingPort}`,
        ORPHAN_SWEEP_INTERVAL_MS: '0',
        ORPHAN_MIN_AGE_MS: '0',
      });
      client = createClient(transactionV1.TransactionServiceClient, `127.0.0.1:${tx.grpcPort}`, {
        metrics: new Metrics('test'),
      });
      conn = await connectMongo(infra().MONGO_URL, `t_${run}_transaction`);
    });
    afterAll(async () => {
      client?.close();
      await conn?.close();
      await tx?.stop();
      await billing?.stop();
    });

    function create(
      owner: string,
      fields: Partial<transactionV1.CreateTransactionFields>,
    ): Promise<transactionV1.CreateTransactionResult> {
      return new Promise((resolve, reject) => {
        const call = client.raw.createTransaction(
          new Metadata(),
          { deadline: new Date(Date.now() + 30_000) },
          (err: ServiceError | null, res?: transactionV1.CreateTransactionResult) =>
            err ? reject(RpcError.from(err)) : resolve(res!),
        );
        call.on('error', () => undefined);
        call.write({
          part: {
            $case: 'begin',
            value: transactionV1.CreateTransactionBegin.fromPartial({ ownerId: owner, orgName: 'Acme Ltd', idempotencyKey: '' }),
          },
        });
        call.write({ part: { $case: 'document', value: tinyPdf('durable') } });
        call.write({ part: { $case: 'reference', value: pngPhoto() } });
        call.write({
          part: {
            $case: 'fields',
            value: transactionV1.CreateTransactionFields.fromPartial({
              signerName: 'Ada',
              signerEmail: '',
              signerEmails: [],
              signers: [],
              attestationType: '',
              documentName: 'contract.pdf',
              ...fields,
            }),
          },
        });
        call.end();
      });
    }

    it('mails every signer once through the consumer, and a resend mails a reminder once', async () => {
      const emails = [`live-a-${suffix}@example.com`, `live-b-${suffix}@example.com`];
      const r = await create(`u-${randomUUID()}`, { signerEmail: emails[0], signerEmails: [emails[1]!] });
      for (const e of emails) await eventually(async () => (await mailsTo(e)).length === 1);
      const rec = await conn.collection('transactions').findOne({ _id: r.id as never });
      const [first] = await mailsTo(emails[0]!);
      expect(await mailText(first!.ID)).toContain(`http://signet.test/sign/${rec!.signers[0].token}`);
      // The mail reaches Mailpit just before its record is written (sent, then recorded): wait for both.
      await eventually(
        async () =>
          (await conn.collection('link_mails').countDocuments({ transaction_id: r.id, kind: 'invite', result: 'sent' })) === 2,
      );

      await client.resendTransaction({ ownerId: rec!.owner_id, id: r.id, test: false });
      for (const e of emails) await eventually(async () => (await mailsTo(e)).length === 2);
      const reminders = (await mailsTo(emails[1]!)).filter((m) => m.Subject.startsWith('Reminder: '));
      expect(reminders).toHaveLength(1);
      await eventually(
        async () =>
          (await conn.collection('link_mails').countDocuments({ transaction_id: r.id, kind: 'reminder', result: 'sent' })) === 2,
      );
      await sleep(2500);
      for (const e of emails) expect(await mailsTo(e)).toHaveLength(2);
    });

    it('the orphan sweep removes only objects no transaction points to', async () => {
      const r = await create(`u-${randomUUID()}`, { signerEmail: `orphan-${suffix}@example.com` });
      const rec = (await conn.collection('transactions').findOne({ _id: r.id as never }))!;
      // What a process killed between the upload and the record write leaves behind.
      const orphanDoc = `2000-01/${randomUUID()}`;
      const orphanRef = `2000-01/${randomUUID()}`;
      await objects.client.putObject(BUCKETS.BUCKET_DOCUMENTS, orphanDoc, tinyPdf('orphan'));
      await objects.client.putObject(BUCKETS.BUCKET_REFERENCES, orphanRef, pngPhoto());

      // With the default minimum age (1 h) these fresh objects are left alone.
      const cautious = createOrphanSweep({
        s3: objects.client,
        repo: tx.repo,
        tm: transactionMetrics(new Metrics('test')),
        logger: createLogger('test', 'silent'),
        buckets: { documents: BUCKETS.BUCKET_DOCUMENTS, references: BUCKETS.BUCKET_REFERENCES },
        minAgeMs: 3600_000,
        intervalMs: 0,
      });
      expect(await cautious.run()).toEqual({ documents: 0, references: 0 });
      expect(await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS)).toContain(orphanDoc);

      // The service's own sweep (minimum age 0 here) and a second "replica" racing it: the orphans go,
      // the transaction's objects stay, and deleting twice is harmless.
      const replica = createOrphanSweep({
        s3: objects.client,
        repo: tx.repo,
        tm: transactionMetrics(new Metrics('test')),
        logger: createLogger('test', 'silent'),
        buckets: { documents: BUCKETS.BUCKET_DOCUMENTS, references: BUCKETS.BUCKET_REFERENCES },
        minAgeMs: 0,
        intervalMs: 0,
      });
      const a = tx.orphans.run();
      expect(tx.orphans.run()).toBe(a); // one sweep at a time in a process
      const [mine] = await Promise.all([a, replica.run()]);
      expect(mine.documents).toBeLessThanOrEqual(1);

      const docs = await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS);
      const refs = await listKeys(objects.client, BUCKETS.BUCKET_REFERENCES);
      expect(docs).not.toContain(orphanDoc);
      expect(refs).not.toContain(orphanRef);
      expect(docs).toContain(rec.document_key);
      expect(refs).toContain(rec.reference_key);
      // Every object left belongs to a record.
      const recs = await conn
        .collection('transactions')
        .find({}, { projection: { document_key: 1, reference_key: 1 } })
        .toArray();
      expect(new Set(docs)).toEqual(new Set(recs.map((x) => x.document_key)));
      expect(new Set(refs)).toEqual(new Set(recs.map((x) => x.reference_key)));

      const again = await tx.orphans.run();
      expect(again).toEqual({ documents: 0, references: 0 });
      const text = await metricsText(tx.opsPort);
      expect(
        counterValue(text, 'signet_transaction_orphans_removed_total', { bucket: BUCKETS.BUCKET_DOCUMENTS }) +
          counterValue(text, 'signet_transaction_orphans_removed_total', { bucket: BUCKETS.BUCKET_REFERENCES }),
      ).toBe(mine.documents + mine.references);
      expect(counterValue(text, 'signet_transaction_orphan_sweeps_total', { result: 'ok' })).toBeGreaterThanOrEqual(2);
      expect(counterValue(text, 'signet_transaction_orphan_sweeps_total', { result: 'error' })).toBe(0);
    });
  });
});
