/**
 * What the transaction service keeps after creations that arrive through the gateway's multipart
 * upload, read from its own database and buckets: the stored PDF's bytes and recorded SHA-256, the
 * token stored for each signer being the one mailed, and no object, record or used signature left by
 * a refused request (bad input, quota, an idempotent replay). test/e2e/transactions.test.ts checks the
 * same requests through the public API only; these storage assertions moved here from it.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, listKeys } from '@signet/kit';
import { createAccount, type Account } from '../../../test/harness/accounts.js';
import { eventually, infra, startServices } from '../../../test/harness/services.js';
import { send as sendTo } from '../../../test/support/http.js';
import { mailsTo } from '../../../test/support/identity-helpers.js';
import { createObjectStore } from '../src/store/object.store.js';
import { encryptedPdf, onePagePdf } from '../../../test/fixtures/pdfs.js';
import { bigPdf, jpegPhoto, pngPhoto, tinyPdf, type Part } from './fixtures.js';

/** A 6 MB PDF (a page and 6 MB of an unused stream), encrypted: larger than one stored part. */
let largeLocked: Buffer | undefined;
const largeEncryptedPdf = () => (largeLocked ??= encryptedPdf(onePagePdf('large', 6 * 1024 * 1024), 'pw'));

const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `gwr-docs-${suffix}`, BUCKET_REFERENCES: `gwr-refs-${suffix}` };

