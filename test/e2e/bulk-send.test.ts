/**
 * Bulk send (issue 33 item 4), through the gateway only, on real identity, billing and transaction:
 * a template's roles mapped to signers by the rows of a CSV or a JSON upload. A missing column is a
 * 400 and stores nothing; a row with an invalid e-mail is failed with its reason and the others are
 * sent; a retried upload under the same Idempotency-Key creates nothing twice (and another upload
 * under it is a 409); when the quota runs out mid-job the rest is not sent and each such row says
 * why; another owner's job (and the other mode's) is 404; the job's end is one bulk.completed webhook.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto } from '../fixtures/documents.js';
import { pdfWithText } from '../fixtures/fields.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send, type Reply } from '../support/http.js';
import { answering, webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const suffix = randomBytes(3).toString('hex');
const buckets = { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` };
const email = (who: string) => `${who}-${suffix}@example.com`;
type Who = { apiKey: string };
type Job = {
  id: string;
  state: string;
  rows: number;
  pending: number;
  created: number;
  failed: number;
  not_sent: number;
  results: { row: number; status: string; reason?: string; transaction_id?: number; reference?: string }[];
};

describe('bulk send: a template to many signers, by CSV or JSON', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let other: Account;
  let test: Who;
  let live: Who;
  let receiver: WebhookReceiver;

  const call = (who: Who, method: string, path: string, init: Parameters<typeof send>[3] = {}): Promise<Reply> =>
    send(stack.gatewayUrl, method, path, { ...init, ...who });
  const csv = (who: Who, tpl: string, text: string, headers: Record<string, string> = {}) =>
    call(who, 'POST', `/api/templates/${tpl}/bulk`, { raw: { data: Buffer.from(text), contentType: 'text/csv' }, headers });

  async function newTestKey(a: Account): Promise<string> {
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: a.token })).body.csrf as string;
    const r = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: a.token,
      json: { name: 'sandbox', mode: 'test' },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.key as string;
  }

  /** A template with a client (liveness only) and a witness (face match), and a text field the client fills. */
  async function template(who: Who, witness: 'face_match' | 'liveness_only' = 'liveness_only'): Promise<string> {
    const r = await call(who, 'POST', '/api/templates', {
      parts: [
        { name: 'name', value: 'NDA' },
        {
          name: 'roles',
          value: JSON.stringify([
            { name: 'client', verification: 'liveness_only' },
            { name: 'witness', verification: witness },
          ]),
        },
        {
          name: 'fields',
          value: JSON.stringify([
            { id: 'company', type: 'text', role: 'client', required: false, page: 1, x: 50, y: 50, width: 150, height: 20 },
          ]),
        },
        {
          name: 'document',
          data: pdfWithText([[{ x: 72, y: 720, size: 18, text: `NDA ${randomUUID()}` }]]),
          filename: 'nda.pdf',
          contentType: 'application/pdf',
        },
      ],
    });
    expect(r.status, r.text).toBe(201);
    return r.body.id as string;
  }

  const finished = (who: Who, id: string) =>
    eventually(async () => {
      const r = await call(who, 'GET', `/api/bulk/${id}`);
      expect(r.status, r.text).toBe(200);
      return r.body.state === 'completed' ? (r.body as Job) : undefined;
    }, 60_000);

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        ...buckets,
        REFERENCE_FACE_CHECK: 'off',
        BULK_ROWS_PER_SECOND: '20',
        BULK_INTERVAL_MS: '300',
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
        WEBHOOK_POLL_MS: '100',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
    other = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'other' });
    live = { apiKey: acct.apiKey };
    test = { apiKey: await newTestKey(acct) };
    receiver = await webhookReceiver(answering(204));
    const ep = await call(test, 'POST', '/api/webhook-endpoints', {
      json: { url: receiver.url, event_types: ['bulk.completed'] },
    });
    expect(ep.status, ep.text).toBe(201);
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('CSV: every good row becomes a transaction with its signers and prefilled value; a bad e-mail fails only its row', async () => {
    const tpl = await template(test);
    const rows = [
      `Ada,${email('ada')},Wit One,${email('w1')},ACME`,
      `Bob,not-an-email,Wit Two,${email('w2')},Globex`,
      `"Lovelace, Ada",${email('ada2')},Wit Three,${email('w3')},"Initech ""EU"""`,
    ];
    const r = await csv(
      test,
      tpl,
      `client_name,client_email,witness_name,witness_email,value_company\r\n${rows.join('\r\n')}\r\n`,
    );
    expect(r.status, r.text).toBe(202);
    expect(r.headers.get('location')).toBe(`/api/bulk/${r.body.id}`);
    expect(r.body).toMatchObject({ rows: 3, failed: 1, test: true });
    expect(r.body.results[1]).toMatchObject({
      row: 1,
      status: 'failed',
      reason: expect.stringMatching(/^client_email: "not-an-email"/),
    });

    const job = await finished(test, r.body.id);
    expect(job).toMatchObject({ rows: 3, created: 2, failed: 1, not_sent: 0, pending: 0 });
    const made = job.results.filter((x) => x.status === 'created');
    expect(made.map((x) => x.row)).toEqual([0, 2]);
    const detail = await call(test, 'GET', `/api/transactions/${made[1]!.transaction_id}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.signers.map((s: { name: string; email: string }) => [s.name, s.email])).toEqual([
      ['Lovelace, Ada', email('ada2')],
      ['Wit Three', email('w3')],
    ]);
    expect(detail.body.reference).toBe(made[1]!.reference);
    // The client's link was mailed (the witness signs in the same order here: both).
    await eventually(async () => {
      const m = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${email('ada2')}"`)}`);
      return ((await m.json()) as { messages?: unknown[] }).messages?.length;
    }, 30_000);
    // One bulk.completed, with the counts and nobody's name or address.
    const hook = await eventually(async () => receiver.got.find((g) => g.body.includes(r.body.id)), 30_000);
    const body = JSON.parse(hook.body) as { type: string; data: { bulk_job: Record<string, unknown> } };
    expect(body.type).toBe('bulk.completed');
    expect(body.data.bulk_job).toMatchObject({ id: r.body.id, rows: 3, created: 2, failed: 1, not_sent: 0 });
    expect(hook.body).not.toContain('@example.com');
  });

  it('a CSV with a missing column, an unknown column or a role not in the template is a 400 and stores nothing', async () => {
    const tpl = await template(test);
    const before = (await call(test, 'GET', '/api/bulk?limit=100')).body.length as number;
    const cases: [string, RegExp][] = [
      [`client_name,client_email,witness_name\nAda,${email('x')},W\n`, /missing column witness_email/],
      [`client_name,client_email\nAda,${email('x')}\n`, /no row names a signer for the role "witness"/],
      [
        `client_name,client_email,witness_name,witness_email,company\nA,${email('x')},W,${email('y')},x\n`,
        /column "company" is neither/,
      ],
      [
        `client_name,client_email,boss_name,boss_email,witness_name,witness_email\nA,${email('a')},B,${email('b')},W,${email('w')}\n`,
        /"boss" is not a role/,
      ],
      [
        `client_name,client_email,witness_name,witness_email,value_nope\nA,${email('a')},W,${email('w')},x\n`,
        /"nope" is not a field/,
      ],
    ];
    for (const [text, detail] of cases) {
      const r = await csv(test, tpl, text);
      expect(r.status, r.text).toBe(400);
      expect(r.body.detail).toMatch(detail);
    }
    expect((await call(test, 'GET', '/api/bulk?limit=100')).body).toHaveLength(before);
    // A body of another type, and an unknown template.
    expect(
      (await call(test, 'POST', `/api/templates/${tpl}/bulk`, { raw: { data: Buffer.from('x'), contentType: 'text/plain' } }))
        .status,
    ).toBe(400);
    expect((await csv(test, 'tpl_nope', `client_name,client_email\nA,${email('a')}\n`)).status).toBe(404);
  });

  it('JSON with a face photo per witness (given once, used on every row); a retried upload creates nothing twice', async () => {
    const tpl = await template(test, 'face_match');
    const photo = pngPhoto().toString('base64');
    const upload = {
      rows: [1, 2, 3].map((n) => ({
        signers: {
          client: { name: `Client ${n}`, email: email(`c${n}`) },
          witness: { name: `Witness ${n}`, email: email(`wj${n}`), photo },
        },
        values: { company: `Co ${n}` },
      })),
    };
    const key = { 'Idempotency-Key': `bulk-${randomUUID()}` };
    const first = await call(test, 'POST', `/api/templates/${tpl}/bulk`, { json: upload, headers: key });
    expect(first.status, first.text).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call(test, 'POST', `/api/templates/${tpl}/bulk`, { json: upload, headers: key });
    expect(again.status, again.text).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const changed = { rows: [...upload.rows.slice(0, 2)] };
    const reused = await call(test, 'POST', `/api/templates/${tpl}/bulk`, { json: changed, headers: key });
    expect(reused.status, reused.text).toBe(409);

    const job = await finished(test, first.body.id);
    expect(job).toMatchObject({ rows: 3, created: 3, failed: 0 });
    // After it ended, the same upload still answers the same job and creates nothing.
    const late = await call(test, 'POST', `/api/templates/${tpl}/bulk`, { json: upload, headers: key });
    expect(late.body).toMatchObject({ id: first.body.id, state: 'completed', created: 3 });
    const ids = new Set(job.results.map((x) => x.transaction_id));
    expect(ids.size).toBe(3);
    const list = (await call(test, 'GET', '/api/transactions?limit=200')).body as { signer_email: string }[];
    for (const n of [1, 2, 3]) expect(list.filter((t) => t.signer_email === email(`c${n}`))).toHaveLength(1);
    // A face-match witness without a photo fails its row only.
    const noPhoto = {
      rows: [{ signers: { client: { name: 'C', email: email('np1') }, witness: { name: 'W', email: email('np2') } } }],
    };
    const r = await call(test, 'POST', `/api/templates/${tpl}/bulk`, { json: noPhoto });
    expect(r.status, r.text).toBe(202);
    expect(r.body.results[0]).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^witness_photo:/) });
  });

  it('the quota running out mid-job stops cleanly: the rest is not sent and each row says why', async () => {
    const tpl = await template(live);
    // Free plan: 3 signatures a month.
    const lines = [1, 2, 3, 4, 5].map((n) => `C${n},${email(`q${n}`)},W${n},${email(`qw${n}`)}`);
    const r = await csv(live, tpl, `client_name,client_email,witness_name,witness_email\n${lines.join('\n')}\n`);
    expect(r.status, r.text).toBe(202);
    const job = await finished(live, r.body.id);
    expect(job).toMatchObject({ rows: 5, created: 3, not_sent: 2, failed: 0 });
    // Rows are created a few at a time: which three got the quota may vary, each row says what became of it.
    const notSent = job.results.filter((x) => x.status === 'not_sent');
    expect(notSent).toHaveLength(2);
    for (const x of notSent) expect(x.reason).toMatch(/quota .* credits ran out/);
    expect(job.results.filter((x) => x.status === 'created' && x.transaction_id)).toHaveLength(3);
    const usage = await send(stack.gatewayUrl, 'GET', '/api/transactions?limit=200', live);
    expect(usage.body).toHaveLength(3);
  });

  it("another owner's job, and a job of the other mode, are 404; the list shows only the caller's own", async () => {
    const tpl = await template(test);
    const r = await csv(test, tpl, `client_name,client_email,witness_name,witness_email\nA,${email('o1')},W,${email('o2')}\n`);
    expect(r.status, r.text).toBe(202);
    const stranger = { apiKey: other.apiKey };
    expect((await call(stranger, 'GET', `/api/bulk/${r.body.id}`)).status).toBe(404);
    expect((await call(live, 'GET', `/api/bulk/${r.body.id}`)).status).toBe(404);
    expect((await call(stranger, 'GET', '/api/bulk/bj_unknown')).status).toBe(404);
    expect((await call(stranger, 'GET', '/api/bulk')).body).toEqual([]);
    expect(((await call(test, 'GET', '/api/bulk')).body as { id: string }[]).map((j) => j.id)).toContain(r.body.id);
    // Another owner's template cannot be sent from.
    expect(
      (await csv(stranger, tpl, `client_name,client_email,witness_name,witness_email\nA,${email('s1')},W,${email('s2')}\n`))
        .status,
    ).toBe(404);
  });
});
