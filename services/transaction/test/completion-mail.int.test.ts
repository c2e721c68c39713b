/**
 * Completion mails (issue 17): signet.ledger.pdf.sealed makes the transaction service mail every
 * signer and the sender a download link (a JWT signed with DOWNLOAD_LINK_SECRET), exactly once per
 * recipient even when the event comes again; an event for another reference mails nobody.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jwtVerify } from 'jose';
import { connectBus, connectMongo, createClient, Metrics, parseConfig, publishEvent, type Bus } from '@signet/kit';
import { events, eventsV1, transactionV1 } from '@signet/proto';
import { freePort } from '../../../test/harness/local-infra.js';
import { eventually } from '../../../test/harness/eventually.js';
import { transactionConfigSchema } from '../src/config.js';
import { startTransaction } from '../src/app.js';
import { createTransactionRepository, type TransactionRecord } from '../src/store/transaction.repository.js';

const infra = () => inject('infra');
const suffix = randomBytes(3).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type MailSummary = { ID: string; Subject: string };
async function completionMailsTo(address: string): Promise<MailSummary[]> {
  const q = encodeURIComponent(`to:"${address}" subject:"Completed"`);
  return (
    ((await (await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${q}`)).json()) as { messages?: MailSummary[] }).messages ??
    []
  );
}
async function mail(id: string) {
  return (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${id}`)).json()) as { Text: string; HTML: string };
}

function issuedRecord(id: number, emails: string[], senderEmail: string): TransactionRecord {
  const now = new Date();
  return {
    _id: id,
    owner_id: `u-${randomUUID()}`,
    issuer_name: 'Zażółć Sp. z o.o.',
    reference: `TST-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    status: 'ledger_issued',
    attestation_type: 'signature',
    document_name: 'umowa.pdf',
    document_key: 'x/doc',
    document_sha256: 'a'.repeat(64),
    document_size: 10,
    reference_key: 'x/ref',
    reference_sha256: 'b'.repeat(64),
    commitment_salt: randomBytes(16).toString('hex'),
    signers: emails.map((email, index) => ({
      index,
      name: email,
      email,
      token: randomBytes(32).toString('base64url'),
      state: 'passed',
      verification_mode: index === 0 ? 'biometric' : 'liveness',
      attempts_left: 3,
      capture_id: 'c',
      attempt: 1,
      video_sha256: '',
      frame_sha256: '',
      verified_at: now,
    })),
    log: [{ type: 'created', at: now, actor: 'sender', detail: 'created' }],
    certificate_issued: true,
    created_at: now,
    verified_at: now,
    last_resent_at: null,
    version: 0,
    sender_email: senderEmail,
  } as TransactionRecord;
}

describe('completion mails', () => {
  const secret = randomBytes(32).toString('base64url');
  const db = `t_${randomBytes(4).toString('hex')}_txdone`;
  let bus: Bus;
  let tx: Awaited<ReturnType<typeof startTransaction>>;

  beforeAll(async () => {
    bus = await connectBus(infra().NATS_URL, 'test');
    tx = await startTransaction(
      parseConfig(transactionConfigSchema, {
        ...(Object.fromEntries(Object.entries(infra()).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        PUBLIC_BASE_URL: 'http://signet.test',
        IDENTITY_ADDR: '127.0.0.1:1',
        WEBHOOK_ENDPOINT_KEY: randomBytes(32).toString('hex'),
        BILLING_ADDR: '127.0.0.1:1',
        BIOMETRICS_ADDR: '127.0.0.1:1',
        REFERENCE_FACE_CHECK: 'off',
        WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
        BUCKET_DOCUMENTS: `txc-docs-${suffix}`,
        BUCKET_REFERENCES: `txc-refs-${suffix}`,
        REFERENCE_PREFIX: 'TST',
        GRPC_PORT: String(await freePort()),
        OPS_PORT: String(await freePort()),
        MONGO_DB: db,
        DOWNLOAD_LINK_SECRET: secret,
        DOWNLOAD_LINK_TTL_SECONDS: '3600',
      }),
    );
  });
  afterAll(async () => {
    await tx?.stop();
    await bus?.nc.drain();
  });

  const sealed = (rec: Pick<TransactionRecord, '_id' | 'reference'>) => {
    const eventId = randomUUID();
    return publishEvent(bus, events.pdfSealed, {
      eventId,
      payload: eventsV1.SignedPdfSealed.encode({
        eventId,
        occurredAt: new Date().toISOString(),
        transactionId: rec._id,
        reference: rec.reference,
        sealedAt: new Date().toISOString(),
      }).finish(),
    });
  };

  it('a signed PDF the ledger gave up (pdf.failed): the sender is mailed once with the reason, and the transaction log says so', async () => {
    const conn = await connectMongo(infra().MONGO_URL, db);
    const client = createClient(transactionV1.TransactionServiceClient, `127.0.0.1:${tx.grpcPort}`, {
      metrics: new Metrics('test'),
    });
    try {
      const repo = createTransactionRepository(conn);
      const sender = `failed-sender-${suffix}@example.com`;
      const rec = issuedRecord(await repo.nextId(), [`failed-a-${suffix}@example.com`], sender);
      expect(await repo.insert(rec, [])).toBe(true);
      const failed = () => {
        const eventId = randomUUID();
        return publishEvent(bus, events.pdfSealFailed, {
          eventId,
          payload: eventsV1.SignedPdfFailed.encode({
            eventId,
            occurredAt: new Date().toISOString(),
            transactionId: rec._id,
            reference: rec.reference,
            reason: 'the document cannot be read as a PDF by the sealer (damaged, encrypted or unsupported)',
            failedAt: new Date().toISOString(),
          }).finish(),
        });
      };
      const toSender = async () => {
        const q = encodeURIComponent(`to:"${sender}"`);
        return (
          ((await (await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${q}`)).json()) as { messages?: MailSummary[] })
            .messages ?? []
        );
      };
      await failed();
      const [m] = await eventually(async () => {
        const ms = await toSender();
        return ms.length ? ms : undefined;
      });
      expect(m!.Subject).toBe('Zażółć Sp. z o.o.: The signed PDF of "umowa.pdf" could not be produced');
      const body = await mail(m!.ID);
      expect(body.Text).toContain('Why: the document cannot be read as a PDF by the sealer');
      expect(body.Text).toContain(rec.reference);
      await failed(); // again (a new message id): mailed once
      await sleep(2000);
      expect(await toSender()).toHaveLength(1);
      const detail = await client.getTransaction({ ownerId: rec.owner_id, id: rec._id, test: false });
      expect(detail.events.map((e) => e.detail)).toContain('sender notified: sealing failed');
    } finally {
      client.close();
      await conn.close();
    }
  }, 60_000);

  it('mails every signer and the sender once, with a link signed for them, even when the event comes again', async () => {
    const conn = await connectMongo(infra().MONGO_URL, db);
    try {
      const repo = createTransactionRepository(conn);
      const emails = [`done-a-${suffix}@example.com`, `done-b-${suffix}@example.com`];
      const sender = `done-sender-${suffix}@example.com`;
      const rec = issuedRecord(await repo.nextId(), emails, sender);
      expect(await repo.insert(rec, [])).toBe(true);

      await sealed(rec);
      for (const [to, rcpt] of [
        [emails[0]!, 'signer:0'],
        [emails[1]!, 'signer:1'],
        [sender, 'sender'],
      ] as const) {
        const [m] = await eventually(async () => {
          const ms = await completionMailsTo(to);
          return ms.length ? ms : undefined;
        });
        expect(m!.Subject).toBe(`Completed: "umowa.pdf" is signed (${rec.reference})`);
        const body = await mail(m!.ID);
        expect(body.HTML).toContain('Zażółć Sp. z o.o.');
        const link = /http:\/\/signet\.test\/api\/downloads\/([\w.-]+)/.exec(body.Text);
        expect(link, body.Text).not.toBeNull();
        const { payload } = await jwtVerify(link![1]!, new TextEncoder().encode(secret), {
          issuer: 'signet-transaction',
          audience: 'signet-download',
          algorithms: ['HS256'],
        });
        expect(payload.sub).toBe(rec.reference);
        expect(payload.rcpt).toBe(rcpt);
        expect(payload.exp! - payload.iat!).toBe(3600);
      }
      // The event again (a new message id, so JetStream does not deduplicate it): nobody is mailed twice.
      await sealed(rec);
      // Another database's transaction with this id and another reference: nobody is mailed.
      await sealed({ _id: rec._id, reference: 'TST-TX-99999999' });
      await sleep(3000);
      for (const to of [...emails, sender]) expect(await completionMailsTo(to)).toHaveLength(1);
      expect(await conn.collection('completion_mails').countDocuments({ transaction_id: rec._id, result: 'sent' })).toBe(3);
    } finally {
      await conn.close();
    }
  }, 60_000);
});