describe('transaction storage after creations through the gateway (real identity, billing, MinIO, FerretDB)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let conn: Connection;
  let objects: ReturnType<typeof createObjectStore>;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], { env: BUCKETS });
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.transaction!);
    objects = createObjectStore({
      ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
      S3_REGION: 'us-east-1',
      ...BUCKETS,
    });
  });
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
  });

  const file = (name: string, data: Extract<Part, { data: unknown }>['data'], filename: string, contentType: string): Part => ({
    name,
    data,
    filename,
    contentType,
  });
  const form = (over: Record<string, string | null> = {}, files: { document?: Part | null; reference?: Part | null } = {}) => {
    const fields: Record<string, string | null> = {
      signer_name: 'Ada Lovelace',
      signer_email: `ada-${randomBytes(4).toString('hex')}@example.com`,
      ...over,
    };
    const parts: Part[] = Object.entries(fields)
      .filter((e): e is [string, string] => e[1] !== null)
      .map(([name, value]) => ({ name, value }));
    const document =
      files.document === undefined ? file('document', tinyPdf(randomUUID()), 'contract.pdf', 'application/pdf') : files.document;
    const reference = files.reference === undefined ? file('reference', pngPhoto(), 'face.png', 'image/png') : files.reference;
    if (document) parts.push(document);
    if (reference) parts.push(reference);
    return parts;
  };
  const createTx = (acct: Account, over: Record<string, string | null> = {}, files = {}, headers: Record<string, string> = {}) =>
    sendTo(stack.gatewayUrl, 'POST', '/api/transactions', { apiKey: acct.apiKey, parts: form(over, files), headers });
  const used = async (acct: Account) =>
    (await sendTo(stack.gatewayUrl, 'POST', '/api/auth/me', { apiKey: acct.apiKey })).body.monthly_used as number;
  const records = (acct: Account) => conn.collection('transactions').countDocuments({ owner_id: acct.userId });
  const objectCount = async () =>
    (await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS)).length +
    (await listKeys(objects.client, BUCKETS.BUCKET_REFERENCES)).length;

  it('the stored PDF has the recorded SHA-256 of the upload, and each signer’s stored token is the one in their mail', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'rest' });
    const pdf = tinyPdf('stored creation');
    const res = await createTx(
      acct,
      { signer_emails: `bob-${suffix}@example.com, carol-${suffix}@example.com` },
      { document: file('document', pdf, 'Lease.pdf', 'application/pdf') },
    );
    expect(res.status, res.text).toBe(201);
    const rec = await conn.collection('transactions').findOne({ _id: res.body.id });
    expect(rec!.document_sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    const chunks: Buffer[] = [];
    for await (const c of await objects.client.getObject(BUCKETS.BUCKET_DOCUMENTS, rec!.document_key)) chunks.push(c as Buffer);
    expect(createHash('sha256').update(Buffer.concat(chunks)).digest('hex')).toBe(rec!.document_sha256);
    const signers = rec!.signers as { email: string; token: string }[];
    expect(signers).toHaveLength(3);
    expect(signers[0]!.token).toBe(res.body.token);
    for (const { email, token } of signers) {
      const [mail] = await eventually(async () => {
        const m = await mailsTo(email);
        return m.length ? m : undefined;
      });
      const body = (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${mail!.ID}`)).json()) as { Text: string };
      expect(body.Text).toContain(`${stack.gatewayUrl}/sign/${token}`);
    }
  });

  describe('a refused creation leaves no object, record or used signature', () => {
    let acct: Account;
    beforeAll(async () => {
      acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'rest-bad' });
    });
    const cases: [string, () => Parameters<typeof createTx>, number][] = [
      ['a missing signer_name', () => [acct, { signer_name: null }], 400],
      ['a missing signer_email', () => [acct, { signer_email: null }], 400],
      ['a missing document', () => [acct, {}, { document: null }], 400],
      ['a missing reference', () => [acct, {}, { reference: null }], 400],
      [
        'a document that is not a PDF',
        () => [acct, {}, { document: file('document', Buffer.from('<html>not a pdf</html>'), 'x.pdf', 'application/pdf') }],
        400,
      ],
      [
        'a reference that is not JPEG or PNG',
        () => [acct, {}, { reference: file('reference', Buffer.from('GIF89a.....'), 'f.gif', 'image/gif') }],
        400,
      ],
      [
        'a reference that does not decode',
        () => [
          acct,
          {},
          { reference: file('reference', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0]), 'f.jpg', 'image/jpeg') },
        ],
        400,
      ],
      [
        'a reference over 10 MB',
        () => [
          acct,
          {},
          { reference: file('reference', Buffer.concat([jpegPhoto(), Buffer.alloc(10 * 1024 * 1024)]), 'f.jpg', 'image/jpeg') },
        ],
        400,
      ],
      ['a bad signer_email', () => [acct, { signer_email: 'ada at example' }], 400],
      ['a bad entry of signer_emails', () => [acct, { signer_emails: 'bob@example.com, not-an-email' }], 400],
      ['more than 4 additional signers', () => [acct, { signer_emails: 'a@x.io,b@x.io,c@x.io,d@x.io,e@x.io' }], 400],
      ['an unknown attestation_type', () => [acct, { attestation_type: 'notarise' }], 400],
      // Documents the ledger's sealer (pdf-lib) cannot open are refused at the door (issue 31).
      [
        'a document whose %PDF- header has no version',
        () => [acct, {}, { document: file('document', Buffer.from('%PDF-xxxx\n%%EOF\n'), 'x.pdf', 'application/pdf') }],
        400,
      ],
      [
        'a PDF cut to 100 bytes',
        () => [acct, {}, { document: file('document', onePagePdf('cut').subarray(0, 100), 'cut.pdf', 'application/pdf') }],
        400,
      ],
      [
        'an encrypted PDF',
        () => [
          acct,
          {},
          { document: file('document', encryptedPdf(onePagePdf('locked'), 'pw'), 'locked.pdf', 'application/pdf') },
        ],
        400,
      ],
      [
        // Over one 5 MB part: streamed to storage as a multipart upload, read back, refused, removed.
        'an encrypted PDF of 6 MB',
        () => [acct, {}, { document: file('document', largeEncryptedPdf(), 'big-locked.pdf', 'application/pdf') }],
        400,
      ],
      // Fields are placed once the document and photo are stored (issue 33): a refusal removes both.
      [
        'a field on a page the document does not have',
        () => [acct, { fields: JSON.stringify([{ type: 'text', signer: 0, page: 2, x: 10, y: 10, width: 50, height: 20 }]) }],
        400,
      ],
      [
        'a field whose anchor is not in the document',
        () => [acct, { fields: JSON.stringify([{ type: 'signature', signer: 0, anchor: '{{nope}}' }]) }],
        400,
      ],
      [
        'a document over 200 MB',
        () => [acct, {}, { document: file('document', bigPdf(200 * 1024 * 1024 + 1), 'big.pdf', 'application/pdf') }],
        413,
      ],
    ];
    it.each(cases)('%s', async (_name, args, status) => {
      const before = await objectCount();
      const res = await createTx(...args());
      expect(res.status, res.text).toBe(status);
      await eventually(async () => (await objectCount()) === before, 10_000);
      expect(await records(acct)).toBe(0);
      expect(await used(acct)).toBe(0);
    });
  });

  it('a client that goes away mid-upload (past the first stored part) leaves no object, record or used signature', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'rest-gone' });
    const before = await objectCount();
    const b = `----gone${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="signer_name"\r\n\r\nAda\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="signer_email"\r\n\r\ngone-${suffix}@example.com\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="document"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const u = new URL(stack.gatewayUrl);
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: u.hostname,
        port: u.port,
        path: '/api/transactions',
        method: 'POST',
        headers: {
          'x-api-key': acct.apiKey,
          'content-type': `multipart/form-data; boundary=${b}`,
          'content-length': String(head.length + 12 * 1024 * 1024),
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(head);
      // 8 MB of a declared 12 MB document: its first 5 MB part is stored before the client goes.
      req.write(Buffer.concat([onePagePdf('gone'), Buffer.alloc(8 * 1024 * 1024, 0x20)]), () =>
        setTimeout(() => req.destroy(), 500),
      );
    });
    await eventually(async () => (await objectCount()) === before, 10_000);
    expect(await records(acct)).toBe(0);
    expect(await used(acct)).toBe(0);
  });

  it('a creation refused for quota (402) leaves no object; an idempotent replay stores one record', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'rest-quota' });
    const key = randomUUID();
    const pdf = tinyPdf('idempotent');
    const fields = { signer_email: `idem-${suffix}@example.com` };
    const files = () => ({ document: file('document', pdf, 'a.pdf', 'application/pdf') });
    expect((await createTx(acct, fields, files(), { 'idempotency-key': key })).status).toBe(201);
    expect((await createTx(acct, fields, files(), { 'idempotency-key': key })).status).toBe(201);
    expect(await records(acct)).toBe(1);
    // Free plan: 3 a month.
    for (let i = 0; i < 2; i++) expect((await createTx(acct)).status).toBe(201);
    const before = await objectCount();
    const refused = await createTx(acct);
    expect(refused.status, refused.text).toBe(402);
    await eventually(async () => (await objectCount()) === before, 10_000);
    expect(await records(acct)).toBe(3);
    expect(await used(acct)).toBe(3);
  });
});
