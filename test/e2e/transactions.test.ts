import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigPdf, jpegPhoto, pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send as sendTo } from '../support/http.js';

const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` };

describe('/api/transactions through the gateway (real identity, billing, transaction, MinIO, FerretDB, NATS, Mailpit)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: { ...BUCKETS, REFERENCE_PREFIX: 'E2E' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const send = (
    method: string,
    path: string,
    auth: { apiKey?: string; token?: string } | null,
    init: { parts?: Part[]; headers?: Record<string, string> } = {},
  ) => sendTo(stack.gatewayUrl, method, path, { ...init, ...auth });

  const file = (
    name: string,
    data: Part extends infer P ? (P extends { data: infer D } ? D : never) : never,
    filename: string,
    contentType: string,
  ): Part => ({ name, data, filename, contentType });
  const form = (
    over: Record<string, string | null> = {},
    files: { document?: Part | null; reference?: Part | null } = {},
  ): Part[] => {
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
    send('POST', '/api/transactions', { apiKey: acct.apiKey }, { parts: form(over, files), headers });
  /** The signatures used this month, as the account's profile shows them. */
  const used = async (acct: Account) => (await send('POST', '/api/auth/me', { apiKey: acct.apiKey })).body.monthly_used as number;
  /** The account's transactions, as its list shows them. */
  const listed = async (acct: Account) => (await send('GET', '/api/transactions', { apiKey: acct.apiKey })).body as unknown[];

  async function mailsTo(address: string) {
    const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
    return ((await res.json()) as { messages?: { ID: string; Subject: string }[] }).messages ?? [];
  }
  async function mailBody(id: string) {
    return (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${id}`)).json()) as {
      Text: string;
      HTML: string;
      Subject: string;
    };
  }

  // What the stores hold after these requests (the PDF's bytes and hash at rest, each signer's stored
  // token, no object or record left by a refusal): services/transaction/test/gateway-uploads-at-rest.int.test.ts.
  it("creates a transaction: 201 with the creation result, the detail shows the PDF's SHA-256 and every signer, and every signer gets their own link by mail", async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Babbage & Co' });
    const pdf = tinyPdf('e2e creation');
    const extra = [`bob-${suffix}@example.com`, `carol-${suffix}@example.com`];
    const primary = `ada-${randomBytes(4).toString('hex')}@example.com`;
    const res = await createTx(
      acct,
      { signer_email: primary, signer_emails: extra.join(', '), attestation_type: 'approval' },
      {
        document: file('document', pdf, 'Lease <2026>.pdf', 'application/pdf'),
        reference: file('reference', jpegPhoto(), 'face.jpg', 'image/jpeg'),
      },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      reference: expect.stringMatching(/^E2E-TX-\d{8}$/),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/),
      sign_url: `${stack.gatewayUrl}/sign/${res.body.token}`,
      status: 'created',
      test: false,
    });
    const detail = await send('GET', `/api/transactions/${res.body.id}`, { apiKey: acct.apiKey });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.document_sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(await used(acct)).toBe(1);

    const addresses = (detail.body.signers as { email: string }[]).map((s) => s.email);
    expect(addresses).toEqual([primary, ...extra]);
    const tokens: string[] = [];
    for (const address of addresses) {
      const [mail] = await eventually(async () => {
        const m = await mailsTo(address);
        return m.length ? m : undefined;
      });
      const body = await mailBody(mail!.ID);
      const token = new RegExp(`${stack.gatewayUrl}/sign/([A-Za-z0-9_-]{43,})`).exec(body.Text)?.[1];
      expect(token, body.Text).toBeDefined();
      tokens.push(token!);
      const link = `${stack.gatewayUrl}/sign/${token}`;
      expect(body.Subject).toContain('Babbage & Co');
      expect(body.Text).toContain(link);
      expect(body.Text).toContain('Lease <2026>.pdf');
      expect(body.HTML).toContain(`href="${link}"`);
      expect(body.HTML).toContain('Babbage &#38; Co');
      expect(body.HTML).toContain('Lease &#60;2026&#62;.pdf');
    }
    // The first signer's link is the one the creation answered; each signer has their own.
    expect(tokens[0]).toBe(res.body.token);
    expect(new Set(tokens).size).toBe(3);
  });

  it('answers 401 without credentials', async () => {
    expect((await send('POST', '/api/transactions', null, { parts: form() })).status).toBe(401);
    expect((await send('GET', '/api/transactions', null)).status).toBe(401);
  });

  describe('each bad input gets its status, names the field, and leaves no transaction or quota behind', () => {
    let acct: Account;
    beforeAll(async () => {
      acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'bad' });
    });
    const cases: [string, () => Parameters<typeof createTx>, number, RegExp][] = [
      ['a missing signer_name', () => [acct, { signer_name: null }], 400, /signer_name/],
      ['a missing signer_email', () => [acct, { signer_email: null }], 400, /signer_email/],
      ['a missing document', () => [acct, {}, { document: null }], 400, /document: is required/],
      ['a missing reference', () => [acct, {}, { reference: null }], 400, /reference: is required/],
      [
        'a document that is not a PDF',
        () => [acct, {}, { document: file('document', Buffer.from('<html>not a pdf</html>'), 'x.pdf', 'application/pdf') }],
        400,
        /document: is not a PDF/,
      ],
      [
        'a reference that is not JPEG or PNG',
        () => [acct, {}, { reference: file('reference', Buffer.from('GIF89a.....'), 'f.gif', 'image/gif') }],
        400,
        /reference: must be a JPEG or PNG/,
      ],
      [
        'a reference that does not decode',
        () => [
          acct,
          {},
          { reference: file('reference', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0]), 'f.jpg', 'image/jpeg') },
        ],
        400,
        /reference: is not a decodable JPEG/,
      ],
      [
        'a reference over 10 MB',
        () => [
          acct,
          {},
          { reference: file('reference', Buffer.concat([jpegPhoto(), Buffer.alloc(10 * 1024 * 1024)]), 'f.jpg', 'image/jpeg') },
        ],
        400,
        /reference: must be at most 10 MB/,
      ],
      ['a bad signer_email', () => [acct, { signer_email: 'ada at example' }], 400, /signer_email/],
      ['a bad entry of signer_emails', () => [acct, { signer_emails: 'bob@example.com, not-an-email' }], 400, /signer_emails/],
      [
        'more than 4 additional signers',
        () => [acct, { signer_emails: 'a@x.io,b@x.io,c@x.io,d@x.io,e@x.io' }],
        400,
        /signer_emails: at most 4/,
      ],
      ['an unknown attestation_type', () => [acct, { attestation_type: 'notarise' }], 400, /attestation_type/],
      [
        'a document over 200 MB',
        () => [acct, {}, { document: file('document', bigPdf(200 * 1024 * 1024 + 1), 'big.pdf', 'application/pdf') }],
        413,
        /document: must be at most 200 MB/,
      ],
    ];
    it.each(cases)('%s', async (_name, args, status, detail) => {
      const res = await createTx(...args());
      expect(res.status, res.text).toBe(status);
      expect(res.body.detail).toMatch(detail);
      expect(await listed(acct)).toEqual([]);
      expect(await used(acct)).toBe(0);
    });
  });

  it('lists most recent first with a cursor, shows detail with signers and the event log, 404 for another owner or a non-numeric id; quota exhaustion → 402', async () => {
    const a = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'lister' });
    const b = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'other' });
    const made: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await createTx(a, { signer_name: `Signer ${i}` });
      expect(r.status, r.text).toBe(201);
      made.push(r.body.id);
    }
    // Free plan: 3 a month. The fourth is refused with 402 and leaves no transaction behind.
    const refused = await createTx(a);
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.detail).toEqual(expect.any(String));
    expect(await listed(a)).toHaveLength(3);
    expect(await used(a)).toBe(3);

    const list = await send('GET', '/api/transactions', { token: a.token });
    expect(list.status).toBe(200);
    expect(list.body.map((s: { id: number }) => s.id)).toEqual([...made].reverse());
    expect(list.body[0]).toMatchObject({
      signer_name: 'Signer 2',
      status: 'created',
      verification_mode: 'biometric',
      created_at: expect.stringMatching(/Z$/),
    });
    expect(list.body[0]).not.toHaveProperty('verified_at');
    const page1 = await send('GET', '/api/transactions?limit=2', { apiKey: a.apiKey });
    expect(page1.body.map((s: { id: number }) => s.id)).toEqual([made[2], made[1]]);
    const cursor = page1.headers.get('x-next-cursor')!;
    const page2 = await send('GET', `/api/transactions?limit=2&cursor=${cursor}`, { apiKey: a.apiKey });
    expect(page2.body.map((s: { id: number }) => s.id)).toEqual([made[0]]);
    expect(page2.headers.get('x-next-cursor')).toBeNull();
    expect((await send('GET', '/api/transactions?limit=0', { apiKey: a.apiKey })).status).toBe(400);
    expect((await send('GET', '/api/transactions', { apiKey: b.apiKey })).body).toEqual([]);

    const detail = await send('GET', `/api/transactions/${made[0]}`, { apiKey: a.apiKey });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: made[0],
      attestation_type: 'signature',
      signers: [{ index: 0, name: 'Signer 0', state: 'created', verification_mode: 'biometric', attempts_left: 3 }],
    });
    // the link is requested with the record and shown as mailed once the consumer has sent it
    await eventually(async () => {
      const d = await send('GET', `/api/transactions/${made[0]}`, { apiKey: a.apiKey });
      return d.body.events.some((e: { type: string }) => e.type === 'link_mailed');
    });
    const timeline = (await send('GET', `/api/transactions/${made[0]}`, { apiKey: a.apiKey })).body.events as {
      type: string;
      detail: string;
    }[];
    expect(timeline.map((e) => e.type)).toEqual(['created', 'link_requested', 'link_mailed']);
    expect(timeline[2]!.detail).toBe('signing link mailed to ' + detail.body.signers[0].email);
    for (const path of [
      `/api/transactions/${made[0]}`,
      `/api/transactions/${made[0]}/resend`,
      `/api/transactions/${made[0]}/cancel`,
    ]) {
      const r = await send(path.endsWith('d') || path.endsWith('l') ? 'POST' : 'GET', path, { apiKey: b.apiKey });
      expect(r.status, path).toBe(404);
    }
    expect((await send('GET', '/api/transactions/abc', { apiKey: a.apiKey })).status).toBe(404);
    expect((await send('GET', '/api/transactions/1e3', { apiKey: a.apiKey })).status).toBe(404);
    expect((await send('GET', '/api/transactions/999999', { apiKey: a.apiKey })).status).toBe(404);
  });

  it('resend: once a minute (429 beyond), logged; cancel: pending only (409 after), logged, links dead; resend on a cancelled one → 409', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'actions' });
    const created = await createTx(acct);
    const id = created.body.id as number;
    const signer = (await send('GET', `/api/transactions/${id}`, { apiKey: acct.apiKey })).body.signers[0].email as string;
    await eventually(async () => (await mailsTo(signer)).length === 1);
    const resent = await send('POST', `/api/transactions/${id}/resend`, { apiKey: acct.apiKey });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ id, status: 'created', token: created.body.token });
    await eventually(async () => (await mailsTo(signer)).length === 2);
    const again = await send('POST', `/api/transactions/${id}/resend`, { apiKey: acct.apiKey });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);

    const cancelled = await send('POST', `/api/transactions/${id}/cancel`, { token: acct.token });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: 'cancelled' });
    expect((await send('POST', `/api/transactions/${id}/cancel`, { apiKey: acct.apiKey })).status).toBe(409);
    expect((await send('POST', `/api/transactions/${id}/resend`, { apiKey: acct.apiKey })).status).toBe(409);
    // the stored log in order, and both mails (invitation and reminder) from their records
    const types = async () =>
      ((await send('GET', `/api/transactions/${id}`, { apiKey: acct.apiKey })).body.events as { type: string }[]).map(
        (e) => e.type,
      );
    await eventually(async () => (await types()).filter((t) => t === 'link_mailed').length === 2);
    expect((await types()).filter((t) => t !== 'link_mailed')).toEqual([
      'created',
      'link_requested',
      'link_resent',
      'cancelled',
      'status_changed',
    ]);
  });

  it('Idempotency-Key: a retried request returns the first result and creates nothing; a different body → 409', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'idem' });
    const key = randomUUID();
    const pdf = tinyPdf('idempotent');
    const files = () => ({ document: file('document', pdf, 'a.pdf', 'application/pdf') });
    const fields = { signer_email: `idem-${suffix}@example.com` };
    const first = await createTx(acct, fields, files(), { 'idempotency-key': key });
    expect(first.status, first.text).toBe(201);
    const second = await createTx(acct, fields, files(), { 'idempotency-key': key });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const different = await createTx(acct, { ...fields, signer_name: 'Someone Else' }, files(), { 'idempotency-key': key });
    expect(different.status).toBe(409);
    expect(await listed(acct)).toHaveLength(1);
    expect(await used(acct)).toBe(1);
  });

  it('exports CSV (RFC 4180, ISO 8601 UTC) and neutralises a formula-looking signer name', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'csv' });
    const a = await createTx(acct, { signer_name: '=HYPERLINK("http://evil.example","click")' });
    const b = await createTx(acct, { signer_name: 'Plain, Name' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const res = await send('GET', '/api/transactions/export.csv', { apiKey: acct.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('reference,signer,email,status,created,verified');
    expect(lines).toHaveLength(4); // header, two rows, trailing empty
    expect(lines[1]).toMatch(
      new RegExp(`^${b.body.reference},"Plain, Name",[^,]+,created,\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z,$`),
    );
    expect(lines[2]).toContain(`${a.body.reference},"'=HYPERLINK(""http://evil.example"",""click"")",`);
    expect((await send('GET', '/api/transactions/export.csv', null)).status).toBe(401);
  });
});
